// ide.terminals: the integrated terminals, their shells and what runs in them (from /proc,
// since the terminals' processes live in this container).
import * as vscode from 'vscode';
import type { Dispatcher } from '../../../bridge/rpc/dispatcher';
import { descendants, readCwd, readProcess, readProcesses, type ProcessEntry } from '../../../bridge/common/procfs';

/** How long a shell just forked by the terminal's host is given to become itself (exec). */
const EXEC_WAIT_MS = 2000;

/**
 * The shell process, once it runs the shell: a terminal's pid is known from the fork, and until
 * the child's exec /proc shows a copy of the terminal host (node), not the shell.
 */
async function shellProcess(pid: number, all: readonly ProcessEntry[]): Promise<ProcessEntry | undefined> {
  const sameAsParent = async (p: ProcessEntry) => {
    const parent = all.find((q) => q.pid === p.ppid) ?? await readProcess(p.ppid);
    return !!parent && parent.commandLine.join('\0') === p.commandLine.join('\0');
  };
  let p = all.find((q) => q.pid === pid) ?? await readProcess(pid);
  const end = Date.now() + EXEC_WAIT_MS;
  while (p && Date.now() < end && await sameAsParent(p)) {
    await new Promise((r) => setTimeout(r, 20));
    p = await readProcess(pid);
  }
  return p;
}

export function registerTerminals(d: Dispatcher): void {
  d.register('ide.terminals', async () => {
    const terminals = vscode.window.terminals;
    const active = vscode.window.activeTerminal;
    const pids = await Promise.all(terminals.map((t) => Promise.resolve(t.processId).catch(() => undefined)));
    const all = pids.some((p) => p !== undefined) ? await readProcesses() : [];
    return {
      terminals: await Promise.all(terminals.map(async (t, index) => {
        const pid = pids[index] ?? null;
        const shell = pid !== null ? await shellProcess(pid, all) : undefined;
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
