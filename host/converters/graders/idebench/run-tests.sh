#!/bin/sh
# pwp: an IDE-Bench task's own test script, run as IDE-Bench runs it. From /workspace as
# `sh .pwp-idebench/run-tests.sh <script> <task id> <folder> <pytest options…>`: the script runs
# from <folder> (the task's compose working_dir) with TASK_ID the task's folder name, the
# verifier's pytest report options (after <folder>) reach the pytest it starts through
# PYTEST_ADDOPTS, and `uv run` (IDE-Bench scripts call `uv run --no-project pytest`) is the uv
# shim beside this file. The verifier runs it on the base and then on the agent's workspace and
# counts only the tests that do not pass on the base (the evaluator's countFailingOnBase).
# Copied by host/converters/ideBench.ts to a task's hidden/workspace/.pwp-idebench/.
script="$1"; task="$2"; folder="$3"; shift 3
here=$(cd "$(dirname "$0")" && pwd)
ws=$(dirname "$here")
shims=$(mktemp -d) || exit 1
cp "$here/uv" "$shims/uv" && chmod 755 "$shims/uv" || exit 1
cd "$ws/$folder" || exit 1
PATH="$shims:$PATH" PYTEST_ADDOPTS="$*" TASK_ID="$task" exec bash "$ws/$script" "$task"
