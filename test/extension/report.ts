// The result file the in-host mocha run writes and both runners read. No vscode import:
// the runners on the host load it too.

/** Env var naming the JSON file the suites write their results to. */
export const RESULTS_ENV = 'PWP_EXTENSION_TEST_RESULTS';

export interface ExtensionTestResult {
  /** The suite file the test came from, e.g. `status.test.js`. */
  file: string;
  fullTitle: string;
  state: 'passed' | 'failed' | 'pending';
  durationMs: number;
  error?: { message: string; stack?: string };
}

export interface ExtensionTestReport {
  host: { appName: string; vscodeVersion: string; uiKind: string; remoteName: string | null };
  stats: { tests: number; passes: number; failures: number; pending: number; durationMs: number };
  /** Tests and failed hooks, in the order they finished. */
  results: ExtensionTestResult[];
}

/** What a runner hands back, whichever host ran the suites. */
export interface ExtensionTestRun {
  /** What mocha wrote inside the extension host; undefined when it never got that far. */
  report?: ExtensionTestReport;
  /** The extension host's exit code (null: it never reported one). */
  exitCode: number | null;
  /** Why the run is not a pass; undefined when it is one. */
  failure?: string;
  /** The suite files that were bundled and offered to mocha. */
  suites: string[];
}

/** One line per result and a summary, for a terminal. */
export function formatReport(report: ExtensionTestReport): string {
  const mark = { passed: 'ok  ', failed: 'FAIL', pending: 'skip' } as const;
  const lines = [`extension tests in ${report.host.appName} ${report.host.vscodeVersion} (${report.host.uiKind}${report.host.remoteName ? `, remote ${report.host.remoteName}` : ''})`];
  for (const r of report.results) {
    lines.push(`  ${mark[r.state]} ${r.fullTitle} (${r.file}, ${r.durationMs} ms)`);
    if (r.error) lines.push(...(r.error.stack ?? r.error.message).split('\n').slice(0, 8).map((l) => `         ${l}`));
  }
  const s = report.stats;
  lines.push(`${s.passes} passed, ${s.failures} failed, ${s.pending} pending of ${s.tests} tests in ${s.durationMs} ms`);
  return lines.join('\n');
}

/** Why a run is not a pass, or undefined when it is one. */
export function failureReason(report: ExtensionTestReport | undefined, exitCode: number | null): string | undefined {
  if (!report) return `no results file was written (exit code ${exitCode ?? 'none'})`;
  if (report.stats.failures > 0) {
    // The failed tests first, so a reader of the first lines of a CI error sees which and why.
    const failed = report.results.filter((r) => r.state === 'failed')
      .map((r) => `FAIL ${r.fullTitle} (${r.file}): ${r.error?.message.split('\n')[0] ?? 'no error message'}`);
    return [`${report.stats.failures} extension test(s) failed`, ...failed].join('\n');
  }
  if (report.stats.tests === 0) return 'no extension tests ran';
  if (exitCode !== 0) return `the extension host exited with code ${exitCode ?? 'none'} although every test passed`;
  return undefined;
}
