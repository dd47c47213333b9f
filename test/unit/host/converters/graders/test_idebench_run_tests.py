# idebench/: an IDE-Bench task's own test script run as IDE-Bench runs it. "idebench/run-tests.sh"
# runs the script from the task's compose working_dir with TASK_ID the task's folder and the
# verifier's pytest report options through PYTEST_ADDOPTS; "idebench/uv" stands in for `uv run`.
# Which tests count (those not passing on the base) is the verifier's base run
# (host/evaluation/baseRun.ts), tried for real in test/integration/ideBenchRunners.test.ts. A
# synthetic task in IDE-Arena's shape: a "build" step the task's own script does, a base test and
# task tests, the script run from the compose file's working_dir.
import os
import subprocess
import xml.etree.ElementTree as ET

from conftest import install

SCRIPT = """#!/usr/bin/env bash
set -euo pipefail
TASK_ID="${TASK_ID:-$(basename $(pwd))}"
mkdir -p build
echo "LIMIT = 10" > build/limits.py
cd ..
uv run --no-project pytest -q tests/base "tasks/${TASK_ID}/task_tests.py"
"""
TESTS = """import importlib.util


def load(path):
    spec = importlib.util.spec_from_file_location("m", path)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


def test_defines_clamp():
    assert "def clamp" in open("project/gauge.py").read()


def test_clamp_low():
    assert load("project/gauge.py").clamp(-5, 0, 10) == 0


def test_clamp_high():
    assert load("project/gauge.py").clamp(50, 0, 10) == 10


def test_built_limit():
    assert load("project/build/limits.py").LIMIT == 10
"""
BASE = "def clamp(x, lo, hi):\n    return x\n"
GOLD = "def clamp(x, lo, hi):\n    return max(lo, min(hi, x))\n"


def grade(tmp_path, code):
    """The wrapper as the verifier runs it, pytest's report options after the folder: (result, cases by name)."""
    ws = tmp_path / "workspace"
    (ws / "project").mkdir(parents=True)
    (ws / "project/gauge.py").write_text(code)
    (ws / "tests/base").mkdir(parents=True)
    (ws / "tests/base/test_env.py").write_text("def test_python():\n    assert True\n")
    (ws / "tasks/task-1").mkdir(parents=True)
    (ws / "tasks/task-1/run-tests.sh").write_text(SCRIPT)
    (ws / "tasks/task-1/task_tests.py").write_text(TESTS)
    for rel in ("idebench/run-tests.sh", "idebench/uv"):
        install(rel, ws / ".pwp-idebench" / os.path.basename(rel))
    report = tmp_path / "report.xml"
    r = subprocess.run(["sh", ".pwp-idebench/run-tests.sh", "tasks/task-1/run-tests.sh", "task-1", "project",
                        "--junitxml=" + str(report), "-o", "junit_family=xunit1", "-p", "no:cacheprovider"],
                       cwd=ws, env=dict(os.environ, TASK_ID="not-this-one"), capture_output=True, text=True, timeout=120)
    cases = {}
    if report.exists():
        for c in ET.parse(report).getroot().iter("testcase"):
            cases[c.get("name")] = "failed" if any(x.tag in ("failure", "error") for x in c) else "skipped" if any(x.tag == "skipped" for x in c) else "passed"
    return r, cases


def test_runs_the_task_script_from_its_folder_with_its_task_id_and_the_verifier_s_report(tmp_path):
    r, cases = grade(tmp_path / "gold", GOLD)
    # The script built in project/ (its working_dir), found its tests by TASK_ID, and pytest wrote the verifier's report.
    assert cases == {"test_python": "passed", "test_defines_clamp": "passed", "test_clamp_low": "passed", "test_clamp_high": "passed",
                     "test_built_limit": "passed"}, r.stdout + r.stderr
    assert r.returncode == 0
    r, cases = grade(tmp_path / "null", BASE)
    assert cases["test_clamp_low"] == "failed" and cases["test_python"] == "passed", cases
    assert r.returncode != 0


def test_uv_run_runs_the_command_itself(graders, tmp_path):
    uv = install("idebench/uv", tmp_path / "uv")
    r = subprocess.run(["sh", str(uv), "run", "--no-project", "--with", "pytest", "echo", "ran", "-q"], capture_output=True, text=True)
    assert (r.returncode, r.stdout) == (0, "ran -q\n")
    r = subprocess.run(["sh", str(uv), "pip", "install", "x"], capture_output=True, text=True)
    assert r.returncode == 127 and "only 'uv run'" in r.stderr
