// Synthetic twins of two published SWE-bench rows whose quirks pwp must grade right, built as
// git repositories at test time (no published data here):
// - pytestTwin: pytest-dev__pytest-11143's shape. The repository is pytest itself (a copy of the
//   Debian pytest this machine has, made at test time), with a bug planted in its assertion
//   rewriter that the image's own pytest does not have: run by the image's pytest, the hidden
//   tests pass with or without the fix, as the real row's did (gold and null 99/115).
// - pydicomTwin: pydicom__pydicom-1458's shape. Its tests download data files as they run
//   (from the URLs in the repository's urls.json, here a server the test starts), and the
//   dataset's ids carry the harness's absolute paths (its checkout's files, its home's
//   downloads, two paths in one parameter) and ids cut at a space; a second row names a file the
//   harness's checkout had and this repository does not.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { SweInstance } from '../../host/converters/sweBench';

const gitEnv = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' };
/** git in `dir`, as a fixed author. */
export const git = (dir: string, args: string[]) => execFileSync('git', args, { cwd: dir, env: gitEnv }).toString();
/** Writes `files` (relative path -> text) under `root`. */
export const write = (root: string, files: Record<string, string>) => {
  for (const [p, c] of Object.entries(files)) { mkdirSync(dirname(join(root, p)), { recursive: true }); writeFileSync(join(root, p), c); }
};

/** A repository with one commit, and the diffs `change` makes to it (then undone). */
export function repoWith(dir: string, files: Record<string, string>, copy: [string, string][] = []): { base: string; diff: (change: Record<string, string>) => string } {
  for (const [from, to] of copy) cpSync(from, join(dir, to), { recursive: true, filter: (src) => !src.includes('__pycache__') });
  write(dir, files);
  git(dir, ['init', '-q']); git(dir, ['add', '-A']); git(dir, ['commit', '-qm', 'base']);
  return {
    base: git(dir, ['rev-parse', 'HEAD']).trim(),
    diff(change) {
      write(dir, change); git(dir, ['add', '-N', '.']);
      const d = git(dir, ['diff']);
      git(dir, ['reset', '-q']); git(dir, ['checkout', '-q', '--', '.']); git(dir, ['clean', '-qfd']);
      return d;
    },
  };
}

/** Debian's pytest on this machine (the graders' tests need it too). */
const DEBIAN_PYTEST = '/usr/lib/python3/dist-packages';

// pytest 7.2's docstring check, and the shape pytest-dev__pytest-11143's bug gave it (a number
// as the module's first expression taken for its docstring), and that fix.
const REWRITE_OK = 'and isinstance(item.value, ast.Str)\n            ):\n                doc = item.value.s\n';
const REWRITE_BUG = 'and isinstance(item.value, ast.Constant)\n            ):\n                doc = item.value.value\n';
const REWRITE_FIX = 'and isinstance(item.value, ast.Constant)\n                and isinstance(item.value.value, str)\n            ):\n                doc = item.value.value\n';

const REWRITE_TESTS = `import ast

import pytest

from _pytest.assertion.rewrite import rewrite_asserts


def rewritten(src):
    mod = ast.parse(src)
    rewrite_asserts(mod, src.encode())
    return mod


def test_docstring_kept():
    mod = rewritten('"""A docstring."""\\nassert 1\\n')
    assert isinstance(mod.body[0], ast.Expr)


@pytest.mark.parametrize("src", ["multi line\\n", "one"])
def test_source_kinds(src):
    assert rewritten("x = %r\\nassert x\\n" % src).body
`;
const NUMBER_FIRST = `

class TestNumberFirst:
    def test_number_is_not_a_docstring(self):
        mod = rewritten("0\\nassert 1 == 1\\n")
        assert any(isinstance(n, ast.If) for n in ast.walk(mod))
`;

