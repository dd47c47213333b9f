// The extension runners' verdict: a CI summary shows only an error's first lines, so the failed
// tests and their messages must come before the full report.
import assert from 'node:assert/strict';
import { failureReason, type ExtensionTestReport } from '../../extension/report';

function report(results: ExtensionTestReport['results']): ExtensionTestReport {
  const count = (state: string) => results.filter((r) => r.state === state).length;
  return {
    host: { appName: 'code-server', vscodeVersion: '1.0.0', uiKind: 'web', remoteName: null },
    stats: { tests: results.length, passes: count('passed'), failures: count('failed'), pending: count('pending'), durationMs: 1 },
    results,
  };
}

describe('extension test verdict', () => {
  it('names each failed test with the first line of its error, before anything else', () => {
    const reason = failureReason(report([
      { file: 'a.test.js', fullTitle: 'a passes', state: 'passed', durationMs: 1 },
      { file: 'b.test.js', fullTitle: 'b breaks', state: 'failed', durationMs: 1, error: { message: "expected 'bash'\ngot 'node'" } },
    ]), 1);
    assert.equal(reason, "1 extension test(s) failed\nFAIL b breaks (b.test.js): expected 'bash'");
  });

  it('passes a run whose tests all passed and whose host exited 0, and fails one that exited otherwise', () => {
    const ok = report([{ file: 'a.test.js', fullTitle: 'a passes', state: 'passed', durationMs: 1 }]);
    assert.equal(failureReason(ok, 0), undefined);
    assert.match(failureReason(ok, 3) ?? '', /exited with code 3/);
    assert.equal(failureReason(report([]), 0), 'no extension tests ran');
    assert.match(failureReason(undefined, null) ?? '', /no results file/);
  });
});
