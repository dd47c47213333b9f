'use strict';
// The verifier's test runner (host/evaluation/isolatedRunner.ts says why it is built so), plain
// JavaScript for the image's Node, run as root from /pwp/runner/run.js:
//     node run.js SPEC        SPEC: the RunSpec as JSON (argv, cwd, env, ids, and the layout:
//                             where results go, the canary's variable, folder and placeholder)
// It prints one JSON line: the run's outcome. The canary's names come in the variable
// spec.layout.canaryEnv names, never on a command line.
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const spec = JSON.parse(process.argv[2]);
const results = spec.layout.results + '/' + spec.id;
const MAX = 16 * 1024 * 1024;
/** setpriv's options that run what follows as a user, with no other group. */
const asUser = (uid, gid) => ['--reuid=' + uid, '--regid=' + gid, '--clear-groups', '--'];
const asTests = asUser(spec.uid, spec.gid);

function processesOf(uid) {
  const left = [];
  for (const pid of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    let status;
    try { status = fs.readFileSync('/proc/' + pid + '/status', 'utf8'); } catch { continue; }
    const uids = (/^Uid:\s+(.*)$/m.exec(status) || [])[1];
    const zombie = /^State:\s+Z/m.test(status);
    if (!zombie && uids && uids.split(/\s+/).some((u) => Number(u) === uid)) left.push(Number(pid));
  }
  return left;
}
// kill(-1) as a user reaches every process of that user and needs no capability.
function killAllOf(uid) {
  for (let i = 0; i < 50; i++) {
    if (!processesOf(uid).length) return 0;
    spawnSync('setpriv', [...asUser(uid, uid), 'kill', '-s', 'KILL', '--', '-1'], { stdio: 'ignore' });
  }
  return processesOf(uid).length;
}
const killAll = () => killAllOf(spec.uid);
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
// The task's hidden folder is root's alone while any process of the tests' user lives (and
// every one that lived before was killed just now, so none holds it open): expected values
// and gold files there are out of the deliverable's reach. Its mode comes back once the
// run's processes are gone.
let hiddenMode;
try { hiddenMode = fs.statSync(spec.layout.hidden).mode & 0o7777; fs.chmodSync(spec.layout.hidden, 0o700); } catch { hiddenMode = undefined; }
// Hidden test files the tests' processes get from here instead of from disk: read now, through
// no link, then root's alone until the run's processes are gone. The text of spec.seal goes to
// the tests on a pipe the verifier's plugin reads before any code of the workspace runs; that of
// spec.sealBroker.files to the one pytest run the broker serves (a test script's, or the one a
// grader starts).
// Emptied instead (`empty`), a file stays readable and there: CMake takes an unreadable source for a
// missing one, and a grader's build compiles the text it got from the broker.
function readSealed(paths, empty) {
  const out = [];
  for (const p of paths) {
    let fd;
    try {
      fd = fs.openSync(p, (empty ? fs.constants.O_RDWR : fs.constants.O_RDONLY) | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
      const st = fs.fstatSync(fd);
      if (!st.isFile() || st.uid !== 0 || st.size > MAX) continue;
      out.push({ path: p, mode: st.mode & 0o7777, text: fs.readFileSync(fd).toString('base64'), emptied: !!empty });
      if (empty) fs.ftruncateSync(fd, 0);
      else fs.fchmodSync(fd, 0o600);
    } catch { /* not there: nothing to seal */ } finally { if (fd !== undefined) fs.closeSync(fd); }
  }
  return out;
}
/** An emptied file's text back (root's file, in the intake's root-owned folder: no link to follow). */
function refill(f) {
  let fd;
  try {
    fd = fs.openSync(f.path, fs.constants.O_WRONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
    const text = Buffer.from(f.text, 'base64');
    if (fs.fstatSync(fd).isFile()) fs.writeSync(fd, text, 0, text.length, 0);
  } catch { /* gone */ } finally { if (fd !== undefined) fs.closeSync(fd); }
}
const sealed = readSealed(spec.seal || []);
const brokered = spec.sealBroker ? readSealed(spec.sealBroker.files.filter((p) => !(spec.seal || []).includes(p)), spec.sealBroker.empty) : [];
const locked = [...sealed, ...brokered];
if (spec.report) spawnSync('setpriv', [...asTests, 'mkdir', '-p', '-m', '755', require('node:path').dirname(spec.report)], { stdio: 'ignore' });
const canary = process.env[spec.layout.canaryEnv] ? JSON.parse(process.env[spec.layout.canaryEnv]) : undefined;
// The completion mark goes to the tests on descriptor 3 only: a pipe written and closed here.
const mark = process.env[spec.layout.markEnv];
const env = Object.assign({}, process.env, spec.env);
for (const k of [...spec.dropEnv, spec.layout.canaryEnv, spec.layout.markEnv, spec.layout.sealedEnv, 'PWP_CANARY_DIR', 'PWP_CANARY_FD']) delete env[k];
// A test script (or a grader) starts its runner itself: those texts go to it from a broker, not on a descriptor.
const broker = brokered.length ? '/pwp/seal/' + spec.id + '.sock' : undefined;
const textsOf = (files) => Object.fromEntries(files.map((f) => [f.path, f.text]));
// The texts go on descriptor 4 to a runner that loads the sealed files itself (pytest's plugin,
// node's preload), which reads them before any code of the workspace runs. Never to go's test
// binaries, which have them compiled in: nothing there reads the descriptor, so the deliverable,
// inheriting it, would.
const handed = spec.go ? [] : sealed;
if (handed.length) env[spec.layout.sealedEnv] = '4';
if (broker) env.PWP_SEAL_BROKER = broker;
// A script that runs node's runners (isolatedRunner.ts, SealBroker): every node process it starts
// loads the sealing preload, which asks the broker when it is the runner; node --test runs its
// files in that process. node's binary exec-only to the tests' user makes each of their node
// processes undumpable (the kernel's rule for a program its user cannot read), as the broker
// requires of the process it serves. Its mode comes back once the run's processes are gone.
const nodeSeal = broker && spec.sealBroker.node;
let nodeMode;
if (nodeSeal) {
  env.NODE_OPTIONS = '--require ' + nodeSeal.preload + ' --test-isolation=none';
  try { nodeMode = fs.statSync(nodeSeal.binary).mode & 0o7777; fs.chmodSync(nodeSeal.binary, 0o711); } catch { nodeMode = undefined; }
}
let argv = spec.argv;
// pytest's canary goes on descriptor 5, read and closed by the verifier's plugin before any code
// of the workspace runs: a folder's name in the environment would stay in /proc/<pid>/environ.
const canaryOnFd = canary && spec.canaryOnFd ? canary.files['canary.json'] : undefined;
if (canaryOnFd !== undefined) env.PWP_CANARY_FD = '5';
if (canary && canaryOnFd === undefined) {
  // The root is 0711: the tests' user reaches the run's folder by its name only.
  fs.mkdirSync(spec.layout.canaryRoot, { recursive: true, mode: 0o711 });
  fs.chmodSync(spec.layout.canaryRoot, 0o711);
  fs.rmSync(canary.dir, { recursive: true, force: true });
  fs.mkdirSync(canary.dir, { mode: 0o755 });
  for (const [name, content] of Object.entries(canary.files)) fs.writeFileSync(canary.dir + '/' + name, content, { mode: 0o644 });
  env.PWP_CANARY_DIR = canary.dir;
  argv = argv.map((a) => a.split(spec.layout.canaryPlaceholder).join(canary.dir));
}
// The builds of sealed go and cargo runs read the agent's files as any reader would: root has no
// capability over the tests' user's files, and cargo's build user is neither (a file saved through
// a temporary file has mode 0600). None is dated ahead either: cargo takes a source newer than
// its build for changed (in its second build, where the wrapper refuses any crate but the hidden
// ones'). Run as the tests' user, their owner, over the workspace ($1).
const OPEN_WORKSPACE = 'find "$1" -user "$(id -u)" \\( -type d ! -perm -o=rx -o -type f ! -perm -o=r \\) -exec chmod o+rX -- {} +\n'
  + 'find "$1" -user "$(id -u)" -newermt "@$(date +%s)" -exec touch -h -c -- {} +';
const openErrors = [];
if (spec.go || spec.cargo) {
  const opened = spawnSync('setpriv', [...asUser(spec.uid, spec.gid), 'sh', '-c', OPEN_WORKSPACE, 'pwp-open-workspace', '/workspace'],
    { encoding: 'utf8', timeout: spec.timeoutSec * 1000 });
  if (opened.status !== 0) openErrors.push('pwp: the workspace could not all be opened to the build: ' + (opened.stderr || '') + '\n');
}
// A sealed go test run (spec.go, isolatedRunner.ts GoRun): root builds the test binaries
// (goBuild.js beside this file), which the tests' user may run but not read.
const go = spec.go ? require('./goBuild.js').buildGo(spec, env, {
  canaryDir: canary ? canary.dir : undefined, sealed: sealed.map((x) => x.path), max: MAX,
  // Root reads what it owns: the hidden folder is closed to the build (mode 0; no capability
  // overrides it), so no #include or replace directive reaches the task's answers.
  closeHidden: () => { if (hiddenMode !== undefined) fs.chmodSync(spec.layout.hidden, 0); },
  reopenHidden: () => { if (hiddenMode !== undefined) fs.chmodSync(spec.layout.hidden, 0o700); },
}) : undefined;
// A canary compiled into the test binaries (go's overlay, cargo's wrapper): once they are built,
// its names are not left where the tests could read them (the deliverable would print a whole
// account, the canary's outcomes in it, and exit).
function forgetCanary() {
  if (canary && canaryOnFd === undefined) fs.rmSync(canary.dir, { recursive: true, force: true });
  delete env.PWP_CANARY_DIR;
}
if (go) {
  forgetCanary();
  argv = go.argv();
}
// A sealed cargo test run (spec.cargo, host/evaluation/cargoRun.ts): built by a build user of
// its own (cargoBuild.js beside this file); the tests' user then runs the test binaries.
const cargo = spec.cargo ? require('./cargoBuild.js').buildCargo(spec, env, { killAllOf, asUser, max: MAX }) : undefined;
if (cargo && (cargo.runs.length || cargo.failed)) {
  forgetCanary();
  argv = cargo.argv();
}
/**
 * The broker of the sealed files of a pytest run the command starts itself (a test script's, a
 * grader's: pwp_seal_broker.py), listening before the command starts; it is told the command's
 * process once that exists. Its refusals go with the run's stderr.
 */
function startBroker() {
  fs.mkdirSync('/pwp/seal', { recursive: true, mode: 0o755 });
  const b = spawn('/usr/bin/python3', ['-I', spec.sealBroker.script], { stdio: ['pipe', 'pipe', 'pipe'] });
  b.stdin.on('error', () => {});
  const nodeRunners = nodeSeal ? nodeSeal.runners : [];
  const recorders = spec.sealBroker.recorders || [];
  b.stdin.write(JSON.stringify({ texts: textsOf(brokered), launch: spec.sealBroker.launch, nodeRunners, recorders, uid: spec.uid, socket: broker }) + '\n');
  const said = collect(b.stderr);
  let told = '';
  const ready = new Promise((resolve) => {
    b.stdout.on('data', (c) => { told += c; if (told.includes('ready\n')) resolve(true); });
    b.on('exit', () => resolve(false));
  });
  return { process: b, ready, said, served: () => /^served$/m.test(told) };
}
const sealBroker = broker ? startBroker() : undefined;
let child;
let out;
let err;
let timedOut = false;
let timer;
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
  if (canary && canaryOnFd === undefined) fs.rmSync(canary.dir, { recursive: true, force: true });
  if (hiddenMode !== undefined && !survivors) fs.chmodSync(spec.layout.hidden, hiddenMode);
  if (!survivors) for (const f of locked) { if (f.emptied) refill(f); try { fs.chmodSync(f.path, f.mode); } catch { /* gone */ } }
  if (!survivors && cargo) cargo.unlock();
  if (!survivors && nodeMode !== undefined) { try { fs.chmodSync(nodeSeal.binary, nodeMode); } catch { /* kept exec-only */ } }
  if (report.data) fs.writeFileSync(results + '/report', report.data, { mode: 0o644 });
  fs.writeFileSync(results + '/stdout', Buffer.concat([Buffer.from(go ? go.lines.map((l) => l + '\n').join('') : ''), out.text()]), { mode: 0o644 });
  fs.writeFileSync(results + '/stderr', Buffer.concat([Buffer.from(openErrors.join('') + (go ? go.errors.join('') : '') + (cargo ? cargo.errors.join('') : '')), err.text(), await brokerSaid()]), { mode: 0o644 });
  if (spec.go) fs.rmSync('/pwp/gobin/' + spec.id, { recursive: true, force: true });
  if (cargo) cargo.cleanup();
  const signals = { SIGKILL: 9, SIGTERM: 15, SIGSEGV: 11, SIGABRT: 6, SIGINT: 2 };
  const ran = !started ? 127 : timedOut ? 124 : code !== null ? code : 128 + (signals[signal] || 0);
  // A package of a sealed go run that did not build fails the run, as go test's exit status says.
  const exitCode = go && go.failed && ran === 0 ? 1 : ran;
  process.stdout.write(JSON.stringify({ exitCode, timedOut, survivors, hasReport: !!report.data, problem: report.problem }) + '\n');
}
/** Ends the broker; what it refused, and a word if no runner asked at all, for the run's stderr. */
async function brokerSaid() {
  if (!sealBroker) return Buffer.alloc(0);
  sealBroker.process.kill('SIGKILL');
  await sealBroker.said.done;
  fs.rmSync(broker, { force: true });
  const how = nodeSeal
    ? 'a test script must run the image\'s mocha or jest (`mocha`, `jest` from its PATH), `node --test`, or node on the test file'
    : 'a test script must run pytest as `python3 -m pytest` or `pytest` from its PATH (the verifier\'s)';
  const none = sealBroker.served() ? '' : 'pwp: no test runner asked for the sealed test files: ' + how + ', which gets them from the verifier\n';
  return Buffer.concat([sealBroker.said.text(), Buffer.from(none)]);
}
async function start() {
  // A broker that did not start serves nothing: the sealed files then fail to load, and what it
  // said goes with the run's stderr.
  if (sealBroker) await sealBroker.ready;
  const stdio = ['ignore', 'pipe', 'pipe', mark ? 'pipe' : 'ignore', handed.length ? 'pipe' : 'ignore', canaryOnFd !== undefined ? 'pipe' : 'ignore'];
  child = spawn('setpriv', [...asTests, ...argv], { cwd: spec.cwd, env, stdio });
  // The script's process: the broker serves only processes it started.
  if (sealBroker) sealBroker.process.stdin.end(child.pid + '\n');
  // Each secret on its own descriptor: written, then closed.
  const handOver = (fd, text) => { child.stdio[fd].on('error', () => {}); child.stdio[fd].end(text); };
  if (mark) handOver(3, mark + '\n');
  if (handed.length) handOver(4, JSON.stringify(textsOf(handed)));
  if (canaryOnFd !== undefined) handOver(5, canaryOnFd);
  out = collect(child.stdout);
  err = collect(child.stderr);
  timer = setTimeout(() => { timedOut = true; killAll(); }, spec.timeoutSec * 1000);
  // On the runner's exit, not when its output closes: a background process could hold that open.
  child.on('exit', (code, signal) => finish(code, signal, true));
  child.on('error', () => finish(null, null, false));
}
start();
