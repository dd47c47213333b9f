// run_terminal_cmd: a command in the workspace's terminal shell (persistent, like a terminal
// tab), in the foreground with a timeout, or in the background.
import { z } from 'zod';
import { describeBash } from '../filebash/bash';
import { defineTool } from '../toolRegistry';
import { ToolError } from '../toolError';
import type { ToolServices } from '../toolServices';

export function runTerminalCmdTool(s: ToolServices) {
  return defineTool({
    name: 'run_terminal_cmd',
    group: 'idebench',
    effects: 'destructive',
    description: 'Run a shell command in the workspace. The shell persists between calls (cd and exports stay). With ' +
      'is_background the command runs detached (servers, watchers) and the answer gives its id and log file; ' +
      'foreground commands are interrupted after timeout_s and return the output so far.',
    params: z.object({
      command: z.string().min(1),
      is_background: z.boolean().default(false),
      timeout_s: z.number().min(1).max(1800).default(120),
    }).strict(),
    timeoutMs: 1_900_000,
    run: async (a, ctx) => {
      const shell = s.shells.terminal();
      if (a.is_background) {
        const p = s.background.start(a.command, shell.currentDir);
        await new Promise((r) => setTimeout(r, 300));
        const early = s.background.tail(p.id, 2000).text;
        return `Started in the background: ${s.background.describe(p)}\nLog: ${p.logFile}${early ? `\nFirst output:\n${early}` : ''}`;
      }
      if (shell.busy) await shell.interrupt();
      if (shell.busy) throw new ToolError('the previous command could not be stopped', 'ShellBusy');
      const r = await shell.run(a.command, { softTimeoutMs: a.timeout_s * 1000, hardTimeoutMs: a.timeout_s * 1000, signal: ctx.signal });
      if (r.status === 'soft-timeout') await shell.interrupt();
      const status = r.status === 'soft-timeout' ? 'hard-timeout' : r.status;
      const out = describeBash({ ...r, status, running: shell.busy }, a.timeout_s, a.timeout_s);
      return r.status === 'done' ? `${out}${r.exitCode === 0 ? '\n[exit code 0]' : ''}` : out;
    },
  });
}