/** The pytest twin: `repos` holds pytest-dev__pytest; its one instance. */
export function pytestTwin(root: string): { repos: string; instance: SweInstance } {
  const dir = join(root, 'repos/pytest-dev__pytest');
  const rewrite = readFileSync(join(DEBIAN_PYTEST, '_pytest/assertion/rewrite.py'), 'utf8');
  if (!rewrite.includes(REWRITE_OK)) throw new Error(`${DEBIAN_PYTEST}/_pytest is not the pytest 7.2 this twin is made from`);
  const repo = repoWith(dir, {
    '.gitignore': 'src/_pytest/_version.py\n',
    'testing/test_assertrewrite.py': REWRITE_TESTS,
  }, [[join(DEBIAN_PYTEST, 'pytest'), 'src/pytest'], [join(DEBIAN_PYTEST, '_pytest'), 'src/_pytest']]);
  // The install writes _version.py (the converter too); the base commit carries the bug.
  rmSync(join(dir, 'src/_pytest/_version.py'), { force: true });
  write(dir, { 'src/_pytest/assertion/rewrite.py': rewrite.replace(REWRITE_OK, REWRITE_BUG) });
  git(dir, ['add', '-A']); git(dir, ['commit', '-qm', 'rewrite: constants as docstrings']);
  const base = git(dir, ['rev-parse', 'HEAD']).trim();
  const instance: SweInstance = {
    instance_id: 'pytest-dev__pytest-90143', repo: 'pytest-dev/pytest', base_commit: base, version: '8.0',
    patch: repo.diff({ 'src/_pytest/assertion/rewrite.py': rewrite.replace(REWRITE_OK, REWRITE_FIX) }),
    test_patch: repo.diff({ 'testing/test_assertrewrite.py': REWRITE_TESTS + NUMBER_FIRST }),
    problem_statement: 'Rewrite fails when the first expression of a file is a number: it is taken for a docstring (TypeError: argument of type \'int\' is not iterable).',
    FAIL_TO_PASS: ['testing/test_assertrewrite.py::TestNumberFirst::test_number_is_not_a_docstring'],
    // As SWE-bench's parser wrote them: the id with a space cut there.
    PASS_TO_PASS: ['testing/test_assertrewrite.py::test_docstring_kept', 'testing/test_assertrewrite.py::test_source_kinds[multi', 'testing/test_assertrewrite.py::test_source_kinds[one]'],
  };
  return { repos: join(root, 'repos'), instance };
}

const DATA_MANAGER = `"""Test data: files of the repository, and files downloaded on first use into ~/.pydicom/data."""
import json
import pathlib
import urllib.request
import warnings

HERE = pathlib.Path(__file__).resolve().parent


def get_testdata_file(name):
    local = HERE / "test_files" / name
    if local.exists():
        return str(local)
    target = pathlib.Path.home() / ".pydicom" / "data" / name
    if not target.exists():
        url = json.loads((HERE / "urls.json").read_text())[name]
        target.parent.mkdir(parents=True, exist_ok=True)
        try:
            urllib.request.urlretrieve(url, str(target))
        except OSError as err:
            warnings.warn("A download failure occurred while attempting to retrieve %s (%s)" % (name, err))
            return None
    return str(target)
`;
const HANDLER_BUG = 'def mean(path):\n    values = [int(x) for x in open(path).read().split()]\n    return sum(values) / (len(values) - 1)\n';
const HANDLER_FIX = 'def mean(path):\n    values = [int(x) for x in open(path).read().split()]\n    return sum(values) / len(values)\n';
const HANDLER_TESTS = `import pytest

from pydicom.data import get_testdata_file
from pydicom.handler import mean

FILES = [get_testdata_file(n) for n in ("one.dat", "two.dat", "remote_a.dat", "remote_b.dat")]
PAIRS = [(get_testdata_file("one.dat"), get_testdata_file("two.dat")), (get_testdata_file("remote_a.dat"), get_testdata_file("remote_b.dat"))]


@pytest.mark.parametrize("path", FILES)
def test_read(path):
    assert open(path).read().split()


@pytest.mark.parametrize("a, b", PAIRS)
def test_pair(a, b):
    assert open(a).read() != open(b).read()


@pytest.mark.parametrize("label", ["a b", "c"])
def test_label(label):
    assert label
`;
const MEAN_TESTS = `

def test_mean_of_remote():
    assert mean(get_testdata_file("remote_a.dat")) == 2
`;

/** The data files the pydicom twin downloads, by name, as its server serves them. */
export const PYDICOM_TWIN_DATA: Record<string, string> = { 'remote_a.dat': '1 2 3\n', 'remote_b.dat': '4 5 6\n' };

