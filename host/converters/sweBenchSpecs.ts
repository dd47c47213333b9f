// How SWE-bench runs each repository's tests, as its harness's per-repository specs have it:
// most Python repositories under pytest with -rA, Django through tests/runtests.py with module
// labels, SymPy through bin/test. A spec is keyed by `repo`, with per-`version` overrides where
// a repository changed how it is tested; a repository not in the table falls back to pytest
// (and the converter says so). The commands are the published ones adapted to the IDE image:
// `python3` for a bare `python`/`pytest`, no conda environment, and the Debian packages (never
// PyPI: this project installs nothing from it) an instance's image needs beside the IDE image.
// Debian's versions are not the ones the harness pins per version, and repositories with
// compiled extensions (astropy, matplotlib, scikit-learn) are not built here: those need --image.

/** How per-test results are read: pytest's or node --test's JUnit report, or the runner's log (sweBenchLogGrader.ts; the last five are SWE-bench-Multilingual's languages). */
export type SweLogFormat = 'pytest' | 'node' | 'django' | 'sympy' | 'go' | 'cargo' | 'tap' | 'surefire' | 'ctest';

export interface SweTestSpec {
  /** argv the test directives are appended to, run from the repository's root. */
  command: string[];
  log: SweLogFormat;
  /** How the test patch's files become arguments: paths as they are, or Django's dotted labels. */
  directives: 'paths' | 'django-labels';
  /** Variables the tests run with. */
  env?: Record<string, string>;
  /** Debian packages the tests need beyond the IDE image (a per-instance Dockerfile installs them). */
  debs?: string[];
}

const PYTEST = ['python3', '-m', 'pytest', '-rA'];
const pytest = (extra: string[] = [], more: Partial<SweTestSpec> = {}): SweTestSpec => ({ command: [...PYTEST, ...extra], log: 'pytest', directives: 'paths', ...more });

/** Node's own runner (SWE-bench Multimodal's JavaScript repositories without a spec): the test files as arguments. */
export const NODE_TEST: SweTestSpec = { command: ['node', '--test'], log: 'node', directives: 'paths' };

interface RepoSpecs { default: SweTestSpec; versions?: Record<string, Partial<SweTestSpec>> }

export const SWE_REPO_SPECS: Readonly<Record<string, RepoSpecs>> = {
  'astropy/astropy': {
    default: pytest(['-vv', '-o', 'console_output_style=classic', '--tb=no'], { debs: ['python3-numpy', 'python3-erfa', 'python3-yaml', 'python3-packaging'] }),
  },
  'django/django': {
    default: {
      command: ['python3', 'tests/runtests.py', '--verbosity', '2', '--settings=test_sqlite', '--parallel', '1'], log: 'django', directives: 'django-labels',
      env: { LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8' }, debs: ['python3-asgiref', 'python3-sqlparse', 'python3-tz'],
    },
    // Before 1.11 the runner had no --parallel.
    versions: {
      '1.9': { command: ['python3', 'tests/runtests.py', '--verbosity', '2', '--settings=test_sqlite'] },
      '1.10': { command: ['python3', 'tests/runtests.py', '--verbosity', '2', '--settings=test_sqlite'] },
    },
  },
  'matplotlib/matplotlib': { default: pytest([], { debs: ['python3-numpy', 'python3-dateutil', 'python3-pyparsing', 'python3-cycler', 'python3-kiwisolver', 'python3-pil'] }) },
  'mwaskom/seaborn': { default: pytest(['--no-header'], { debs: ['python3-numpy', 'python3-pandas', 'python3-matplotlib', 'python3-scipy'] }) },
  'pallets/flask': { default: pytest([], { env: { PYTHONPATH: 'src' }, debs: ['python3-werkzeug', 'python3-jinja2', 'python3-itsdangerous', 'python3-click', 'python3-blinker'] }) },
  'psf/requests': { default: pytest([], { debs: ['python3-urllib3', 'python3-idna', 'python3-certifi', 'python3-charset-normalizer', 'python3-pytest-httpbin'] }) },
  'pydata/xarray': { default: pytest([], { debs: ['python3-numpy', 'python3-pandas', 'python3-packaging'] }) },
  'pylint-dev/pylint': { default: pytest([], { debs: ['python3-astroid', 'python3-isort', 'python3-mccabe', 'python3-tomlkit', 'python3-platformdirs', 'python3-dill'] }) },
  'pytest-dev/pytest': { default: pytest([], { debs: ['python3-pluggy', 'python3-iniconfig', 'python3-packaging'] }) },
  'scikit-learn/scikit-learn': { default: pytest([], { debs: ['python3-numpy', 'python3-scipy', 'python3-joblib', 'python3-threadpoolctl'] }) },
  // Published: tox --current-env -epy39 -v --, which runs pytest -rA in the current environment.
  'sphinx-doc/sphinx': {
    default: pytest([], { debs: ['python3-docutils', 'python3-jinja2', 'python3-pygments', 'python3-babel', 'python3-imagesize', 'python3-snowballstemmer', 'python3-alabaster'] }),
  },
  'sympy/sympy': { default: { command: ['python3', 'bin/test', '-C', '--verbose'], log: 'sympy', directives: 'paths', env: { PYTHONWARNINGS: 'ignore::UserWarning,ignore::SyntaxWarning' }, debs: ['python3-mpmath'] } },
};

/** The spec of a repository at a version, and a note when the table has none (`fallback`, pytest unless given, is assumed). */
export function sweTestSpec(repo: string, version?: string, fallback: SweTestSpec = pytest()): { spec: SweTestSpec; note?: string } {
  const r = SWE_REPO_SPECS[repo];
  if (!r) return { spec: fallback, note: `${repo}: no test spec for this repository, its tests run under ${fallback.command.join(' ')} (give --test-command otherwise)` };
  const v = version !== undefined ? r.versions?.[version] : undefined;
  return { spec: v ? { ...r.default, ...v } : r.default };
}

/**
 * The arguments naming what to run, from the test patch's files as the harness takes them:
 * Python test files only (JavaScript and TypeScript ones for node --test), as paths, or for
 * Django as dotted labels under tests/ (tests/x/test_y.py is x.test_y).
 */
export function testDirectives(spec: SweTestSpec, files: readonly string[]): string[] {
  if (spec.log === 'node') return files.filter((f) => /\.[cm]?[jt]sx?$/.test(f));
  const py = files.filter((f) => f.endsWith('.py'));
  if (spec.directives === 'paths') return py;
  return py.map((f) => f.replace(/\.py$/, '').replace(/^tests\//, '').split('/').join('.'));
}
