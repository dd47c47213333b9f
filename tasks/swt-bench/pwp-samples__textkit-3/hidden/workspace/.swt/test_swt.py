# SWT-Bench's check of tests written for an issue, judged on behaviour. The agent's tests are the
# test functions it added or changed in test files (not every test of a file it touched). Each is
# run, per test, in three states of the code, each a fresh copy of the workspace as the agent
# received it with only the agent's test files added:
#   original  the code as it was: a test that reproduces the issue fails here;
#   gold      the gold patch applied: every one of the agent's tests must pass here;
#   decoy     the original with a change that keeps behaviour (a comment appended to each Python
#             file the gold patch touches): a test that reproduces the issue still fails here,
#             while one that only notices that the source changed (hashing the file) passes.
# A test counts when it fails on the original, passes with the gold patch and fails on the decoy;
# the task is solved when at least one counts and all pass with the gold patch (SWT-Bench's
# fail-to-pass with every added test passing after the fix). Each state is run SPEC["repeats"]
# times, in an order drawn now, so tests that keep state between runs (fail the first time, pass
# the next) cannot tell the states apart; a test must give the same outcome every time.
# Reading the code under test from a test is refused: an audit hook in the test process denies
# opening a file the gold patch touches from any call made by the agent's test files, except
# importing it, and the grader reports it.
# Copied by host/converters/swtBench.ts to a task's hidden/workspace/.swt/test_swt.py, with
# swt.json (test file patterns, gold files, repeats, the initial workspace) and gold/ (the gold
# patch's files) beside it; the verifier runs it as `python3 -m pytest -q .swt/test_swt.py` from
# /workspace.
# The image's standard library, never a workspace module of the same name (the workspace is
# on sys.path while this file runs).
import sys

_path = list(sys.path)
sys.path[:] = [p for p in sys.path if p and not p.startswith("/workspace")]
import ast  # noqa: E402
import fnmatch  # noqa: E402
import functools  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import pathlib  # noqa: E402
import random  # noqa: E402
import secrets  # noqa: E402
import shutil  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import xml.etree.ElementTree  # noqa: E402
sys.path[:] = _path

HERE = pathlib.Path(__file__).resolve().parent
WORKSPACE = HERE.parent
SPEC = json.loads((HERE / "swt.json").read_text())
INITIAL = pathlib.Path(SPEC["initial"])
STATES = ("original", "gold", "decoy")

# Run inside each test process before pytest: the agent's test files may import the code under
# test but not open it themselves (hash it, read it, inspect it). The hook cannot be removed
# once added; a denied open raises PermissionError in the test, and the path is written to
# the process's own stderr after a marker so the grader can say why.
AUDIT_LAUNCH = r"""
import sys, os
GUARDED = set(os.environ.pop('PWP_SWT_GUARDED').split('\0'))
TESTS = set(os.environ.pop('PWP_SWT_TESTS').split('\0'))
MARK = os.environ.pop('PWP_SWT_MARK')
# The process's stderr before pytest captures fds 1 and 2: what is written here reaches the
# grader whether or not the test fails (pytest shows a passing test's output to nobody).
REPORT = os.dup(2)
def hook(event, args):
    if event != 'open' or not args or not isinstance(args[0], (str, bytes, os.PathLike)):
        return
    try:
        path = os.path.realpath(os.fsdecode(args[0]))
    except Exception:
        return
    if path not in GUARDED:
        return
    caller = sys._getframe(1)
    if caller.f_code.co_filename.startswith('<frozen importlib'):
        return
    f = caller
    while f is not None:
        if os.path.realpath(f.f_code.co_filename) in TESTS:
            os.write(REPORT, (MARK + path + '\n').encode())
            raise PermissionError('pwp: a test may not read the code it tests: ' + path)
        f = f.f_back
sys.addaudithook(hook)
import pytest
sys.exit(pytest.console_main())
"""


def is_test_file(rel):
    return any(fnmatch.fnmatch(pathlib.PurePosixPath(rel).name, pattern.split("/")[-1]) for pattern in SPEC["testFiles"])


def functions_of(source):
    """Test functions of a file by qualified name (`test_x`, `TestA.test_y`), with their code as parsed."""
    out = {}
    for node in ast.parse(source).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test"):
            out[node.name] = ast.dump(node)
        elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and item.name.startswith("test"):
                    out[node.name + "." + item.name] = ast.dump(item)
    return out


@functools.lru_cache(maxsize=None)
def agent_tests():
    """The agent's test files, and in each the test functions it added or changed."""
    assert INITIAL.is_dir(), "the verifier has no copy of the initial workspace"
    files, tests = [], {}
    for path in sorted(WORKSPACE.rglob("*.py")):
        rel = path.relative_to(WORKSPACE).as_posix()
        if rel.startswith((HERE.name + "/", ".git/")) or "__pycache__" in rel or not is_test_file(rel):
            continue
        before = INITIAL / rel
        if before.is_file() and before.read_bytes() == path.read_bytes():
            continue
        text = path.read_text(errors="replace")
        assert HERE.name not in text and "/pwp/" not in text, rel + " reads the grader's files"
        try:
            now = functions_of(text)
        except SyntaxError as err:
            raise AssertionError("%s does not parse: %s" % (rel, err))
        try:
            old = functions_of(before.read_text(errors="replace")) if before.is_file() else {}
        except SyntaxError:
            old = {}
        files.append(rel)
        for name, code in now.items():
            if old.get(name) != code:
                tests[(rel, name)] = True
    assert files, "no test file (" + ", ".join(SPEC["testFiles"]) + ") was added or changed"
    assert tests, "the changed test files add or change no test function: " + ", ".join(files)
    return files, sorted(tests)


