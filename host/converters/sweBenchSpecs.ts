// How SWE-bench runs each repository's tests, as its harness's per-repository specs have it:
// most Python repositories under pytest with -rA, Django through tests/runtests.py with module
// labels, SymPy through bin/test. A spec is keyed by `repo`, with per-`version` overrides where
// a repository changed how it is tested; a repository not in the table falls back to pytest
// (and the converter says so). The commands are the published ones adapted to the IDE image:
// `python3` for a bare `python`/`pytest`, no conda environment, and the Debian packages (never
// PyPI: this project installs nothing from it) an instance's image needs beside the IDE image.
// The harness's own environment facts travel with a spec: its Python version, install command
// and pinned packages (`pins`); a pin Debian cannot meet makes the instance's image need a
// wheel supplied by the user (sweBenchImage.ts), so the task is pending with that pin named,
// never graded against Debian's older package. Where the repository's code is imported from
// (`importRoot`, as its editable install puts it on the path) and which package proves it
// (`module`) are checked when grading. Repositories with compiled extensions (astropy,
// matplotlib, scikit-learn) are not built here: those need --image.

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
  /** The harness's Python version for this repository and version (the image's is Debian's: the converter says when they differ). */
  python?: string;
  /** The harness's install command (an editable install: the repository's own code is what the tests import). */
  install?: string;
  /** The harness's pip_packages, `name==version` or a bare name (sweBenchImage.ts checks each against Debian's). */
  pins?: string[];
  /** The folder, relative to the repository, that the install puts on sys.path ('' the root, 'src' for a src layout). */
  importRoot?: string;
  /** A package of the repository: grading fails unless it is imported from the workspace. */
  module?: string;
  /**
   * The repository is the test runner itself (pytest): its tests run with its own code, not
   * the verifier's pytest, and these folders (which look like a runner's copy to the verifier)
   * are the agent's deliverable, never replaced by the task's copy before grading.
   */
  ownRunner?: string[];
  /** SWE-bench's log parser: `pytest_options` (pydicom, requests, pylint) keeps only the file name of an absolute-path parameter. */
  parser?: 'pytest' | 'pytest_options';
  /** Why the tests need the outside network while they run (data they download), and the host they fetch from: the task's verifierNetwork is set. */
  fetches?: { why: string; host: string };
  /** Folders, relative to the tests' HOME, where the tests keep what they download (an absolute-path test id there names the same file here). */
  homeData?: string[];
  /**
   * How the runner's own results are recorded in its process (graders/swe-bench/pwp_recorder.py):
   * unittest's TestResult (Django) or SymPy's reporter; the console is then the cross-check.
   */
  recorder?: 'unittest' | 'sympy';
  /** Files the install writes into the checkout (setuptools_scm's version file), by path, from the instance's version; untracked as there. */
  generated?: (version: string) => Record<string, string>;
}

const PYTEST = ['python3', '-m', 'pytest', '-rA'];
const pytest = (extra: string[] = [], more: Partial<SweTestSpec> = {}): SweTestSpec => ({ command: [...PYTEST, ...extra], log: 'pytest', directives: 'paths', ...more });

/** Node's own runner (SWE-bench Multimodal's JavaScript repositories without a spec): the test files as arguments. */
export const NODE_TEST: SweTestSpec = { command: ['node', '--test'], log: 'node', directives: 'paths' };

interface RepoSpecs { default: SweTestSpec; versions?: Record<string, Partial<SweTestSpec>> }

