# The result recorder of SWE-bench's own-runner repositories (Django's tests/runtests.py, SymPy's
# bin/test): each test's outcome as the runner decided it, taken from the runner's result object
# rather than read back from its console, which any code in the test process can print into.
# Copied by host/converters/sweBench.ts beside test_swebench.py (hidden/workspace/.swebench/),
# which runs it as the runner's process: `python3 pwp_recorder.py FD KIND SCRIPT ARGS...`.
#
# In that process it
# - makes the process undumpable, so no other process of the tests' user can read its memory or
#   open its descriptors through /proc (the grader's process does the same for itself);
# - takes the write end of a pipe (FD, never inherited by the tests' own subprocesses), and
#   writes one JSON line per outcome to it: unittest's TestResult (stdlib; Django's runner
#   reports through it), or SymPy's PyTestReporter (hooked when the runner imports it);
# - takes the repository's sealed test files (the evaluator's innerRecorder: root's alone while the
#   tests run) from the verifier's broker, through the verifier's own pwp_sealed.py (PWP_SEALED_LIB
#   names it, PWP_SEAL_BROKER the broker), before any code of the repository runs: a module the
#   runner imports (Django's test modules) loads from its text, and SymPy's runner, which opens
#   each test file itself, has its `open` answer those paths (the module's own global, so no
#   other code's open does), each once;
# - runs the runner script as `python SCRIPT ARGS` would, and writes a last line at exit saying
#   whether its hooks were still in place.
# The grader (test_swebench.py) scores from these lines, requires the console to agree with them
# and a canary of its own to show in both. Code of the repository that runs in this process
# could still call the hooked methods itself, or find the descriptor: that is the limit of any
# in-process record (docs/benchmarks.md says so), shared with pytest's own JUnit report.
import sys

# Standard library modules only, never a workspace module of the same name (PYTHONPATH holds the
# repository's root; the script's folder comes first later, as `python SCRIPT` has it).
_path = list(sys.path)
sys.path[:] = [p for p in sys.path if p and not p.startswith("/workspace")]
import atexit  # noqa: E402
import builtins  # noqa: E402
import ctypes  # noqa: E402
import importlib.abc  # noqa: E402
import importlib.util  # noqa: E402
import io  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import runpy  # noqa: E402
import unittest.result  # noqa: E402
sys.path[:] = _path

UNITTEST_METHODS = ("addSuccess", "addFailure", "addError", "addSkip", "addExpectedFailure", "addUnexpectedSuccess", "addSubTest")
SYMPY_METHODS = ("entering_test", "test_pass", "test_fail", "test_exception", "test_skip", "test_xfail", "test_xpass")
SYMPY_MODULES = ("sympy.testing.runtests", "sympy.utilities.runtests")


class Recorder:
    def __init__(self, fd):
        self.out = os.fdopen(fd, "w", buffering=1)
        self.hooks = []  # (owner, name, wrapper)
        self.current = None
        self.texts = {}  # the sealed test files not yet loaded: {absolute path: bytes}

    def write(self, record):
        self.out.write(json.dumps(record) + "\n")

    def hook(self, owner, name, make):
        original = getattr(owner, name)
        wrapper = make(original)
        setattr(owner, name, wrapper)
        self.hooks.append((owner, name, wrapper))

    def intact(self):
        return all(owner.__dict__.get(name) is wrapper for owner, name, wrapper in self.hooks)

    def finish(self):
        self.write({"end": True, "intact": self.intact(), "hooks": len(self.hooks)})
        self.out.close()


def hook_unittest(rec):
    # Every outcome a unittest runner (Django's DiscoverRunner among them) reports goes through
    # these methods of TestResult, its subclasses calling them through super().
    statuses = {"addSuccess": "passed", "addFailure": "failed", "addError": "failed", "addSkip": "skipped",
                "addExpectedFailure": "passed", "addUnexpectedSuccess": "failed"}

    def record(test, status):
        try:
            doc = test.shortDescription()
        except Exception:  # noqa: BLE001 - a test's own description must not stop the record
            doc = None
        cls = type(test)
        rec.write({"name": getattr(test, "_testMethodName", str(test)), "cls": cls.__module__ + "." + cls.__qualname__,
                   "doc": doc, "status": status})

    for name, status in statuses.items():
        def make(original, status=status):
            def wrapper(self, test, *args):
                record(test, status)
                return original(self, test, *args)
            return wrapper
        rec.hook(unittest.result.TestResult, name, make)

    def make_sub(original):
        def wrapper(self, test, subtest, err):
            if err is not None:
                record(test, "failed")
            return original(self, test, subtest, err)
        return wrapper
    rec.hook(unittest.result.TestResult, "addSubTest", make_sub)