def decoy(repo):
    """A change that keeps behaviour: a comment appended to each Python file of the gold patch that exists."""
    for rel in SPEC["goldFiles"]:
        path = os.path.join(repo, rel)
        if rel.endswith(".py") and os.path.isfile(path):
            with open(path, "a") as f:
                f.write("\n# pwp: a change that keeps behaviour (%s)\n" % secrets.token_hex(4))


def outcomes_of(report, files):
    """(file, qualified name) -> passed?, from pytest's JUnit report; parametrised cases all must pass."""
    out = {}
    if not os.path.exists(report):
        return out
    modules = {rel[:-3].replace("/", "."): rel for rel in files}
    for case in xml.etree.ElementTree.parse(report).getroot().iter("testcase"):
        classname, name = case.get("classname", ""), case.get("name", "").split("[")[0]
        for module, rel in modules.items():
            if classname == module or classname.startswith(module + "."):
                qual = (classname[len(module) + 1:] + "." + name) if classname != module else name
                ok = not any(child.tag in ("failure", "error", "skipped") for child in case)
                out[(rel, qual)] = out.get((rel, qual), True) and ok
    return out


def run(files, state):
    scratch = tempfile.mkdtemp(prefix="swt-")
    try:
        repo = os.path.join(scratch, "repo")
        shutil.copytree(INITIAL, repo, symlinks=True)
        for rel in files:
            os.makedirs(os.path.dirname(os.path.join(repo, rel)), exist_ok=True)
            shutil.copyfile(WORKSPACE / rel, os.path.join(repo, rel))
        if state == "gold":
            for rel in SPEC["goldFiles"]:
                os.makedirs(os.path.dirname(os.path.join(repo, rel)), exist_ok=True)
                shutil.copyfile(HERE / "gold" / rel, os.path.join(repo, rel))
            for rel in SPEC["goldDeletes"]:
                if os.path.exists(os.path.join(repo, rel)):
                    os.remove(os.path.join(repo, rel))
        elif state == "decoy":
            decoy(repo)
        home = os.path.join(scratch, "home")
        os.makedirs(home)
        report = os.path.join(scratch, "report.xml")
        mark = "@pwp-swt-read-%s@" % secrets.token_hex(8)
        env = {k: v for k, v in os.environ.items() if k != "PYTHONSAFEPATH"}
        env.update(
            HOME=home, TMPDIR=home, PWP_SWT_MARK=mark,
            PWP_SWT_GUARDED="\0".join(os.path.realpath(os.path.join(repo, rel)) for rel in SPEC["goldFiles"] if rel.endswith(".py")) or "\0",
            PWP_SWT_TESTS="\0".join(os.path.realpath(os.path.join(repo, rel)) for rel in files),
        )
        r = subprocess.run([sys.executable, "-c", AUDIT_LAUNCH, "-q", "-p", "no:cacheprovider", "--junitxml=" + report, *files],
                           cwd=repo, env=env, capture_output=True, text=True, timeout=SPEC["timeoutSec"])
        reads = sorted({line[len(mark):].replace(os.path.realpath(repo) + "/", "") for line in r.stderr.splitlines() if line.startswith(mark)})
        return outcomes_of(report, files), reads, (r.stdout + r.stderr)[-3000:]
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


@functools.lru_cache(maxsize=None)
def results():
    files, tests = agent_tests()
    order = list(STATES) * SPEC["repeats"]
    random.SystemRandom().shuffle(order)
    passed = {s: {t: [] for t in tests} for s in STATES}
    reads, output = set(), {}
    for state in order:
        got, read, out = run(files, state)
        reads.update(read)
        output[state] = out
        for t in tests:
            passed[state][t].append(got.get(t, False))
    # A test's outcome in a state: passed every time, failed every time, or neither (flaky).
    verdict = {s: {t: (True if all(v) else False if not any(v) else None) for t, v in passed[s].items()} for s in STATES}
    return tests, verdict, sorted(reads), output


def shown(t):
    """A test as pytest names it: file::Class::function."""
    return "%s::%s" % (t[0], t[1].replace(".", "::"))


def test_does_not_read_the_code_it_tests():
    _, _, reads, _ = results()
    assert not reads, "the tests read the code they test (refused): " + ", ".join(reads)


def test_passes_with_the_gold_patch():
    tests, verdict, _, output = results()
    bad = [shown(t) for t in tests if verdict["gold"][t] is not True]
    assert not bad, "these tests do not pass with the gold patch: %s\n%s" % (", ".join(bad), output.get("gold", ""))


def test_reproduces_the_issue():
    tests, verdict, _, output = results()
    fail_to_pass = [t for t in tests if verdict["original"][t] is False and verdict["gold"][t] is True]
    assert fail_to_pass, "no test fails on the original code and passes with the gold patch:\n%s" % output.get("original", "")
    counted = [t for t in fail_to_pass if verdict["decoy"][t] is False]
    assert counted, ("the tests that fail on the original code pass after a change that keeps behaviour "
                     "(a comment added to the patched files), so they detect a change, not the issue: %s"
                     % ", ".join(shown(t) for t in fail_to_pass))