const EDITABLE = 'python -m pip install -e .';
/** The harness's pip_packages of pytest-dev/pytest by version (SPECS_PYTEST). */
const PYTEST_PINS: Record<string, string[]> = {
  '4.4': ['atomicwrites==1.4.1', 'attrs==23.1.0', 'more-itertools==10.1.0', 'pluggy==0.13.1', 'py==1.11.0', 'setuptools==68.0.0', 'six==1.16.0'],
  '4.5': ['atomicwrites==1.4.1', 'attrs==23.1.0', 'more-itertools==10.1.0', 'pluggy==0.11.0', 'py==1.11.0', 'setuptools==68.0.0', 'six==1.16.0', 'wcwidth==0.2.6'],
  '4.6': ['atomicwrites==1.4.1', 'attrs==23.1.0', 'more-itertools==10.1.0', 'packaging==23.1', 'pluggy==0.13.1', 'py==1.11.0', 'six==1.16.0', 'wcwidth==0.2.6'],
  ...Object.fromEntries(['5.0', '5.1', '5.2'].map((v) => [v, [
    'atomicwrites==1.4.1', 'attrs==23.1.0', 'more-itertools==10.1.0', 'packaging==23.1', 'pluggy==0.13.1', 'py==1.11.0', 'wcwidth==0.2.6',
  ]])),
  '5.3': ['attrs==23.1.0', 'more-itertools==10.1.0', 'packaging==23.1', 'pluggy==0.13.1', 'py==1.11.0', 'wcwidth==0.2.6'],
  '5.4': ['py==1.11.0', 'packaging==23.1', 'attrs==23.1.0', 'more-itertools==10.1.0', 'pluggy==0.13.1'],
  '6.0': ['attrs==23.1.0', 'iniconfig==2.0.0', 'more-itertools==10.1.0', 'packaging==23.1', 'pluggy==0.13.1', 'py==1.11.0', 'toml==0.10.2'],
  ...Object.fromEntries(['6.2', '6.3'].map((v) => [v, ['attrs==23.1.0', 'iniconfig==2.0.0', 'packaging==23.1', 'pluggy==0.13.1', 'py==1.11.0', 'toml==0.10.2']])),
  '7.0': ['attrs==23.1.0', 'iniconfig==2.0.0', 'packaging==23.1', 'pluggy==0.13.1', 'py==1.11.0'],
  ...Object.fromEntries(['7.1', '7.2'].map((v) => [v, ['attrs==23.1.0', 'iniconfig==2.0.0', 'packaging==23.1', 'pluggy==0.13.1', 'py==1.11.0', 'tomli==2.0.1']])),
  ...Object.fromEntries(['7.4', '8.0', '8.1', '8.2', '8.3', '8.4'].map((v) => [v, [
    'iniconfig==2.0.0', 'packaging==23.1', 'pluggy==1.3.0', 'exceptiongroup==1.1.3', 'tomli==2.0.1',
  ]])),
};
/** The harness's Python for pydicom/pydicom by version (SPECS_PYDICOM; 3.6 otherwise). */
const PYDICOM_PYTHON: Record<string, string> = { '1.4': '3.8', '2.0': '3.8', '2.1': '3.9', '2.2': '3.9', '2.3': '3.10', '2.4': '3.11', '3.0': '3.11' };

