'use strict';
// The build of a sealed cargo test run (host/evaluation/cargoRun.ts says why it is built so),
// plain JavaScript for the image's Node, loaded by the verifier's runner (runTests.js) as root.
// A build user of its own builds twice with the same command: the hidden sources closed to it
// in the first build and open in the second, where the rustc wrapper (pwp_rustc.py) compiles only
// their crates. The tests' user then runs the test binaries, which it may run but not read.
// Root has no capability over other users' files here: the build user makes, opens and removes
// its own folder.
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

// Runs each test binary as cargo does (from its package's folder), after cargo's "Running" line,
// then the doc-tests where cargo would run them (cargo itself, in a target folder of the tests'
// user's: rustdoc compiles them from the library's sources, no hidden file among them), and
// exits as cargo test does: 101 when any failed.
const CARGO_SCRIPT = 'n=$1; shift; flags=("${@:1:$n}"); shift "$n"; m=$1; shift; build=("${@:1:$m}"); shift "$m"; doc=$1; shift; s=0\n'
  + 'while [ $# -gt 0 ]; do printf "     Running %s\\n" "$2"; (cd "$3" && CARGO_MANIFEST_DIR="$3" exec "$1" "${flags[@]}") || s=101; shift 3; done\n'
  + 'if [ -n "$doc" ]; then env -u RUSTC_WORKSPACE_WRAPPER CARGO_TARGET_DIR="$doc" cargo test --doc "${build[@]}" -- "${flags[@]}" 2>&1 || s=101; fi\n'
  + 'exit $s';
// The build user's own files everywhere but its folder ($1) and the kernel's, removed; then
// listed again (a non-empty list fails). /proc and /sys hold nothing it can leave.
const SWEEP = 'mine() { find / \\( -path /proc -o -path /sys -o -path "$1" \\) -prune -o -user "$(id -u)" "${2:--print}" 2>/dev/null; }\n'
  + 'mine "$1" -print0 | xargs -0r rm -rf -- 2>/dev/null; ipcrm -a 2>/dev/null\n'
  + 'left=$(mine "$1"); [ -z "$left" ] || { printf "%s\\n" "$left"; exit 1; }';
/** cargo test's options that select targets: with one of them cargo runs no doc-tests. */
const SELECTS = ['--lib', '--bins', '--bin', '--tests', '--test', '--examples', '--example'];

/**
 * Builds spec.cargo's test binaries. `env` is the tests' environment (the canary's folder in
 * it); the runner's `killAllOf(uid)` ends every process of a user, `asUser(uid, gid)` gives
 * setpriv's options to run as one, `max` bounds what a build's output is read to. Returns what the run needs: the errors
 * for its stderr, the argv that runs the binaries, and what to undo when the run is over.
 */
