# idebench/: an IDE-Bench task graded by its own test script, counting only the tests the task's
# change makes pass. "idebench/run-tests.sh" runs "idebench/base_run.py" on a copy of the initial
# workspace (with the hidden files), where "idebench/conftest_hook.py" records the outcomes, then
# the script on the agent's workspace with the base's passing tests deselected; "idebench/uv"
# stands in for `uv run`. A synthetic task in IDE-Arena's shape: a "build" step the task's own
# script does and the repository's run_tests.sh does not, a base test and a task test that pass
# before any change, the script run from the compose file's working_dir.
import importlib.util
import json
import os
import shutil
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


def make_task(tmp_path, code, base=BASE):
    initial = tmp_path / "initial"
    (initial / "project").mkdir(parents=True)
    (initial / "project/gauge.py").write_text(base)
    (initial / "tests/base").mkdir(parents=True)
    (initial / "tests/base/test_env.py").write_text("def test_python():\n    assert True\n")
    hidden = tmp_path / "hidden"
    (hidden / "tasks/task-1").mkdir(parents=True)
    (hidden / "tasks/task-1/run-tests.sh").write_text(SCRIPT)
    (hidden / "tasks/task-1/task_tests.py").write_text(TESTS)
    install("idebench/conftest_hook.py", hidden / "tasks/task-1/conftest.py")
    for rel in ("idebench/run-tests.sh", "idebench/base_run.py", "idebench/uv"):
        install(rel, hidden / ".pwp-idebench" / os.path.basename(rel))
    ws = tmp_path / "workspace"
    shutil.copytree(initial, ws)
    shutil.copytree(hidden, ws, dirs_exist_ok=True)
    (ws / "project/gauge.py").write_text(code)
    return ws, initial, hidden


def grade(tmp_path, code, base=BASE):
    ws, initial, hidden = make_task(tmp_path, code, base)
    report = tmp_path / "report.xml"
    env = dict(os.environ, PWP_IDEBENCH_INITIAL=str(initial), PWP_IDEBENCH_HIDDEN=str(hidden))
    r = subprocess.run(["sh", ".pwp-idebench/run-tests.sh", "pytest", "tasks/task-1/run-tests.sh", "task-1", "project",
                        "--junitxml=" + str(report), "-o", "junit_family=xunit1", "-p", "no:cacheprovider"],
                       cwd=ws, env=env, capture_output=True, text=True, timeout=120)
    cases = {}
    if report.exists():
        for c in ET.parse(report).getroot().iter("testcase"):
            cases[c.get("name")] = "failed" if any(x.tag in ("failure", "error") for x in c) else "skipped" if any(x.tag == "skipped" for x in c) else "passed"
    return r, cases


def test_counts_only_the_tests_the_change_makes_pass(tmp_path):
    r, cases = grade(tmp_path / "gold", GOLD)
    assert cases == {"test_clamp_low": "passed", "test_clamp_high": "passed"}, r.stdout + r.stderr
    assert r.returncode == 0
    assert "3 of 5 tests pass on the base and are not counted" in r.stderr
    assert "tasks/task-1/task_tests.py::test_defines_clamp" in r.stderr and "tests/base/test_env.py::test_python" in r.stderr


def test_doing_nothing_passes_none_of_them(tmp_path):
    r, cases = grade(tmp_path / "null", BASE)
    assert cases == {"test_clamp_low": "failed", "test_clamp_high": "failed"}, r.stdout + r.stderr
    assert r.returncode != 0


def test_the_build_step_of_the_task_script_counts_when_the_base_lacks_it(tmp_path):
    # On the base the build folder does not exist until the task's script makes it: its test
    # passes there too (the script built it), so it is not counted; a script that did not build
    # (run_tests.sh) would fail it both ways.
    r, _ = grade(tmp_path, GOLD)
    assert "test_built_limit" in r.stderr


def test_the_base_copy_reads_workspace_as_its_own_folder(tmp_path, monkeypatch):
    initial = tmp_path / "initial"
    initial.mkdir()
    (initial / "a.txt").write_text("x")
    hidden = tmp_path / "hidden"
    (hidden / "tasks/t").mkdir(parents=True)
    (hidden / "tasks/t/run.sh").write_text("cd /workspace/project; ls /workspaces /workspace.d\n")
    (hidden / ".pwp-idebench").mkdir()
    (hidden / ".pwp-idebench/base_run.py").write_text("/workspace")
    monkeypatch.setenv("PWP_IDEBENCH_INITIAL", str(initial))
    monkeypatch.setenv("PWP_IDEBENCH_HIDDEN", str(hidden))
    spec = importlib.util.spec_from_file_location("base_run", install("idebench/base_run.py", tmp_path / "base_run.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    base = mod.make_base(str(tmp_path / "copy"))
    assert open(os.path.join(base, "tasks/t/run.sh")).read() == "cd %s/project; ls /workspaces /workspace.d\n" % base
    assert not os.path.exists(os.path.join(base, ".pwp-idebench")), "the grader's own files stay out of the copy"
    assert open(os.path.join(base, "a.txt")).read() == "x"


def test_uv_run_runs_the_command_itself(graders, tmp_path):
    uv = install("idebench/uv", tmp_path / "uv")
    r = subprocess.run(["sh", str(uv), "run", "--no-project", "--with", "pytest", "echo", "ran", "-q"], capture_output=True, text=True)
    assert (r.returncode, r.stdout) == (0, "ran -q\n")
    r = subprocess.run(["sh", str(uv), "pip", "install", "x"], capture_output=True, text=True)
    assert r.returncode == 127 and "only 'uv run'" in r.stderr


def test_every_test_passing_on_the_base_leaves_nothing_to_count(tmp_path):
    r, cases = grade(tmp_path, GOLD, base=GOLD)
    assert cases == {}, cases
    assert "every test (5) already passes on the base" in r.stderr


EXIT_SCRIPT = "#!/usr/bin/env bash\ncd /workspace/project\n/usr/bin/python3 -c 'import gauge, sys; sys.exit(0 if gauge.clamp(5, 0, 3) == 3 else 1)'\n"


def grade_by_exit(tmp_path, code, base=BASE):
    """A task whose tests pytest does not run: its script's exit status, through the base run."""
    ws, initial, hidden = make_task(tmp_path, code, base)
    for d in (hidden, ws):
        (d / "tasks/task-1/run-tests.sh").write_text(EXIT_SCRIPT)
        (d / "tasks/task-1/conftest.py").unlink()
    env = dict(os.environ, PWP_IDEBENCH_INITIAL=str(initial), PWP_IDEBENCH_HIDDEN=str(hidden))
    return subprocess.run(["sh", ".pwp-idebench/run-tests.sh", "exit", "tasks/task-1/run-tests.sh", "task-1", "project"],
                          cwd=ws, env=env, capture_output=True, text=True, timeout=120)


def test_a_script_graded_by_its_exit_status_counts_only_when_it_fails_on_the_base(tmp_path):
    gold = grade_by_exit(tmp_path / "gold", GOLD)
    assert gold.returncode == 0 and "the test script fails on the base (exit code 1)" in gold.stderr, gold.stderr
    assert grade_by_exit(tmp_path / "null", BASE).returncode != 0
    # The base already passing: the change makes nothing pass, so even the gold patch does not count.
    both = grade_by_exit(tmp_path / "both", GOLD, base=GOLD)
    assert both.returncode == 1 and "already passes on the base: the task's change makes no test pass" in both.stderr, both.stderr
