# swt-bench/prepare_swt.py and test_swt.py: the agent's new or changed test functions must fail on
# the original code, pass with the gold patch and fail on a change that keeps behaviour, each run
# in a fresh copy of the initial workspace, without reading the code they test. Here the runs go
# as this process's user (PWP_SWT_UID empty); the verifier runs them as nobody, which
# test/integration/verifierTampering.test.ts tries.
import hashlib
import json
import os
import shutil
import subprocess
import sys

import pytest

from conftest import install

ORIGINAL = "def shout(s):\n    return s\n"
FIXED = "def shout(s):\n    return s.upper()\n"


# A row whose gold patch changes a line in each of two branches: removed lines 3 and 4 of the
# original, added lines 3 and 4 of the fix, four executable changed lines in all.
BRANCHES = "def shout(s, polite=False):\n    if polite:\n        return s + '!'\n    return s\n"
BRANCHES_FIXED = "def shout(s, polite=False):\n    if polite:\n        return s.upper() + '!'\n    return s.upper()\n"


def make_row(tmp_path, original, fixed, changed, gold="pkg/text.py", others=None):
    """A workspace, its initial copy and the hidden folder as the converter writes them (swt.json's `changed` as it parses the patch).
    The gold patch changes `gold` (original -> fixed); `others` are more files of the workspace, by path."""
    ws, initial, hidden = tmp_path / "ws", tmp_path / "initial", tmp_path / "hidden"
    (ws / "pkg").mkdir(parents=True)
    (ws / "pkg" / "__init__.py").write_text("")
    for rel, text in {**(others or {}), gold: original}.items():
        (ws / rel).write_text(text)
    (ws / "test_old.py").write_text("def test_old():\n    assert True\n")
    shutil.copytree(ws, initial)
    install("swt-bench/test_swt.py", ws / ".swt" / "test_swt.py")
    install("swt-bench/prepare_swt.py", hidden / "prepare_swt.py")
    (hidden / "gold" / os.path.dirname(gold)).mkdir(parents=True)
    (hidden / "gold" / gold).write_text(fixed)
    lines = {"removed": {gold: changed[0]}, "added": {gold: changed[1]}} if gold.endswith(".py") else {"removed": {}, "added": {}}
    (hidden / "swt.json").write_text(json.dumps({
        "instance_id": "x", "testFiles": ["**/test_*.py", "**/*_test.py"], "goldFiles": [gold], "goldDeletes": [],
        "changed": lines, "repeats": 1, "timeoutSec": 60, "initial": str(initial)}))
    return ws


@pytest.fixture
def ws(tmp_path):
    return make_row(tmp_path, ORIGINAL, FIXED, ([2], [2]))


@pytest.fixture
def branches(tmp_path):
    return make_row(tmp_path, BRANCHES, BRANCHES_FIXED, ([3, 4], [3, 4]))


def hashing_test(original):
    """A test that hashes the patched file through a shell that finds it by a pattern (out of the audit hook's sight)."""
    return ("import subprocess\n\nORIGINAL = subprocess.run(['sha1sum'], input=%r, capture_output=True, text=True).stdout\n\n\n"
            "def test_changed():\n    now = subprocess.run(['sh', '-c', 'sha1sum pkg/t*t.py'], capture_output=True, text=True).stdout.split()[0]\n"
            "    assert now != ORIGINAL.split()[0]\n" % original)


def metrics(ws):
    """SWT-Bench's metrics as prepare_swt.py left them for the grade (components.json): name -> value."""
    data = json.loads((ws.parent / "swt" / "components.json").read_text())
    assert data["metric"] == "SWT-Bench"
    return {c["name"]: c["value"] for c in data["components"]}


def grade(ws):
    """Both halves as the verifier runs them: prepare_swt.py, then pytest on test_swt.py: (exit code, output)."""
    root = ws.parent / "swt"
    env = dict(os.environ, PWP_SWT_SPEC=str(ws.parent / "hidden" / "swt.json"), PWP_SWT_WORKSPACE=str(ws), PWP_SWT_ROOT=str(root),
               PWP_SWT_UID="", PWP_SWT_RESULTS=str(root / "results.json"))
    prepared = subprocess.run([sys.executable, "-I", str(ws.parent / "hidden" / "prepare_swt.py")], env=env, capture_output=True, text=True, timeout=300)
    assert prepared.returncode == 0, prepared.stderr
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--noconftest", ".swt/test_swt.py"],
                       cwd=ws, env=env, capture_output=True, text=True, timeout=300)
    # The reported fail-to-pass is the grade's own verdict, whatever the case.
    assert metrics(ws)["fail-to-pass"] == (1.0 if r.returncode == 0 else 0.0), (metrics(ws), r.stdout)
    return r.returncode, r.stdout + r.stderr


