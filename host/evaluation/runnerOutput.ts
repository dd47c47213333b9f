// The runner's own account of a run, read from its console output, to check the report
// against: pytest's summary line, node --test's TAP totals, jest's "Tests:" line, mocha's
// exit code (its failure count), go test's exit code. A report that shows more passes or
// fewer failures than the runner printed, or an exit code of 0 after failures, was not
// written by an honest run: the grade is 0 with "tampering suspected" and the evidence.
import type { TestCase } from './testReports';

export interface RunnerCounts { passed: number; failed: number; source: string }

/** pytest's final line, `3 failed, 2 passed, 1 skipped in 0.12s` (with or without `=` bars). */
export function pytestSummary(stdout: string): RunnerCounts | undefined {
  // eslint-disable-next-line no-control-regex -- ESC starts the colour codes stripped here
  const lines = stdout.split('\n').map((l) => l.replace(/\x1b\[[0-9;]*m/g, '').trim()).filter(Boolean);
  for (let i = lines.length - 1; i >= 0; i--) {
    const l = lines[i].replace(/^=+\s*|\s*=+$/g, '');
    const m = /^((?:\d+ (?:passed|failed|errors?|skipped|xfailed|xpassed|deselected|warnings?|rerun)(?:, )?)+) in [\d.]+s\b/.exec(l);
    if (m || /^no tests ran in [\d.]+s\b/.test(l)) {
      const n = (word: string) => Number(new RegExp(`(\\d+) ${word}\\b`).exec(m?.[1] ?? '')?.[1] ?? 0);
      return { passed: n('passed') + n('xpassed'), failed: n('failed') + n('errors?'), source: lines[i] };
    }
  }
  return undefined;
}

/** node --test's TAP totals (`# pass 3`, `# fail 1`). */
export function tapSummary(stdout: string): RunnerCounts | undefined {
  const last = (k: string) => [...stdout.matchAll(new RegExp(`^# ${k} (\\d+)$`, 'gm'))].pop()?.[1];
  const pass = last('pass');
  const fail = last('fail');
  if (pass === undefined || fail === undefined) return undefined;
  const cancelled = Number(last('cancelled') ?? 0);
  return { passed: Number(pass), failed: Number(fail) + cancelled, source: `# pass ${pass}, # fail ${fail}${cancelled ? `, # cancelled ${cancelled}` : ''}` };
}

/** jest's `Tests:       1 failed, 2 passed, 3 total`. */
export function jestSummary(output: string): RunnerCounts | undefined {
  // eslint-disable-next-line no-control-regex -- ESC starts the colour codes stripped here
  const line = [...output.replace(/\x1b\[[0-9;]*m/g, '').matchAll(/^Tests:\s+(.*\d+ total)\s*$/gm)].pop()?.[1];
  if (!line) return undefined;
  const n = (word: string) => Number(new RegExp(`(\\d+) ${word}\\b`).exec(line)?.[1] ?? 0);
  return { passed: n('passed'), failed: n('failed'), source: `Tests: ${line}` };
}

/** Why the report and the runner disagree, or undefined when they agree. */
export function crossCheck(
  framework: string, cases: readonly TestCase[], run: { exitCode: number; stdout: string; stderr: string; timedOut: boolean }, quietSummary = false,
): string | undefined {
  if (run.timedOut) return undefined;
  const passed = cases.filter((c) => c.status === 'passed').length;
  const failed = cases.filter((c) => c.status === 'failed').length;
  const against = (own: RunnerCounts | undefined, name: string): string | undefined => {
    if (!own) return passed > 0 && !quietSummary ? `the report has ${passed} passing tests but ${name} printed no summary` : undefined;
    if (passed > own.passed) return `the report has ${passed} passing tests, ${name} counted ${own.passed} (${own.source})`;
    if (failed < own.failed) return `the report has ${failed} failing tests, ${name} counted ${own.failed} (${own.source})`;
    if (run.exitCode === 0 && own.failed > 0) return `${name} exited with 0 after ${own.failed} failures (${own.source})`;
    return undefined;
  };
  switch (framework) {
    case 'pytest': return against(pytestSummary(run.stdout), 'pytest');
    case 'node': return against(tapSummary(run.stdout), 'node --test');
    case 'jest': return against(jestSummary(`${run.stderr}\n${run.stdout}`), 'jest');
    case 'mocha':
      // mocha exits with its failure count (at most 255).
      if (run.exitCode > 0 && run.exitCode < 255 && failed < run.exitCode && passed > 0) return `mocha exited with ${run.exitCode} (its failure count), the report has ${failed} failures`;
      if (run.exitCode === 0 && failed > 0) return `mocha exited with 0, the report has ${failed} failures`;
      return undefined;
    case 'go':
      if (run.exitCode === 0 && failed > 0) return `go test exited with 0 after ${failed} failures`;
      return undefined;
    default:
      return undefined;
  }
}
