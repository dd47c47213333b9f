// ide.terminals reports the IDE's integrated terminals with their shell processes and what
// runs in them, read from /proc on the machine the terminals run on.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { callIde, eventually, workspaceDir } from './helpers';

describe('ide.terminals', function () {
  this.timeout(120_000);
  let terminal: vscode.Terminal | undefined;
  afterEach(() => { terminal?.dispose(); terminal = undefined; });

  async function openTerminal(name: string): Promise<{ terminal: vscode.Terminal; pid: number }> {
    const t = vscode.window.createTerminal({ name, cwd: workspaceDir(), shellPath: '/bin/bash' });
    terminal = t;
    t.show();
    const pid = await t.processId;
    assert.ok(pid, 'the terminal has a shell process');
    return { terminal: t, pid };
  }

  it('lists a terminal the IDE opened, with its shell\'s pid, command line and working directory', async () => {
    const { pid } = await openTerminal('pwp-test-shell');
    // The pid comes as the pty host forks; the shell's command line once it has exec'ed (read
    // between the two, /proc has none yet).
    const t = await eventually(async () => {
      const r = await callIde('ide.terminals', {});
      const found = r.terminals.find((x) => x.name === 'pwp-test-shell');
      return found?.commandLine?.length ? found : undefined;
    }, 'the shell listed with its command line');
    assert.equal(t.processId, pid);
    assert.match(t.commandLine?.[0] ?? '', /bash$/);
    assert.equal(t.cwd, workspaceDir());
    assert.equal(t.exitCode, null);
  });

  it('shows the command running in a terminal among its children', async () => {
    const { terminal: t } = await openTerminal('pwp-test-sleep');
    t.sendText('sleep 77');
    const sleeper = await eventually(async () => {
      const r = await callIde('ide.terminals', {});
      return r.terminals.find((x) => x.name === 'pwp-test-sleep')?.children.find((c) => c.name === 'sleep');
    }, 'sleep 77 under the terminal\'s shell');
    assert.deepEqual(sleeper.commandLine, ['sleep', '77']);
  });

  it('no longer lists a terminal once it is closed', async () => {
    const { terminal: t } = await openTerminal('pwp-test-closed');
    const closed = new Promise<void>((resolve) => { const sub = vscode.window.onDidCloseTerminal((x) => { if (x === t) { sub.dispose(); resolve(); } }); });
    t.dispose();
    await closed;
    const r = await callIde('ide.terminals', {});
    assert.equal(r.terminals.some((x) => x.name === 'pwp-test-closed'), false);
  });
});
