# idebench/run-tests.sh: IDE-Bench's run_tests.sh gets only the task id; the report options after
# it reach pytest through PYTEST_ADDOPTS, and TASK_ID is set as its compose file sets it.
import subprocess


def test_passes_the_task_id_and_the_pytest_options(graders, tmp_path):
    (tmp_path / "run_tests.sh").write_text('echo "args=$*"\necho "addopts=$PYTEST_ADDOPTS"\necho "task=$TASK_ID"\nexit 3\n')
    r = subprocess.run(["sh", str(graders / "idebench/run-tests.sh"), "run_tests.sh", "task-1", "--junitxml=/tmp/r.xml", "-o", "junit_family=xunit1"],
                       cwd=tmp_path, capture_output=True, text=True)
    assert r.stdout.splitlines() == ["args=task-1", "addopts=--junitxml=/tmp/r.xml -o junit_family=xunit1", "task=task-1"]
    assert r.returncode == 3, "the script's exit code is the wrapper's"
