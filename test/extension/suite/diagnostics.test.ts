// ide.diagnostics reports the IDE's problems: ones a test publishes itself (exact values),
// the extension's own Python syntax check, and the built-in TypeScript service.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { ErrorCode } from '../../../bridge/protocol/errors';
import { callIde, closeAllEditors, eventually, rejectsWithCode, workspaceFile } from './helpers';

describe('ide.diagnostics', () => {
  let collection: vscode.DiagnosticCollection;
  const hello = () => vscode.Uri.file(workspaceFile('hello.txt'));

  beforeEach(() => {
    collection = vscode.languages.createDiagnosticCollection('pwp-test');
    const warning = new vscode.Diagnostic(new vscode.Range(0, 6, 0, 10), 'a warning from the test', vscode.DiagnosticSeverity.Warning);
    warning.source = 'pwp-test';
    warning.code = 'T1';
    const hint = new vscode.Diagnostic(new vscode.Range(1, 0, 1, 0), 'a hint from the test', vscode.DiagnosticSeverity.Hint);
    hint.source = 'pwp-test';
    hint.code = { value: 42, target: vscode.Uri.parse('https://example.invalid/42') };
    collection.set(hello(), [warning, hint]);
  });
  afterEach(async () => {
    collection.dispose();
    await closeAllEditors();
  });

  it('reports published diagnostics with 1-based ranges, severity, source and code', async () => {
    const r = await callIde('ide.diagnostics', { file: 'hello.txt' });
    const mine = r.diagnostics.filter((d) => d.source === 'pwp-test');
    assert.equal(mine.length, 2);
    const warning = mine.find((d) => d.severity === 'warning');
    assert.deepEqual(warning && { ...warning }, {
      uri: hello().toString(),
      path: workspaceFile('hello.txt'),
      range: { start: { line: 1, column: 7 }, end: { line: 1, column: 11 } },
      severity: 'warning',
      message: 'a warning from the test',
      source: 'pwp-test',
      code: 'T1',
    });
    assert.equal(mine.find((d) => d.severity === 'hint')?.code, '42');
    assert.ok(r.counts.warning >= 1 && r.counts.hint >= 1);
  });

  it('filters by severity', async () => {
    const r = await callIde('ide.diagnostics', { file: 'hello.txt', severities: ['hint'] });
    assert.deepEqual(r.diagnostics.map((d) => d.message), ['a hint from the test']);
  });

  it('stops at maxResults and says the list is truncated', async () => {
    const r = await callIde('ide.diagnostics', { file: 'hello.txt', maxResults: 1 });
    assert.equal(r.diagnostics.length, 1);
    assert.equal(r.truncated, true);
  });

  it('no longer reports diagnostics once their collection is cleared', async () => {
    collection.clear();
    const r = await callIde('ide.diagnostics', { file: 'hello.txt' });
    assert.deepEqual(r.diagnostics.filter((d) => d.source === 'pwp-test'), []);
  });

  it('reports Python syntax errors of a file on disk from the extension\'s own checker', async function () {
    this.timeout(120_000);
    // One waitMs can run out before a loaded machine has checked the file: asked until it has.
    const r = await eventually(async () => {
      const d = await callIde('ide.diagnostics', { file: 'py/bad.py', waitMs: 15_000, quietMs: 300 });
      return d.settled && d.diagnostics.some((x) => x.source === 'pwp-python') ? d : undefined;
    }, 'the Python check of py/bad.py');
    const errors = r.diagnostics.filter((d) => d.source === 'pwp-python' && d.severity === 'error');
    assert.equal(errors.length, 1, JSON.stringify(r.diagnostics));
    assert.equal(errors[0].path, workspaceFile('py/bad.py'));
    assert.equal(errors[0].range.start.line, 1);
    assert.equal(r.settled, true);
  });

  it('reports TypeScript type errors once the file is open in an editor', async function () {
    this.timeout(180_000);
    // The TypeScript server starts on first use, which can take longer than one waitMs.
    const found = await eventually(async () => {
      const r = await callIde('ide.diagnostics', { file: 'src/broken.ts', open: 'editor', waitMs: 20_000, quietMs: 1500 });
      return r.diagnostics.find((d) => d.source === 'ts');
    }, 'a TypeScript diagnostic for src/broken.ts', 150_000);
    assert.equal(found.code, '2322');
    assert.equal(found.severity, 'error');
    assert.deepEqual(found.range.start, { line: 1, column: 7 });
  });

  it('rejects a severity it does not know', async () => {
    await rejectsWithCode(callIde('ide.diagnostics', { severities: ['fatal' as 'error'] }), ErrorCode.InvalidParams);
  });
});
