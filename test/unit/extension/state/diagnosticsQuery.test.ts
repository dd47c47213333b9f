import { strict as assert } from 'node:assert';
import type { IdeDiagnostic } from '../../../../bridge/protocol/ide';
import { selectDiagnostics, waitUntilQuiet } from '../../../../extension/src/state/diagnosticsQuery';

const diag = (path: string | null, line: number, severity: IdeDiagnostic['severity'], message = 'm'): IdeDiagnostic => ({
  uri: path ? `file://${path}` : 'untitled:Untitled-1', path,
  range: { start: { line, column: 1 }, end: { line, column: 2 } }, severity, message, source: 'ts', code: null,
});

describe('diagnostics selection and settling', () => {
  const all = [
    diag('/w/src/b.ts', 3, 'warning'), diag('/w/src/a.ts', 9, 'error'), diag('/w/src/a.ts', 2, 'error'),
    diag('/w/test/t.py', 1, 'hint'), diag(null, 1, 'error'), diag('/w/src2/c.ts', 1, 'information'),
  ];

  it('orders by severity, file and position, and counts by severity', () => {
    const r = selectDiagnostics(all, { maxResults: 100 });
    assert.deepEqual(r.diagnostics.map((d) => `${d.severity} ${d.path ?? d.uri}:${d.range.start.line}`), [
      'error /w/src/a.ts:2', 'error /w/src/a.ts:9', 'error untitled:Untitled-1:1', 'warning /w/src/b.ts:3',
      'information /w/src2/c.ts:1', 'hint /w/test/t.py:1',
    ]);
    assert.deepEqual(r.counts, { error: 3, warning: 1, information: 1, hint: 1 });
    assert.equal(r.truncated, false);
  });

  it('filters by file, by folder (not by name prefix) and by URI', () => {
    assert.deepEqual(selectDiagnostics(all, { path: '/w/src/a.ts', maxResults: 10 }).diagnostics.map((d) => d.range.start.line), [2, 9]);
    assert.deepEqual(selectDiagnostics(all, { path: '/w/src', maxResults: 10 }).diagnostics.map((d) => d.path), ['/w/src/a.ts', '/w/src/a.ts', '/w/src/b.ts']);
    assert.equal(selectDiagnostics(all, { uri: 'untitled:Untitled-1', maxResults: 10 }).diagnostics.length, 1);
  });

  it('filters by severity and truncates but still counts everything selected', () => {
    const r = selectDiagnostics(all, { severities: ['error', 'warning'], maxResults: 2 });
    assert.equal(r.diagnostics.length, 2);
    assert.equal(r.truncated, true);
    assert.deepEqual(r.counts, { error: 3, warning: 1, information: 0, hint: 0 });
  });

  describe('waitUntilQuiet', () => {
    function clock() {
      let t = 0;
      return { now: () => t, sleep: async (ms: number) => { t += ms; } };
    }

    it('returns once nothing changed for the quiet period', async () => {
      const c = clock();
      const ok = await waitUntilQuiet({ ...c, lastActivity: () => 0, busy: () => false, quietMs: 300, deadline: 5000 });
      assert.equal(ok, true);
      assert.equal(c.now(), 300);
    });

    it('waits out activity and busy work, then settles', async () => {
      const c = clock();
      const ok = await waitUntilQuiet({
        ...c,
        lastActivity: () => (c.now() < 1000 ? c.now() : 1000), // changing until t=1000
        busy: () => c.now() < 1500,                            // a server busy until t=1500
        quietMs: 300, deadline: 5000,
      });
      assert.equal(ok, true);
      assert.ok(c.now() >= 1500 && c.now() < 1600, `settled at ${c.now()}`);
    });

    it('gives up at the deadline when things keep changing', async () => {
      const c = clock();
      const ok = await waitUntilQuiet({ ...c, lastActivity: () => c.now(), busy: () => false, quietMs: 300, deadline: 2000 });
      assert.equal(ok, false);
      assert.equal(c.now(), 2000);
    });
  });
});
