# Shared by the tests of the grader scripts under host/converters/graders/: where they are, and a
# way to put one into a folder as a converter does (copied unchanged). Run by Debian's Python:
# `/usr/bin/python3 -m pytest test/unit/host/converters/graders` (graders.test.ts does, in npm test).
import base64
import json
import os
import pathlib
import shutil
import subprocess
import sys

import pytest

GRADERS = pathlib.Path(__file__).resolve().parents[5] / "host" / "converters" / "graders"


@pytest.fixture
def graders():
    return GRADERS


def install(rel, dest):
    """Copies graders/<rel> to dest (a file path), as the converter writes it into a task."""
    dest = pathlib.Path(dest)
    dest.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(GRADERS / rel, dest)
    return dest


def run_with_mark(script, cwd, mark, sealed=None):
    """`python3 -I SCRIPT` from cwd as the verifier's runner starts a test script with a completion
    mark, the mark on descriptor 3: (exit code, stdout, stderr). `sealed` ({path: text}): the
    sealed files' text on descriptor 4, as runTests.js gives it, named by PWP_SEALED_FD."""
    fds = []
    for data in [(mark + "\n").encode()] + ([json.dumps({k: base64.b64encode(v.encode()).decode() for k, v in sealed.items()}).encode()] if sealed is not None else []):
        r, w = os.pipe()
        os.write(w, data)
        os.close(w)
        os.set_inheritable(r, True)
        fds.append(r)
    env = {**os.environ, **({"PWP_SEALED_FD": "4"} if sealed is not None else {})}
    try:
        # On descriptors 3 (and 4) as the runner has them: a small program moves them there, then becomes the grader.
        move = ("import fcntl, os, sys; fds = [int(a) for a in sys.argv[2:]]; t = [fcntl.fcntl(f, fcntl.F_DUPFD, 10) for f in fds]; [os.close(f) for f in fds]; "
                "[(os.dup2(f, 3 + i), os.close(f)) for i, f in enumerate(t)]; os.execv(sys.executable, [sys.executable, '-I', sys.argv[1]])")
        p = subprocess.run([sys.executable, "-c", move, script, *map(str, fds)], cwd=cwd, capture_output=True, text=True, timeout=120, pass_fds=tuple(fds), env=env)
    finally:
        for r in fds:
            os.close(r)
    return p.returncode, p.stdout, p.stderr


def run_pytest(test_file, cwd):
    """pytest on one grader file, as the verifier runs it: (exit code, output)."""
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(test_file)],
                       cwd=cwd, capture_output=True, text=True, timeout=300)
    return r.returncode, r.stdout + r.stderr
