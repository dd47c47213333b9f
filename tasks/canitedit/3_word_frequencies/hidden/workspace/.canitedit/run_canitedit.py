# CanItEdit's check: the edited main.py with the row's tests (canitedit_tests.py) appended, written
# to a file and run as that file, as CanItEdit's harness does (tests that read a function's source
# with inspect.getsource need one); the edit is correct when the script exits 0 and reaches its
# end, where this file puts a call of _pwp_reached_end(). The verifier's launcher
# (host/evaluation/verifierScripts/pwp_script.py) prints the run's completion mark, given on file
# descriptor 3, when that call runs: the mark is in no file the program can read (its own script
# holds the call, not the mark), nor in its arguments or environment, so a program that prints
# what it finds at the end of its script, or exits cleanly before the tests, passes nothing; the
# grader, not this process, decides.
# Copied by host/converters/canItEdit.ts to a task's hidden/workspace/.canitedit/run_canitedit.py,
# with canitedit_tests.py and canitedit.json ({"launcher": the verifier's script launcher})
# beside it. The verifier runs it as `python3 -I .canitedit/run_canitedit.py` from /workspace, as
# a `tests` evaluator with a completion mark.
# With -I the workspace is not on sys.path while this file runs: its imports are the image's.
import json
import os
import pathlib
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
SPEC = json.loads((HERE / "canitedit.json").read_text())


def main():
    program = (HERE.parent / "main.py").read_text()
    tests = (HERE / "canitedit_tests.py").read_text()
    folder = tempfile.mkdtemp(prefix="canitedit-")
    path = os.path.join(folder, "program.py")
    with open(path, "w") as f:
        f.write(program + "\n\n" + tests + "\n_pwp_reached_end()\n")
    os.chdir(HERE.parent)
    # The launcher takes descriptor 3 (the mark) as this process got it.
    os.execv(sys.executable, [sys.executable, "-I", SPEC["launcher"], path])


main()
