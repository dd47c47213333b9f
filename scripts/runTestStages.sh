#!/usr/bin/env bash
# Runs npm test scripts one after another, each to the end even when an earlier one fails,
# each writing mocha's JSON report (through test/support/specAndJsonReporter.cjs, the
# project's mocha reporter) to RESULTS/<script>.json; then sums the reports into one closing
# line, `tests: N passed, N failed`, and exits non-zero if any test failed or any
# script ended without a report (e.g. its pretest failed) or with an error mocha did not count.
#   usage: scripts/runTestStages.sh RESULTS_DIR STAGE...   (run from the package's folder)
# A STAGE is a script, or scripts joined by `+` that run at the same time (`test:tasks+test:swarm`):
# their pre-scripts (set-up, build) first, one after another, as two builds at once would write
# the same files; then the scripts together. The first one's output is shown as it comes, the
# others' when they end, each under its own header.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
results="$1"; shift
mkdir -p "$results"
results="$(cd "$results" && pwd)"

base() { echo "$results/${1//[^A-Za-z0-9_.-]/_}"; }
has_script() { node -e 'process.exit(require("./package.json").scripts?.[process.argv[1]] ? 0 : 1)' "$1"; }

# run SCRIPT [npm option]: the script to its end, its exit status beside its report, each test
# file's wall time (test/support/fileTimes.cjs) beside that, and its output copied to
# RESULTS/<script>.log (the summary quotes its end when no report came: CI may keep only the
# tail of the whole output).
run() {
  local file; file="$(base "$1")"
  PWP_TEST_TIMES="$file.times" npm run "$1" ${2:-} -- --no-color --reporter-option "json=$file.json" 2>&1 | tee -a "$file.log"
  echo "${PIPESTATUS[0]}" >"$file.exit"
}

# What the machine did meanwhile (scripts/machineUse.cjs): CPU and pressure figures at both ends,
# and each container start, heard from the engine once a pre-script has started it (--since
# replays what came before the listener).
node "$here/machineUse.cjs" snapshot "$results/machine.start.json"
rm -f "$results/machine.end.json"
: >"$results/containers.log"
began=$(date +%s)
( until docker info >/dev/null 2>&1; do sleep 5; done
  exec docker events --since "$began" --filter type=container --filter event=start \
    --format '{{index .Actor.Attributes "pwp.environment"}}|{{index .Actor.Attributes "pwp.verifier"}}|{{.Actor.Attributes.image}}' ) \
  >>"$results/containers.log" 2>/dev/null &
listener=$!

all=()
# How long each stage took (its pre-scripts included), printed at its end: where CI's time goes.
took() { printf '\n=== %s took %d s ===\n' "$1" "$((SECONDS - $2))" >&2; }
for stage in "$@"; do
  IFS='+' read -ra scripts <<<"$stage"
  since=$SECONDS
  for s in "${scripts[@]}"; do rm -f "$(base "$s").json" "$(base "$s").exit" "$(base "$s").log" "$(base "$s").times"; all+=("$s"); done
  if [ "${#scripts[@]}" -eq 1 ]; then
    printf '\n=== %s ===\n' "npm run ${scripts[0]}" >&2
    run "${scripts[0]}"
    took "npm run ${scripts[0]}" "$since"
    continue
  fi
  together=()
  for s in "${scripts[@]}"; do
    if has_script "pre$s"; then
      printf '\n=== %s ===\n' "npm run pre$s" >&2
      # A failed pre-script leaves its script without a report, which fails the run below.
      npm run "pre$s" 2>&1 | tee -a "$(base "$s").log"
      status="${PIPESTATUS[0]}"
      [ "$status" -eq 0 ] || { echo "$status" >"$(base "$s").exit"; continue; }
    fi
    together+=("$s")
  done
  [ "${#together[@]}" -eq 0 ] && continue
  pids=()
  # Where each beside script's own output starts in its log, after its pre-script's (shown already).
  declare -A from=()
  for s in "${together[@]:1}"; do
    from[$s]=$(( $(stat -c %s "$(base "$s").log" 2>/dev/null || echo 0) + 1 ))
    ( run "$s" --ignore-scripts >/dev/null ) &
    pids+=($!)
  done
  printf '\n=== %s ===\n' "npm run ${together[0]} (beside: ${together[*]:1})" >&2
  run "${together[0]}" --ignore-scripts
  for i in "${!pids[@]}"; do
    wait "${pids[$i]}"
    s="${together[$((i + 1))]}"
    printf '\n=== %s ===\n' "npm run $s (ran beside ${together[0]})" >&2
    tail -c "+${from[$s]}" "$(base "$s").log"
  done
  took "npm run ${together[*]}" "$since"
done
node "$here/machineUse.cjs" snapshot "$results/machine.end.json"
pkill -P "$listener" 2>/dev/null; kill "$listener" 2>/dev/null
# What the stages left on the engine (containers and networks of pwp processes that have ended),
# for the record: `pwp gc` removes them. Listed, not failed on: a leak's owner label (host, pid,
# start) is the lead to follow.
if [ "${PWP_REPORT_LEFTOVERS:-}" = 1 ]; then
  printf '\n=== left behind by the stages ===\n' >&2
  ./bin/pwp gc --dry-run >&2 || true
fi
exec node "$here/testSummary.cjs" "$results" "${all[@]}"
