# pytest as the verifier runs it (isolatedRunner.ts's shims call main()): the image's pytest
# with this plugin object passed in, so no argument, ini file or conftest of the task or the
# agent can leave it out. It does two things for the grader (canary.ts, docs/grading-canary.md):
#
# - the canary: tests under names drawn for this run, one that must pass and one that must
#   fail, put among the collected tests (in the first test module, so they are reported like
#   its tests) and listed in the terminal's short summary;
# - equality that cannot be faked (pwp_equality.py): with pytest's assertion-pass hook on,
#   every `==`/`!=`/`in` of an assert statement goes through _call_reprcompare, passing or
#   not; the other comparisons of a test module are rewritten to pwp_equality.compare, and
#   unittest.TestCase's equality assertions check what they let pass. One where a builtin
#   value (str, int, list, dict, ...) is found equal to an object of another type whose
#   __eq__/__ne__ the agent wrote fails the test as tampering.
#
# - sealed test files: the task's hidden test modules are root's alone while the tests run (the
#   deliverable could read their expected values); the runner hands their text over on a
#   descriptor, read here before any code of the workspace runs, and pytest's assertion
#   rewriting takes each from there once (a module pytest does not rewrite, from a loader of
#   this file's), after which nothing in the process holds it.
#
# Plain Python 3 for the image's interpreter; it runs as the tests' user inside the tests'
# process, so it holds nothing secret beyond the canary's names (read once, then dropped
# from the environment) and the sealed test files not yet imported.
# Everything imported here, before the workspace is on sys.path: a module of the workspace
# must never be imported in place of one of these.
import ast
import json
import os
import sys

import pwp_equality
import pwp_sealed
import pwp_sources  # noqa: F401 (imported for its effect: no modules from archives in the workspace)
import pytest
from _pytest.assertion import rewrite

TAMPERING = pwp_equality.TAMPERING
# No cached bytecode: pytest writes a rewritten test module's code to __pycache__ before it runs
# the module, and that code holds its asserts' text (the pass hook's), expected values included,
# where the deliverable the module imports reads it. `-I` ignores PYTHONDONTWRITEBYTECODE.
sys.dont_write_bytecode = True
_canary = {"pass": [], "fail": []}
# The canary's names on the runner's descriptor (PWP_CANARY_FD), read and closed before any
# code of the workspace runs; a test script's later processes find it empty or closed.
_fd = os.environ.pop("PWP_CANARY_FD", "")
if _fd:
    try:
        with os.fdopen(int(_fd), "rb") as f:
            _canary = json.loads(f.read() or b'{"pass": [], "fail": []}')
    except (OSError, ValueError):
        pass

# ---- sealed test files ----------------------------------------------------------------------

def _seal():
    """Takes the sealed test files' text (pwp_sealed.py); pytest's rewriting and a loader of this file's each take one from there, once."""
    texts = pwp_sealed.read()
    if not texts:
        return
    original = rewrite._rewrite_test

    def _rewrite_test(fn, config):
        source = texts.pop(str(fn), None)
        if source is None:
            return original(fn, config)
        strfn = str(fn)
        tree = ast.parse(source, filename=strfn)
        rewrite.rewrite_asserts(tree, source, strfn, config)
        return os.stat(fn), compile(tree, strfn, "exec", dont_inherit=True)

    def _plain(module, origin, source):
        # Not rewritten (--assert=plain, or a module pytest does not rewrite): the equality
        # check goes into every comparison, its asserts' included.
        tree = ast.parse(source, filename=origin)
        pwp_equality.instrument(tree, skip_asserts=False)
        exec(compile(tree, origin, "exec", dont_inherit=True), module.__dict__)

    rewrite._rewrite_test = _rewrite_test
    # After pytest's rewriting hook (it goes first): a sealed module it does not rewrite.
    pwp_sealed.serve(texts, _plain)


_seal()


# ---- the canary ---------------------------------------------------------------------------

class _CanaryItem(pytest.Item):
    def __init__(self, *, fails, **kw):
        super().__init__(**kw)
        self._fails = fails

    def runtest(self):
        if self._fails:
            raise AssertionError("expected failure")

    def reportinfo(self):
        return self.path, None, self.name

    def repr_failure(self, excinfo):
        return "AssertionError: expected failure"


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(session, config, items):
    # Last, so -k and -m have already deselected: the canary always runs.
    if not _canary["pass"] and not _canary["fail"]:
        return
    parent = next((i.parent for i in items if isinstance(i.parent, pytest.Module)), None) or session
    made = [_CanaryItem.from_parent(parent, name=n, fails=False) for n in _canary["pass"]]
    made += [_CanaryItem.from_parent(parent, name=n, fails=True) for n in _canary["fail"]]
    # Spread among the real tests, in an order only this run has.
    for k, item in enumerate(made):
        items.insert((len(items) * (k + 1)) // (len(made) + 1), item)


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config):
    if _canary["pass"] or _canary["fail"]:
        # Passes listed as well as failures: the console then names both canary outcomes.
        config.option.reportchars = "p" + (config.option.reportchars or "").replace("N", "") + "fE"


# ---- equality (pwp_equality.py) ----------------------------------------------------------

_original_reprcompare = rewrite._call_reprcompare


def _call_reprcompare(ops, results, expls, each_obj):
    for i, op in enumerate(ops):
        if i >= len(results):
            break
        said = pwp_equality._truth(results[i])
        claims_equal = (op in ("==", "in") and said) or (op in ("!=", "not in") and said is False)
        if claims_equal:
            why = pwp_equality.claim(op, each_obj[i], each_obj[i + 1])
            if why:
                raise AssertionError(f"{TAMPERING} {why}")
        if said is not True:
            break
    return _original_reprcompare(ops, results, expls, each_obj)


rewrite._call_reprcompare = _call_reprcompare
_original_rewrite_asserts = rewrite.rewrite_asserts


def _rewrite_asserts(mod, source, module_path=None, config=None):
    # Comparisons outside an assert's own test (in generators, comprehensions, lambdas,
    # assertTrue(a == b)) go through pwp_equality.compare.
    pwp_equality.instrument(mod)
    _original_rewrite_asserts(mod, source, module_path, config)


rewrite.rewrite_asserts = _rewrite_asserts
pwp_equality.install_unittest()
# A cached rewrite (a .pyc in __pycache__) may predate the pass hook: always rewrite afresh.
rewrite._read_pyc = lambda *args, **kwargs: None


@pytest.hookimpl
def pytest_assertion_pass(item, lineno, orig, expl):
    # Implemented so the rewritten asserts run their explanation (and the check above) on pass.
    pass


# A run of the grader's own test file (isolatedRunner.ts, graderRunFlags): nothing of the
# workspace goes on the import path, where a module named like one pytest imports as it runs
# (pdb's `code` and `cmd`, `xml`) would put the repository's code into the grader's process.
GRADER_RUN = "--pwp-grader-run"


def main():
    argv = sys.argv[1:]
    if GRADER_RUN in argv:
        argv = [a for a in argv if a != GRADER_RUN]
        sys.path[:] = [p for p in sys.path if p != "/workspace"]
    # Where a grader's run of the repository's tests imports the repository from (its PYTHONPATH,
    # which the launch's -I leaves out): after the workspace, as PYTHONPATH would be.
    sys.path[1:1] = [r for r in os.environ.pop("PWP_IMPORT_ROOTS", "").split(os.pathsep) if r]
    args = ["-o", "enable_assertion_pass_hook=true", *argv]
    try:
        code = pytest.main(args, plugins=[sys.modules[__name__]])
        sys.stdout.flush()
        return code
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
