'use strict';
// The build of a sealed go test run (isolatedRunner.ts GoRun), plain JavaScript for the image's
// Node, loaded by the verifier's runner (runTests.js) as root. Go's build runs no code of the
// packages, so root builds each package's test binary (go test -c) with the hidden _test.go files
// readable to it alone; the tests' user then runs the binaries through test2json, exec-only.
// What go test -json would print for a package that did not build or has no tests is written
// here, before the binaries' own stream.
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');

// Each binary from its package's folder, as go test runs it, through test2json (go test -json's stream).
const GO_SCRIPT = 't=$1; n=$2; shift 2; flags=("${@:1:$n}"); shift "$n"; s=0\n'
  + 'while [ $# -gt 0 ]; do (cd "$1" && exec "$t" -p "$2" -t "$3" -test.v "${flags[@]}") || s=1; shift 3; done; exit $s';

/**
 * Builds spec.go's test binaries. `env` is the tests' environment; `canaryDir` replaces the
 * canary's placeholder in the build flags (its overlay); `sealed` are the sealed test files' paths;
 * `closeHidden`/`reopenHidden` shut the task's hidden folder for the build. Returns the events and
 * errors written before the binaries' own, whether a package failed, and the argv that runs them.
 */
function buildGo(spec, env, { canaryDir, sealed, max, closeHidden, reopenHidden }) {
  const lines = [];
  const errors = [];
  const runs = [];
  let failed = false;
  const dir = '/pwp/gobin/' + spec.id;
  fs.mkdirSync('/pwp/gobin', { recursive: true, mode: 0o711 });
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { mode: 0o711 });
  fs.mkdirSync('/pwp/gocache', { recursive: true, mode: 0o700 });
  // Nothing of the workspace's or the tests' user's decides how the build runs.
  const goEnv = Object.assign({}, env, {
    HOME: '/root', GOENV: 'off', GOPROXY: 'off', GOTOOLCHAIN: 'local', GOCACHE: '/pwp/gocache', GOPATH: '/root/go',
    GOMODCACHE: env.GOMODCACHE || '/home/pwp/go/pkg/mod', GOFLAGS: env.GOFLAGS || '',
    // No C or assembler of the workspace's through gcc, whose .incbin would take a sealed file's bytes.
    CGO_ENABLED: '0',
  });
  closeHidden();
  const flags = spec.go.buildFlags.map((a) => (canaryDir ? a.split(spec.layout.canaryPlaceholder).join(canaryDir) : a));
  const go = (args) => spawnSync('go', args, { cwd: spec.cwd, env: goEnv, encoding: 'utf8', maxBuffer: max, timeout: spec.timeoutSec * 1000 });
  const event = (o) => lines.push(JSON.stringify(Object.assign({ Time: new Date().toISOString() }, o)));
  const format = '{{.ImportPath}}\t{{.Dir}}\t{{len .TestGoFiles}}\t{{len .XTestGoFiles}}';
  // go list takes the build flags but -vet (a go test flag).
  const listFlags = flags.filter((a) => !a.startsWith('-vet'));
  const listed = go(['list', '-e', ...listFlags, '-f', format, ...spec.go.patterns]);
  errors.push(listed.stderr || '');
  // A package that embeds a sealed test file would carry its text into the binary.
  const embeds = go(['list', '-e', '-deps', '-test', ...listFlags, '-f', '{{$d := .Dir}}{{range .EmbedFiles}}{{$d}}/{{.}}{{"\\n"}}{{end}}', ...spec.go.patterns]);
  const embedded = (embeds.stdout || '').split('\n').filter((f) => sealed.includes(f));
  const packages = (listed.stdout || '').split('\n').filter(Boolean).map((l) => l.split('\t'));
  let n = 0;
  for (const [importPath, pkgDir, tests, xtests] of packages) {
    if (embedded.length) {
      event({ Action: 'output', Package: importPath, Output: 'pwp: tampering suspected: the build embeds the sealed test file ' + embedded[0] + '\n' });
      event({ Action: 'fail', Package: importPath, Elapsed: 0 });
      failed = true;
      continue;
    }
    if (tests === '0' && xtests === '0') {
      event({ Action: 'output', Package: importPath, Output: '?   \t' + importPath + '\t[no test files]\n' });
      event({ Action: 'skip', Package: importPath, Elapsed: 0 });
      continue;
    }
    const bin = dir + '/' + (n++) + '.test';
    const built = go(['test', '-c', '-o', bin, ...flags, importPath]);
    errors.push(built.stderr || '', built.stdout || '');
    if (built.status !== 0 || !fs.existsSync(bin)) {
      event({ Action: 'output', Package: importPath, Output: 'FAIL\t' + importPath + ' [build failed]\n' });
      event({ Action: 'fail', Package: importPath, Elapsed: 0 });
      failed = true;
      continue;
    }
    fs.chmodSync(bin, 0o711);
    runs.push(pkgDir, importPath, bin);
  }
  reopenHidden();
  return {
    lines, errors, failed,
    /** The tests' user's command: each binary through test2json, one after another. */
    argv: () => {
      const toolDir = spawnSync('go', ['env', 'GOTOOLDIR'], { encoding: 'utf8', env: { PATH: env.PATH, HOME: '/root', GOENV: 'off' } }).stdout.trim();
      return ['bash', '-c', GO_SCRIPT, 'pwp-go', toolDir + '/test2json', String(spec.go.testFlags.length), ...spec.go.testFlags, ...runs];
    },
  };
}

module.exports = { buildGo };