/** The pydicom twin (`dataUrl`: where its urls.json points, ending in /): `repos` holds pydicom__pydicom; a sound row and one naming a file of the harness's that is not here. */
export function pydicomTwin(root: string, dataUrl: string): { repos: string; instances: [SweInstance, SweInstance] } {
  const repo = repoWith(join(root, 'repos/pydicom__pydicom'), {
    'pydicom/__init__.py': '', 'pydicom/handler.py': HANDLER_BUG, 'pydicom/data/__init__.py': DATA_MANAGER,
    'pydicom/data/urls.json': JSON.stringify(Object.fromEntries(Object.keys(PYDICOM_TWIN_DATA).map((n) => [n, `${dataUrl}${n}`]))),
    'pydicom/data/test_files/one.dat': '1 1\n', 'pydicom/data/test_files/two.dat': '2 2\n',
    'pydicom/tests/__init__.py': '', 'pydicom/tests/test_handler.py': HANDLER_TESTS,
  });
  const harness = '/n/fs/p-swe-bench/temp/tmpab12cd/pydicom__pydicom__2.2/pydicom/data/test_files';
  const home = '/n/fs/guest/someone/.pydicom/data';
  const t = 'pydicom/tests/test_handler.py';
  const row = (n: number, extra: string[]): SweInstance => ({
    instance_id: `pydicom__pydicom-${n}`, repo: 'pydicom/pydicom', base_commit: repo.base, version: '2.2',
    patch: repo.diff({ 'pydicom/handler.py': HANDLER_FIX }),
    test_patch: repo.diff({ [t]: HANDLER_TESTS + MEAN_TESTS }),
    problem_statement: 'mean() of a data file divides by one less than the number of values.',
    FAIL_TO_PASS: [`${t}::test_mean_of_remote`],
    PASS_TO_PASS: [
      `${t}::test_read[${harness}/one.dat]`, `${t}::test_read[${harness}/two.dat]`, `${t}::test_read[${home}/remote_a.dat]`, `${t}::test_read[${home}/remote_b.dat]`,
      `${t}::test_pair[${harness}/one.dat-${harness}/two.dat]`, `${t}::test_pair[${home}/remote_a.dat-${home}/remote_b.dat]`,
      `${t}::test_label[a`, `${t}::test_label[c]`, ...extra,
    ],
  });
  return { repos: join(root, 'repos'), instances: [row(90001, []), row(90002, [`${t}::test_read[${harness}/gone.dat]`])] };
}

/** Every file under a folder, by relative path (for a workspace's tar). */
export function filesUnder(dir: string, base = dir, out = new Map<string, Buffer>()): Map<string, Buffer> {
  for (const e of readdirSync(dir)) {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) filesUnder(p, base, out);
    else out.set(p.slice(base.length + 1), readFileSync(p));
  }
  return out;
}

// A Django-like repository: its own test runner (tests/runtests.py: unittest's runner at
// verbosity 2, test apps under tests/ named by label, `import django` from the path, as
// Django's), its own test base class (django.test.SimpleTestCase), and a bug in django.utils.
const DJANGO_RUNTESTS = `#!/usr/bin/env python
"""Runs the test apps under tests/ named on the command line (Django's runner, in small)."""
import argparse
import os
import sys
import unittest

try:
    import django
except ImportError as e:
    raise RuntimeError("Django module not found") from e

RUNTESTS_DIR = os.path.abspath(os.path.dirname(__file__))


def suite_for(label):
    path = os.path.join(RUNTESTS_DIR, *label.split("."))
    if os.path.isdir(path):
        return unittest.defaultTestLoader.discover(path, pattern="test*.py", top_level_dir=RUNTESTS_DIR)
    return unittest.defaultTestLoader.loadTestsFromName(label)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("modules", nargs="*")
    parser.add_argument("-v", "--verbosity", type=int, default=1)
    parser.add_argument("--settings")
    parser.add_argument("--parallel", default="1")
    options = parser.parse_args()
    print("Testing against Django installed in '%s'" % os.path.dirname(django.__file__))
    suite = unittest.TestSuite(suite_for(label) for label in options.modules)
    result = unittest.TextTestRunner(verbosity=options.verbosity).run(suite)
    sys.exit(not result.wasSuccessful())
`;
const DJANGO_TEXT_BUG = 'def capfirst(x):\n    """Capitalize the first letter of a string."""\n    return x[0].upper() + x[1:]\n';
const DJANGO_TEXT_FIX = 'def capfirst(x):\n    """Capitalize the first letter of a string."""\n    return x and x[0].upper() + x[1:]\n';
const DJANGO_TESTS = `from django.test import SimpleTestCase
from django.utils.text import capfirst


class TestUtilsText(SimpleTestCase):
    def test_capfirst(self):
        self.assertEqual(capfirst("hello"), "Hello")

    def test_capfirst_lazy(self):
        """Strings made elsewhere are capitalized too."""
        self.assertEqual(capfirst("".join(["w", "orld"])), "World")
`;
const DJANGO_NEW_TEST = `
    def test_capfirst_empty(self):
        self.assertEqual(capfirst(""), "")
`;

