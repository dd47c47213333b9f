# swt-bench/test_swt.py: the agent's new or changed test files must fail on the original code and
# pass with the gold patch, each run in a fresh copy of the initial workspace.
import json
import shutil

import pytest

from conftest import install, run_pytest

ORIGINAL = "def shout(s):\n    return s\n"
FIXED = "def shout(s):\n    return s.upper()\n"


@pytest.fixture
def ws(tmp_path):
    ws, initial = tmp_path / "ws", tmp_path / "initial"
    (ws / "pkg").mkdir(parents=True)
    (ws / "pkg" / "__init__.py").write_text("")
    (ws / "pkg" / "text.py").write_text(ORIGINAL)
    (ws / "test_old.py").write_text("def test_old():\n    assert True\n")
    shutil.copytree(ws, initial)
    grader = ws / ".swt"
    install("swt-bench/test_swt.py", grader / "test_swt.py")
    (grader / "gold" / "pkg").mkdir(parents=True)
    (grader / "gold" / "pkg" / "text.py").write_text(FIXED)
    (grader / "swt.json").write_text(json.dumps({
        "instance_id": "x", "testFiles": ["**/test_*.py", "**/*_test.py"], "goldFiles": ["pkg/text.py"], "goldDeletes": [],
        "repeats": 1, "timeoutSec": 60, "initial": str(initial)}))
    return ws


def grade(ws):
    return run_pytest(".swt/test_swt.py", ws)


def test_a_test_that_reproduces_the_issue_passes_both_cases(ws):
    (ws / "test_shout.py").write_text("from pkg.text import shout\n\n\ndef test_shout():\n    assert shout('a') == 'A'\n")
    code, out = grade(ws)
    assert code == 0 and "2 passed" in out, out


def test_a_test_that_passes_on_the_original_code_fails(ws):
    (ws / "test_shout.py").write_text("from pkg.text import shout\n\n\ndef test_shout():\n    assert shout('a')\n")
    code, out = grade(ws)
    assert code == 1 and "1 failed, 1 passed" in out and "do not fail on the original code" in out, out


def test_a_test_that_fails_with_the_gold_patch_fails(ws):
    (ws / "shout_test.py").write_text("def test_never():\n    assert False\n")
    code, out = grade(ws)
    assert code == 1 and "1 failed, 1 passed" in out and "do not pass with the gold patch" in out, out


def test_changes_outside_test_files_count_for_nothing(ws):
    (ws / "pkg" / "text.py").write_text(FIXED)  # the agent "fixes" the code: the original run must still fail
    (ws / "test_shout.py").write_text("from pkg.text import shout\n\n\ndef test_shout():\n    assert shout('a') == 'A'\n")
    code, out = grade(ws)
    assert code == 0 and "2 passed" in out, out


def test_no_new_or_changed_test_file_fails_and_tests_may_not_read_the_grader(ws):
    code, out = grade(ws)
    assert code == 1 and "no test file" in out, out
    (ws / "test_peek.py").write_text("import pathlib\n\n\ndef test_peek():\n    assert pathlib.Path('.swt/gold').exists()\n")
    code, out = grade(ws)
    assert code == 1 and "reads the grader's files" in out, out