function buildCargo(spec, env, { killAllOf, asUser, max }) {
  const c = spec.cargo;
  // Not the folder the tests' own cargo uses (testsGrader.ts), which an unsealed run falls back to.
  const base = '/tmp/pwp-cargo-build-' + spec.id;
  const stageDir = '/pwp/cargo/' + spec.id;
  const asBuild = asUser(c.uid, c.uid);
  const errors = [];
  const runs = [];
  const locked = [];
  let failed = false;
  const lock = (mode) => { for (const f of locked) { try { fs.chmodSync(f.path, mode === undefined ? f.mode : mode); } catch { /* gone */ } } };
  const asBuilder = (args, opts) => spawnSync('setpriv', [...asBuild, ...args], Object.assign({ cwd: spec.cwd, encoding: 'utf8', maxBuffer: max, timeout: spec.timeoutSec * 1000 }, opts));
  killAllOf(c.uid);
  fs.mkdirSync('/pwp/cargo', { recursive: true, mode: 0o755 });
  fs.rmSync(stageDir, { recursive: true, force: true });
  fs.mkdirSync(stageDir, { mode: 0o755 });
  // A folder of that name already there (made by someone else) fails the run rather than be used.
  const made = asBuilder(['mkdir', '-m', '700', base], { cwd: '/' });
  const buildEnv = Object.assign({}, env, {
    HOME: base + '/home', CARGO_HOME: env.CARGO_HOME || base + '/home/.cargo', CARGO_TARGET_DIR: base + '/target',
    RUSTC_WRAPPER: c.wrapper, PWP_CARGO_SEALED: JSON.stringify(c.sealed), PWP_CARGO_OPEN: stageDir + '/open', PWP_RUSTC_WORK: base + '/rustc',
  });
  delete buildEnv.RUSTC_WORKSPACE_WRAPPER;
  // Each hidden source must be a test target's root: one that is a module of another crate would
  // be compiled with code of the agent's while readable. Such a run goes unsealed, as given.
  const meta = asBuilder(['cargo', 'metadata', '--no-deps', '--format-version', '1', '--offline'], { env: buildEnv });
  let targets;
  try { targets = JSON.parse(meta.stdout).packages.flatMap((p) => p.targets); } catch { targets = []; }
  const roots = targets.filter((t) => t.kind.includes('test')).map((t) => t.src_path);
  const docTests = !c.buildArgs.some((a) => SELECTS.includes(a)) && targets.some((t) => t.kind.includes('lib') && t.doctest);
  const docDir = '/tmp/pwp-cargo-doc-' + spec.id;
  const notRoots = c.sealed.filter((p) => fs.existsSync(p) && !roots.includes(p));
  if (made.status !== 0) {
    errors.push('pwp: could not make the build\'s folder ' + base + ': ' + (made.stderr || '') + '\n');
    failed = true;
  } else if (notRoots.length) {
    errors.push('pwp: ' + notRoots[0] + ' is not a test target\'s root, so cargo test runs unsealed\n');
  } else {
    for (const p of c.sealed) {
      let fd;
      try {
        fd = fs.openSync(p, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
        const st = fs.fstatSync(fd);
        if (!st.isFile() || st.uid !== 0) continue;
        locked.push({ path: p, mode: st.mode & 0o7777 });
        fs.fchmodSync(fd, 0o600);
      } catch { /* not there */ } finally { if (fd !== undefined) fs.closeSync(fd); }
    }
    const build = () => {
      const r = asBuilder(['cargo', 'test', '--no-run', '--message-format=json-render-diagnostics', ...c.buildArgs], { env: buildEnv });
      killAllOf(c.uid);
      errors.push(r.stderr || '');
      return sweep() ? r : { status: 1 };
    };
    if (build().status === 0) {
      // Open to the build user (no process of the tests' user lives now, and none starts before they close again).
      lock(0o644);
      fs.writeFileSync(stageDir + '/open', '', { mode: 0o644 });
      const second = build();
      lock(0o600);
      fs.rmSync(stageDir, { recursive: true, force: true });
      if (second.status === 0) failed = !openBinaries(second.stdout);
      else failed = true;
    } else failed = true;
  }

  /**
   * Removes whatever the build user left outside its folder (files, folders, System V IPC
   * objects), its processes gone: the second build runs code of the agent's (a proc macro the
   * hidden tests invoke) while they are readable, and the first could plant what the second
   * writes through (a symbolic or hard link to a file of its own in /tmp). Inside the folder
   * everything but the test binaries is closed (openBinaries). False, and said, if some remains.
   */
  function sweep() {
    const r = asBuilder(['sh', '-c', SWEEP, 'pwp-cargo-sweep', base], { cwd: '/' });
    if (r.status === 0) return true;
    errors.push('pwp: the build user\'s files outside its folder could not all be removed: ' + (r.stdout || '').split('\n').slice(0, 3).join(' ') + '\n');
    return false;
  }

  /**
   * Opens cargo's test binaries to the tests' user where cargo built them (a test finds the
   * crate's programs by CARGO_BIN_EXE_<name>, or beside its own executable): the folders on the
   * way exec-only (0711: passable, not listable), everything else in them the build user's alone,
   * the test binaries and programs exec-only (so the kernel makes their processes undumpable).
   * The build user does it, as the owner; false if it could not.
   */
  function openBinaries(stdout) {
    const artifacts = (stdout || '').split('\n').filter((l) => l.startsWith('{')).map((l) => { try { return JSON.parse(l); } catch { return {}; } })
      .filter((m) => m.reason === 'compiler-artifact' && typeof m.executable === 'string' && m.executable.startsWith(base + '/'));
    const tests = artifacts.filter((m) => m.profile && m.profile.test);
    // cargo's order: each package's unit tests (library, then binaries), then its test targets by name.
    const rank = (m) => (m.target.kind.includes('lib') ? 0 : m.target.kind.includes('test') ? 2 : 1);
    const order = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
    tests.sort((a, b) => order(a.manifest_path, b.manifest_path) || rank(a) - rank(b) || order(a.target.name, b.target.name));
    if (!artifacts.length) return true;
    const chain = new Set();
    for (const m of artifacts) {
      for (let d = path.dirname(m.executable); d.length >= base.length; d = path.dirname(d)) chain.add(d);
    }
    // Top down: a folder's entries closed, then the folder made passable.
    const script = 'n=$1; shift; i=0\n'
      + 'for d in "$@"; do [ "$i" -ge "$n" ] && break; find "$d" -mindepth 1 -maxdepth 1 -exec chmod 700 {} + && chmod 711 "$d" || exit 1; i=$((i + 1)); done\n'
      + 'shift "$n"; chmod 711 -- "$@"';
    const dirs = [...chain].sort((a, b) => a.length - b.length);
    const opened = spawnSync('setpriv', [...asBuild, 'sh', '-c', script, 'pwp-cargo-open', String(dirs.length), ...dirs, ...artifacts.map((m) => m.executable)],
      { encoding: 'utf8', timeout: spec.timeoutSec * 1000 });
    if (opened.status !== 0) { errors.push('pwp: could not open the test binaries to the tests: ' + (opened.stderr || '') + '\n'); return false; }
    for (const m of tests) {
      const label = (m.target.kind.includes('test') ? '' : 'unittests ') + path.relative(spec.cwd, m.target.src_path) + ' (' + path.relative(base, m.executable) + ')';
      runs.push(m.executable, label, path.dirname(m.manifest_path));
    }
    return true;
  }

  return {
    errors, runs, failed,
    /** The tests' user's command: the binaries one after another, or a failed build's exit status. */
    argv: () => (failed ? ['bash', '-c', 'exit 101']
      : ['bash', '-c', CARGO_SCRIPT, 'pwp-cargo', String(c.testArgs.length), ...c.testArgs, String(c.buildArgs.length), ...c.buildArgs, docTests ? docDir : '', ...runs]),
    /** The sealed sources' own modes back, once no process of the tests' user lives. */
    unlock: () => lock(),
    cleanup: () => {
      spawnSync('setpriv', [...asUser(spec.uid, spec.gid), 'rm', '-rf', '--', docDir], { stdio: 'ignore' });
      spawnSync('setpriv', [...asBuild, 'rm', '-rf', '--', base], { stdio: 'ignore' });
      killAllOf(c.uid);
    },
  };
}

module.exports = { buildCargo };