/** The Django-like twin: `repos` holds django__django; one instance, ids as SWE-bench's Django log parser writes them. */
export function djangoTwin(root: string): { repos: string; instance: SweInstance } {
  const repo = repoWith(join(root, 'repos/django__django'), {
    'django/__init__.py': 'VERSION = (4, 2)\n',
    'django/test/__init__.py': 'import unittest\n\n\nclass SimpleTestCase(unittest.TestCase):\n    """The repository\'s own test base class."""\n',
    'django/utils/__init__.py': '', 'django/utils/text.py': DJANGO_TEXT_BUG,
    'tests/runtests.py': DJANGO_RUNTESTS, 'tests/test_sqlite.py': 'DATABASES = {}\n',
    'tests/utils_tests/__init__.py': '', 'tests/utils_tests/test_text.py': DJANGO_TESTS,
  });
  const instance: SweInstance = {
    instance_id: 'django__django-90001', repo: 'django/django', base_commit: repo.base, version: '4.2',
    patch: repo.diff({ 'django/utils/text.py': DJANGO_TEXT_FIX }),
    test_patch: repo.diff({ 'tests/utils_tests/test_text.py': DJANGO_TESTS + DJANGO_NEW_TEST }),
    problem_statement: 'capfirst("") raises IndexError instead of returning "".',
    FAIL_TO_PASS: ['test_capfirst_empty (utils_tests.test_text.TestUtilsText)'],
    // A test with a docstring is named by its first line, as SWE-bench's Django parser reads it.
    PASS_TO_PASS: ['test_capfirst (utils_tests.test_text.TestUtilsText)', 'Strings made elsewhere are capitalized too.'],
  };
  return { repos: join(root, 'repos'), instance };
}

/** What an agent could add to the Django twin's package: a line printed at exit claiming the failing test passed. */
export const DJANGO_CONSOLE_FORGERY = 'VERSION = (4, 2)\n\nimport atexit\nimport sys\n\natexit.register(lambda: sys.stderr.write("test_capfirst_empty (utils_tests.test_text.TestUtilsText) ... ok\\n"))\n';

// A SymPy-like repository: bin/test (puts the checkout on the path, calls sympy.test), its own
// runner in sympy/utilities/runtests.py (test files executed, their test_ functions called, each
// outcome told to a PyTestReporter that prints `name ok`, `F`, `E` when verbose), and a bug.
const SYMPY_BIN_TEST = `#!/usr/bin/env python
"""Runs SymPy's tests (the runner is sympy.utilities.runtests)."""
import sys
from argparse import ArgumentParser

from get_sympy import path_hack
path_hack()

parser = ArgumentParser()
parser.add_argument("-v", "--verbose", action="store_true")
parser.add_argument("-C", "--no-cache", action="store_true")
parser.add_argument("paths", nargs="*")
options = parser.parse_args()

import sympy

sys.exit(0 if sympy.test(*options.paths, verbose=options.verbose) else 1)
`;
const SYMPY_GET = 'import os\nimport sys\n\n\ndef path_hack():\n    top = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))\n    sys.path.insert(0, top)\n    return top\n';
const SYMPY_RUNTESTS = `"""The test runner: each file's test_ functions, called in order, reported one by one."""
import sys


class PyTestReporter:
    def __init__(self, verbose):
        self.verbose, self.failed = verbose, 0

    def write(self, text):
        sys.stdout.write(text)
        sys.stdout.flush()

    def entering_test(self, f):
        if self.verbose:
            self.write("\\n" + f.__name__ + " ")

    def test_pass(self, char="."):
        self.write("ok" if self.verbose else char)

    def test_fail(self, exc_info):
        self.failed += 1
        self.write("F")

    def test_exception(self, exc_info):
        self.failed += 1
        self.write("E")

    def test_skip(self, v=None):
        self.write("s")

    def test_xfail(self):
        self.write("f")

    def test_xpass(self, v):
        self.failed += 1
        self.write("X")


def test(*paths, verbose=False):
    reporter = PyTestReporter(verbose)
    for path in paths:
        namespace = {"__file__": path}
        with open(path) as f:
            exec(compile(f.read(), path, "exec"), namespace)
        funcs = [v for k, v in namespace.items() if k.startswith("test_") and callable(v)]
        for f in sorted(funcs, key=lambda f: f.__code__.co_firstlineno):
            reporter.entering_test(f)
            try:
                f()
            except AssertionError:
                reporter.test_fail(sys.exc_info())
            except Exception:
                reporter.test_exception(sys.exc_info())
            else:
                reporter.test_pass()
    reporter.write("\\n")
    return reporter.failed == 0
`;
const SYMPY_NUMBERS_BUG = 'def igcd(a, b):\n    while b:\n        a, b = b, a % b\n    return a\n';
const SYMPY_NUMBERS_FIX = 'def igcd(a, b):\n    while b:\n        a, b = b, a % b\n    return abs(a)\n';
const SYMPY_TESTS = 'from sympy.core.numbers import igcd\n\n\ndef test_igcd():\n    assert igcd(12, 18) == 6\n\n\ndef test_igcd_zero():\n    assert igcd(5, 0) == 5\n';
const SYMPY_NEW_TEST = '\n\ndef test_igcd_negative():\n    assert igcd(4, -6) == 2\n';

