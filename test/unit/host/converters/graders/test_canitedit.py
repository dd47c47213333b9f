# canitedit/test_canitedit.py: the edited main.py with the row's tests appended, run as one
# script, must exit cleanly and reach the end of the tests.
import pytest

from conftest import install, run_pytest

TESTS = "assert add(2, 3) == 5\nassert add(-1, 1) == 0\n"


@pytest.fixture
def ws(tmp_path):
    install("canitedit/test_canitedit.py", tmp_path / "tests" / "test_canitedit.py")
    (tmp_path / "tests" / "canitedit_tests.py").write_text(TESTS)
    return tmp_path


def grade(ws, program):
    (ws / "main.py").write_text(program)
    return run_pytest("tests/test_canitedit.py", ws)


def test_passes_a_correct_edit(ws):
    code, out = grade(ws, "def add(a, b):\n    return a + b\n")
    assert code == 0 and "1 passed" in out, out


def test_fails_a_wrong_edit_with_the_failing_assertion(ws):
    code, out = grade(ws, "def add(a, b):\n    return a - b\n")
    assert code == 1 and "AssertionError" in out, out


def test_fails_a_program_that_exits_cleanly_before_the_tests(ws):
    code, out = grade(ws, "import sys\n\ndef add(a, b):\n    return 0\n\nsys.exit(0)\n")
    assert code == 1 and "ended before the tests ran to their end" in out, out
