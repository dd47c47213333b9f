// The per-run canary (docs/grading-canary.md): tests under names drawn for one grading run,
// one that must pass and one that must fail, run by the task's own runner inside the same
// process as the deliverable (pytest: the verifier's plugin, verifierScripts/pwp_pytest.py;
// node --test and mocha: the verifier's preload, verifierScripts/pwp_node.js; jest: the last
// of its setupFilesAfterEnv, verifierScripts/pwp_jest_canary.js, so in every test file; go
// test: a test file per package given through `-overlay`, never written into the workspace; cargo
// test: appended to each test crate's root by the verifier's rustc wrapper, pwp_rustc.py). Code
// that impersonates the runner from inside (prints its lines, writes its report, forces its
// exit code) must also reproduce outcomes it cannot know in advance: a run whose report or
// console lacks them, shows them with the wrong outcome, or whose report and console count
// them differently, scores 0 as tampering suspected. The canary's tests never count in the
// score.
//
// Its names and where its files are travel to the root-owned runner in that process's
// environment (not its command line, which every user can read), and to the tests in a
// folder nobody but root can list.
import { randomBytes } from 'node:crypto';
import type { TestCase } from './testReports';

/** Frameworks whose runs carry a canary: the runner takes a test the grader adds without the task's help. */
export const CANARY_FRAMEWORKS = ['pytest', 'node', 'mocha', 'go', 'jest', 'cargo'] as const;
export type CanaryFramework = (typeof CANARY_FRAMEWORKS)[number];

/** Where the runner puts each run's canary folder (root's, mode 0711: its entries cannot be listed). */
export const CANARY_ROOT = '/pwp/canary';
/** In the tests' argv, replaced by the runner with the run's canary folder. */
export const CANARY_PLACEHOLDER = '@@PWP_CANARY_DIR@@';
/** The start of a failure message of the verifier's equality checks (pwp_pytest.py, pwp_node.js). */
export const EQUALITY_MARK = 'pwp: tampering suspected:';
/**
 * A grader script's own tampering evidence: the first line of a failing case's message (after
 * pytest's `AssertionError: `) reads `tampering suspected (<the check>): <evidence>`. The SWE-bench
 * log grader's runner canary (ctest, cargo, surefire, go), its result recorder (Django, SymPy) and
 * its pytest report checks write it so (host/converters/graders/swe-bench/runner_canary.py
 * `tampering`). Only that line counts: what the runs printed is quoted below it, and words of
 * theirs that look like evidence are not read as any.
 */
export const GRADER_TAMPERING = /^(?:AssertionError: )?tampering suspected \(([a-z][a-z ]*)\): (.+)$/;

export interface Canary {
  framework: CanaryFramework;
  /** Names of the tests that must pass, and of those that must fail. */
  pass: string[];
  fail: string[];
  /** The run's folder under CANARY_ROOT. */
  dir: string;
}

/** A Go package's folder (relative to /workspace) and the package clause of its test files. */
export interface GoPackage { dir: string; name: string }

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
function word(n: number, bytes: (n: number) => Buffer): string {
  return [...bytes(n)].map((b) => LETTERS[b % LETTERS.length]).join('');
}

/** A canary for a run of `framework`, or undefined for runners that take none. */
export function drawCanary(framework: string, bytes: (n: number) => Buffer = randomBytes): Canary | undefined {
  if (!(CANARY_FRAMEWORKS as readonly string[]).includes(framework)) return undefined;
  const fw = framework as CanaryFramework;
  // Names as the framework's own tests are named, with nothing that marks them as the canary.
  const name = () => (fw === 'go' ? `Test${word(1, bytes).toUpperCase()}${word(11, bytes)}` : `test_${word(12, bytes)}`);
  return { framework: fw, pass: [name()], fail: [name()], dir: `${CANARY_ROOT}/${word(24, bytes)}` };
}

/**
 * The Go test file put in a package (through the overlay) for the canary. The tests that must
 * pass also check that the test binary's standard output is the one `go test` gave it (fd 1, the
 * same pipe or file as one of its parent's descriptors): the testing package writes the result
 * lines there, and a deliverable that splices a filter in between (a pipe to `sed` rewriting
 * `--- FAIL` of the task's tests) could otherwise rewrite them without touching the canary's.
 */
