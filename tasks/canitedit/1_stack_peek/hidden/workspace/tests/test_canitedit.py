# CanItEdit's check: the edited main.py with the benchmark's tests (canitedit_tests.py) appended,
# run as one script; the edit is correct when the script exits cleanly. A line printing a mark
# made now ends the script, so a program that exits early (sys.exit(0) before the tests) fails.
# Copied by host/converters/canItEdit.ts to a task's hidden/workspace/tests/test_canitedit.py,
# beside the row's tests (canitedit_tests.py); the verifier runs it as
# `python3 -m pytest -q tests/test_canitedit.py` from /workspace, where main.py is.
# The image's standard library, never a workspace module of the same name (the workspace is
# on sys.path while this file runs).
import sys

_path = list(sys.path)
sys.path[:] = [p for p in sys.path if p and not p.startswith("/workspace")]
import pathlib  # noqa: E402
import secrets  # noqa: E402
import subprocess  # noqa: E402
sys.path[:] = _path

HERE = pathlib.Path(__file__).resolve().parent


def test_canitedit():
    program = (HERE.parent / "main.py").read_text()
    tests = (HERE / "canitedit_tests.py").read_text()
    mark = secrets.token_hex(16)
    script = program + "\n\n" + tests + "\nprint(%r)\n" % mark
    run = subprocess.run([sys.executable, "-c", script], cwd=HERE.parent, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, (run.stderr or run.stdout)[-4000:]
    assert mark in run.stdout, "the program ended before the tests ran to their end"
