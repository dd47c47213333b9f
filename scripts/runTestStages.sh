#!/usr/bin/env bash
# Runs npm test scripts one after another, each to the end even when an earlier one fails,
# each writing mocha's JSON report (through test/support/specAndJsonReporter.cjs, the
# project's mocha reporter) to RESULTS/<script>.json; then sums the reports into one closing
# line, `tests: N passed, N failed`, and exits non-zero if any test failed or any
# script ended without a report (e.g. its pretest failed) or with an error mocha did not count.
#   usage: scripts/runTestStages.sh RESULTS_DIR SCRIPT...   (run from the package's folder)
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
results="$1"; shift
mkdir -p "$results"
results="$(cd "$results" && pwd)"
for script in "$@"; do
  file="$results/${script//[^A-Za-z0-9_.-]/_}"
  rm -f "$file.json" "$file.exit"
  printf '\n=== %s ===\n' "npm run $script" >&2
  # No colour codes: the log is read by people in files and by CI line by line.
  npm run "$script" -- --no-color --reporter-option "json=$file.json"
  echo $? >"$file.exit"
done
exec node "$here/testSummary.cjs" "$results" "$@"