export function goCanarySource(c: Canary, pkg: string): string {
  // Imported under names of this run: a package's own identifiers cannot collide with them.
  const suffix = c.pass[0].slice(4).toLowerCase();
  const os = `os${suffix}`;
  const conv = `strconv${suffix}`;
  const check = `\tif ${os}.Stdout == nil || ${os}.Stdout.Fd() != 1 {\n\t\tt.Fatal("os.Stdout is not file descriptor 1")\n\t}\n`
    + `\tmine, err := ${os}.Readlink("/proc/self/fd/1")\n\tif err != nil {\n\t\tt.Fatal(err)\n\t}\n`
    + `\tdir := "/proc/" + ${conv}.Itoa(${os}.Getppid()) + "/fd/"\n\tfds, err := ${os}.ReadDir(dir)\n\tif err != nil {\n\t\tt.Fatal(err)\n\t}\n`
    + `\tfor _, fd := range fds {\n\t\tif theirs, err := ${os}.Readlink(dir + fd.Name()); err == nil && theirs == mine {\n\t\t\treturn\n\t\t}\n\t}\n`
    + `\tt.Fatal("standard output " + mine + " is not one go test gave")\n`;
  return `package ${pkg}\n\nimport (\n\t${os} "os"\n\t${conv} "strconv"\n\t"testing"\n)\n\n`
    + c.pass.map((n) => `func ${n}(t *testing.T) {\n${check}}\n\n`).join('')
    + c.fail.map((n) => `func ${n}(t *testing.T) {\n\tt.Fatal("expected failure")\n}\n\n`).join('');
}

/**
 * The files of the run's canary folder: the names for the plugin and the preload, and for Go
 * a test file per package clause plus the overlay that puts one in each package's folder.
 */
export function canaryFiles(c: Canary, o: { goPackages?: readonly GoPackage[] } = {}): Record<string, string> {
  const files: Record<string, string> = { 'canary.json': JSON.stringify({ pass: c.pass, fail: c.fail }) };
  if (c.framework === 'go') {
    const replace: Record<string, string> = {};
    for (const p of o.goPackages ?? []) {
      files[`${p.name}_test.go`] = goCanarySource(c, p.name);
      replace[`/workspace/${p.dir === '.' ? '' : `${p.dir}/`}${c.pass[0].toLowerCase()}_test.go`] = `${c.dir}/${p.name}_test.go`;
    }
    files['overlay.json'] = JSON.stringify({ Replace: replace });
  }
  return files;
}

/** Go packages with tests, from `grep -m1 -H '^package '` over the workspace's *_test.go files. */
export function goPackages(grepOutput: string): GoPackage[] {
  const byDir = new Map<string, string>();
  for (const line of grepOutput.split('\n')) {
    const m = /^\/workspace\/(?:(.*)\/)?[^/]+_test\.go:package\s+([A-Za-z_]\w*)/.exec(line);
    if (m && !byDir.has(m[1] ?? '.')) byDir.set(m[1] ?? '.', m[2]);
  }
  return [...byDir].map(([dir, name]) => ({ dir, name }));
}

export function isCanaryCase(c: Canary, t: TestCase): boolean {
  const names = [...c.pass, ...c.fail];
  return names.some((n) => t.id === n || t.id.endsWith(`::${n}`) || t.aliases.includes(n));
}

