# swe-bench/test_swebench.py: each runner's log read test by test as SWE-bench reads it, one pytest
# case per FAIL_TO_PASS/PASS_TO_PASS test, and an edited runner passes nothing. The canary's
# checks of ctest, cargo test, surefire and go test (runner_canary.py) on the output an honest
# run and a forged one give (test_swebench_multilingual and toolchainTampering run them for real).
import importlib.util
import json
import shutil
import subprocess
import sys
import xml.etree.ElementTree

import pytest

from conftest import install


def write_spec(ws, initial, log, tests, command=("python3", "tests/runtests.py"), runner="tests/runtests.py"):
    ids = [t.replace("/", "_") for t in tests]  # the converter's caseParam for these names
    (ws / ".swebench" / "spec.json").write_text(json.dumps({
        "instance_id": "x", "log": log, "command": list(command), "env": {}, "runner": runner,
        "tests": tests, "timeoutSec": 60, "initial": str(initial), "ids": ids}))


@pytest.fixture
def grader(tmp_path):
    """The grader module, imported from a workspace as the verifier has it (its parsers)."""
    install("swe-bench/runner_canary.py", tmp_path / ".swebench" / "runner_canary.py")
    path = install("swe-bench/test_swebench.py", tmp_path / ".swebench" / "test_swebench.py")
    write_spec(tmp_path, tmp_path, "django", [])
    spec = importlib.util.spec_from_file_location("swebench_grader", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_reads_django_lines_with_docstrings_skips_and_errors(grader):
    log = "\n".join([
        "test_a (app.tests.T) ... ok", "test_b (app.tests.T) ... FAIL", "test_c (app.tests.T)", "A docstring line ... ok",
        "test_d (app.tests.T) ... skipped 'no db'", "test_e (app.tests.T) ... ERROR", "test_f (app.tests.T) ... expected failure",
        "test_g (app.tests.T) ... unexpected success"])
    assert grader.parse_django(log) == {
        "test_a (app.tests.T)": "passed", "test_b (app.tests.T)": "failed", "A docstring line": "passed",
        "test_d (app.tests.T)": "skipped", "test_e (app.tests.T)": "failed", "test_f (app.tests.T)": "passed", "test_g (app.tests.T)": "failed"}


def test_reads_sympy_verbose_lines(grader):
    assert grader.parse_sympy("test_expand ok\ntest_simplify F\n  test_err E\ntest_xfail f\ntest_skip s\ntest_slow w\nnoise ok") == {
        "test_expand": "passed", "test_simplify": "failed", "test_err": "failed", "test_xfail": "failed", "test_skip": "skipped", "test_slow": "skipped"}


def test_reads_tap_with_escapes_skips_and_nesting(grader):
    log = "ok 1 - adds\nnot ok 2 - subtracts\n    ok 1 - nested \\# one\nok 3 - later # SKIP not now\nok 4 - back\\\\slash # TODO\n"
    assert grader.parse_tap(log) == {"adds": "passed", "subtracts": "failed", "nested # one": "passed", "later": "skipped", "back\\slash": "skipped"}


RUNNER = """import sys
print("test_a (app.tests.T) ... ok", file=sys.stderr)
print("test_b (app.tests.T) ... FAIL", file=sys.stderr)
sys.exit(1)
"""


def case_statuses(ws):
    """Each case's outcome in the grader's JUnit report, as the tests evaluator reads it."""
    report = ws / "report.xml"
    subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", ".swebench/test_swebench.py", "--junitxml=" + str(report)],
                   cwd=ws, capture_output=True, text=True, timeout=120)
    cases = xml.etree.ElementTree.parse(report).iter("testcase")
    return {c.get("name"): "failed" if c.find("failure") is not None or c.find("error") is not None else "passed" for c in cases}


def test_runs_the_runner_once_and_grades_each_test_as_its_own_case(tmp_path):
    ws, initial = tmp_path / "ws", tmp_path / "initial"
    (ws / "tests").mkdir(parents=True)
    (ws / "tests" / "runtests.py").write_text(RUNNER)
    shutil.copytree(ws, initial)
    install("swe-bench/runner_canary.py", ws / ".swebench" / "runner_canary.py")
    install("swe-bench/test_swebench.py", ws / ".swebench" / "test_swebench.py")
    tests = ["test_a (app.tests.T)", "test_b (app.tests.T)", "test_z (app.tests.T)"]
    write_spec(ws, initial, "django", tests)
    assert case_statuses(ws) == {
        "test_result[test_a (app.tests.T)]": "passed", "test_result[test_b (app.tests.T)]": "failed", "test_result[test_z (app.tests.T)]": "failed"}


def test_an_edited_runner_passes_nothing(tmp_path):
    ws, initial = tmp_path / "ws", tmp_path / "initial"
    (ws / "tests").mkdir(parents=True)
    (ws / "tests" / "runtests.py").write_text(RUNNER)
    shutil.copytree(ws, initial)
    (ws / "tests" / "runtests.py").write_text('print("test_b (app.tests.T) ... ok")\n')
    install("swe-bench/runner_canary.py", ws / ".swebench" / "runner_canary.py")
    install("swe-bench/test_swebench.py", ws / ".swebench" / "test_swebench.py")
    write_spec(ws, initial, "django", ["test_b (app.tests.T)"])
    assert case_statuses(ws) == {"test_result[test_b (app.tests.T)]": "failed"}
