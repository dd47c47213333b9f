// `tests` and `command` evaluators. A `tests` run goes through the isolated runner
// (isolatedRunner.ts): the image's runner as the tests' user, the report copied out of its
// reach once every process of that user is gone. The cases are then checked against the
// runner's own output and exit status (runnerOutput.ts), and the deliverable against code
// that patches the runner from inside (tamperCheck.ts); either finding scores 0. Runs of
// pytest, node --test, mocha and go test carry a canary (canary.ts) that must show in the
// report and the console as it must, and never counts in the score; a test the verifier's
// equality check failed (pwp_pytest.py, pwp_node.js) is reported as tampering.
import { randomBytes } from 'node:crypto';
import type { CommandEvaluator, TestsEvaluator } from './evaluatorSchema';
import { componentList, parseComponents, tail, type EvaluationResult, type MetricComponent } from './evaluationResult';
import {
  CANARY_FRAMEWORKS, canaryFiles, checkCanary, drawCanary, equalityFindings, exitAsExpected, goFailedPackages, outputEqualityFindings, goPackages, isCanaryCase,
  graderTamperingFindings, CANARY_PLACEHOLDER, type Canary,
} from './canary';
import { unguardedGrading } from './unguardedGrading';
import {
  CANARY_ENV, DROPPED_ENV, GIT_TRUSTS_WORKSPACE, goRunOf, graderRunFlags, HIDDEN_DIR, imageRunner, innerSealBroker, innerSealedTests, JEST_CANARY, JEST_SCRIPT, MARK_ENV,
  MOCHA_CANARY, MOCHA_SCRIPT, NODE_PRELOAD, RESULTS_DIR, RUN_LAYOUT, RUSTC_CANARY, SCRATCH_DIR, SEAL_PRELOAD, sealBrokerFor, sealedTests, TESTS_UID, testsEnv,
  type CanarySpec, type RunOutcome, type RunSpec,
} from './isolatedRunner';
import { BUILD_UID, cargoRunOf } from './cargoRun';
import { match } from './matcher';
import { crossCheck } from './runnerOutput';
import { describeFindings } from './tamperCheck';
import { parseCargoTest, parseGoTestJson, parseJestJson, parseJUnitXml, parseMochaJson, tally, type TestCase } from './testReports';
import { goPackageFailures, onBase, passingOnBase, pastBase, sharedBaseRun, vanishedSinceBase } from './baseRun';
import type { Sandbox } from './verifier';

let runs = 0;

/** jest's command run under node with the sealing preload loaded first (the image's jest script). */
function jestUnderSeal(argv: readonly string[]): string[] {
  return ['node', '--require', SEAL_PRELOAD, JEST_SCRIPT, ...argv.slice(1)];
}

/**
 * The command with the flags that make the framework write its report to `report` (and, for
 * node, TAP totals to stdout); with `canary`, also what brings in the canary (canary.ts): the
 * verifier's preload for node and mocha, the overlay for go (pytest's comes with the launch).
 * With `sealed` (node --test, mocha, jest: sealedTests), the runner runs under node with the
 * sealing preload (pwp_seal.js) loaded first, in one process: node --test without process
 * isolation, mocha not parallel, jest in band (the descriptor with the sealed texts reaches that
 * process only).
 */
