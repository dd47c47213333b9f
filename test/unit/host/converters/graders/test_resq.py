# res-q/test_resq.py: RES-Q's test script must exit 0 and print the mark inserted before its
# sys.exit(0), run from the repository's root; new modules named like the standard library fail.
import json
import shutil

import pytest

from conftest import install, run_pytest

MARK = "0123456789abcdef0123456789abcdef"


@pytest.fixture
def repo(tmp_path):
    repo, initial = tmp_path / "repo", tmp_path / "initial"
    repo.mkdir()
    (repo / "lib.py").write_text("def answer():\n    return 42\n")
    shutil.copytree(repo, initial)
    install("res-q/test_resq.py", repo / ".resq" / "test_resq.py")
    (repo / ".resq" / "resq.json").write_text(json.dumps({"script": "resq_test_script.py", "mark": MARK, "initial": str(initial)}))
    return repo


def script(repo, body):
    (repo / "resq_test_script.py").write_text("import sys\nfrom lib import answer\n" + body)
    return run_pytest(".resq/test_resq.py", repo)


def test_passes_when_the_script_reaches_its_end(repo):
    code, out = script(repo, "assert answer() == 42\nprint(%r)\nsys.exit(0)\n" % MARK)
    assert code == 0, out


def test_fails_when_the_script_fails(repo):
    code, out = script(repo, "assert answer() == 41\nprint(%r)\nsys.exit(0)\n" % MARK)
    assert code == 1 and "the test script failed" in out, out


def test_fails_when_the_script_ends_early_with_exit_code_0(repo):
    (repo / "lib.py").write_text("import sys\nsys.exit(0)\n")
    code, out = script(repo, "print(%r)\nsys.exit(0)\n" % MARK)
    assert code == 1 and "did not reach its end" in out, out


def test_fails_on_a_new_module_named_like_the_standard_library(repo):
    # csv: one pytest itself does not import from the root, so only the grader can refuse it.
    (repo / "csv.py").write_text("")
    code, out = script(repo, "print(%r)\nsys.exit(0)\n" % MARK)
    assert code == 1 and "new modules named like standard-library ones: csv.py" in out, out
    (repo.parent / "initial" / "csv.py").write_text("")
    code, out = script(repo, "print(%r)\nsys.exit(0)\n" % MARK)
    assert code == 0, "one the initial workspace had is not new: " + out