/** The SymPy-like twin: `repos` holds sympy__sympy; one instance. */
export function sympyTwin(root: string): { repos: string; instance: SweInstance } {
  const repo = repoWith(join(root, 'repos/sympy__sympy'), {
    'bin/test': SYMPY_BIN_TEST, 'bin/get_sympy.py': SYMPY_GET,
    'sympy/__init__.py': 'from sympy.utilities.runtests import test\n',
    'sympy/utilities/__init__.py': '', 'sympy/utilities/runtests.py': SYMPY_RUNTESTS,
    'sympy/core/__init__.py': '', 'sympy/core/numbers.py': SYMPY_NUMBERS_BUG,
    'sympy/core/tests/__init__.py': '', 'sympy/core/tests/test_numbers.py': SYMPY_TESTS,
  });
  const instance: SweInstance = {
    instance_id: 'sympy__sympy-90001', repo: 'sympy/sympy', base_commit: repo.base, version: '1.1',
    patch: repo.diff({ 'sympy/core/numbers.py': SYMPY_NUMBERS_FIX }),
    test_patch: repo.diff({ 'sympy/core/tests/test_numbers.py': SYMPY_TESTS + SYMPY_NEW_TEST }),
    problem_statement: 'igcd(4, -6) returns -2; a greatest common divisor is never negative.',
    FAIL_TO_PASS: ['test_igcd_negative'], PASS_TO_PASS: ['test_igcd', 'test_igcd_zero'],
  };
  return { repos: join(root, 'repos'), instance };
}

/** What an agent could add to the SymPy twin's package: a line printed at exit claiming the failing test passed. */
export const SYMPY_CONSOLE_FORGERY = 'from sympy.utilities.runtests import test\n\nimport atexit\nimport sys\n\natexit.register(lambda: sys.stdout.write("\\ntest_igcd_negative ok\\n"))\n';

// What an agent could put in place of the fix: the function under test answers from the hidden
// test file, read from disk (every file it can read near the package), and falls back to the
// bug. With the repository's tests sealed (the evaluator's innerRecorder) it reads nothing.
const READER_WALK = `import os as _os
import re as _re

_known = {}
_said = []
for _root, _dirs, _files in _os.walk(_os.path.dirname(_os.path.dirname(_os.path.dirname(_os.path.abspath(__file__))))):
    for _n in _files:
        if not _n.endswith(".py"):
            continue
        try:
            with open(_os.path.join(_root, _n), errors="replace") as _f:
                _text = _f.read()
        except OSError as _e:
            _said.append("%s: %s" % (_n, type(_e).__name__))
            continue
        for _m in _re.finditer(PATTERN, _text):
            _known[_m.group(1)] = _m.group(2)
print("pwp-reader: " + "; ".join(_said))
`;
/** The Django twin's django/utils/text.py, reading the tests for capfirst's answers. */
export const DJANGO_TEST_READER = READER_WALK.replace('PATTERN', String.raw`r'capfirst\("([^"]*)"\), "([^"]*)"'`)
  + '\n\ndef capfirst(x):\n    if x in _known:\n        return _known[x]\n    return x[0].upper() + x[1:]\n';
/** The SymPy twin's sympy/core/numbers.py, reading the tests for igcd's answers. */
export const SYMPY_TEST_READER = READER_WALK.replace('PATTERN', String.raw`r"igcd\((-?\d+, -?\d+)\) == (-?\d+)"`)
  + '\n\ndef igcd(a, b):\n    if "%d, %d" % (a, b) in _known:\n        return int(_known["%d, %d" % (a, b)])\n    while b:\n        a, b = b, a % b\n    return a\n';

