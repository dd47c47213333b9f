// How the verifier runs a test command so that nothing the agent wrote decides the outcome
// but the deliverable itself:
// - a root-owned script (verifierScripts/runTests.js, run by root in the verifier) starts the command as the
//   tests' user (setpriv; the verifier keeps CAP_SETUID/CAP_SETGID for that and nothing else),
//   with an environment of its own (no NODE_OPTIONS, PYTHONPATH, LD_PRELOAD from anywhere);
// - the runners are the image's: PATH holds no workspace folder; `python3 -m pytest` goes
//   through a root-owned shim that runs pytest isolated (`-I`: no working directory or
//   script folder on sys.path, no user site, no PYTHON* variables) and puts the workspace on
//   the path only once pytest is imported, so a pytest.py or _pytest/ in the workspace is
//   never imported in its place; `npx jest` and node_modules/.bin runners become the image's;
// - the task's hidden test files are sealed while the tests run (sealedTests): root's alone, their
//   text handed to the runner's own loading (pytest's plugin, the node preload pwp_seal.js), or, for
//   go test, read by root's build of the test binaries (GoRun, verifierScripts/goBuild.js), for
//   cargo test by a build user's second build (cargoRun.ts);
// - the runner writes its report into a fresh folder; when the runner's process ends, every
//   process of the tests' user is killed, so nothing left in the background can rewrite the
//   report, and only then root copies report, output and exit status into /pwp/report,
//   which the tests' user cannot write.
import { readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { CANARY_PLACEHOLDER, CANARY_ROOT } from './canary';
import { cargoRunOf, cargoSealed, type CargoRun } from './cargoRun';
import type { TestsEvaluator } from './evaluatorSchema';

export const TESTS_UID = 1000;
export const RUNNER_DIR = '/pwp/runner';
export const RESULTS_DIR = '/pwp/report';
/** Where runs write their reports (a fresh folder of the tests' user per run). */
export const SCRATCH_DIR = '/pwp/out';

/** PATH of the tests: the shims, then the image's runners; never a workspace folder. */
export const TESTS_PATH = `${RUNNER_DIR}/bin:/opt/node/bin:/opt/test-runners/bin:/usr/local/bin:/usr/bin:/bin`;

// pytest is imported from the image before the workspace goes on sys.path, so no pytest.py,
// _pytest/ or pluggy/ of the workspace is ever imported in their place (their submodules load
// from the packages already imported). The workspace then goes first, as `python -m pytest`
// would put it: a repository's own package must win over an installed one of the same name
// (SWE-bench). A new workspace module named like an installed one is reported (tamperCheck.ts).
// pytest runs with the verifier's plugin (the canary and the equality check: pwp_pytest.py),
// passed as an object: no option or ini file can leave it out.
const PYTHON_DIR = `${RUNNER_DIR}/python`;
/**
 * The RUSTC_WORKSPACE_WRAPPER of a cargo run with the canary (pwp_rustc.py): every test crate is
 * compiled with the canary's tests appended. The SWE-bench log grader's cargo runs use it too.
 */
export const RUSTC_CANARY = `${RUNNER_DIR}/cargo/pwp_rustc`;
const PYTEST_LAUNCH = `import sys; sys.path.insert(0, '${PYTHON_DIR}'); import pwp_pytest; sys.path[0] = '/workspace'; sys.exit(pwp_pytest.main())`;
/** Runs a test script as `python SCRIPT` with the verifier's checks and its completion mark (pwp_script.py). */
export const SCRIPT_LAUNCHER = `${PYTHON_DIR}/pwp_script.py`;
/** The verifier's preload for node --test and mocha runs (pwp_node.js), and mocha's canary spec. */
export const NODE_PRELOAD = `${RUNNER_DIR}/node/pwp_node.js`;
export const MOCHA_CANARY = `${RUNNER_DIR}/node/pwp_mocha_canary.js`;
/** jest's canary, the last of its setupFilesAfterEnv. */
export const JEST_CANARY = `${RUNNER_DIR}/node/pwp_jest_canary.js`;
/** The preload (node's own --require) that serves sealed test files to node --test, mocha and jest (pwp_seal.js). */
export const SEAL_PRELOAD = `${RUNNER_DIR}/node/pwp_seal.js`;
/** The image's mocha and jest as node scripts, so a sealed run loads SEAL_PRELOAD before them. */
export const MOCHA_SCRIPT = '/opt/test-runners/node_modules/mocha/bin/mocha.js';
export const JEST_SCRIPT = '/opt/test-runners/node_modules/jest/bin/jest.js';
const script = (name: string) => readFileSync(join(__dirname, 'verifierScripts', name), 'utf8');

const PYTHON_SHIM = `#!/bin/sh
# python3 as the tests see it: "-m pytest" runs pytest isolated; anything else as asked, with
# the script's folder first on sys.path as usual (PYTHONSAFEPATH only guards a run that
# names /usr/bin/python3 itself).
if [ "$1" = "-m" ] && [ "$2" = "pytest" ]; then shift 2; exec /usr/bin/python3 -I -c "${PYTEST_LAUNCH}" "$@"; fi
exec env -u PYTHONSAFEPATH /usr/bin/python3 "$@"
`;
const PYTEST_SHIM = `#!/bin/sh
exec /usr/bin/python3 -I -c "${PYTEST_LAUNCH}" "$@"
`;

/** Root-owned files the verifier holds for running tests. */
export function runnerFiles(): { path: string; content: string; mode: number }[] {
  return [
    { path: 'pwp/runner/run.js', content: RUNNER_JS, mode: 0o644 },
    ...['cargoBuild.js', 'goBuild.js'].map((n) => ({ path: `pwp/runner/${n}`, content: script(n), mode: 0o644 })),
    ...['python3', 'python'].map((n) => ({ path: `pwp/runner/bin/${n}`, content: PYTHON_SHIM, mode: 0o755 })),
    ...['pytest', 'py.test'].map((n) => ({ path: `pwp/runner/bin/${n}`, content: PYTEST_SHIM, mode: 0o755 })),
    ...['pwp_pytest.py', 'pwp_equality.py', 'pwp_sealed.py', 'pwp_sources.py', 'pwp_script.py', 'pwp_seal_broker.py']
      .map((n) => ({ path: `${PYTHON_DIR.slice(1)}/${n}`, content: script(n), mode: 0o644 })),
    { path: NODE_PRELOAD.slice(1), content: script('pwp_node.js'), mode: 0o644 },
    { path: MOCHA_CANARY.slice(1), content: script('pwp_mocha_canary.js'), mode: 0o644 },
    { path: JEST_CANARY.slice(1), content: script('pwp_jest_canary.js'), mode: 0o644 },
    { path: SEAL_PRELOAD.slice(1), content: script('pwp_seal.js'), mode: 0o644 },
    { path: RUSTC_CANARY.slice(1), content: script('pwp_rustc.py'), mode: 0o755 },
  ];
}

/**
 * What the verifier's equality check (pwp_pytest.py) knows of the agent's Python: each file
 * it added (null) or changed (with the original text, whose classes may keep their __eq__).
 * Nothing secret: the agent wrote or was given all of it.
 */
export function deliverableFile(deliverable: ReadonlyMap<string, Buffer>, baseline: ReadonlyMap<string, Buffer> | undefined): { path: string; content: string; mode: number } {
  const files: Record<string, string | null> = {};
  for (const path of deliverable.keys()) if (path.endsWith('.py')) files[path] = baseline?.get(path)?.toString('utf8') ?? null;
  return { path: `${PYTHON_DIR.slice(1)}/deliverable.json`, content: JSON.stringify(files), mode: 0o644 };
}

/** The runner the image has in place of one the workspace brings (`npx jest`, `node_modules/.bin/mocha`). */
export function imageRunner(argv: readonly string[]): string[] {
  const out = [...argv];
  if (out[0] === 'npx' && (out[1] === 'jest' || out[1] === 'mocha')) out.shift();
  const bin = /(?:^|\/)node_modules\/\.bin\/(jest|mocha)$/.exec(out[0] ?? '');
  if (bin) out[0] = bin[1];
  if (out[0] === '/usr/bin/python3' || out[0] === '/usr/bin/python') out[0] = 'python3';
  if (out[0] === '/opt/node/bin/node') out[0] = 'node';
  return out;
}

const TEST_FILE = /(?:^|\/)(?:test_[^/]*|[^/]*_test|conftest)\.py$/;
/** JavaScript and TypeScript sources node, mocha and jest load as modules. */
const JS_SOURCE = /\.(?:[cm]?js|[cm]?ts|jsx|tsx)$/;

/**
 * Whether the command is the image's node --test, mocha or jest itself (not a script that may run
 * it more than once). mocha --parallel is one: a sealed run is made serial (withReportFlags).
 */
function nodeRunnerCommand(e: Pick<TestsEvaluator, 'framework' | 'command'>): boolean {
  const argv = imageRunner(e.command);
  switch (e.framework) {
    case 'node': return argv[0] === 'node' && argv.includes('--test');
    case 'mocha': return argv[0] === 'mocha';
    case 'jest': return argv[0] === 'jest';
    default: return false;
  }
}

/**
 * The task's hidden test files a run seals (RunSpec.seal). The deliverable runs inside the
 * tests' process, and a test file it can read hands it the expected values.
 * - pytest: its test modules and conftest.py files among the hidden files, under the paths the
 *   command names (all of them when it names none); `traceback.extract_stack()` would give the
 *   calling assert's line. With `--assert=plain` the plugin's own loader takes the modules
 *   pytest's rewriting would have taken, and puts the equality check into their asserts itself.
 *   A script that runs pytest (`bash run_tests.sh …`) seals every hidden Python file outside a
 *   dot-folder (IDE-Bench's `task_tests.py` is named by its script; the plugin's loader takes a
 *   module pytest does not rewrite), handed to its runner by the broker (SealBroker).
 * - node --test, mocha, jest: every hidden JavaScript or TypeScript source (tests and the helpers
 *   they load), served to the runner's module loading by the verifier's preload (pwp_seal.js).
 *   A hidden source the tests read as data, not as a module, finds it sealed. A script that runs
 *   them (`npm test`, IDE-Bench's scripts graded by exit status) seals every hidden source
 *   outside a dot-folder and node_modules, handed to the image's runner by the broker.
 * - go test: every hidden `_test.go` file, read by root's build only (GoRun), which builds
 *   without cgo; a task that turns cgo on (CGO_ENABLED=1, or -race, which needs it) runs go test
 *   unsealed.
 * - cargo test: every hidden Rust source, read only by the second of a build user's two builds,
 *   which compiles nothing but the test crates they are the roots of (cargoRun.ts). A command
 *   with options cargoRunOf does not know runs unsealed, as does a run where a hidden source is
 *   not a test target's root (the runner finds out from `cargo metadata` and says so).
 * - a test script run for its completion mark (RES-Q): every hidden Python file outside a
 *   dot-folder (the grader's own folders, whose wrapper reads them as the tests' user). Only the
 *   verifier's launcher (pwp_script.py) prints the mark, so such a run goes through it, and it
 *   takes the script and the modules it imports from the descriptor before the workspace's code
 *   runs (the deliverable, imported by the script, would read `sys.argv[0]`). The files of the
 *   grader's own dot-folders the evaluator names in `sealed` too (CanItEdit's tests, whose
 *   wrapper takes their text from the descriptor).
 */
export function sealedTests(
  e: Pick<TestsEvaluator, 'framework' | 'command'> & { env?: Record<string, string>; completionMark?: boolean; sealed?: string[] }, hiddenFiles: readonly string[],
): string[] {
  // Every hidden Python file outside the grader's own dot-folders: what a script runs is not known.
  const scriptSeal = () => pythonOutsideGraders(hiddenFiles);
  if (e.completionMark) return [...scriptSeal(), ...hiddenFiles.filter((p) => e.sealed?.includes(p)).map((p) => `/workspace/${p}`)];
  // With cgo, C and assembler files the build compiles could include a sealed file's bytes (.incbin);
  // -race needs cgo (the sealed build turns it off, and the race runtime is linked through it).
  if (e.framework === 'go') {
    const run = goRunOf(e.command);
    const cgo = e.env?.CGO_ENABLED === '1' || !!run?.buildFlags.includes('-race');
    return run && !cgo ? hiddenFiles.filter((p) => p.endsWith('_test.go')).map((p) => `/workspace/${p}`) : [];
  }
  if (e.framework === 'cargo') return cargoRunOf(e.command) ? cargoSealed(hiddenFiles) : [];
  if (nodeRunnerCommand(e)) return hiddenFiles.filter((p) => JS_SOURCE.test(p) && !p.split('/').includes('node_modules')).map((p) => `/workspace/${p}`);
  // A script that runs node's runners itself, through the broker (sealBroker).
  // The script the command names is not (node loads it as a plain program, not the runner).
  if (nodeScript(e)) return jsOutsideGraders(hiddenFiles).filter((p) => !e.command.some((a) => `/workspace/${posix.normalize(a)}` === p || a === p));
  if (e.framework !== 'pytest') return [];
  const args = pytestArgs(e.command);
  // A script that runs pytest itself, through the broker (sealBroker).
  if (!args) return scriptSeal();
  const named = namedPaths(args);
  const covered = (p: string) => named.some((n) => n === '.' || p === n || p.startsWith(`${n}/`));
  const anyNamed = hiddenFiles.some(covered);
  // A grader's own run loads no conftest.py (graderRunFlags): those are its inner run's (innerSealedTests).
  const conftests = graderRunFlags(e, hiddenFiles).length === 0;
  return hiddenFiles.filter((p) => TEST_FILE.test(p) && (!anyNamed || covered(p) || (conftests && p.endsWith('conftest.py')))).map((p) => `/workspace/${p}`);
}

/** The verifier plugin's own option (pwp_pytest.py reads and removes it): a grader's run. */
export const GRADER_RUN = '--pwp-grader-run';

/**
 * The options of a pytest run of the grader's own test file (SWE-bench's log grader, SWT-Bench's:
 * every file the command names is a hidden file in a dot-folder): such a run loads nothing of the
 * workspace's, no conftest.py and no ini file (whose addopts could name a plugin module of the
 * repository's), with the ids still relative to /workspace. The grader starts the repository's
 * tests itself; the repository's code in the grader's own process (a root conftest.py importing
 * the package for its fixtures) could answer for the runner it starts, report and canary included.
 * GRADER_RUN (read by the verifier's plugin) keeps the workspace off the run's import path too.
 */
export function graderRunFlags(e: Pick<TestsEvaluator, 'framework' | 'command'>, hiddenFiles: readonly string[]): string[] {
  const args = e.framework === 'pytest' ? pytestArgs(e.command) : undefined;
  // Only what looks like a file: option values (`-o key=value`) are not.
  const named = namedPaths((args ?? []).filter((a) => a.includes('/') || a.endsWith('.py')));
  const graders = named.length > 0 && named.every((n) => hiddenFiles.includes(n) && n.split('/').slice(0, -1).some((s) => s.startsWith('.')));
  return graders ? ['--noconftest', '-c', '/dev/null', '--rootdir=/workspace', GRADER_RUN] : [];
}

/** The paths pytest's arguments name (node ids cut at `::`), relative to /workspace. */
function namedPaths(args: readonly string[]): string[] {
  return args.filter((a) => !a.startsWith('-')).map((a) => posix.normalize(a.split('::')[0]).replace(/^\/workspace\//, '').replace(/\/$/, ''));
}

/** pytest's arguments when the command is pytest itself, or undefined for a script that runs it. */
function pytestArgs(command: readonly string[]): string[] | undefined {
  const argv = imageRunner(command);
  if (argv[0] === 'python3' && argv[1] === '-m' && argv[2] === 'pytest') return argv.slice(3);
  return ['pytest', 'py.test'].includes(argv[0]) ? argv.slice(1) : undefined;
}

/**
 * How a test script's sealed files reach its runner (RunSpec.sealBroker), and those of the pytest
 * run a grader starts (innerSealedTests). A script (`bash run_tests.sh`, `npm test`) starts its
 * runner itself, and any descriptor it was given every process it starts would inherit: instead
 * a broker of root's (pwp_seal_broker.py) hands the texts to the first process that asks and is
 * the runner (the verifier's pytest launch; for a node script, the image's mocha or jest, node
 * --test, or node running a sealed file as its program, which the preload in NODE_OPTIONS makes
 * ask), started by the command, neither
 * dumpable nor traced (its memory closed to the tests' other processes), and to no other.
 * Node cannot make itself undumpable; for a node script the runner makes node's binary
 * exec-only to the tests' user for the run (`node`), and the kernel then makes every node
 * process of theirs undumpable, as it does the go test binaries.
 */
export interface SealBroker {
  script: string;
  launch: string;
  /** A grader's recorder (the evaluator's innerRecorder, as a verifier path), which the broker accepts as a Python asker's script. */
  recorders?: string[];
  /** The files are emptied for the run rather than closed (innerBuild: CMake takes an unreadable source for a missing one). */
  empty?: boolean;
  /**
   * For a node script: the preload to put in NODE_OPTIONS, the node binary to make exec-only, and
   * the image's node runners by their real paths, which the broker accepts as a node asker's script.
   */
  node?: { preload: string; binary: string; runners: string[] };
}
export const SEAL_BROKER: SealBroker = { script: `${PYTHON_DIR}/pwp_seal_broker.py`, launch: PYTEST_LAUNCH };
/** The image's node, which a node script's run makes exec-only to the tests' user. */
export const NODE_BINARY = '/opt/node/bin/node';

/**
 * The broker of a test script's sealed files (all of them go through it), or undefined when the
 * command is the runner itself (its files go on a descriptor).
 */
export function sealBrokerFor(e: Pick<TestsEvaluator, 'framework' | 'command'> & { completionMark?: boolean }): SealBroker | undefined {
  if (nodeScript(e)) return { ...SEAL_BROKER, node: { preload: SEAL_PRELOAD, binary: NODE_BINARY, runners: [MOCHA_SCRIPT, JEST_SCRIPT] } };
  return e.framework === 'pytest' && !e.completionMark && !pytestArgs(e.command) ? SEAL_BROKER : undefined;
}

/** The broker of a grader's inner run (innerSealedTests): the pytest launch's, and the grader's recorder where it has one. */
export function innerSealBroker(e: { innerRecorder?: string; innerBuild?: boolean }): SealBroker {
  if (e.innerBuild) return { ...SEAL_BROKER, empty: true };
  return e.innerRecorder ? { ...SEAL_BROKER, recorders: [`/workspace/${e.innerRecorder}`] } : SEAL_BROKER;
}

/**
 * A test script graded with a node runner's framework, or by its exit status (IDE-Bench's
 * scripts for JavaScript and TypeScript tests): not the runner itself, nor Python, nor a script
 * run for its completion mark (whose launcher is Python's).
 */
function nodeScript(e: Pick<TestsEvaluator, 'framework' | 'command'> & { completionMark?: boolean }): boolean {
  if (e.completionMark || nodeRunnerCommand(e)) return false;
  return ['node', 'mocha', 'jest', 'exitCode'].includes(e.framework);
}

/** The hidden JavaScript and TypeScript sources outside the grader's dot-folders and node_modules, as paths in the verifier. */
function jsOutsideGraders(hiddenFiles: readonly string[]): string[] {
  return hiddenFiles.filter((p) => JS_SOURCE.test(p) && !p.split('/').some((s) => s.startsWith('.') || s === 'node_modules')).map((p) => `/workspace/${p}`);
}

/**
 * The hidden files a grader's own pytest run (the evaluator's `innerPytest`: SWE-bench's log
 * grader in the repository's own environment) hands, through the broker, to the pytest run it
 * starts on the repository's tests, or to its recorder's process (`innerRecorder`: Django's and
 * SymPy's runners): every hidden Python file outside the grader's dot-folders, as for a test
 * script, but those the grader's run itself takes on its descriptor.
 */
export function innerSealedTests(
  e: Pick<TestsEvaluator, 'framework' | 'command'> & { innerPytest?: boolean; innerRecorder?: string; innerBuild?: boolean }, hiddenFiles: readonly string[],
): string[] {
  if (!(e.innerPytest || e.innerRecorder || e.innerBuild) || e.framework !== 'pytest' || !pytestArgs(e.command)) return [];
  // A grader's build (innerBuild): the C, C++ and Java sources and headers, which its compiler launcher takes.
  if (e.innerBuild) return outsideGraders(hiddenFiles, BUILT_SOURCE);
  const own = new Set(sealedTests(e, hiddenFiles));
  return pythonOutsideGraders(hiddenFiles).filter((p) => !own.has(p));
}

/** C and C++ sources and headers, and Java sources. */
const BUILT_SOURCE = /\.(c|cc|cpp|cxx|c\+\+|C|h|hh|hpp|hxx|h\+\+|H|inc|ipp|tpp|java)$/;

/** The hidden files `source` matches outside the grader's own dot-folders, as paths in the verifier. */
function outsideGraders(hiddenFiles: readonly string[], source: RegExp): string[] {
  return hiddenFiles.filter((p) => source.test(p) && !p.split('/').some((s) => s.startsWith('.'))).map((p) => `/workspace/${p}`);
}

/** The hidden Python files outside the grader's own dot-folders. */
const pythonOutsideGraders = (hiddenFiles: readonly string[]): string[] => outsideGraders(hiddenFiles, /\.py$/);

/**
 * A `go test` run split in two, so its hidden `_test.go` files can be sealed: root builds each
 * package's test binary (`go test -c`: Go's build runs no code of the packages, and the build's
 * environment is the runner's: no go env file, GOFLAGS, toolexec or download of the workspace's)
 * into a folder of its own, exec-only (0711) for the tests' user, who then runs each binary
 * through `go tool test2json` (the `go test -json` stream). A test binary the tests' user cannot
 * read is also not dumpable: its /proc/self/exe and memory are closed to other processes.
 */
export interface GoRun { patterns: string[]; buildFlags: string[]; testFlags: string[] }

const GO_TEST_BOOL = new Set(['v', 'short', 'failfast', 'benchmem']);
const GO_TEST_VALUE = new Set(['run', 'count', 'timeout', 'parallel', 'cpu', 'skip', 'bench', 'benchtime', 'shuffle']);
const GO_BUILD_BOOL = new Set(['race', 'trimpath', 'a', 'x', 'n']);
const GO_BUILD_VALUE = new Set(['tags', 'mod', 'ldflags', 'gcflags', 'asmflags', 'overlay', 'vet', 'p']);

/** A `go test` command as a GoRun, or undefined when it has an argument this does not know (it then runs as given, unsealed). */
export function goRunOf(argv: readonly string[]): GoRun | undefined {
  if (argv[0] !== 'go' || argv[1] !== 'test') return undefined;
  const run: GoRun = { patterns: [], buildFlags: [], testFlags: [] };
  for (let i = 2; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('-')) { run.patterns.push(a); continue; }
    const m = /^--?([\w.]+)(?:=(.*))?$/.exec(a);
    if (!m) return undefined;
    const [name, value] = [m[1].replace(/^test\./, ''), m[2]];
    if (name === 'json') continue;
    if (GO_TEST_BOOL.has(name)) run.testFlags.push(`-test.${name}${value === undefined ? '' : `=${value}`}`);
    else if (GO_BUILD_BOOL.has(name)) run.buildFlags.push(a);
    else if (GO_TEST_VALUE.has(name) || GO_BUILD_VALUE.has(name)) {
      const v = value ?? argv[++i];
      if (v === undefined) return undefined;
      if (GO_TEST_VALUE.has(name)) run.testFlags.push(`-test.${name}=${v}`); else run.buildFlags.push(`-${name}=${v}`);
    } else return undefined;
  }
  if (!run.patterns.length) run.patterns.push('.');
  return run;
}

/** Environment variables that would load code before the runner or change where it looks. */
export const DROPPED_ENV = [
  'NODE_OPTIONS', 'NODE_PATH', 'NODE_REPL_EXTERNAL_MODULE', 'PYTHONPATH', 'PYTHONSTARTUP', 'PYTHONHOME', 'PYTHONUSERBASE', 'PYTHONINSPECT', 'PYTEST_ADDOPTS',
  'PYTEST_PLUGINS', 'LD_PRELOAD', 'LD_LIBRARY_PATH', 'BASH_ENV', 'ENV',
];

/**
 * The folders on the way to the task's files are root's (workspaceIntake.ts), /workspace among
 * them, so git would call the repository's ownership dubious. The tests' user is the agent's:
 * trusting its repository crosses no line (root never runs git there).
 */
export const GIT_TRUSTS_WORKSPACE: Record<string, string> = { GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'safe.directory', GIT_CONFIG_VALUE_0: '*' };

export function testsEnv(e: Pick<TestsEvaluator, 'env'>): Record<string, string> {
  return {
    PYTHONDONTWRITEBYTECODE: '1', PYTHONSAFEPATH: '1', PYTHONNOUSERSITE: '1', PYTEST_DISABLE_PLUGIN_AUTOLOAD: '1', CI: '1',
    HOME: '/home/pwp', USER: 'pwp', LOGNAME: 'pwp',
    // Go reads its settings file from the tests' home, which their code may write: a test of one
    // package running `go env -w GOFLAGS=-toolexec=…` would run the agent's program inside the build
    // of the next. Without the file Go takes the image's settings ($GOROOT/go.env) and stays local.
    GOENV: 'off', GOTOOLCHAIN: 'local',
    ...GIT_TRUSTS_WORKSPACE,
    // The task's own variables (task.json is the task's), then the PATH nobody overrides.
    ...e.env,
    PATH: TESTS_PATH,
  };
}

export interface RunSpec {
  argv: string[]; cwd: string; env: Record<string, string>; dropEnv: string[]; timeoutSec: number; uid: number; gid: number; id: string; report?: string;
  /**
   * Hidden test files the run's runner reads from the verifier instead of from disk (sealedTests):
   * root's alone while the tests' processes live, their text handed to the tests' process on
   * a descriptor (SEALED_ENV names it) that the verifier's pytest plugin or node preload
   * (pwp_seal.js) reads before any code of the workspace runs.
   */
  seal?: string[];
  /** The canary's names go to the tests on descriptor 5 (pytest's plugin reads it), not in a folder the environment names. */
  canaryOnFd?: boolean;
  /**
   * Sealed files whose text goes from this broker to the one pytest run the command starts
   * itself (a test script's, or a grader's: innerSealedTests), not on the descriptor.
   */
  sealBroker?: SealBroker & { files: string[] };
  /** For a sealed go test run: build as root, then run the binaries as the tests' user (argv is then not run). */
  go?: GoRun;
  /**
   * For a sealed cargo test run (cargoRun.ts): its sealed files, the build user and the rustc
   * wrapper of the two builds; the test binaries then run as the tests' user (argv is then not run).
   */
  cargo?: CargoRun & { sealed: string[]; uid: number; wrapper: string };
  /** Where the runner keeps results and how it finds the canary (the file has no constants of its own). */
  layout: RunLayout;
}
export interface RunLayout { results: string; canaryEnv: string; canaryRoot: string; canaryPlaceholder: string; markEnv: string; sealedEnv: string; hidden: string }
/**
 * The run's canary folder and its files (canary.ts). Given to the runner in its environment
 * (CANARY_ENV), never on its command line, which any user can read in /proc; the runner
 * writes them root-owned under CANARY_ROOT, which the tests' user can pass through but not
 * list, gives the tests the folder as PWP_CANARY_DIR (pytest gets canary.json on a descriptor
 * instead: RunSpec.canaryOnFd) and CANARY_PLACEHOLDER in their argv,
 * and removes it when the run is over.
 */
export interface CanarySpec { dir: string; files: Record<string, string> }
export const CANARY_ENV = 'PWP_CANARY_SPEC';
/**
 * A run's completion mark (evaluatorSchema.ts, completionMark), given to the runner in this
 * variable; the runner hands it to the tests on file descriptor 3 only (a pipe it writes and
 * closes), never in their environment, argv or files.
 */
export const MARK_ENV = 'PWP_COMPLETION_MARK';
/** The descriptor on which the tests' process finds the sealed test files' text (pwp_pytest.py or pwp_seal.js reads it, then drops the variable). */
export const SEALED_ENV = 'PWP_SEALED_FD';
/** The task's hidden folder: root-only while the tests' processes live (the runner closes it to them). */
export const HIDDEN_DIR = '/pwp/hidden';

/** What the runner file is told of the verifier's layout. */
export const RUN_LAYOUT: RunLayout = {
  results: RESULTS_DIR, canaryEnv: CANARY_ENV, canaryRoot: CANARY_ROOT, canaryPlaceholder: CANARY_PLACEHOLDER, markEnv: MARK_ENV, sealedEnv: SEALED_ENV, hidden: HIDDEN_DIR,
};
export interface RunOutcome { exitCode: number; timedOut: boolean; stdout: string; stderr: string; report?: Buffer; survivors: number; problem?: string }

// The runner itself: a real file, read once (verifierScripts/runTests.js).
export const RUNNER_JS = readFileSync(join(__dirname, 'verifierScripts', 'runTests.js'), 'utf8');

