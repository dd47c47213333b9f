# Shared by the tests of the grader scripts under host/converters/graders/: where they are, and a
# way to put one into a folder as a converter does (copied unchanged). Run by Debian's Python:
# `/usr/bin/python3 -m pytest test/unit/host/converters/graders` (graders.test.ts does, in npm test).
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


def run_pytest(test_file, cwd):
    """pytest on one grader file, as the verifier runs it: (exit code, output)."""
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(test_file)],
                       cwd=cwd, capture_output=True, text=True, timeout=300)
    return r.returncode, r.stdout + r.stderr
