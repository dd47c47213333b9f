#!/bin/sh
# pwp: an IDE-Bench task graded by its own test script, counting only the tests the task's change
# makes pass. Run from /workspace as `sh .pwp-idebench/run-tests.sh <mode> <script> <task id>
# <folder> <pytest options…>`:
# 1. base_run.py runs the script on the repository as it was before the agent (the verifier's copy
#    of the initial workspace with the task's hidden files) and prints the ids of the tests that
#    pass there; the agent's code never runs in that copy;
# 2. the script runs on the agent's workspace, from <folder> (the task's compose working_dir),
#    with TASK_ID the task's folder name. <mode> `pytest`: pytest's report options through
#    PYTEST_ADDOPTS, and the ids that passed on the base handed to the task folder's conftest.py
#    (conftest_hook.py), which deselects them. <mode> `exit` (tests pytest does not run, one case:
#    the script's exit status): a script that already passes on the base leaves nothing the change
#    makes pass, and fails here saying so.
# `uv run` (IDE-Bench scripts call `uv run --no-project pytest`) is the uv shim beside this file.
# Copied by host/converters/ideBench.ts to a task's hidden/workspace/.pwp-idebench/.
mode="$1"; script="$2"; task="$3"; folder="$4"; shift 4
here=$(cd "$(dirname "$0")" && pwd)
ws=$(dirname "$here")
shims=$(mktemp -d) || exit 1
cp "$here/uv" "$shims/uv" && chmod 755 "$shims/uv" || exit 1
# -I: nothing of the workspace (or of its environment) on its path; it imports the image's standard library only.
passed=$(env -u PWP_CANARY_DIR PATH="$shims:/usr/local/bin:/usr/bin:/bin" /usr/bin/python3 -I "$here/base_run.py" "$mode" "$script" "$task" "$folder") || exit 3
cd "$ws/$folder" || exit 1
if [ "$mode" = exit ]; then
  if [ "$passed" != "[]" ]; then
    echo "pwp: the task's test script already passes on the base: the task's change makes no test pass, so nothing counts" >&2
    exit 1
  fi
  PATH="$shims:$PATH" TASK_ID="$task" exec bash "$ws/$script" "$task"
fi
PATH="$shims:$PATH" PWP_IDEBENCH_BASE_PASSED="$passed" PYTEST_ADDOPTS="$*" TASK_ID="$task" exec bash "$ws/$script" "$task"
