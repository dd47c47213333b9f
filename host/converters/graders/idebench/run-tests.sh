#!/bin/sh
# pwp: IDE-Bench's test script takes only the task id. pytest's report options (the arguments
# after script and id) reach pytest through PYTEST_ADDOPTS; TASK_ID as its compose file sets it.
# Copied by host/converters/ideBench.ts to a task's hidden/workspace/.pwp-idebench/run-tests.sh;
# the verifier runs `sh .pwp-idebench/run-tests.sh run_tests.sh <task id> <pytest options…>`.
script="$1"; task="$2"; shift 2
PYTEST_ADDOPTS="$*" TASK_ID="$task" exec bash "$script" "$task"