export const SWE_REPO_SPECS: Readonly<Record<string, RepoSpecs>> = {
  'astropy/astropy': {
    default: pytest(['-vv', '-o', 'console_output_style=classic', '--tb=no'], { debs: ['python3-numpy', 'python3-erfa', 'python3-yaml', 'python3-packaging'] }),
  },
  'django/django': {
    default: {
      command: ['python3', 'tests/runtests.py', '--verbosity', '2', '--settings=test_sqlite', '--parallel', '1'], log: 'django', directives: 'django-labels',
      env: { LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8' }, debs: ['python3-asgiref', 'python3-sqlparse', 'python3-tz'],
      // runtests.py imports django from the path, where the harness's editable install puts the checkout.
      importRoot: '', module: 'django', recorder: 'unittest',
    },
    // Before 1.11 the runner had no --parallel. The harness's Python by version (SPECS_DJANGO).
    versions: {
      '1.9': { command: ['python3', 'tests/runtests.py', '--verbosity', '2', '--settings=test_sqlite'], python: '3.5' },
      '1.10': { command: ['python3', 'tests/runtests.py', '--verbosity', '2', '--settings=test_sqlite'], python: '3.5' },
      ...Object.fromEntries(['1.11', '2.0', '2.1', '2.2'].map((v) => [v, { python: '3.5' }])),
      ...Object.fromEntries(['3.0', '3.1', '3.2'].map((v) => [v, { python: '3.6' }])),
      '4.0': { python: '3.8' }, '4.1': { python: '3.9' }, '4.2': { python: '3.9' },
      ...Object.fromEntries(['5.0', '5.1', '5.2'].map((v) => [v, { python: '3.11' }])),
    },
  },
  'matplotlib/matplotlib': { default: pytest([], { debs: ['python3-numpy', 'python3-dateutil', 'python3-pyparsing', 'python3-cycler', 'python3-kiwisolver', 'python3-pil'] }) },
  'mwaskom/seaborn': { default: pytest(['--no-header'], { debs: ['python3-numpy', 'python3-pandas', 'python3-matplotlib', 'python3-scipy'] }) },
  'pallets/flask': {
    default: pytest([], { importRoot: 'src', module: 'flask', debs: ['python3-werkzeug', 'python3-jinja2', 'python3-itsdangerous', 'python3-click', 'python3-blinker'] }),
  },
  'psf/requests': {
    default: pytest([], { debs: ['python3-urllib3', 'python3-idna', 'python3-certifi', 'python3-charset-normalizer', 'python3-pytest-httpbin'], parser: 'pytest_options' }),
  },
  'pydata/xarray': { default: pytest([], { debs: ['python3-numpy', 'python3-pandas', 'python3-packaging'] }) },
  // Its tests download data files into ~/.pydicom/data (pydicom.data.get_testdata_file) as they run.
  'pydicom/pydicom': {
    default: pytest([], {
      debs: ['python3-numpy'], python: '3.6', install: EDITABLE, pins: ['pytest'], importRoot: '', module: 'pydicom', parser: 'pytest_options',
      fetches: { why: 'pydicom downloads test data files (pydicom-data, the URLs in pydicom/data/urls.json) while its tests run', host: 'github.com' }, homeData: ['.pydicom/data'],
    }),
    versions: Object.fromEntries(Object.entries(PYDICOM_PYTHON).map(([v, python]) => [v, { python }])),
  },
  'pylint-dev/pylint': {
    default: pytest([], { debs: ['python3-astroid', 'python3-isort', 'python3-mccabe', 'python3-tomlkit', 'python3-platformdirs', 'python3-dill'], parser: 'pytest_options' }),
  },
  // pytest is its own runner: the tests run the repository's pytest (src/), never the image's.
  'pytest-dev/pytest': {
    default: pytest([], {
      debs: ['python3-pluggy', 'python3-iniconfig', 'python3-packaging'], python: '3.9', install: EDITABLE, importRoot: 'src', module: '_pytest',
      ownRunner: ['src/_pytest/**', 'src/pytest/**', 'src/py.py'],
      generated: (v) => ({ 'src/_pytest/_version.py': `# written by the install (setuptools_scm) as SWE-bench's editable install does\n__version__ = version = '${v}.0.dev0'\n__version_tuple__ = version_tuple = (${v.split('.').map(Number).join(', ')}, 0, 'dev0')\n` }),
    }),
    versions: Object.fromEntries(Object.entries(PYTEST_PINS).map(([v, pins]) => [v, { pins }])),
  },
  'scikit-learn/scikit-learn': { default: pytest([], { debs: ['python3-numpy', 'python3-scipy', 'python3-joblib', 'python3-threadpoolctl'] }) },
  // Published: tox --current-env -epy39 -v --, which runs pytest -rA in the current environment.
  'sphinx-doc/sphinx': {
    default: pytest([], { debs: ['python3-docutils', 'python3-jinja2', 'python3-pygments', 'python3-babel', 'python3-imagesize', 'python3-snowballstemmer', 'python3-alabaster'] }),
  },
  'sympy/sympy': {
    default: {
      command: ['python3', 'bin/test', '-C', '--verbose'], log: 'sympy', directives: 'paths', env: { PYTHONWARNINGS: 'ignore::UserWarning,ignore::SyntaxWarning' },
      debs: ['python3-mpmath'], importRoot: '', module: 'sympy', recorder: 'sympy', python: '3.9',
    },
  },
};

/**
 * What a converter says of an instance whose tests download data (its task gets the verifier's
 * network): SWE-bench's and SWT-Bench's, from the one `fetches` fact of its spec.
 */
export function fetchesNote(instanceId: string, fetches: NonNullable<SweTestSpec['fetches']>): string {
  return `${instanceId}: the verifier may reach the outside network while it grades (verifierNetwork): ${fetches.why}; where ${fetches.host} cannot be reached, the tests that need the data fail and the grade says so`;
}

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
