// The runner's own account of a run, read from its console output, to check the report
// against: pytest's summary line, node --test's TAP totals, jest's "Tests:" line, mocha's
// exit code (its failure count), go test's exit code. A report that shows more passes or
// fewer failures than the runner printed, or an exit code of 0 after failures, was not
// written by an honest run: the grade is 0 with "tampering suspected" and the evidence. So
// is a console with more than one summary: the runner prints one, at the end; a second is
// someone else's (an exit handler printing "4 passed" after pytest's "4 failed").
import type { TestCase } from './testReports';

export interface RunnerCounts { passed: number; failed: number; source: string }

const PYTEST_SUMMARY = /^((?:\d+ (?:passed|failed|errors?|skipped|xfailed|xpassed|deselected|warnings?|rerun)(?:, )?)+) in [\d.]+s\b/;
const PYTEST_EMPTY = /^no tests ran in [\d.]+s\b/;

/**
 * pytest's summary lines, last first: `3 failed, 2 passed, 1 skipped in 0.12s` (with or
 * without `=` bars). Lines inside a failure's captured output (a test that runs pytest
 * itself) are the test's, not the runner's, and are left out.
 */
export function pytestSummaries(stdout: string): RunnerCounts[] {
  // eslint-disable-next-line no-control-regex -- ESC starts the colour codes stripped here
  const lines = stdout.split('\n').map((l) => l.replace(/\x1b\[[0-9;]*m/g, '').trim()).filter(Boolean);
  const found: RunnerCounts[] = [];
  let captured = false;
  for (const line of lines) {
    if (/^-+ Captured (?:stdout|stderr|log) [\w ]+ -+$/.test(line)) { captured = true; continue; }
    if (/^(?:_{3,}|={3,}|-{3,}) /.test(line)) captured = false;
    if (captured) continue;
    const l = line.replace(/^=+\s*|\s*=+$/g, '');
    const m = PYTEST_SUMMARY.exec(l);
    if (m || PYTEST_EMPTY.test(l)) {
      const n = (word: string) => Number(new RegExp(`(\\d+) ${word}\\b`).exec(m?.[1] ?? '')?.[1] ?? 0);
      found.unshift({ passed: n('passed') + n('xpassed'), failed: n('failed') + n('errors?'), source: line });
    }
  }
  return found;
}

/** pytest's final summary line. */
export function pytestSummary(stdout: string): RunnerCounts | undefined {
  return pytestSummaries(stdout)[0];
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
  const several = (sources: string[], name: string) => `${name} printed ${sources.length} summaries, one is not its own: ${sources.slice(0, 3).reverse().map((x) => `"${x}"`).join(', ')}`;
  switch (framework) {
    case 'pytest': {
      const all = pytestSummaries(run.stdout);
      return all.length > 1 ? several(all.map((x) => x.source), 'pytest') : against(all[0], 'pytest');
    }
    case 'node': {
      const totals = [...run.stdout.matchAll(/^# tests \d+$/gm)].map((m) => m[0]);
      return totals.length > 1 ? several(totals, 'node --test') : against(tapSummary(run.stdout), 'node --test');
    }
    case 'jest': {
      // eslint-disable-next-line no-control-regex -- ESC starts the colour codes stripped here
      const lines = [...`${run.stderr}\n${run.stdout}`.replace(/\x1b\[[0-9;]*m/g, '').matchAll(/^Tests:\s+.*\d+ total\s*$/gm)].map((m) => m[0].trim());
      return lines.length > 1 ? several(lines, 'jest') : against(jestSummary(`${run.stderr}\n${run.stdout}`), 'jest');
    }
    case 'mocha':
      // mocha exits with its failure count (at most 255).
      if (run.exitCode > 0 && run.exitCode < 255 && failed < run.exitCode && passed > 0) return `mocha exited with ${run.exitCode} (its failure count), the report has ${failed} failures`;
      if (run.exitCode === 0 && failed > 0) return `mocha exited with 0, the report has ${failed} failures`;
      return undefined;
    case 'go':
      if (run.exitCode === 0 && failed > 0) return `go test exited with 0 after ${failed} failures`;
      return undefined;
    case 'cargo': {
      // One "test result:" line per test binary, each its own count.
      const results = [...run.stdout.matchAll(/^test result: \w+\. (\d+) passed; (\d+) failed/gm)];
      const sum = (i: number) => results.reduce((n, m) => n + Number(m[i]), 0);
      const own = results.length ? { passed: sum(1), failed: sum(2), source: `${results.length} test result lines` } : undefined;
      return against(own, 'cargo test');
    }
    default:
      return undefined;
  }
}