def hook_sympy(rec, module):
    reporter = getattr(module, "PyTestReporter", None)
    if reporter is None:
        return
    statuses = {"test_pass": "passed", "test_fail": "failed", "test_exception": "failed", "test_skip": "skipped",
                "test_xfail": "xfail", "test_xpass": "failed"}

    def make_entering(original):
        def wrapper(self, f, *args, **kwargs):
            rec.current = getattr(f, "__name__", str(f))
            return original(self, f, *args, **kwargs)
        return wrapper
    rec.hook(reporter, "entering_test", make_entering)
    for name, status in statuses.items():
        def make(original, status=status):
            def wrapper(self, *args, **kwargs):
                # test_exception also reports a test file that failed to load: no test is current then.
                if rec.current is not None:
                    rec.write({"name": rec.current, "status": status})
                    rec.current = None
                return original(self, *args, **kwargs)
            return wrapper
        rec.hook(reporter, name, make)


class HookingLoader(importlib.abc.Loader):
    """The module's own loader (its source, its file), hooking the reporter once the module has run."""

    def __init__(self, loader, rec):
        self.loader, self.rec = loader, rec

    def __getattr__(self, name):
        return getattr(self.loader, name)

    def create_module(self, spec):
        return self.loader.create_module(spec)

    def exec_module(self, module):
        self.loader.exec_module(module)
        hook_sympy(self.rec, module)
        if self.rec.texts:
            module.open = sealed_open(self.rec.texts)


def sealed_open(texts):
    """open() for SymPy's runner: a sealed test file's text from the broker's, once; anything else from disk."""
    def open_(file, mode="r", *args, **kwargs):
        path = os.path.abspath(file) if isinstance(file, str) else None
        if path in texts and set(mode) <= set("rbt"):
            data = texts.pop(path)
            if "b" in mode:
                return io.BytesIO(data)
            return io.StringIO(data.decode(kwargs.get("encoding") or (args[1] if len(args) > 1 else None) or "utf-8"))
        return builtins.open(file, mode, *args, **kwargs)
    return open_


def take_sealed(rec):
    """The sealed test files from the verifier's broker, and the import of them from their text."""
    lib = os.environ.pop("PWP_SEALED_LIB", "")
    if not lib or not os.environ.get("PWP_SEAL_BROKER"):
        return
    spec = importlib.util.spec_from_file_location("pwp_sealed", lib)
    sealed = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(sealed)
    rec.texts = sealed.read()

    def run(module, origin, source):
        exec(compile(source, origin, "exec"), module.__dict__)  # noqa: S102 - the module's own text
    sealed.serve(rec.texts, run)


class SympyHook(importlib.abc.MetaPathFinder):
    """Hooks SymPy's reporter when the runner imports its module, without importing it earlier."""

    def __init__(self, rec):
        self.rec = rec

    def find_spec(self, name, path, target=None):
        if name not in SYMPY_MODULES:
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(name, path, target)
            if spec is not None and spec.loader is not None:
                spec.loader = HookingLoader(spec.loader, self.rec)
                return spec
        return None


def undumpable():
    # PR_SET_DUMPABLE 0: /proc/<pid>/{mem,fd} and ptrace of this process are root's alone.
    try:
        ctypes.CDLL(None, use_errno=True).prctl(4, 0, 0, 0, 0)
    except (OSError, AttributeError):
        pass


def main(argv):
    fd, kind, script, args = int(argv[1]), argv[2], argv[3], argv[4:]
    undumpable()
    os.set_inheritable(fd, False)
    rec = Recorder(fd)
    # Undumpable first: the broker serves no process whose memory others could read.
    take_sealed(rec)
    if kind == "unittest":
        hook_unittest(rec)
    elif kind == "sympy":
        sys.meta_path.insert(0, SympyHook(rec))
    else:
        raise SystemExit("pwp_recorder: unknown kind " + kind)
    atexit.register(rec.finish)
    sys.argv = [script] + args
    sys.path[0] = os.path.dirname(os.path.abspath(script))
    runpy.run_path(script, run_name="__main__")


if __name__ == "__main__":
    main(sys.argv)