def test_a_test_that_reproduces_the_issue_passes_both_cases(ws):
    (ws / "test_shout.py").write_text("from pkg.text import shout\n\n\ndef test_shout():\n    assert shout('a') == 'A'\n")
    code, out = grade(ws)
    assert code == 0 and "3 passed" in out, out


def test_a_test_that_passes_on_the_original_code_fails(ws):
    (ws / "test_shout.py").write_text("from pkg.text import shout\n\n\ndef test_shout():\n    assert shout('a')\n")
    code, out = grade(ws)
    assert code == 1 and "1 failed, 2 passed" in out and "no test fails on the original code" in out, out


def test_a_test_that_fails_with_the_gold_patch_fails(ws):
    (ws / "shout_test.py").write_text("def test_never():\n    assert False\n")
    code, out = grade(ws)
    assert code == 1 and "2 failed, 1 passed" in out and "do not pass with the gold patch: shout_test.py::test_never" in out, out


def test_changes_outside_test_files_count_for_nothing(ws):
    (ws / "pkg" / "text.py").write_text(FIXED)  # the agent "fixes" the code: the original run must still fail
    (ws / "test_shout.py").write_text("from pkg.text import shout\n\n\ndef test_shout():\n    assert shout('a') == 'A'\n")
    code, out = grade(ws)
    assert code == 0 and "3 passed" in out, out


def test_only_the_test_functions_the_agent_added_or_changed_are_judged(ws):
    # test_old passes in every state; it is the task's, so it neither counts nor spoils the grade.
    (ws / "test_old.py").write_text("from pkg.text import shout\n\n\ndef test_old():\n    assert True\n\n\nclass TestShout:\n    def test_upper(self):\n        assert shout('a') == 'A'\n")
    code, out = grade(ws)
    assert code == 0 and "3 passed" in out, out


def test_a_test_that_detects_a_change_instead_of_the_issue_fails(ws):
    # It hashes the patched file through a shell that finds it by a pattern (out of the hook's
    # sight): it fails on the original, passes with the gold patch, and on the decoy too.
    (ws / "test_hash.py").write_text(hashing_test(ORIGINAL))
    code, out = grade(ws)
    assert code == 1 and "1 failed, 2 passed" in out and "detect a change, not the issue" in out, out
    assert metrics(ws) == {"applicability": 1.0, "fail-to-pass": 0.0, "change coverage": 0.0}


@pytest.mark.parametrize("gold", ["pkg/mode.cfg", "pkg/mode.json", "pkg/mode"])
def test_the_decoy_changes_a_file_of_any_language_the_gold_patch_changes(tmp_path, gold):
    # The fix is in a file that is not Python (a comment where pwp knows how one is written, a
    # blank line where not): a test that hashes it is still a detector, an honest one still counts.
    code = "import os\n\n\ndef shout(s):\n    mode = open(os.path.join(os.path.dirname(__file__), %r)).read()\n" \
           "    return s.upper() if 'upper' in mode else s\n" % os.path.basename(gold)
    ws = make_row(tmp_path, '{"mode": "lower"}\n', '{"mode": "upper"}\n', ([], []), gold=gold, others={"pkg/text.py": code})
    (ws / "test_hash.py").write_text(hashing_test('{"mode": "lower"}\n').replace("pkg/t*t.py", gold))
    code, out = grade(ws)
    assert code == 1 and "1 failed, 2 passed" in out and "detect a change, not the issue" in out, out
    (ws / "test_hash.py").unlink()
    (ws / "test_shout.py").write_text("from pkg.text import shout\n\n\ndef test_shout():\n    assert shout('a') == 'A'\n")
    code, out = grade(ws)
    assert code == 0 and "3 passed" in out, out


