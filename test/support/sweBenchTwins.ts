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
const git = (dir: string, args: string[]) => execFileSync('git', args, { cwd: dir, env: gitEnv }).toString();
const write = (root: string, files: Record<string, string>) => {
  for (const [p, c] of Object.entries(files)) { mkdirSync(dirname(join(root, p)), { recursive: true }); writeFileSync(join(root, p), c); }
};

/** A repository with one commit, and the diffs `change` makes to it (then undone). */
function repoWith(dir: string, files: Record<string, string>, copy: [string, string][] = []): { base: string; diff: (change: Record<string, string>) => string } {
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
