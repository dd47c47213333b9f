# Shared by the tests of the grader scripts under host/converters/graders/: where they are, and a
# way to put one into a folder as a converter does (copied unchanged). Run by Debian's Python:
# `/usr/bin/python3 -m pytest test/unit/host/converters/graders` (graders.test.ts does, in npm test).
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


def run_with_mark(script, cwd, mark):
    """`python3 -I SCRIPT` from cwd as the verifier's runner starts a test script with a completion
    mark, the mark on descriptor 3: (exit code, stdout, stderr)."""
    r, w = os.pipe()
    os.write(w, (mark + "\n").encode())
    os.close(w)
    os.set_inheritable(r, True)
    try:
        # On descriptor 3 as the runner has it: a small program moves it there, then becomes the grader.
        move = "import os, sys; r = int(sys.argv[1]); os.dup2(r, 3); r != 3 and os.close(r); os.execv(sys.executable, [sys.executable, '-I', sys.argv[2]])"
        p = subprocess.run([sys.executable, "-c", move, str(r), script], cwd=cwd, capture_output=True, text=True, timeout=120, pass_fds=(r,))
    finally:
        os.close(r)
    return p.returncode, p.stdout, p.stderr


def run_pytest(test_file, cwd):
    """pytest on one grader file, as the verifier runs it: (exit code, output)."""
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(test_file)],
                       cwd=cwd, capture_output=True, text=True, timeout=300)
    return r.returncode, r.stdout + r.stderr