export function withReportFlags(
  e: Pick<TestsEvaluator, 'framework' | 'command'>, report = `${SCRATCH_DIR}/report`, canary = false, jestSetup: readonly string[] = [], sealed = false,
): string[] {
  const argv = imageRunner(e.command);
  if (sealed && e.framework === 'node') argv.splice(1, 0, '--require', SEAL_PRELOAD, '--test-isolation=none');
  if (sealed && e.framework === 'mocha') {
    // Serial, whatever the command or a .mocharc says: parallel mode's workers would not get the
    // descriptor. The tests are the same; only mocha's scheduling of files differs.
    const serial = argv.filter((a) => a !== '--parallel' && a !== '-p' && !a.startsWith('--parallel='));
    argv.splice(0, argv.length, 'node', '--require', SEAL_PRELOAD, MOCHA_SCRIPT, '--no-parallel', ...serial.slice(1));
  }
  if (sealed && e.framework === 'jest') argv.splice(0, argv.length, ...jestUnderSeal([argv[0], '--runInBand', '--no-cache', ...argv.slice(1)]));
  switch (e.framework) {
    case 'pytest':
      // xunit1 names each case's file; no cache in the (possibly read-only) test folders.
      return [...argv, `--junitxml=${report}`, '-o', 'junit_family=xunit1', '-p', 'no:cacheprovider'];
    case 'node':
      // Options must come before the test files. TAP on stdout is node's own count of the run.
      return [argv[0], ...(canary ? ['--require', NODE_PRELOAD] : []), '--test-reporter=junit', `--test-reporter-destination=${report}`, '--test-reporter=tap', '--test-reporter-destination=stdout', ...argv.slice(1)];
    case 'jest':
      // The option takes every value after it and replaces the configuration's list: last,
      // with the task's own setup files first (read from `jest --showConfig`).
      return [...argv, '--json', `--outputFile=${report}`, ...(canary ? ['--verbose', '--setupFilesAfterEnv', ...jestSetup, JEST_CANARY] : [])];
    case 'mocha':
      return [...argv, ...(canary ? ['--require', NODE_PRELOAD, '--file', MOCHA_CANARY] : []), '--reporter', 'json', '--reporter-option', `output=${report}`];
    case 'go': {
      const i = argv.indexOf('test');
      // go vet (run by go test) does not read overlays (Go 1.19): the canary's files would stop it.
      const vet = argv.some((a) => a.startsWith('-vet')) ? [] : ['-vet=off'];
      const extra = [...(argv.includes('-json') ? [] : ['-json']), ...(canary ? [`-overlay=${CANARY_PLACEHOLDER}/overlay.json`, ...vet] : [])];
      return i === -1 ? [...argv, ...extra] : [...argv.slice(0, i + 1), ...extra, ...argv.slice(i + 1)];
    }
    case 'cargo': {
      // Every test binary runs: cargo stops at the first failing one otherwise, and the tests of
      // the binaries after it would be missing from one run and not the other.
      const i = argv.indexOf('test');
      if (i === -1 || argv.includes('--no-fail-fast')) return argv;
      return [...argv.slice(0, i + 1), '--no-fail-fast', ...argv.slice(i + 1)];
    }
    default:
      return argv;
  }
}

/** Where the framework writes its report inside the run's folder; undefined when the cases come from stdout or the task names the place. */
function ownReport(e: TestsEvaluator, dir: string): string | undefined {
  switch (e.framework) {
    case 'pytest': case 'node': return `${dir}/report.xml`;
    case 'jest': case 'mocha': return `${dir}/report.json`;
    case 'junit': return e.report!.startsWith('/') ? e.report! : `/workspace/${e.report}`;
    default: return undefined;
  }
}

/**
 * Runs the tests through the verifier's root-owned runner and reads what it kept. The canary
 * and the completion mark reach the runner in its environment (root's, unreadable to the tests).
 */
export async function runIsolated(sandbox: Sandbox, spec: Omit<RunSpec, 'uid' | 'gid' | 'dropEnv' | 'layout'>, canary?: CanarySpec, mark?: string): Promise<RunOutcome> {
  const full: RunSpec = { ...spec, uid: TESTS_UID, gid: TESTS_UID, dropEnv: DROPPED_ENV, layout: RUN_LAYOUT };
  const env = { ...(canary ? { [CANARY_ENV]: JSON.stringify(canary) } : {}), ...(mark ? { [MARK_ENV]: mark } : {}) };
  const r = await sandbox.exec(['/opt/node/bin/node', '/pwp/runner/run.js', JSON.stringify(full)], {
    user: 'root', cwd: '/', timeoutSec: spec.timeoutSec + 60, ...(Object.keys(env).length ? { env } : {}),
  });
  const line = r.stdout.trim().split('\n').pop() ?? '';
  let meta: { exitCode: number; timedOut: boolean; survivors: number; hasReport: boolean; problem?: string };
  try { meta = JSON.parse(line); } catch {
    throw new Error(`the test runner failed (exit code ${r.exitCode}): ${tail(`${r.stdout}${r.stderr}`.trim(), 500)}`);
  }
  // The run's folder in one read (each read out of a container is an archive the engine packs).
  const kept = (await sandbox.readTree(`${RESULTS_DIR}/${spec.id}`)) ?? new Map<string, Buffer>();
  const text = (f: string) => kept.get(f)?.toString('utf8') ?? '';
  return {
    exitCode: meta.exitCode, timedOut: meta.timedOut, survivors: meta.survivors, problem: meta.problem,
    stdout: text('stdout'), stderr: text('stderr'),
    report: meta.hasReport ? kept.get('report') : undefined,
  };
}

