# SWT-Bench's check of tests written for an issue: the test files the agent added or changed
# must fail on the original code and pass once the gold patch is applied. Each run uses a fresh
# copy of the workspace as the agent received it, with only the agent's test files added. Each
# state is run SPEC["repeats"] times, all in an order drawn now, so tests that keep state
# between runs (fail the first time, pass the next) cannot tell the two states apart.
# Copied by host/converters/swtBench.ts to a task's hidden/workspace/.swt/test_swt.py, with
# swt.json (test file patterns, gold files, repeats, the initial workspace) and gold/ (the gold
# patch's files) beside it; the verifier runs it as `python3 -m pytest -q .swt/test_swt.py` from
# /workspace.
# The image's standard library, never a workspace module of the same name (the workspace is
# on sys.path while this file runs).
import sys

_path = list(sys.path)
sys.path[:] = [p for p in sys.path if p and not p.startswith("/workspace")]
import fnmatch  # noqa: E402
import functools  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import pathlib  # noqa: E402
import random  # noqa: E402
import shutil  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
sys.path[:] = _path

HERE = pathlib.Path(__file__).resolve().parent
WORKSPACE = HERE.parent
SPEC = json.loads((HERE / "swt.json").read_text())
INITIAL = pathlib.Path(SPEC["initial"])


def is_test_file(rel):
    return any(fnmatch.fnmatch(pathlib.PurePosixPath(rel).name, pattern.split("/")[-1]) for pattern in SPEC["testFiles"])


def agent_tests():
    assert INITIAL.is_dir(), "the verifier has no copy of the initial workspace"
    found = []
    for path in sorted(WORKSPACE.rglob("*.py")):
        rel = path.relative_to(WORKSPACE).as_posix()
        if rel.startswith((HERE.name + "/", ".git/")) or "__pycache__" in rel or not is_test_file(rel):
            continue
        before = INITIAL / rel
        if not before.is_file() or before.read_bytes() != path.read_bytes():
            found.append(rel)
    assert found, "no test file (" + ", ".join(SPEC["testFiles"]) + ") was added or changed"
    for rel in found:
        text = (WORKSPACE / rel).read_text(errors="replace")
        assert HERE.name not in text and "/pwp/" not in text, rel + " reads the grader's files"
    return found


def run(tests, gold):
    scratch = tempfile.mkdtemp(prefix="swt-")
    try:
        repo = os.path.join(scratch, "repo")
        shutil.copytree(INITIAL, repo, symlinks=True)
        for rel in tests:
            os.makedirs(os.path.dirname(os.path.join(repo, rel)), exist_ok=True)
            shutil.copyfile(WORKSPACE / rel, os.path.join(repo, rel))
        if gold:
            for rel in SPEC["goldFiles"]:
                os.makedirs(os.path.dirname(os.path.join(repo, rel)), exist_ok=True)
                shutil.copyfile(HERE / "gold" / rel, os.path.join(repo, rel))
            for rel in SPEC["goldDeletes"]:
                if os.path.exists(os.path.join(repo, rel)):
                    os.remove(os.path.join(repo, rel))
        home = os.path.join(scratch, "home")
        os.makedirs(home)
        env = {k: v for k, v in os.environ.items() if k != "PYTHONSAFEPATH"}
        env.update(HOME=home, TMPDIR=home)
        r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *tests], cwd=repo, env=env,
                           capture_output=True, text=True, timeout=SPEC["timeoutSec"])
        return r.returncode, (r.stdout + r.stderr)[-3000:]
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


@functools.lru_cache(maxsize=None)
def outcomes():
    tests = agent_tests()
    order = [False, True] * SPEC["repeats"]
    random.SystemRandom().shuffle(order)
    out = {False: [], True: []}
    for gold in order:
        out[gold].append(run(tests, gold))
    return out


def test_fails_on_the_original_code():
    for code, output in outcomes()[False]:
        # 1: tests failed; 2: an error while collecting them (what they test does not exist yet).
        assert code in (1, 2), "the tests do not fail on the original code (pytest exit code %d):\n%s" % (code, output)


def test_passes_with_the_gold_patch():
    for code, output in outcomes()[True]:
        assert code == 0, "the tests do not pass with the gold patch (pytest exit code %d):\n%s" % (code, output)