def test_two_test_files_and_a_gold_patch_of_two_files_are_graded(tmp_path):
    # Lists of paths reach the tests' process as JSON (an environment variable holds no NUL).
    ws = make_row(tmp_path, ORIGINAL, FIXED, ([2], [2]), others={"pkg/more.py": "X = 1\n"})
    spec = json.loads((tmp_path / "hidden" / "swt.json").read_text())
    spec["goldFiles"].append("pkg/more.py")
    (tmp_path / "hidden" / "gold" / "pkg" / "more.py").write_text("X = 2\n")
    (tmp_path / "hidden" / "swt.json").write_text(json.dumps(spec))
    for name in ("test_shout.py", "test_loud.py"):
        (ws / name).write_text("from pkg.text import shout\n\n\ndef test_shout():\n    assert shout('a') == 'A'\n")
    code, out = grade(ws)
    assert code == 0 and "3 passed" in out, out


def test_a_test_that_reads_the_code_it_tests_is_refused(ws):
    digest = hashlib.sha1(ORIGINAL.encode()).hexdigest()
    reads = {
        "open": "import hashlib, pathlib\n\n\ndef test_changed():\n    assert hashlib.sha1(pathlib.Path('pkg/text.py').read_bytes()).hexdigest() != %r\n" % digest,
        # The module's own loader, by a name the parsed check cannot read: the hook still sees the open.
        "loader": "import hashlib\nimport pkg.text\n\n\ndef test_changed():\n    spec = pkg.text.__spec__\n"
                  "    assert hashlib.sha1(getattr(spec.loader, 'get_' + 'data')(spec.origin)).hexdigest() != %r\n" % digest,
        "another process": "import subprocess\n\n\ndef test_changed():\n    assert '.upper()' in subprocess.run(['cat', 'pkg/text.py'], capture_output=True, text=True).stdout\n",
    }
    for how, source in reads.items():
        (ws / "test_read.py").write_text(source)
        code, out = grade(ws)
        assert code == 1 and "the tests read the code they test (refused): " in out, (how, out)


def test_a_test_that_reads_a_function_s_code_is_refused(ws):
    (ws / "test_code.py").write_text("from pkg.text import shout\n\n\ndef test_fixed():\n    assert 'upper' in shout.__code__.co_names\n")
    code, out = grade(ws)
    assert code == 1 and "test_code.py:5 __code__" in out and "test_code.py:5 co_names" in out, out


def test_a_test_file_that_is_a_link_is_not_followed(ws):
    # A link to the gold patch's copy would hand the tests its text, read as root.
    (ws / "test_leak.py").symlink_to(ws.parent / "hidden" / "gold" / "pkg" / "text.py")
    code, out = grade(ws)
    assert code == 1 and "no test file" in out, out


def test_no_new_or_changed_test_file_fails(ws):
    code, out = grade(ws)
    assert code == 1 and "3 failed" in out and "no test file" in out, out
    # Nothing to apply: not applicable, and no line run (counted as 0, as the published mean counts it).
    assert metrics(ws) == {"applicability": 0.0, "fail-to-pass": 0.0, "change coverage": 0.0}


def test_a_test_that_runs_half_of_the_changed_lines_covers_half(branches):
    (branches / "test_shout.py").write_text("from pkg.text import shout\n\n\ndef test_shout():\n    assert shout('a') == 'A'\n")
    code, out = grade(branches)
    assert code == 0, out
    assert metrics(branches) == {"applicability": 1.0, "fail-to-pass": 1.0, "change coverage": 0.5}
    lines = json.loads((branches.parent / "swt" / "results.json").read_text())["coverage"]["lines"]
    assert lines == {"removed": {"run": ["pkg/text.py:4"], "not run": ["pkg/text.py:3"]}, "added": {"run": ["pkg/text.py:4"], "not run": ["pkg/text.py:3"]}}


def test_a_test_that_runs_every_changed_line_covers_all(branches):
    (branches / "test_shout.py").write_text(
        "from pkg.text import shout\n\n\ndef test_shout():\n    assert shout('a') == 'A'\n\n\ndef test_polite():\n    assert shout('a', polite=True) == 'A!'\n")
    code, out = grade(branches)
    assert code == 0, out
    assert metrics(branches) == {"applicability": 1.0, "fail-to-pass": 1.0, "change coverage": 1.0}


def test_only_the_agent_s_tests_are_credited_with_coverage(branches):
    # The task's own test runs the polite branch in the same file; the agent's test runs the other: half.
    old = "from pkg.text import shout\n\n\ndef test_old():\n    shout('a', polite=True)\n"
    (branches.parent / "initial" / "test_old.py").write_text(old)
    (branches / "test_old.py").write_text(old + "\n\ndef test_new():\n    assert shout('a') == 'A'\n")
    code, out = grade(branches)
    assert code == 0, out
    assert metrics(branches)["change coverage"] == 0.5


