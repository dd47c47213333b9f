# swe-bench/pwp_recorder.py: the runner's process records each outcome from the runner's result
# object on a pipe (one JSON line each, a last line saying whether its hooks were intact), runs the
# script as `python SCRIPT` would, keeps the pipe from the tests' subprocesses and its memory from
# other processes.
import json
import os
import subprocess
import sys
import textwrap

from conftest import install


def record(tmp_path, kind, script, files, args=()):
    """Runs `script` under the recorder; (its records, exit code, output)."""
    recorder = install("swe-bench/pwp_recorder.py", tmp_path / ".swebench" / "pwp_recorder.py")
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(textwrap.dedent(text))
    read, write = os.pipe()
    p = subprocess.run([sys.executable, str(recorder), str(write), kind, script, *args], cwd=tmp_path, pass_fds=(write,),
                       capture_output=True, text=True, timeout=120)
    os.close(write)
    with os.fdopen(read) as f:
        return [json.loads(line) for line in f], p.returncode, p.stdout + p.stderr


UNITTEST_RUNNER = """
    import sys, unittest
    import cases
    r = unittest.TextTestRunner(verbosity=2).run(unittest.defaultTestLoader.loadTestsFromModule(cases))
    sys.exit(not r.wasSuccessful())
"""
CASES = """
    import os, subprocess, sys, unittest

    class T(unittest.TestCase):
        def test_ok(self):
            '''Says so.'''
        def test_bad(self):
            self.fail("no")
        @unittest.skip("later")
        def test_skip(self):
            pass
        def test_sub(self):
            for i in range(2):
                with self.subTest(i=i):
                    self.assertEqual(i, 0)
        def test_child_has_no_pipe(self):
            fds = subprocess.run([sys.executable, "-c", "import os; print(os.listdir('/proc/self/fd'))"], capture_output=True, text=True).stdout
            assert sys.argv[0].endswith("run.py") and len(eval(fds)) <= 4, fds
        def test_undumpable(self):
            assert open("/proc/self/status").read().count("\\n") > 0
"""


def test_records_unittest_outcomes_from_the_result_object(tmp_path):
    records, code, out = record(tmp_path, "unittest", "tests/run.py", {"tests/run.py": UNITTEST_RUNNER, "tests/cases.py": CASES})
    assert code == 1, out
    got = {(r["name"], r["status"]) for r in records if "status" in r}
    assert got == {("test_ok", "passed"), ("test_bad", "failed"), ("test_skip", "skipped"), ("test_sub", "failed"),
                   ("test_child_has_no_pipe", "passed"), ("test_undumpable", "passed")}, out
    assert next(r for r in records if r.get("name") == "test_ok") == {"name": "test_ok", "cls": "cases.T", "doc": "Says so.", "status": "passed"}
    assert records[-1] == {"end": True, "intact": True, "hooks": 7}


def test_says_when_its_hooks_were_replaced(tmp_path):
    runner = "import unittest.result as r\nr.TestResult.addFailure = r.TestResult.addSuccess\n"
    records, _, out = record(tmp_path, "unittest", "run.py", {"run.py": runner})
    assert records[-1]["intact"] is False, out


SYMPY = {
    "bin/test": """
        import sys
        sys.path.insert(0, __import__("os").path.dirname(__import__("os").path.dirname(__import__("os").path.abspath(__file__))))
        from pkg.runtests import main
        main()
    """,
    "pkg/__init__.py": "",
    "pkg/runtests.py": """
        import sys
        import types

        class PyTestReporter:
            def entering_test(self, f): sys.stdout.write(f.__name__ + " ")
            def test_pass(self, char="."): print("ok")
            def test_fail(self, exc_info): print("F")
            def test_exception(self, exc_info): print("E")
            def test_skip(self, v=None): print("s")
            def test_xfail(self): print("f")
            def test_xpass(self, v): print("X")

        def main():
            r = PyTestReporter()
            r.test_exception(None)  # a file that failed to load: no test is current
            for name, ok in (("test_a", True), ("test_b", False)):
                r.entering_test(types.SimpleNamespace(__name__=name))
                r.test_pass() if ok else r.test_fail(None)
    """,
}


def test_hooks_sympys_reporter_when_the_runner_imports_it(tmp_path):
    # The twin's runner lives in pkg.runtests: recorded under SymPy's module names only.
    plain, _, _ = record(tmp_path, "sympy", "bin/test", SYMPY)
    assert [r for r in plain if "status" in r] == [] and plain[-1]["hooks"] == 0
    files = {k.replace("pkg", "sympy/testing") if k.startswith("pkg") else k: v.replace("pkg.runtests", "sympy.testing.runtests") for k, v in SYMPY.items()}
    files["sympy/__init__.py"] = ""
    records, code, out = record(tmp_path / "s", "sympy", "bin/test", files)
    assert [(r["name"], r["status"]) for r in records if "status" in r] == [("test_a", "passed"), ("test_b", "failed")], out
    assert records[-1] == {"end": True, "intact": True, "hooks": 7}