function readCases(e: TestsEvaluator, run: RunOutcome): { cases: TestCase[]; problem?: string } {
  if (e.framework === 'go') return { cases: parseGoTestJson(run.stdout) };
  if (e.framework === 'cargo') return { cases: parseCargoTest(run.stdout, run.stderr) };
  if (e.framework === 'exitCode') return { cases: [{ id: e.command.join(' '), aliases: [], status: run.exitCode === 0 ? 'passed' : 'failed' }] };
  const report = run.report?.toString('utf8');
  if (!report) return { cases: [], problem: run.problem ?? (e.framework === 'junit' ? `no JUnit report at ${ownReport(e, '')}` : e.framework === 'jest' || e.framework === 'mocha' ? `${e.framework} wrote no JSON report` : 'the test run wrote no report') };
  try {
    switch (e.framework) {
      case 'pytest': case 'node': return { cases: parseJUnitXml(report, { pythonIds: e.framework === 'pytest' }) };
      case 'junit': return { cases: parseJUnitXml(report) };
      case 'jest': return { cases: parseJestJson(report) };
      case 'mocha': return { cases: parseMochaJson(report) };
    }
  } catch (err) {
    return { cases: [], problem: `could not read the report: ${(err as Error).message}` };
  }
}

/**
 * Why the run's stdout does not carry its completion mark as it must (exactly one line that is
 * the mark), as [tampering?, reason]; undefined when it does.
 */
export function checkCompletionMark(mark: string, stdout: string): { tampering: boolean; why: string } | undefined {
  const n = stdout.split('\n').filter((l) => l.trim() === mark).length;
  if (n === 1) return undefined;
  return n === 0 ? { tampering: false, why: 'the test script did not reach its end (no completion mark)' }
    : { tampering: true, why: `the run's completion mark was printed ${n} times; the script prints it once, at its end` };
}

/**
 * jest's setupFilesAfterEnv as the task's configuration has them (`jest --showConfig`, run as
 * the tests are), for the canary's setup file to come after; undefined when they cannot be
 * read or the configuration has several projects (the run then goes without a canary).
 */
async function jestSetupFiles(e: TestsEvaluator, sandbox: Sandbox, id: string, seal: string[]): Promise<string[] | undefined> {
  const argv = imageRunner(e.command);
  if (argv[0] !== 'jest') return undefined;
  // The configuration may load the workspace's modules: the agent's code runs here as in the
  // tests, so the read is isolated as they are, the test files sealed (not copied away first)
  // and served to jest by the sealing preload (a hidden jest.config.js is one of them).
  const run = seal.length ? jestUnderSeal(argv) : argv;
  const r = await runIsolated(sandbox, {
    id: `${id}-config`, argv: [...run, '--showConfig'], cwd: '/workspace', env: testsEnv(e), timeoutSec: 120, ...(seal.length ? { seal } : {}),
  });
  try {
    const shown = JSON.parse(r.stdout.slice(r.stdout.indexOf('{'))) as { configs?: { setupFilesAfterEnv?: unknown }[] };
    const files = shown.configs?.length === 1 ? shown.configs[0].setupFilesAfterEnv : undefined;
    return Array.isArray(files) && files.every((f) => typeof f === 'string') ? files as string[] : undefined;
  } catch {
    return undefined;
  }
}

