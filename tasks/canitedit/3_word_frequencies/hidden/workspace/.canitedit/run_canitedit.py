# CanItEdit's check: the edited main.py with the row's tests (canitedit_tests.py) appended, run as
# one script, as CanItEdit's harness does; the edit is correct when the script exits 0 and
# reaches its end, where this file puts a call of _pwp_reached_end(). The verifier's launcher
# (host/evaluation/verifierScripts/pwp_script.py) prints the run's completion mark, given on file
# descriptor 3, when that call runs: the mark is in no file the program can read (its own script
# holds the call, not the mark), nor in its arguments or environment, so a program that prints
# what it finds at the end of its script, or exits cleanly before the tests, passes nothing; the
# grader, not this process, decides.
# The tests are sealed (the evaluator's `sealed`): root's alone while the check runs, their text
# handed to this file on the descriptor PWP_SEALED_FD names, read before any code of the
# workspace runs. The script goes on to the launcher the same way, as text on a descriptor under
# a name no file has: the program finds no tests in `open(__file__)`, and the launcher gives
# inspect the text (CanItEdit's rows that check a function's source need it).
# Copied by host/converters/canItEdit.ts to a task's hidden/workspace/.canitedit/run_canitedit.py,
# with canitedit_tests.py and canitedit.json ({"launcher": the verifier's script launcher})
# beside it. The verifier runs it as `python3 -I .canitedit/run_canitedit.py` from /workspace, as
# a `tests` evaluator with a completion mark.
# With -I the workspace is not on sys.path while this file runs: its imports are the image's.
import base64
import json
import os
import pathlib
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
SPEC = json.loads((HERE / "canitedit.json").read_text())


def sealed_texts():
    """The sealed files' text ({path: bytes}) from the verifier, through the launcher's own reader."""
    sys.path.insert(0, os.path.dirname(SPEC["launcher"]))
    try:
        import pwp_sealed
    finally:
        del sys.path[0]
    return pwp_sealed.read()


def main():
    texts = sealed_texts()
    tests_path = str(HERE / "canitedit_tests.py")
    tests = texts.pop(tests_path, None)
    if tests is None:
        tests = pathlib.Path(tests_path).read_bytes()
    program = (HERE.parent / "main.py").read_bytes()
    script = program + b"\n\n" + tests + b"\n_pwp_reached_end()\n"
    # A name in a fresh folder that holds no such file.
    path = os.path.join(tempfile.mkdtemp(prefix="canitedit-"), "program.py")
    fd = os.memfd_create("canitedit-script")
    os.write(fd, json.dumps({path: base64.b64encode(script).decode()}).encode())
    os.lseek(fd, 0, os.SEEK_SET)
    if fd != 4:
        os.dup2(fd, 4)
        os.close(fd)
    os.set_inheritable(4, True)
    os.chdir(HERE.parent)
    # The launcher takes descriptor 3 (the mark) as this process got it, and 4 (the script).
    os.execve(sys.executable, [sys.executable, "-I", SPEC["launcher"], path], {**os.environ, "PWP_SEALED_FD": "4"})


main()
