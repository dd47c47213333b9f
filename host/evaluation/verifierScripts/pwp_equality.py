# Equality that cannot be faked, for the verifier's test runs (docs/grading-and-security.md): a
# builtin value (str, int, list, dict, ...) found equal to an object of another type whose
# __eq__/__ne__ the agent wrote is a forged answer, and fails the test as tampering. Used by
# pwp_pytest.py (pytest runs) and pwp_script.py (test scripts run as `python script.py`):
#
# - claim(): the check of one comparison that came out "equal";
# - instrument(): rewrites every `==`, `!=`, `in`, `not in` of a test module's code (in
#   generator expressions, comprehensions, lambdas, `assertTrue(a == b)`, `if a != b: fail`)
#   into a call of compare(), which compares as Python does and then checks;
# - install_unittest(): unittest.TestCase's equality assertions check what they let pass.
#
# Plain Python 3 for the image's interpreter, imported before the workspace is on sys.path
# (everything it imports too). It runs inside the tests' process: code of the agent's that
# patches it back out is the parsed-code check's to find, not this module's.
import ast
import json
import operator
import os
import sys
import unittest

TAMPERING = "pwp: tampering suspected:"
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


_BUILTIN = (str, bytes, bytearray, int, float, complex, bool, type(None), list, tuple, dict, set, frozenset)
_HEAPTYPE = 1 << 9
# A builtin's own value inside an instance of a subclass, whatever the subclass overrides.
_RAW = {
    str: str.__str__, bytes: bytes.__bytes__, bytearray: bytearray.copy, int: int.__int__, float: float.__float__,
    complex: complex.__complex__, list: list.copy, dict: dict.copy, set: set.copy, frozenset: frozenset.copy,
    tuple: lambda v: tuple.__getnewargs__(v)[0],
}


class _Stranger:
    """Nothing is equal to an instance of this but itself."""


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


def _located(cls):
    """True when the class is where its __module__ and __qualname__ say, False when it is not, None for a local class."""
    if "<locals>" in cls.__qualname__:
        return None
    obj = sys.modules.get(getattr(cls, "__module__", None) or "")
    for part in cls.__qualname__.split("."):
        obj = getattr(obj, part, None)
    return obj is cls


def _eq_owners(cls):
    """The classes whose __eq__ and __ne__ instances of cls use, when written in Python (heap types)."""
    out = []
    for name in ("__eq__", "__ne__"):
        owner = next((k for k in cls.__mro__ if name in k.__dict__), None)
        if owner is not None and owner.__flags__ & _HEAPTYPE:
            out.append((owner, name))
    return out


def _agents_equality(cls):
    """Where the agent's code decides equality for instances of cls, as a phrase, or None."""
    for owner, name in _eq_owners(cls):
        where = f"{owner.__qualname__}.{name}"
        fn = owner.__dict__.get(name)
        code = getattr(fn, "__code__", None)
        located = _located(owner)
        # A class's __module__ is its own to set (`__module__ = "os"`): it is believed only
        # where that module really holds the class.
        if located is False:
            return f"{where}: the class says it is {owner.__module__}.{owner.__qualname__}, which it is not"
        if code is None and located is None:
            return f"{where} is {type(fn).__name__} {fn!r:.60}, in a class whose origin cannot be checked"
        paths = [code.co_filename] if code is not None else []
        if located:
            paths.append(getattr(sys.modules.get(owner.__module__), "__file__", None) or "")
        for path in paths:
            if not path or not os.path.isfile(path):
                return f"{where} comes from code with no source file ({path})"
            path = os.path.realpath(path)
            agent = _agent_files()
            if path in agent:
                original = agent[path]
                if original is None or owner.__qualname__ not in _original_eq_classes(original):
                    return f"{where} is defined by the agent in {os.path.relpath(path, '/workspace')}"
    return None


def _tasks_own(cls):
    """Whether every __eq__/__ne__ written in Python that cls uses is the task's (its unchanged files, or a class its original file gave one)."""
    for owner, name in _eq_owners(cls):
        code = getattr(owner.__dict__.get(name), "__code__", None)
        path = os.path.realpath(code.co_filename) if code is not None and os.path.isfile(code.co_filename) else None
        if not path or not path.startswith("/workspace/") or _located(owner) is False:
            return False
        agent = _agent_files()
        if path in agent and (agent[path] is None or owner.__qualname__ not in _original_eq_classes(agent[path])):
            return False
    return True


def _equal_to_anything(value):
    """Whether value says it equals an object nothing honest equals (unittest.mock.ANY, an __eq__ that always says yes)."""
    try:
        return _truth(value == _Stranger()) is True
    except Exception:
        return False


def _raw(value, te):
    """The builtin value inside an instance of a builtin's subclass (as the builtin te or the numeric builtin it subclasses), or _Stranger."""
    for base in type(value).__mro__[1:]:
        if base in _RAW and (base is te or (te in (int, float, complex) and base in (int, float, complex))):
            try:
                return _RAW[base](value)
            except Exception:
                return _Stranger
    return _Stranger