/** The canary's files: for go, a test file for each package with tests (their package clause read in the verifier). */
async function prepareCanary(canary: Canary, sandbox: Sandbox): Promise<CanarySpec> {
  let packages;
  if (canary.framework === 'go') {
    const r = await sandbox.exec(['sh', '-c', "find /workspace -name '*_test.go' -type f -not -path '*/vendor/*' -not -path '*/testdata/*' -not -path '*/.*' -exec grep -m1 -H '^package ' {} +"], { user: 'root', cwd: '/', timeoutSec: 60 });
    packages = goPackages(r.stdout);
  }
  return { dir: canary.dir, files: canaryFiles(canary, { goPackages: packages }) };
}

/** One run of the tests: its outcome, its cases (the canary's among them) and what went wrong. */
interface TestsRun {
  run: RunOutcome;
  /** Every case read, the canary's included; all failed when the run did not reach its end. */
  all: TestCase[];
  canary?: Canary;
  problem?: string;
  ended?: { tampering: boolean; why: string };
}

/** The task's preparation step, where it has one; what went wrong when it failed. */
async function prepare(e: TestsEvaluator, sandbox: Sandbox): Promise<{ unprepared: string } | undefined> {
  if (!e.prepare) return undefined;
  // Nothing of the IDE user's may live while root prepares (it reads the hidden folder).
  await endTestsProcesses(sandbox);
  const p = await sandbox.exec(e.prepare.command, { user: 'root', cwd: '/', timeoutSec: e.prepare.timeoutSec });
  if (p.exitCode === 0) return undefined;
  return { unprepared: `the task's preparation (${e.prepare.command.join(' ')}) failed with exit code ${p.exitCode}${p.timedOut ? ' (timed out)' : ''}: ${tail(`${p.stderr}${p.stdout}`.trim(), 1000)}` };
}

/**
 * The published metric's components the preparation left (`prepare.components`, root's), with the
 * summary's words for them; a file missing or unreadable is said, never a failure of the grade.
 */
async function preparedComponents(e: TestsEvaluator, sandbox: Sandbox): Promise<{ components?: MetricComponent[]; said: string } | undefined> {
  const file = e.prepare?.components;
  if (!file) return undefined;
  const data = await sandbox.readFile(file, { maxBytes: 1 << 20 });
  if (!data) return { said: `; the preparation left no metrics at ${file}` };
  const parsed = parseComponents(data.toString('utf8'));
  if ('invalid' in parsed) return { said: `; the preparation's metrics at ${file} are unreadable (${parsed.invalid})` };
  return { components: parsed.components, said: `; ${parsed.metric}: ${componentList(parsed.components)}` };
}

/**
 * Runs the command once in /workspace through the isolated runner, with its report (and, with
 * `withCanary`, the canary where its runner takes one) and the completion mark if asked.
 */
