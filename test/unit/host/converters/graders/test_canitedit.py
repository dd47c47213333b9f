# canitedit/run_canitedit.py with the verifier's launcher (pwp_script.py): the edited main.py with
# the row's tests appended, run as one script, must exit 0 and print the run's mark, given on
# descriptor 3, from the call at the script's end; a program that exits early, or reads its own
# script, arguments or environment for the mark, prints none.
import json
import pathlib
import shutil

import pytest

from conftest import install, run_with_mark

SCRIPTS = pathlib.Path(__file__).resolve().parents[5] / "host" / "evaluation" / "verifierScripts"
MARK = "pwp-mark-0123456789abcdef"
TESTS = "assert add(2, 3) == 5\nassert add(-1, 1) == 0\n"


@pytest.fixture
def ws(tmp_path):
    install("canitedit/run_canitedit.py", tmp_path / ".canitedit" / "run_canitedit.py")
    (tmp_path / ".canitedit" / "canitedit_tests.py").write_text(TESTS)
    runner = tmp_path.parent / (tmp_path.name + "-runner")
    runner.mkdir()
    for name in ("pwp_script.py", "pwp_equality.py", "pwp_sealed.py", "pwp_sources.py"):
        shutil.copyfile(SCRIPTS / name, runner / name)
    (runner / "deliverable.json").write_text("{}")
    (tmp_path / ".canitedit" / "canitedit.json").write_text(json.dumps({"launcher": str(runner / "pwp_script.py")}))
    return tmp_path


def grade(ws, program):
    """The check as the verifier runs it: (exit code, stdout, stderr), the mark on descriptor 3."""
    (ws / "main.py").write_text(program)
    return run_with_mark(".canitedit/run_canitedit.py", ws, MARK)


def passed(code, out):
    return code == 0 and out.splitlines().count(MARK) == 1


def test_passes_a_correct_edit(ws):
    code, out, err = grade(ws, "def add(a, b):\n    return a + b\n")
    assert passed(code, out), out + err


def test_fails_a_wrong_edit_with_the_failing_assertion(ws):
    code, out, err = grade(ws, "def add(a, b):\n    return a - b\n")
    assert not passed(code, out) and "AssertionError" in err, out + err


def test_fails_a_program_that_exits_cleanly_before_the_tests(ws):
    code, out, err = grade(ws, "import sys\n\ndef add(a, b):\n    return 0\n\nsys.exit(0)\n")
    assert code == 0 and MARK not in out, out + err


def test_a_program_that_reads_its_own_script_finds_no_mark_and_no_tests(ws):
    # It prints what it can read of its script (where the old grader had its mark, and where the
    # tests are appended), its command line and its environment, then exits cleanly before the
    # tests: the script is no file, and the mark is in none of the others.
    code, out, err = grade(ws, "import os, sys\ntry:\n    print(open(sys.argv[0]).read())\nexcept OSError as e:\n    print('unread', type(e).__name__)\n"
                               "print(open('/proc/self/cmdline').read())\nprint(dict(os.environ))\nsys.exit(0)\n")
    assert code == 0 and "unread FileNotFoundError" in out and "assert add" not in out and MARK not in out, out + err


def test_takes_the_sealed_tests_from_the_descriptor(ws):
    # Sealed, the tests file is root's alone: the check has its text from the runner only.
    tests = ws / ".canitedit" / "canitedit_tests.py"
    text = tests.read_text()
    tests.unlink()
    (ws / "main.py").write_text("def add(a, b):\n    return a + b\n")
    code, out, err = run_with_mark(".canitedit/run_canitedit.py", ws, MARK, sealed={str(tests): text})
    assert passed(code, out), out + err
    (ws / "main.py").write_text("def add(a, b):\n    return a - b\n")
    code, out, err = run_with_mark(".canitedit/run_canitedit.py", ws, MARK, sealed={str(tests): text})
    assert not passed(code, out) and "AssertionError" in err, out + err


def test_gives_inspect_the_script_so_tests_can_read_its_source(ws):
    # Like CanItEdit's rows that check a function's source (54_strategy, 38_high_order).
    (ws / ".canitedit" / "canitedit_tests.py").write_text(
        "import inspect\nassert 'return a + b' in inspect.getsource(add)\nassert add(1, 2) == 3\n")
    code, out, err = grade(ws, "def add(a, b):\n    return a + b\n")
    assert passed(code, out), out + err
