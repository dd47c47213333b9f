# pwp: the first half of grading an IDE-Bench task (idebench/run-tests.sh): its test script run
# on the repository as it was before the agent, to learn which tests already pass there. The
# copy is the verifier's initial workspace with the task's hidden files over it, their
# "/workspace" read as the copy's folder (the converter read IDE-Bench's /app as /workspace);
# nothing of the agent's is in it. The script runs as it will on the agent's workspace (from the
# task's folder, TASK_ID set), with conftest_hook.py recording each test's outcome (mode `pytest`),
# or its exit status standing for its tests (mode `exit`). Prints the JSON list of the node ids
# that passed (`exit`: the script's path when it exited 0); says on stderr what it found.
# Usage: base_run.py <mode> <script> <task id> <folder> (relative to the workspace); PWP_IDEBENCH_INITIAL and
# PWP_IDEBENCH_HIDDEN name the initial workspace and the hidden files (default: the verifier's).
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

INITIAL = os.environ.get("PWP_IDEBENCH_INITIAL", "/pwp/initial/workspace")
HIDDEN = os.environ.get("PWP_IDEBENCH_HIDDEN", "/pwp/hidden/workspace")
OWN = ".pwp-idebench"
WORKSPACE = re.compile(r"(?<![\w/.-])/workspace(?![\w.-])")


def say(msg):
    print("pwp: " + msg, file=sys.stderr)


def hidden_files():
    """(relative path, source) of each hidden file. In the verifier the hidden folder is root's
    alone, so the copies the verifier restored into the workspace are read instead, by the list
    the converter wrote: they are root's, in folders the tests' user cannot swap them in, and no
    process of the agent's lives while this runs (the runner ended them all before the tests'
    command), so they are the hidden files as restored. (A readable hidden folder: this script's
    own tests.)"""
    if os.access(HIDDEN, os.R_OK | os.X_OK):
        for folder, _, files in os.walk(HIDDEN):
            rel_dir = os.path.relpath(folder, HIDDEN)
            if rel_dir == OWN or rel_dir.startswith(OWN + os.sep):
                continue
            for name in files:
                yield os.path.normpath(os.path.join(rel_dir, name)), os.path.join(folder, name)
        return
    ws = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    listing = os.path.join(ws, OWN, "hidden.json")
    if not os.path.isfile(listing):
        raise SystemExit("pwp: the hidden files are neither readable at %s nor listed in %s: the base cannot be graded" % (HIDDEN, listing))
    with open(listing) as f:
        for rel in json.load(f):
            yield os.path.normpath(rel), os.path.join(ws, rel)


def make_base(root):
    base = os.path.join(root, "workspace")
    if not os.path.isdir(INITIAL):
        raise SystemExit("pwp: no copy of the initial workspace at %s: the base cannot be graded" % INITIAL)
    shutil.copytree(INITIAL, base, symlinks=True)
    for rel, source in hidden_files():
        dest = os.path.join(base, rel)
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        with open(source, "rb") as f:
            data = f.read()
        if b"\0" not in data[:8000]:
            try:
                data = WORKSPACE.sub(base, data.decode("utf-8")).encode("utf-8")
            except UnicodeDecodeError:
                pass
        with open(dest, "wb") as f:
            f.write(data)
    return base


def main(mode, script, task, folder):
    root = tempfile.mkdtemp(prefix="pwp-idebench-base-")
    try:
        base = make_base(root)
        record = os.path.join(root, "outcomes.json")
        env = dict(os.environ, TASK_ID=task, PWP_IDEBENCH_RECORD=record, HOME=root)
        for k in ("PYTEST_ADDOPTS", "PWP_IDEBENCH_BASE_PASSED"):
            env.pop(k, None)
        r = subprocess.run(["bash", os.path.join(base, script), task], cwd=os.path.join(base, folder), env=env,
                           stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=1800)
        if mode == "exit":
            say("the test script %s on the base (exit code %d)" % ("passes" if r.returncode == 0 else "fails", r.returncode))
            return [script] if r.returncode == 0 else []
        outcomes = {}
        if os.path.exists(record):
            with open(record) as f:
                outcomes = json.load(f)
        passed = sorted(t for t, o in outcomes.items() if o == "passed")
        if not outcomes:
            say("the test script ran no test on the base (exit code %d): every test counts\n%s" % (r.returncode, r.stdout[-2000:]))
        elif not passed:
            say("none of the %d tests passes on the base: every one counts" % len(outcomes))
        elif len(passed) == len(outcomes):
            say("every test (%d) already passes on the base: the task's change makes none pass, so nothing counts" % len(passed))
        else:
            say("%d of %d tests pass on the base and are not counted: %s" % (len(passed), len(outcomes), ", ".join(passed[:20])))
        return passed
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    if len(sys.argv) != 5 or sys.argv[1] not in ("pytest", "exit"):
        raise SystemExit("usage: base_run.py pytest|exit <script> <task id> <folder>")
    print(json.dumps(main(*sys.argv[1:])))