async function runTests(e: TestsEvaluator, sandbox: Sandbox, id: string, withCanary: boolean): Promise<TestsRun | { stale: string }> {
  const report = ownReport(e, `${SCRATCH_DIR}/${id}`);
  // A report already there (one the agent left in the workspace) must not stand in for one
  // this run failed to write.
  if (e.framework === 'junit' && (await sandbox.exec(['rm', '-f', '--', report!])).exitCode !== 0) return { stale: report! };
  const hidden = sandbox.grading?.hiddenFiles ?? [];
  const seal = sealedTests(e, hidden);
  const jestSetup = withCanary && e.framework === 'jest' ? await jestSetupFiles(e, sandbox, id, seal) : undefined;
  const canary = !withCanary || (e.framework === 'go' && e.command.some((a) => a === '-overlay' || a.startsWith('-overlay='))) || (e.framework === 'jest' && !jestSetup)
    ? undefined : drawCanary(e.framework);
  const canarySpec = canary ? await prepareCanary(canary, sandbox) : undefined;
  const mark = e.completionMark ? `pwp-end-${randomBytes(16).toString('hex')}` : undefined;
  // A test script's sealed files all go through the broker; a grader's own (innerPytest) on its descriptor, its inner run's through the broker.
  const scriptBroker = sealBrokerFor(e);
  // The runner itself, when it is the command, runs with the sealing preload and in one process.
  const argv = [...withReportFlags(e, report, !!canary, jestSetup, seal.length > 0 && !scriptBroker), ...graderRunFlags(e, hidden)];
  const go = e.framework === 'go' && seal.length ? goRunOf(argv) : undefined;
  // cargo's sealed files are the build's to open and close (cargoRun.ts), not handed to the tests.
  const cargoRun = e.framework === 'cargo' && seal.length ? cargoRunOf(argv) : undefined;
  const brokered = scriptBroker ? seal : innerSealedTests(e, hidden);
  // cargo builds into a target folder of the run's (nothing the agent built is run: a planted
  // rlib whose fingerprint cargo believes would be linked), with the verifier's rustc wrapper for
  // the workspace's crates, which adds the canary to each test crate.
  const cargo = e.framework === 'cargo' ? {
    ...(e.env?.CARGO_TARGET_DIR ? {} : { CARGO_TARGET_DIR: `/tmp/pwp-cargo-${id}` }), ...(canary ? { RUSTC_WORKSPACE_WRAPPER: RUSTC_CANARY } : {}),
  } : {};
  const env = { ...testsEnv(e), ...cargo };
  const spec = {
    id, argv, cwd: '/workspace', env, timeoutSec: e.timeoutSec, report, ...(e.framework === 'pytest' ? { canaryOnFd: true } : {}),
    ...(seal.length && !scriptBroker && !cargoRun ? { seal } : {}), ...(go ? { go } : {}),
    ...(cargoRun ? { cargo: { ...cargoRun, sealed: seal, uid: BUILD_UID, wrapper: RUSTC_CANARY } } : {}),
    ...(brokered.length ? { sealBroker: { ...(scriptBroker ?? innerSealBroker(e)), files: brokered } } : {}),
  };
  const run = await runIsolated(sandbox, spec, canarySpec, mark);
  const ended = mark && !run.timedOut ? checkCompletionMark(mark, run.stdout) : undefined;
  const read = readCases(e, run);
  // A run that did not reach its end passes nothing.
  const all = ended ? read.cases.map((c) => ({ ...c, status: 'failed' as const })) : read.cases;
  return { run, all, canary, ended, problem: read.problem ?? (ended && !ended.tampering ? ended.why : undefined) };
}

