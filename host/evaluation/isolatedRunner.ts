// How the verifier runs a test command so that nothing the agent wrote decides the outcome
// but the deliverable itself:
// - a root-owned script (RUNNER_JS, run by root in the verifier) starts the command as the
//   tests' user (setpriv; the verifier keeps CAP_SETUID/CAP_SETGID for that and nothing else),
//   with an environment of its own (no NODE_OPTIONS, PYTHONPATH, LD_PRELOAD from anywhere);
// - the runners are the image's: PATH holds no workspace folder; `python3 -m pytest` goes
//   through a root-owned shim that runs pytest isolated (`-I`: no working directory or
//   script folder on sys.path, no user site, no PYTHON* variables) and puts the workspace on
//   the path only once pytest is imported, so a pytest.py or _pytest/ in the workspace is
//   never imported in its place; `npx jest` and node_modules/.bin runners become the image's;
// - the runner writes its report into a fresh folder; when the runner's process ends, every
//   process of the tests' user is killed, so nothing left in the background can rewrite the
//   report, and only then root copies report, output and exit status into /pwp/report,
//   which the tests' user cannot write.
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
const PYTEST_LAUNCH = "import sys, pytest; sys.path.insert(0, '/workspace'); sys.exit(pytest.console_main())";

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
    ...['python3', 'python'].map((n) => ({ path: `pwp/runner/bin/${n}`, content: PYTHON_SHIM, mode: 0o755 })),
    ...['pytest', 'py.test'].map((n) => ({ path: `pwp/runner/bin/${n}`, content: PYTEST_SHIM, mode: 0o755 })),
  ];
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

/** Environment variables that would load code before the runner or change where it looks. */
export const DROPPED_ENV = [
  'NODE_OPTIONS', 'NODE_PATH', 'NODE_REPL_EXTERNAL_MODULE', 'PYTHONPATH', 'PYTHONSTARTUP', 'PYTHONHOME', 'PYTHONUSERBASE', 'PYTHONINSPECT', 'PYTEST_ADDOPTS',
  'PYTEST_PLUGINS', 'LD_PRELOAD', 'LD_LIBRARY_PATH', 'BASH_ENV', 'ENV',
];

export function testsEnv(e: Pick<TestsEvaluator, 'env'>): Record<string, string> {
  return {
    PYTHONDONTWRITEBYTECODE: '1', PYTHONSAFEPATH: '1', PYTHONNOUSERSITE: '1', PYTEST_DISABLE_PLUGIN_AUTOLOAD: '1', CI: '1',
    HOME: '/home/pwp', USER: 'pwp', LOGNAME: 'pwp',
    // The task's own variables (task.json is the task's), then the PATH nobody overrides.
    ...e.env,
    PATH: TESTS_PATH,
  };
}

export interface RunSpec { argv: string[]; cwd: string; env: Record<string, string>; dropEnv: string[]; timeoutSec: number; uid: number; gid: number; id: string; report?: string }
export interface RunOutcome { exitCode: number; timedOut: boolean; stdout: string; stderr: string; report?: Buffer; survivors: number; problem?: string }

// Plain JavaScript for the image's Node, run as root: spec in argv[2], a JSON line out.
export const RUNNER_JS = String.raw`'use strict';
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const spec = JSON.parse(process.argv[2]);
const results = ${JSON.stringify(RESULTS_DIR)} + '/' + spec.id;
const MAX = 16 * 1024 * 1024;
const asTests = ['--reuid=' + spec.uid, '--regid=' + spec.gid, '--clear-groups', '--'];

function testsProcesses() {
  const left = [];
  for (const pid of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    let status;
    try { status = fs.readFileSync('/proc/' + pid + '/status', 'utf8'); } catch { continue; }
    const uids = (/^Uid:\s+(.*)$/m.exec(status) || [])[1];
    const zombie = /^State:\s+Z/m.test(status);
    if (!zombie && uids && uids.split(/\s+/).some((u) => Number(u) === spec.uid)) left.push(Number(pid));
  }
  return left;
}
// kill(-1) as the tests' user reaches every process of that user and needs no capability.
function killAll() {
  for (let i = 0; i < 50; i++) {
    if (!testsProcesses().length) return 0;
    spawnSync('setpriv', [...asTests, 'kill', '-s', 'KILL', '--', '-1'], { stdio: 'ignore' });
  }
  return testsProcesses().length;
}
function collect(stream) {
  const chunks = []; let size = 0;
  stream.on('data', (c) => { if (size < MAX) { chunks.push(c); size += c.length; } });
  const done = new Promise((r) => stream.on('close', r));
  return { done, text: () => Buffer.concat(chunks) };
}
// A copy of the report as it was when the runner's processes were gone: a regular file only
// (no symlink to follow as root, no FIFO to block on).
function readReport(path) {
  let fd;
  try {
    fd = fs.openSync(path, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
    const st = fs.fstatSync(fd);
    if (!st.isFile()) return { problem: 'the report is not a regular file' };
    if (st.size > MAX) return { problem: 'the report is larger than 16 MiB' };
    const buf = Buffer.alloc(st.size);
    let off = 0;
    while (off < st.size) { const n = fs.readSync(fd, buf, off, st.size - off, off); if (n <= 0) break; off += n; }
    return { data: buf.subarray(0, off) };
  } catch (e) {
    return { problem: e.code === 'ENOENT' ? undefined : 'could not read the report: ' + e.message };
  } finally { if (fd !== undefined) fs.closeSync(fd); }
}

fs.mkdirSync(results, { recursive: true, mode: 0o755 });
killAll();
if (spec.report) spawnSync('setpriv', [...asTests, 'mkdir', '-p', '-m', '755', require('node:path').dirname(spec.report)], { stdio: 'ignore' });
const env = Object.assign({}, process.env, spec.env);
for (const k of spec.dropEnv) delete env[k];
const child = spawn('setpriv', [...asTests, ...spec.argv], { cwd: spec.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
const out = collect(child.stdout);
const err = collect(child.stderr);
let timedOut = false;
const timer = setTimeout(() => { timedOut = true; killAll(); }, spec.timeoutSec * 1000);
let finished = false;
async function finish(code, signal, started) {
  if (finished) return;
  finished = true;
  clearTimeout(timer);
  const survivors = killAll();
  // A background process of the tests may hold the output pipes open; 5 s for them to close.
  // The timer is cleared when they close: a pending one keeps this process alive, so every
  // grading waited the full 5 s after its tests had ended.
  let grace;
  await Promise.race([Promise.all([out.done, err.done]), new Promise((r) => { grace = setTimeout(r, 5000); })]);
  clearTimeout(grace);
  const report = spec.report ? readReport(spec.report) : {};
  if (report.data) fs.writeFileSync(results + '/report', report.data, { mode: 0o644 });
  fs.writeFileSync(results + '/stdout', out.text(), { mode: 0o644 });
  fs.writeFileSync(results + '/stderr', err.text(), { mode: 0o644 });
  const signals = { SIGKILL: 9, SIGTERM: 15, SIGSEGV: 11, SIGABRT: 6, SIGINT: 2 };
  const exitCode = !started ? 127 : timedOut ? 124 : code !== null ? code : 128 + (signals[signal] || 0);
  process.stdout.write(JSON.stringify({ exitCode, timedOut, survivors, hasReport: !!report.data, problem: report.problem }) + '\n');
}
// On the runner's exit, not when its output closes: a background process could hold that open.
child.on('exit', (code, signal) => finish(code, signal, true));
child.on('error', () => finish(null, null, false));
`;
