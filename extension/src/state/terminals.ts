// ide.terminals: the integrated terminals, their shells and what runs in them (from /proc,
// since the terminals' processes live in this container).
import * as vscode from 'vscode';
import type { Dispatcher } from '../../../bridge/rpc/dispatcher';
import { descendants, readCwd, readProcess, readProcesses } from '../../../bridge/common/procfs';

export function registerTerminals(d: Dispatcher): void {
  d.register('ide.terminals', async () => {
    const terminals = vscode.window.terminals;
    const active = vscode.window.activeTerminal;
    const pids = await Promise.all(terminals.map((t) => Promise.resolve(t.processId).catch(() => undefined)));
    const all = pids.some((p) => p !== undefined) ? await readProcesses() : [];
    return {
      terminals: await Promise.all(terminals.map(async (t, index) => {
        const pid = pids[index] ?? null;
        const shell = pid !== null ? all.find((p) => p.pid === pid) ?? await readProcess(pid) : undefined;
        return {
          index,
          name: t.name,
          active: t === active,
          processId: pid,
          exitCode: t.exitStatus?.code ?? null,
          commandLine: shell?.commandLine ?? null,
          cwd: pid !== null ? await readCwd(pid) : null,
          children: pid !== null ? descendants(all, pid).map((p) => ({ pid: p.pid, ppid: p.ppid, name: p.name, commandLine: p.commandLine })) : [],
        };
      })),
    };
  });
}