export async function gradeTests(e: TestsEvaluator, sandbox: Sandbox): Promise<EvaluationResult> {
  const t0 = Date.now();
  const id = `run-${++runs}-${Date.now().toString(36)}`;
  const failed = (summary: string): EvaluationResult => ({ kind: 'tests', score: 0, passed: false, summary, durationMs: Date.now() - t0 });
  // The base first (countFailingOnBase), prepared as the agent's run is: the ids of the tests that already pass there.
  let basePassed: Set<string> | undefined;
  let baseCases: TestCase[] = [];
  let baseEmpty = '';
  let baseReused = false;
  if (e.countFailingOnBase) {
    const shared = await sharedBaseRun(sandbox, e, () => onBase(sandbox, async (b) => {
      const base = (await prepare(e, b)) ?? await runTests(e, b, `${id}-base`, false);
      if ('stale' in base) return { failed: `could not remove the stale report ${base.stale} before the base run` };
      if ('unprepared' in base) return { failed: `on the base, ${base.unprepared}` };
      return { cases: base.all, exitCode: base.run.exitCode, problem: base.problem };
    }));
    const base = shared.outcome;
    if ('failed' in base) return failed(base.failed);
    baseReused = shared.reused;
    basePassed = passingOnBase(base.cases);
    baseCases = base.cases;
    // Nothing to leave out (a build the task's tests break on the base, say): every test counts, and the summary says why.
    if (!base.cases.length) baseEmpty = `; no test ran on the base (exit code ${base.exitCode}${base.problem ? `: ${base.problem}` : ''}), so every test counts`;
  }
  const unprepared = await prepare(e, sandbox);
  if (unprepared) return failed(unprepared.unprepared);
  const done = await runTests(e, sandbox, id, true);
  if ('stale' in done) return failed(`could not remove the stale report ${done.stale} before the run`);
  const { run, all, canary, ended, problem } = done;
  const metric = await preparedComponents(e, sandbox);
  const cases = canary ? all.filter((c) => !isCanaryCase(canary, c)) : all;
  // Only the tests the task's change makes pass count (countFailingOnBase), and those it breaks.
  // Failures no runner reported as a case (a go package that did not build, a test gone since the base): listed with the run's cases.
  const extra = basePassed ? [...(e.framework === 'go' ? goPackageFailures(goFailedPackages(run.stdout), all) : []), ...vanishedSinceBase(baseCases, cases)] : [];
  const past = basePassed ? pastBase(cases, basePassed, extra) : undefined;
  const counted = past?.counted ?? cases;
  const t = tally(counted, e.expected);
  const ctx = sandbox.grading;
  const quiet = e.command.some((a) => a === '-qq' || a === 'no:terminal' || a === '--no-summary');
  const disagreement = (ended?.tampering ? ended.why : undefined) ?? crossCheck(e.framework, all, run, quiet) ?? (canary ? checkCanary(canary, all, run, quiet) : undefined);
  const findings = ctx?.findings ?? [];
  // A run with no report (a script) shows the verifier's equality check in its output.
  const equality = [...equalityFindings(cases), ...(e.framework === 'exitCode' ? outputEqualityFindings(`${run.stdout}\n${run.stderr}`) : [])];
  // A grader script that runs a runner of its own (the SWE-bench log grader) says what its checks found, first in its cases' failures.
  const inner = graderTamperingFindings(cases);
  const tampering = disagreement ? `tampering suspected: ${disagreement}`
    : equality.length ? `tampering suspected: equality answered by the deliverable: ${equality.slice(0, 3).join('; ')}`
      : inner.length ? `tampering suspected: ${inner.join('; ')}`
      : findings.length ? `tampering suspected: the deliverable touches the test framework: ${describeFindings(findings)}` : undefined;
  // With a canary the run has failures of its own: a clean exit is the runner's for exactly those.
  const exitOk = canary ? exitAsExpected(canary, all, run) : run.exitCode === 0;
  const passRate = t.total > 0 ? t.passed / t.total : 0;
  const allPass = !tampering && t.total > 0 && t.passed === t.total && (e.expected?.length ? true : exitOk);
  const score = tampering ? 0 : e.scoring === 'passRate' ? passRate : allPass ? 1 : 0;
  const onBaseNote = past?.leftOut ? `; ${past.leftOut} passing on the base not counted` : '';
  const brokenNote = past?.broken ? `; ${past.broken} passing on the base fail now` : '';
  const nothingCounted = past && !t.total ? (past.leftOut ? 'every test that ran passes on the base: the task\'s change makes none pass' : 'no test ran') : '';
  const why = tampering ?? (run.timedOut ? `timed out after ${e.timeoutSec} s` : problem ?? (t.missing.length ? `missing tests: ${t.missing.slice(0, 5).join(', ')}` : nothingCounted));
  const unguarded = unguardedRun(e, ctx?.hiddenFiles, canary);
  const replaced = ctx?.infrastructure.length
    ? `; the task's test infrastructure replaced the agent's changes to ${ctx.infrastructure.slice(0, 5).map((c) => `${c.path} (${c.change})`).join(', ')}${ctx.infrastructure.length > 5 ? ` and ${ctx.infrastructure.length - 5} more` : ''}`
    : '';
  return {
    kind: 'tests', score, passed: allPass,
    summary: `${t.passed}/${t.total} tests pass (exit code ${run.exitCode}${canary && exitOk ? ', from the canary\'s failing test' : ''})${t.skipped ? `; ${t.skipped} skipped, which do not pass` : ''}${onBaseNote}${brokenNote}${baseEmpty}${why ? `; ${why}` : ''}${replaced}${metric?.said ?? ''}`,
    tests: {
      ...t, cases: [...cases, ...extra], exitCode: run.exitCode, timedOut: run.timedOut, stdoutTail: tail(run.stdout), stderrTail: tail(run.stderr),
      ...(basePassed ? { passingOnBase: [...basePassed].sort(), ...(baseReused ? { baseReused } : {}) } : {}),
    },
    ...(tampering ? { tampering: { reason: tampering, findings, disagreement: disagreement ?? ([...equality, ...inner].join('; ') || undefined) } } : {}),
    ...(ctx?.infrastructure.length ? { infrastructure: ctx.infrastructure } : {}),
    ...(metric?.components ? { components: metric.components } : {}),
    ...(unguarded ? { unguarded } : {}),
    durationMs: Date.now() - t0,
  };
}