def test_a_test_that_fails_still_has_its_coverage(branches):
    # SWT-Bench reports coverage whether or not the tests reproduce the issue.
    (branches / "test_shout.py").write_text("from pkg.text import shout\n\n\ndef test_shout():\n    assert shout('a', polite=True)\n")
    code, out = grade(branches)
    assert code == 1 and "no test fails on the original code" in out, out
    assert metrics(branches) == {"applicability": 1.0, "fail-to-pass": 0.0, "change coverage": 0.5}


def test_a_hashing_test_scores_0_and_covers_nothing(branches):
    (branches / "test_hash.py").write_text(hashing_test(BRANCHES))
    code, out = grade(branches)
    assert code == 1 and "detect a change, not the issue" in out, out
    assert metrics(branches) == {"applicability": 1.0, "fail-to-pass": 0.0, "change coverage": 0.0}


def test_a_new_test_file_is_credited_with_the_lines_its_import_runs(tmp_path):
    # A changed module-level line runs when the module is imported: by the agent's new file here.
    row = make_row(tmp_path, "LIMIT = 1\n\n\ndef shout(s):\n    return s\n", "LIMIT = 2\n\n\ndef shout(s):\n    return s.upper()\n", ([1, 5], [1, 5]))
    (row / "test_shout.py").write_text("from pkg.text import shout\n\n\ndef test_shout():\n    assert shout('a') == 'A'\n")
    code, out = grade(row)
    assert code == 0 and metrics(row)["change coverage"] == 1.0, out


def test_coverage_of_tests_that_reach_for_the_tracer_is_not_believed(branches):
    reaching = {
        "named": "import sys\nfrom pkg.text import shout\n\n\ndef test_shout():\n    assert sys.gettrace() is not None or True\n    assert shout('a') == 'A'\n",
        # A name the parsed check cannot read: the audit hook sees the call.
        "called": "import sys\nfrom pkg.text import shout\n\n\ndef test_shout():\n    getattr(sys, 'set' + 'trace')(None)\n    assert shout('a') == 'A'\n",
    }
    for how, source in reaching.items():
        (branches / "test_shout.py").write_text(source)
        code, out = grade(branches)
        assert code == 0, (how, out)
        assert metrics(branches) == {"applicability": 1.0, "fail-to-pass": 1.0, "change coverage": None}, how
        coverage = json.loads((branches.parent / "swt" / "results.json").read_text())["coverage"]
        assert coverage["absent"].startswith("not believed: the tests reach for the tracer"), (how, coverage)


def test_a_gold_patch_without_executable_lines_has_no_coverage(tmp_path):
    # Only a comment changes: SWT-Bench leaves such an instance out of its coverage mean.
    row = make_row(tmp_path, "def shout(s):\n    return s\n# one\n", "def shout(s):\n    return s\n# two\n", ([3], [3]))
    (row / "test_shout.py").write_text("from pkg.text import shout\n\n\ndef test_shout():\n    assert shout('a') == 'a'\n")
    grade(row)
    assert metrics(row)["change coverage"] is None


def test_a_data_host_the_verifier_cannot_reach_is_named_first_in_the_failure(ws):
    # A test that needs data the verifier could not download fails with the gold patch: the report says why.
    (ws / "test_shout.py").write_text("from pkg.text import shout\n\n\ndef test_shout():\n    assert shout('a') == 'A'\n    assert open('/nonexistent/data.dcm')\n")
    spec = ws.parent / "hidden" / "swt.json"
    spec.write_text(json.dumps(dict(json.loads(spec.read_text()), fetchHost="data.invalid")))
    code, out = grade(ws)
    assert code == 1 and "these tests do not pass with the gold patch" in out, out
    assert "AssertionError: the tests download data from data.invalid, which this verifier could not reach" in out, out

    # A host it reaches: nothing said of it.
    import socket as sk
    server = sk.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    spec.write_text(json.dumps(dict(json.loads(spec.read_text()), fetchHost="127.0.0.1:%d" % server.getsockname()[1])))
    try:
        code, out = grade(ws)
    finally:
        server.close()
    assert code == 1 and "these tests do not pass with the gold patch" in out and "could not reach" not in out, out
