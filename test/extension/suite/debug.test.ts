// ide.debug and its breakpoint methods work on the IDE's own breakpoint model (what the
// gutter and the Breakpoints view show) and see real debug sessions.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { ErrorCode } from '../../../bridge/protocol/errors';
import { callIde, eventually, rejectsWithCode, workspaceFile } from './helpers';

describe('ide.debug', () => {
  afterEach(() => vscode.debug.removeBreakpoints(vscode.debug.breakpoints));

  it('adds a conditional source breakpoint that the IDE then holds, 1-based', async () => {
    const { added } = await callIde('ide.debug.addBreakpoints', { breakpoints: [{ file: 'src/sample.ts', line: 2, condition: 'x > 1' }] });
    assert.equal(added.length, 1);
    assert.equal(added[0].kind, 'source');
    assert.equal(added[0].path, workspaceFile('src/sample.ts'));
    assert.deepEqual([added[0].line, added[0].column], [2, 1]);
    assert.equal(added[0].condition, 'x > 1');
    const [bp] = vscode.debug.breakpoints;
    assert.ok(bp instanceof vscode.SourceBreakpoint);
    assert.equal(bp.id, added[0].id);
    assert.equal(bp.location.range.start.line, 1);
    assert.equal(bp.condition, 'x > 1');
  });

  it('adds function breakpoints and logpoints with hit conditions', async () => {
    const { added } = await callIde('ide.debug.addBreakpoints', {
      breakpoints: [
        { functionName: 'answer', hitCondition: '3' },
        { file: 'src/sample.ts', line: 1, logMessage: 'called {x}', enabled: false },
      ],
    });
    assert.deepEqual(added.map((b) => b.kind), ['function', 'source']);
    assert.equal(added[0].functionName, 'answer');
    assert.equal(added[0].hitCondition, '3');
    assert.equal(added[1].logMessage, 'called {x}');
    assert.equal(added[1].enabled, false);
    const r = await callIde('ide.debug', {});
    assert.deepEqual(r.breakpoints.map((b) => b.id).sort(), added.map((b) => b.id).sort());
  });

  it('lists breakpoints set through the VS Code API', async () => {
    vscode.debug.addBreakpoints([new vscode.SourceBreakpoint(new vscode.Location(vscode.Uri.file(workspaceFile('hello.txt')), new vscode.Position(1, 0)))]);
    const r = await callIde('ide.debug', {});
    assert.deepEqual(r.breakpoints.map((b) => [b.path, b.line]), [[workspaceFile('hello.txt'), 2]]);
  });

  it('removes breakpoints by file and line, by id, and all at once', async () => {
    const { added } = await callIde('ide.debug.addBreakpoints', {
      breakpoints: [{ file: 'src/sample.ts', line: 1 }, { file: 'src/sample.ts', line: 2 }, { file: 'hello.txt', line: 1 }, { functionName: 'answer' }],
    });
    assert.deepEqual(await callIde('ide.debug.removeBreakpoints', { file: 'src/sample.ts', line: 2 }), { removed: 1 });
    assert.deepEqual(await callIde('ide.debug.removeBreakpoints', { ids: [added[0].id] }), { removed: 1 });
    assert.equal(vscode.debug.breakpoints.length, 2);
    assert.deepEqual(await callIde('ide.debug.removeBreakpoints', { all: true }), { removed: 2 });
    assert.equal(vscode.debug.breakpoints.length, 0);
  });

  it('rejects a breakpoint with neither a file nor a function name', async () => {
    await rejectsWithCode(callIde('ide.debug.addBreakpoints', { breakpoints: [{ line: 3 } as never] }), ErrorCode.InvalidParams);
  });

  it('reports a running debug session as active, and drops it when it ends', async function () {
    this.timeout(180_000);
    const folder = vscode.workspace.workspaceFolders![0];
    const started = await vscode.debug.startDebugging(folder, {
      type: 'node', request: 'launch', name: 'pwp test debuggee', program: workspaceFile('src/wait.js'),
    });
    assert.ok(started, 'the IDE started the debug session');
    try {
      const r = await eventually(async () => {
        const d = await callIde('ide.debug', {});
        return d.sessions.some((s) => s.name === 'pwp test debuggee') && d.activeSessionId ? d : undefined;
      }, 'the debug session in ide.debug');
      const session = r.sessions.find((s) => s.name === 'pwp test debuggee');
      assert.equal(session?.request, 'launch');
      assert.equal(session?.workspaceFolder, folder.uri.fsPath);
      assert.ok(r.sessions.some((s) => s.active));
    } finally {
      await vscode.debug.stopDebugging();
    }
    await eventually(async () => ((await callIde('ide.debug', {})).sessions.length === 0 ? true : undefined), 'the sessions to end');
  });
});
