// `tests` and `command` evaluators: run a command in the verifier's /workspace as the IDE
// user, with the framework's machine-readable report switched on, and count the cases.
import type { CommandEvaluator, TestsEvaluator } from './evaluatorSchema';
import { tail, type EvaluationResult } from './evaluationResult';
import { match } from './matcher';
import { parseGoTestJson, parseJestJson, parseJUnitXml, parseMochaJson, tally, type TestCase } from './testReports';
import type { Sandbox } from './verifier';

const REPORT_XML = '/pwp/out/report.xml';
const REPORT_JSON = '/pwp/out/report.json';

/** The command with the flags that make the framework write a report we can read. */
export function withReportFlags(e: Pick<TestsEvaluator, 'framework' | 'command'>): string[] {
  const argv = [...e.command];
  switch (e.framework) {
    case 'pytest':
      // xunit1 names each case's file; no cache in the (possibly read-only) test folders.
      return [...argv, `--junitxml=${REPORT_XML}`, '-o', 'junit_family=xunit1', '-p', 'no:cacheprovider'];
    case 'node':
      // Options must come before the test files.
      return [argv[0], '--test-reporter=junit', `--test-reporter-destination=${REPORT_XML}`, ...argv.slice(1)];
    case 'jest':
      return [...argv, '--json', `--outputFile=${REPORT_JSON}`];
    case 'mocha':
      return [...argv, '--reporter', 'json', '--reporter-option', `output=${REPORT_JSON}`];
    case 'go': {
      if (argv.includes('-json')) return argv;
      const i = argv.indexOf('test');
      return i === -1 ? [...argv, '-json'] : [...argv.slice(0, i + 1), '-json', ...argv.slice(i + 1)];
    }
    default:
      return argv;
  }
}

/** Where the framework's report is read from; undefined when the cases come from stdout. */
function reportPath(e: TestsEvaluator): string | undefined {
  switch (e.framework) {
    case 'pytest': case 'node': return REPORT_XML;
    case 'jest': case 'mocha': return REPORT_JSON;
    case 'junit': return e.report!.startsWith('/') ? e.report! : `/workspace/${e.report}`;
    default: return undefined;
  }
}

async function readCases(e: TestsEvaluator, sandbox: Sandbox, stdout: string, exitCode: number): Promise<{ cases: TestCase[]; problem?: string }> {
  if (e.framework === 'go') return { cases: parseGoTestJson(stdout) };
  if (e.framework === 'exitCode') return { cases: [{ id: e.command.join(' '), aliases: [], status: exitCode === 0 ? 'passed' : 'failed' }] };
  const path = reportPath(e)!;
  try {
    const report = (await sandbox.readFile(path))?.toString('utf8');
    switch (e.framework) {
      case 'pytest': case 'node':
        return report ? { cases: parseJUnitXml(report, { pythonIds: e.framework === 'pytest' }) } : { cases: [], problem: 'the test run wrote no report' };
      case 'junit':
        return report ? { cases: parseJUnitXml(report) } : { cases: [], problem: `no JUnit report at ${path}` };
      case 'jest': case 'mocha':
        return report
          ? { cases: e.framework === 'jest' ? parseJestJson(report) : parseMochaJson(report) }
          : { cases: [], problem: `${e.framework} wrote no JSON report` };
    }
  } catch (err) {
    return { cases: [], problem: `could not read the report: ${(err as Error).message}` };
  }
}

export async function gradeTests(e: TestsEvaluator, sandbox: Sandbox): Promise<EvaluationResult> {
  const t0 = Date.now();
  // A report already there (one the agent left in the workspace, or an earlier evaluator's)
  // must not stand in for one this run failed to write.
  const report = reportPath(e);
  if (report && (await sandbox.exec(['rm', '-f', '--', report])).exitCode !== 0) {
    return { kind: 'tests', score: 0, passed: false, summary: `could not remove the stale report ${report} before the run`, durationMs: Date.now() - t0 };
  }
  const run = await sandbox.exec(withReportFlags(e), { cwd: '/workspace', timeoutSec: e.timeoutSec, env: { PYTHONDONTWRITEBYTECODE: '1', CI: '1', ...e.env } });
  const { cases, problem } = await readCases(e, sandbox, run.stdout, run.exitCode);
  const t = tally(cases, e.expected);
  const passRate = t.total > 0 ? t.passed / t.total : 0;
  const allPass = t.total > 0 && t.passed === t.total && (e.expected?.length ? true : run.exitCode === 0);
  const score = e.scoring === 'passRate' ? passRate : allPass ? 1 : 0;
  const why = run.timedOut ? `timed out after ${e.timeoutSec} s` : problem ?? (t.missing.length ? `missing tests: ${t.missing.slice(0, 5).join(', ')}` : '');
  return {
    kind: 'tests', score, passed: allPass,
    summary: `${t.passed}/${t.total} tests pass (exit code ${run.exitCode})${why ? `; ${why}` : ''}`,
    tests: { ...t, cases, exitCode: run.exitCode, timedOut: run.timedOut, stdoutTail: tail(run.stdout), stderrTail: tail(run.stderr) },
    durationMs: Date.now() - t0,
  };
}

export async function gradeCommand(e: CommandEvaluator, sandbox: Sandbox): Promise<EvaluationResult> {
  const t0 = Date.now();
  const run = await sandbox.exec(e.command, { cwd: '/workspace', timeoutSec: e.timeoutSec });
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