/**
 * Why this run could be passed without solving the task: what the task says (unguardedGrading.ts),
 * else a runner that takes a canary but ran without one (only the run can tell: jest whose
 * configuration could not be read).
 */
function unguardedRun(e: TestsEvaluator, hiddenFiles: readonly string[] | undefined, canary: Canary | undefined): string | undefined {
  const said = unguardedGrading(e, hiddenFiles);
  if (said || canary || !(CANARY_FRAMEWORKS as readonly string[]).includes(e.framework)) return said;
  return e.framework === 'jest'
    ? 'jest ran without a canary: its configuration\'s setup files could not be read (jest --showConfig failed, or it has several projects)'
    : `${e.framework} ran without a canary`;
}

/** Kills every process of the tests' user (kill -1 as that user needs no capability). */
export async function endTestsProcesses(sandbox: Sandbox): Promise<void> {
  await sandbox.exec(['setpriv', `--reuid=${TESTS_UID}`, `--regid=${TESTS_UID}`, '--clear-groups', 'kill', '-s', 'KILL', '--', '-1'], { user: 'root', cwd: '/' });
}

/**
 * Runs `fn` with the hidden folder readable by the IDE user (it is root's alone otherwise:
 * Verifier.load), after every process of that user is gone, and closes it again after them.
 * For a `command` evaluator: the task's own check, which reads its files there.
 */
async function withHiddenReadable<T>(sandbox: Sandbox, fn: () => Promise<T>): Promise<T> {
  const chmod = async (mode: string) => {
    const r = await sandbox.exec(['sh', '-c', `[ ! -e ${HIDDEN_DIR} ] || chmod ${mode} ${HIDDEN_DIR}`], { user: 'root', cwd: '/' });
    if (r.exitCode !== 0) throw new Error(`cannot set the hidden folder's mode: ${r.stderr.trim()}`);
  };
  await endTestsProcesses(sandbox);
  await chmod('755');
  try {
    return await fn();
  } finally {
    await endTestsProcesses(sandbox);
    await chmod('700');
  }
}

export async function gradeCommand(e: CommandEvaluator, sandbox: Sandbox): Promise<EvaluationResult> {
  const t0 = Date.now();
  const run = await withHiddenReadable(sandbox, () => sandbox.exec(e.command, { cwd: '/workspace', timeoutSec: e.timeoutSec, env: GIT_TRUSTS_WORKSPACE }));
  const checks = [{ name: 'exit code', ok: run.exitCode === e.exitCode, why: `exited with ${run.exitCode}${run.timedOut ? ' (timed out)' : ''}, expected ${e.exitCode}` }];
  if (e.stdout !== undefined) {
    const m = match(run.stdout.trim(), e.stdout, 'stdout');
    checks.push({ name: 'stdout', ok: m.ok, why: m.why });
  }
  const ok = checks.every((c) => c.ok);
  return {
    kind: 'command', score: ok ? 1 : 0, passed: ok, checks,
    summary: ok ? 'the command succeeded' : checks.filter((c) => !c.ok).map((c) => c.why).join('; '),
    output: { exitCode: run.exitCode, timedOut: run.timedOut, stdoutTail: tail(run.stdout), stderrTail: tail(run.stderr) },
    durationMs: Date.now() - t0,
  };
}
