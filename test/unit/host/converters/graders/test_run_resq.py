# res-q/run_resq.py with the verifier's launcher (pwp_script.py): RES-Q's test script must exit 0
# and print the run's mark, given on descriptor 3, from the line before its sys.exit(0); new
# modules named like the standard library fail; a deliverable that reads the script, its
# arguments or its environment finds no mark, and one that calls the end itself prints none.
import json
import pathlib
import shutil

import pytest

from conftest import install, run_with_mark

SCRIPTS = pathlib.Path(__file__).resolve().parents[5] / "host" / "evaluation" / "verifierScripts"
MARK = "pwp-mark-0123456789abcdef"


@pytest.fixture
def repo(tmp_path):
    repo, initial = tmp_path / "repo", tmp_path / "initial"
    repo.mkdir()
    (repo / "lib.py").write_text("def answer():\n    return 42\n")
    shutil.copytree(repo, initial)
    install("res-q/run_resq.py", repo / ".resq" / "run_resq.py")
    # The verifier's runner folder: the launcher, the equality check and what the agent wrote.
    runner = tmp_path / "runner"
    runner.mkdir()
    for name in ("pwp_script.py", "pwp_equality.py", "pwp_sealed.py", "pwp_sources.py"):
        shutil.copyfile(SCRIPTS / name, runner / name)
    (runner / "deliverable.json").write_text(json.dumps({str(repo / "lib.py"): "def answer():\n    return 42\n"}))
    (repo / ".resq" / "resq.json").write_text(json.dumps({"script": "resq_test_script.py", "initial": str(initial), "launcher": str(runner / "pwp_script.py")}))
    return repo


def run(repo, body):
    """The script as the verifier runs it: (exit code, stdout, stderr), the mark on descriptor 3."""
    (repo / "resq_test_script.py").write_text("import sys\nfrom lib import answer\n" + body)
    return run_with_mark(".resq/run_resq.py", repo, MARK)


END = "if answer() == 42:\n    _pwp_reached_end()\n    sys.exit(0)\nsys.exit(1)\n"


def test_passes_when_the_script_reaches_its_end(repo):
    code, out, err = run(repo, END)
    assert code == 0 and out.splitlines().count(MARK) == 1, out + err


def test_fails_when_the_script_fails(repo):
    code, out, err = run(repo, END.replace("42", "41"))
    assert code == 1 and MARK not in out, out + err


def test_no_mark_when_the_deliverable_ends_the_process_early(repo):
    (repo / "lib.py").write_text("import sys\nsys.exit(0)\n")
    code, out, err = run(repo, END)
    assert code == 0 and MARK not in out, out + err


def test_the_deliverable_finds_no_mark_and_cannot_call_the_end(repo):
    # It reads the script (sys.argv[0]), its command line, environment and descriptor 3,
    # and calls the end function itself, directly and from code compiled under the script's name.
    (repo / "lib.py").write_text(
        "import os, sys, __main__\n"
        "seen = open(sys.argv[0]).read() + open('/proc/self/cmdline').read() + repr(dict(os.environ))\n"
        "try:\n    seen += os.read(3, 100).decode()\nexcept OSError:\n    pass\n"
        "print('SEEN', %r in seen)\n"
        "__main__._pwp_reached_end()\n"
        "exec(compile('\\n\\n\\n_pwp_reached_end()', sys.argv[0], 'exec'), __main__.__dict__)\n"
        "sys.exit(0)\n" % MARK)
    code, out, err = run(repo, END)
    assert "SEEN False" in out and MARK not in out, out + err


def test_an_equality_answered_by_the_deliverable_fails_in_unittest_and_in_generators(repo):
    (repo / "lib.py").write_text("class S(str):\n    def __eq__(self, o):\n        return True\n    __hash__ = str.__hash__\n\n\ndef answer():\n    return S('x')\n")
    body = ("import unittest\n\nclass T(unittest.TestCase):\n    def test_it(self):\n        self.assertEqual(answer(), 'XLII')\n\n"
            "r = unittest.main(exit=False).result\nif r.wasSuccessful():\n    _pwp_reached_end()\n    sys.exit(0)\nsys.exit(1)\n")
    code, out, err = run(repo, body)
    assert code == 1 and "pwp: tampering suspected: an object of class S" in err, out + err
    code, out, err = run(repo, "if all(a == b for a, b in [(answer(), 'XLII')]):\n    _pwp_reached_end()\n    sys.exit(0)\nsys.exit(1)\n")
    assert code == 1 and "pwp: tampering suspected: an object of class S" in err, out + err


def test_fails_on_a_new_module_named_like_the_standard_library(repo):
    # csv: one the launcher does not import itself, so only the grader can refuse it.
    (repo / "csv.py").write_text("")
    code, out, err = run(repo, END)
    assert code == 1 and "new modules named like standard-library ones: csv.py" in out, out + err
    (repo.parent / "initial" / "csv.py").write_text("")
    code, out, err = run(repo, END)
    assert code == 0 and MARK in out, "one the initial workspace had is not new: " + out + err


def test_a_sealed_script_and_its_helper_come_from_the_descriptor(repo):
    # The runner seals the task's hidden Python files (root's alone: the deliverable would read the
    # script's expected values from sys.argv[0]) and gives their text on descriptor 4. Here (the
    # host's user may be root) the files on disk are decoys that fail: the run passes only if the
    # launcher took the script and the helper it imports from the descriptor, and the deliverable
    # finds neither the descriptor nor its variable.
    (repo / "lib.py").write_text(
        "import os\n"
        "print('VAR', 'PWP_SEALED_FD' in os.environ)\n"
        "try:\n    os.fstat(4)\n    print('FD4 open')\nexcept OSError:\n    print('FD4 closed')\n"
        "def answer():\n    return 42\n")
    (repo / "resq_test_script.py").write_text("import sys\nsys.exit(1)\n")
    (repo / "resq_helper.py").write_text("EXPECTED = 41\n")
    script = "import sys\nfrom lib import answer\nfrom resq_helper import EXPECTED\nif answer() == EXPECTED:\n    _pwp_reached_end()\n    sys.exit(0)\nsys.exit(1)\n"
    sealed = {str(repo / "resq_test_script.py"): script, str(repo / "resq_helper.py"): "EXPECTED = 42\n"}
    code, out, err = run_with_mark(".resq/run_resq.py", repo, MARK, sealed)
    assert code == 0 and out.splitlines().count(MARK) == 1, out + err
    assert "VAR False" in out and "FD4 closed" in out, out + err
    # Without the descriptor the launcher reads the files on disk: the decoy fails.
    code, out, err = run_with_mark(".resq/run_resq.py", repo, MARK)
    assert code == 1 and MARK not in out, out + err