/** Occurrences of each canary test's outcome in the console, as the runner prints them. */
function consoleCount(c: Canary, stdout: string, name: string, outcome: 'passed' | 'failed'): number | undefined {
  const esc = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // eslint-disable-next-line no-control-regex -- ESC starts the colour codes stripped here
  const plain = stdout.replace(/\x1b\[[0-9;]*m/g, '');
  switch (c.framework) {
    case 'pytest': return [...plain.matchAll(new RegExp(`^${outcome === 'passed' ? 'PASSED' : 'FAILED'} \\S*::${esc}(?: |$)`, 'gm'))].length;
    case 'node': return [...plain.matchAll(new RegExp(`^\\s*${outcome === 'passed' ? 'ok' : 'not ok'} \\d+ - ${esc}$`, 'gm'))].length;
    // go test -json: test2json's Output of the test binary's own lines.
    case 'go': return [...plain.matchAll(new RegExp(`"Output":"\\s*--- ${outcome === 'passed' ? 'PASS' : 'FAIL'}: ${esc} \\(`, 'g'))].length;
    // jest --verbose, on stderr: `✓ name (2 ms)`, `✕ name (3 ms)`.
    case 'jest': return [...plain.matchAll(new RegExp(`^\\s*${outcome === 'passed' ? '✓' : '✕'} ${esc}(?: \\(\\d+ ms\\))?$`, 'gm'))].length;
    // mocha's JSON reporter writes the report only; its exit code is its console account (runnerOutput.ts).
    // cargo's report is its console (and runnerOutput.ts holds each binary's summary to its lines).
    case 'mocha': case 'cargo': return undefined;
  }
}

/**
 * Why the run's report or console does not show the canary as it must be, or undefined when
 * they do. A run in which no real test passed claims nothing, and is not judged here.
 */
export function checkCanary(c: Canary, cases: readonly TestCase[], run: { stdout: string; stderr?: string; timedOut: boolean }, quietConsole = false): string | undefined {
  if (run.timedOut) return undefined;
  const real = cases.filter((t) => !isCanaryCase(c, t));
  if (!real.some((t) => t.status === 'passed')) return undefined;
  const problems: string[] = [];
  for (const [names, must] of [[c.pass, 'passed'], [c.fail, 'failed']] as const) {
    for (const n of names) {
      const found = cases.filter((t) => isCanaryCase({ ...c, pass: [n], fail: [] }, t));
      if (!found.length) { problems.push(`the report lacks the canary test ${n} that must have ${must}`); continue; }
      const wrong = found.filter((t) => t.status !== must);
      if (wrong.length) problems.push(`the canary test ${n} that must have ${must} is reported ${wrong[0].status}`);
      // A task that turns the console off (-qq, -p no:terminal) leaves the report alone to check.
      // jest prints its account on stderr.
      const shown = quietConsole ? undefined : consoleCount(c, c.framework === 'jest' ? `${run.stderr ?? ''}\n${run.stdout}` : run.stdout, n, must);
      if (shown !== undefined && shown !== found.length) {
        problems.push(`the report has the canary test ${n} ${must} ${found.length} time(s), the console ${shown}`);
      }
    }
  }
  if (c.framework === 'go' || c.framework === 'cargo') {
    // Each test binary (go: one per package) that reports passing tests must have run the canary;
    // cargo's doc-tests are compiled by rustdoc, without it.
    const binaryOf = (t: TestCase) => t.id.slice(0, t.id.indexOf('::'));
    const withCanary = new Set(cases.filter((t) => isCanaryCase(c, t)).map(binaryOf));
    const ran = real.filter((t) => t.status === 'passed' && !(c.framework === 'cargo' && binaryOf(t).startsWith('doctests ')));
    const without = [...new Set(ran.map(binaryOf))].filter((p) => !withCanary.has(p));
    if (without.length) problems.push(`${c.framework === 'go' ? 'package' : 'test binary'} ${without[0]} reports passing tests but not the canary`);
  }
  return problems.length ? `${problems.join('; ')} (canary ${[...c.pass, ...c.fail].join(', ')})` : undefined;
}

/**
 * Whether the run ended as one whose only failures are the canary's: the exit status the
 * runner gives a run with failing tests (mocha: their number), and for go no package that
 * failed without a failing test (one that did not build).
 */
export function exitAsExpected(c: Canary, cases: readonly TestCase[], run: { exitCode: number; stdout: string }): boolean {
  const failedCanary = cases.filter((t) => isCanaryCase(c, t) && t.status === 'failed').length;
  switch (c.framework) {
    case 'mocha': return run.exitCode === failedCanary;
    case 'go': return run.exitCode === 1 && goFailedPackages(run.stdout).every((p) => cases.some((t) => t.status === 'failed' && t.id.startsWith(`${p}::`)));
    // cargo's exit status for a test binary that failed.
    case 'cargo': return run.exitCode === 101;
    default: return run.exitCode === 1;
  }
}

/** Packages `go test -json` reports as failed as a whole. */
export function goFailedPackages(stdout: string): string[] {
  const out: string[] = [];
  for (const line of stdout.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      const e = JSON.parse(line) as { Action?: string; Package?: string; Test?: string };
      if (e.Action === 'fail' && !e.Test && e.Package) out.push(e.Package);
    } catch { /* not an event */ }
  }
  return out;
}

/** Failures the verifier's own equality checks raised (EQUALITY_MARK), as evidence. */
export function equalityFindings(cases: readonly TestCase[]): string[] {
  return cases.filter((t) => t.status === 'failed' && t.message?.includes(EQUALITY_MARK))
    .map((t) => `${t.id}: ${t.message!.slice(t.message!.indexOf(EQUALITY_MARK) + EQUALITY_MARK.length).split('\n')[0].trim()}`);
}

/** What a grader script found (GRADER_TAMPERING, the first line of failing cases' messages), as `<the check>: <evidence>`, each once. */
export function graderTamperingFindings(cases: readonly TestCase[]): string[] {
  const found = cases.filter((t) => t.status === 'failed').map((t) => GRADER_TAMPERING.exec((t.message ?? '').split('\n')[0].trim()));
  return [...new Set(found.filter((m) => m !== null).map((m) => `${m[1]}: ${m[2].trim()}`))];
}

/** The verifier's equality failures (EQUALITY_MARK) in a run's console, for runs without a report. */
export function outputEqualityFindings(output: string): string[] {
  return [...new Set(output.split('\n').filter((l) => l.includes(EQUALITY_MARK)).map((l) => l.slice(l.indexOf(EQUALITY_MARK) + EQUALITY_MARK.length).trim()))];
}