def _check(value, expected, depth=0):
    if depth > 20:
        return None
    te, tv = type(expected), type(value)
    if tv is te or not tv.__flags__ & _HEAPTYPE:
        # The same type, or a compiled one (numpy's scalars): compared as that type compares.
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
    said = f"an object of class {tv.__qualname__} was found equal to the {te.__name__} {expected!r:.80}"
    if te in _BUILTIN:
        raw = _raw(value, te)
        if raw is not _Stranger and _eq_owners(tv) and not _tasks_own(tv):
            # A builtin's subclass whose equality is not the builtin's: its own value decides.
            if type(raw) in (list, tuple, dict, set, frozenset):
                why = _check(raw, expected, depth + 1)
                if why:
                    return why
                if raw != expected:
                    return f"{said}: its own {type(raw).__name__} is {raw!r:.80}"
            elif raw != expected:
                return f"{said}: its own {type(raw).__name__} is {raw!r:.80}"
            return None
        if raw is not _Stranger:
            return _check(raw, expected, depth + 1) if type(raw) in (list, tuple, dict, set, frozenset) else None
        why = _agents_equality(tv)
        if why:
            return f"{said}: {why}"
    else:
        # A library's value (Decimal, Fraction, a date) answered by the agent's equality; the
        # task's own types (in the workspace) may be compared with whatever the task designed.
        where = getattr(sys.modules.get(te.__module__), "__file__", None)
        why = not (where and os.path.realpath(where).startswith("/workspace/")) and _agents_equality(tv)
        if why:
            return f"{said}: {why}"
    if _equal_to_anything(value):
        return f"{said}: it says it is equal to anything (an object nothing else equals, too)"
    return None


def claim(op, left, right):
    """Why `left op right`, which came out as equal (== true, != false, in true), was answered by the agent's code; or None."""
    if op in ("in", "not in"):
        if type(right) in (list, tuple, set, frozenset, dict):
            for e in list(right)[:10_000]:
                why = _check(left, e) or _check(e, left)
                if why:
                    return why
        return None
    return _check(left, right) or _check(right, left)


def _truth(x):
    try:
        return bool(x)
    except Exception:
        return None


_OPS = {"==": operator.eq, "!=": operator.ne, "in": lambda a, b: a in b, "not in": lambda a, b: a not in b}


def compare(op, left, right):
    """`left op right` as Python computes it; an "equal" that the agent's code answered for a builtin fails as tampering."""
    result = _OPS[op](left, right)
    said = _truth(result)
    if (said is True and op in ("==", "in")) or (said is False and op in ("!=", "not in")):
        why = claim(op, left, right)
        if why:
            raise AssertionError(f"{TAMPERING} {why}")
    return result


# ---- instrumenting a test module's comparisons -------------------------------------------

NAME = "@pwp_equality"
_OPNAMES = {ast.Eq: "==", ast.NotEq: "!=", ast.In: "in", ast.NotIn: "not in"}


class _Instrument(ast.NodeTransformer):
    def __init__(self, skip):
        self.skip = skip

    def visit_Compare(self, node):
        self.generic_visit(node)
        if id(node) in self.skip or len(node.ops) != 1 or type(node.ops[0]) not in _OPNAMES:
            return node
        func = ast.Attribute(ast.Name(NAME, ast.Load()), "compare", ast.Load())
        return ast.copy_location(ast.Call(func, [ast.Constant(_OPNAMES[type(node.ops[0])]), node.left, node.comparators[0]], []), node)


def _assert_tests(tree):
    """Comparisons pytest's assertion rewriting already checks (an assert's own test, through and/or/not)."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assert):
            todo = [node.test]
            while todo:
                n = todo.pop()
                if isinstance(n, ast.BoolOp):
                    todo.extend(n.values)
                elif isinstance(n, ast.UnaryOp):
                    todo.append(n.operand)
                elif isinstance(n, ast.Compare):
                    out.add(id(n))
    return out


def instrument(tree, import_self=True, skip_asserts=True):
    """
    Rewrites the module's single comparisons (==, !=, in, not in) into calls of compare().
    With import_self, the module imports this one under NAME (after its docstring and
    __future__ imports); otherwise NAME must be in its globals. Chained comparisons are left
    as they are.
    """
    _Instrument(_assert_tests(tree) if skip_asserts else set()).visit(tree)
    if import_self:
        pos = 0
        for i, stmt in enumerate(tree.body):
            doc = i == 0 and isinstance(stmt, ast.Expr) and isinstance(getattr(stmt, "value", None), ast.Constant) and isinstance(stmt.value.value, str)
            future = isinstance(stmt, ast.ImportFrom) and stmt.module == "__future__"
            if not (doc or future):
                break
            pos = i + 1
        tree.body.insert(pos, ast.Import([ast.alias(__name__, NAME)], lineno=1, col_offset=0))
    ast.fix_missing_locations(tree)
    return tree


# ---- unittest ----------------------------------------------------------------------------

def _pairs(a, b):
    return claim("==", a, b)


def _member(member, container):
    return claim("in", member, container)


def _counted(first, second):
    firsts, seconds = list(first)[:200], list(second)[:200]
    return next((w for a in firsts for b in seconds for w in [_check(a, b) or _check(b, a)] if w), None)


_CHECKS = {
    "assertEqual": _pairs, "assertEquals": _pairs, "failUnlessEqual": _pairs, "assertListEqual": _pairs, "assertTupleEqual": _pairs,
    "assertDictEqual": _pairs, "assertSetEqual": _pairs, "assertSequenceEqual": _pairs, "assertMultiLineEqual": _pairs,
    "assertAlmostEqual": _pairs, "assertAlmostEquals": _pairs, "failUnlessAlmostEqual": _pairs,
    "assertCountEqual": _counted, "assertIn": _member,
}


def _wrapped(name, original, check):
    def method(self, *args, **kwargs):
        result = original(self, *args, **kwargs)
        if len(args) >= 2:
            why = check(args[0], args[1])
            if why:
                raise self.failureException(f"{TAMPERING} {why}")
        return result
    method.__name__ = method.__qualname__ = name
    method.__wrapped__ = original
    return method


def install_unittest():
    """unittest.TestCase's equality assertions fail as tampering when the agent's __eq__ let them pass."""
    for name, check in _CHECKS.items():
        original = unittest.TestCase.__dict__.get(name)
        if original is not None and not hasattr(original, "__wrapped__"):
            setattr(unittest.TestCase, name, _wrapped(name, original, check))
