// A `cargo test` run whose hidden test files stay out of the deliverable's reach (the cargo
// counterpart of isolatedRunner.ts's GoRun). Go's build runs no code of the packages, so root
// builds go's test binaries; cargo's runs code of the workspace's (proc macros) inside the build,
// so a build that could read the hidden tests would hand them over. Instead a build user of its
// own (neither root nor the tests' user) builds twice with the same command
// (verifierScripts/cargoBuild.js, loaded by the runner):
// 1. with the hidden test files closed to it, every crate but theirs is compiled, and in their
//    place an empty crate (the verifier's rustc wrapper, pwp_rustc.py): the library, build
//    scripts, proc macros, the repository's own tests. An `include_str!` of a hidden file in
//    the deliverable fails to compile here;
// 2. its processes killed, with the hidden files opened to it, cargo rebuilds only what stood
//    in for them; the wrapper refuses any other crate then (nothing the agent wrote compiles
//    while they are readable).
// Its processes killed again, the test binaries run as the tests' user where cargo built them
// (the folders on the way passable, not listable; the binaries exec-only, so the kernel makes
// them undumpable) from cargo's own list of them, one after another as cargo runs them, with
// cargo's "Running" lines.
// After each build whatever the build user left outside its folder is removed, so code of the
// agent's that a build runs hands nothing to the tests' user but through the test binaries.
// What is still open: a proc macro the hidden tests themselves invoke runs while they are
// readable, and can expand what they assert into the test binary (docs/grading-and-security.md).
import { posix } from 'node:path';

/** The build user's id: no account of the images has it, and no process but the build's runs as it. */
export const BUILD_UID = 2000;

export interface CargoRun {
  /** cargo's own arguments after `test` (target selection, features, profile). */
  buildArgs: string[];
  /** The test binaries' arguments: a name filter and what follows `--`. */
  testArgs: string[];
}

/** cargo test's options this run understands: the others (`--doc`, `--no-run`, `--message-format`, `-q`, ...) leave the run unsealed. */
const CARGO_BOOL = new Set([
  '--no-fail-fast', '--release', '--all-features', '--no-default-features', '--workspace', '--all', '--lib', '--bins', '--tests',
  '--examples', '--offline', '--locked', '--frozen',
]);
const CARGO_VALUE = new Set(['--features', '-F', '--package', '-p', '--test', '--bin', '--example', '--exclude', '--jobs', '-j', '--profile']);

/** A `cargo test` command as a CargoRun, or undefined when it has an argument this does not know (it then runs as given, unsealed). */
export function cargoRunOf(argv: readonly string[]): CargoRun | undefined {
  if (argv[0] !== 'cargo' || argv[1] !== 'test') return undefined;
  const run: CargoRun = { buildArgs: [], testArgs: [] };
  const end = argv.indexOf('--');
  const own = end === -1 ? argv.slice(2) : argv.slice(2, end);
  let filter: string | undefined;
  for (let i = 0; i < own.length; i++) {
    const a = own[i];
    const [name, value] = a.startsWith('--') && a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
    if (CARGO_BOOL.has(name) && value === undefined) run.buildArgs.push(a);
    else if (CARGO_VALUE.has(name)) {
      const v = value ?? own[++i];
      if (v === undefined) return undefined;
      run.buildArgs.push(name, v);
    } else if (!a.startsWith('-') && filter === undefined) filter = a;
    else return undefined;
  }
  run.testArgs = [...(filter === undefined ? [] : [filter]), ...(end === -1 ? [] : argv.slice(end + 1))];
  return run;
}

/** The hidden files a sealed cargo run closes to the build: every Rust source (the runner checks that each is a test target's root). */
export function cargoSealed(hiddenFiles: readonly string[]): string[] {
  return hiddenFiles.filter((p) => p.endsWith('.rs') && !posix.dirname(p).split('/').some((s) => s.startsWith('.'))).map((p) => `/workspace/${p}`);
}
