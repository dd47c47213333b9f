# RES-Q's check: its test script, run with python from the repository's root, must exit 0 and
# print the line inserted before its sys.exit(0).
# Copied by host/converters/resQ.ts to a task's hidden/workspace/.resq/test_resq.py, with
# resq.json beside it: {"script": the test script's path from the root, "mark": the line it
# prints at its end, "initial": the workspace as the agent got it}; the mark lives in the hidden
# files only, as the script does. The verifier runs it as
# `python3 -m pytest -q .resq/test_resq.py` from /workspace.
# The image's standard library, never a workspace module of the same name (the workspace is
# on sys.path while this file runs).
import sys

_path = list(sys.path)
sys.path[:] = [p for p in sys.path if p and not p.startswith("/workspace")]
import json  # noqa: E402
import os  # noqa: E402
import pathlib  # noqa: E402
import subprocess  # noqa: E402
sys.path[:] = _path

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent
SPEC = json.loads((HERE / "resq.json").read_text())


def stdlib_shadows(root, initial):
    names = set(sys.stdlib_module_names)
    found = []
    for p in sorted(pathlib.Path(root).iterdir()):
        name = p.stem if p.suffix == ".py" else p.name if (p / "__init__.py").exists() else None
        if name in names and not (pathlib.Path(initial) / p.name).exists():
            found.append(p.name)
    return found


def test_resq():
    # A new module named like one of the standard library would be imported by the script in its place.
    shadows = stdlib_shadows(ROOT, SPEC["initial"])
    assert not shadows, "new modules named like standard-library ones: %s" % ", ".join(shadows)
    # The script's folder first on sys.path, as `python script.py` has it.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONSAFEPATH"}
    run = subprocess.run([sys.executable, SPEC["script"]], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, "the test script failed (exit code %d):\n%s" % (run.returncode, (run.stdout + run.stderr)[-4000:])
    assert SPEC["mark"] in run.stdout, "the test script did not reach its end"
