# pytest as the verifier runs it (isolatedRunner.ts's shims call main()): the image's pytest
# with this plugin object passed in, so no argument, ini file or conftest of the task or the
# agent can leave it out. It does two things for the grader (canary.ts, docs/grading-canary.md):
#
# - the canary: tests under names drawn for this run, one that must pass and one that must
#   fail, put among the collected tests (in the first test module, so they are reported like
#   its tests) and listed in the terminal's short summary;
# - equality that cannot be faked: with pytest's assertion-pass hook on, every `==`/`!=`
#   of an assert statement goes through _call_reprcompare, passing or not; one where a
#   builtin value (str, int, list, dict, ...) is found equal to an object of another type
#   whose __eq__/__ne__ the agent wrote fails the test as tampering.
#
# Plain Python 3 for the image's interpreter; it runs as the tests' user inside the tests'
# process, so it holds nothing secret beyond the canary's names (read once, then dropped
# from the environment).
# Everything imported here, before the workspace is on sys.path: a module of the workspace
# must never be imported in place of one of these.
import ast
import json
import os
import sys

import pytest
from _pytest.assertion import rewrite

TAMPERING = "pwp: tampering suspected:"
_canary = {"pass": [], "fail": []}
_dir = os.environ.pop("PWP_CANARY_DIR", "")
if _dir:
    try:
        with open(os.path.join(_dir, "canary.json")) as f:
            _canary = json.load(f)
    except OSError:
        pass
# The agent's Python files: {absolute path: original source, or None when added}; the
# verifier writes them beside this file (verifier.ts), read when first needed.
_agent = None


def _agent_files():
    global _agent
    if _agent is None:
        _agent = {}
        try:
            with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "deliverable.json")) as f:
                _agent = {os.path.join("/workspace", p): src for p, src in json.load(f).items()}
        except (OSError, ValueError):
            pass
    return _agent


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


# ---- equality -----------------------------------------------------------------------------

_BUILTIN = (str, bytes, bytearray, int, float, complex, bool, type(None), list, tuple, dict, set, frozenset)
_HEAPTYPE = 1 << 9


def _source_file(owner, name):
    fn = owner.__dict__.get(name)
    code = getattr(fn, "__code__", None)
    if code is not None:
        return code.co_filename
    mod = sys.modules.get(getattr(owner, "__module__", None) or "")
    return getattr(mod, "__file__", None)


def _original_eq_classes(source):
    found = set()

    def walk(node, prefix):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef):
                q = prefix + child.name
                for stmt in child.body:
                    names = [stmt.name] if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) else \
                        [t.id for t in getattr(stmt, "targets", []) if isinstance(t, ast.Name)]
                    if "__eq__" in names or "__ne__" in names:
                        found.add(q)
                walk(child, q + ".")
            elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                walk(child, prefix + child.name + ".<locals>.")
    try:
        walk(ast.parse(source), "")
    except SyntaxError:
        pass
    return found


def _agents_equality(cls):
    """Where the agent's code decides equality for instances of cls, as a phrase, or None."""
    for name in ("__eq__", "__ne__"):
        owner = next((k for k in cls.__mro__ if name in k.__dict__), None)
        if owner is None or not owner.__flags__ & _HEAPTYPE:
            continue  # a builtin's or a compiled library's
        path = _source_file(owner, name)
        where = f"{owner.__qualname__}.{name}"
        if not path or not os.path.isfile(path):
            return f"{where} comes from code with no source file ({path})"
        path = os.path.realpath(path)
        agent = _agent_files()
        if path in agent:
            original = agent[path]
            if original is None or owner.__qualname__ not in _original_eq_classes(original):
                return f"{where} is defined by the agent in {os.path.relpath(path, '/workspace')}"
    return None


def _check(value, expected, depth=0):
    if depth > 20:
        return None
    te, tv = type(expected), type(value)
    if te in _BUILTIN and tv is not te:
        why = _agents_equality(tv)
        return f"an object of class {tv.__qualname__} was found equal to the {te.__name__} {expected!r:.80}: {why}" if why else None
    if tv is te and te in (list, tuple) and len(value) == len(expected):
        for v, e in zip(value, expected):
            why = _check(v, e, depth + 1)
            if why:
                return why
    elif tv is te is dict:
        for k, e in expected.items():
            if k in value:
                why = _check(dict.__getitem__(value, k), e, depth + 1)
                if why:
                    return why
    elif tv is te and te in (set, frozenset):
        for v in value:
            why = type(v) not in _BUILTIN and _agents_equality(type(v))
            if why:
                return f"an object of class {type(v).__qualname__} in a {te.__name__}: {why}"
    return None


def _truth(x):
    try:
        return bool(x)
    except Exception:
        return None


_original_reprcompare = rewrite._call_reprcompare


def _call_reprcompare(ops, results, expls, each_obj):
    for i, op in enumerate(ops):
        if i >= len(results):
            break
        said = _truth(results[i])
        claims_equal = (op == "==" and said) or (op == "!=" and said is False)
        if claims_equal:
            left, right = each_obj[i], each_obj[i + 1]
            why = _check(left, right) or _check(right, left)
            if why:
                raise AssertionError(f"{TAMPERING} {why}")
        if said is not True:
            break
    return _original_reprcompare(ops, results, expls, each_obj)


rewrite._call_reprcompare = _call_reprcompare
# A cached rewrite (a .pyc in __pycache__) may predate the pass hook: always rewrite afresh.
rewrite._read_pyc = lambda *args, **kwargs: None


@pytest.hookimpl
def pytest_assertion_pass(item, lineno, orig, expl):
    # Implemented so the rewritten asserts run their explanation (and the check above) on pass.
    pass


def main():
    args = ["-o", "enable_assertion_pass_hook=true", *sys.argv[1:]]
    try:
        code = pytest.main(args, plugins=[sys.modules[__name__]])
        sys.stdout.flush()
        return code
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
