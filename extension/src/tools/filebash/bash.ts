// bash: a persistent shell (cwd and environment survive between calls) with a soft timeout on
// silence and a hard timeout, both returning the output so far; interrupt, restart, and
// background processes that can be listed, tailed and killed.
import { z } from 'zod';
import type { BashResult } from '../bashSession';
import { defineTool } from '../toolRegistry';
import { ToolError } from '../toolError';
import type { ToolServices } from '../toolServices';

export function describeBash(r: BashResult, softS: number, hardS: number): string {
  const parts = [r.status === 'done' ? r.output : r.output.replace(/\n$/, '')];
  if (r.droppedChars) parts.push(`[${r.droppedChars} characters of output were dropped from the middle]`);
  switch (r.status) {
    case 'done': if (r.exitCode) parts.push(`[exit code ${r.exitCode}]`); break;
    case 'soft-timeout': parts.push(`[no output for ${softS} s; the command is still running. Call again with {"wait": true} to keep waiting, {"interrupt": true} to stop it, or {"restart": true} for a fresh shell]`); break;
    case 'hard-timeout': parts.push(`[the command ran longer than ${hardS} s and was interrupted${r.running ? '; it is still running: try {"interrupt": true} or {"restart": true}' : ''}]`); break;
    case 'interrupted': parts.push('[interrupted]'); break;
    case 'exited': parts.push('[the shell exited; the next command starts a fresh shell in the workspace]'); break;
  }
  return parts.filter((p) => p !== '').join('\n') || '(no output)';
}

export const shellParams = {
  soft_timeout_s: z.number().min(0.1).max(600).default(30).describe('Return early (command still running) after this long without output'),
  hard_timeout_s: z.number().min(0.1).max(1800).default(120).describe('Interrupt the command after this long'),
};

export function bashTool(s: ToolServices) {
  return defineTool({
    name: 'bash',
    group: 'filebash',
    effects: 'destructive',
    description:
      'Run a command in a persistent bash shell in the workspace (cwd, variables and functions survive between calls; ' +
      'stdin is empty, stderr is merged into stdout). Long-running servers belong in the background: {"command": "…", ' +
      '"background": true}, then list_background, tail_id, kill_id. Exactly one action per call: command, wait, ' +
      'interrupt, restart, list_background, tail_id or kill_id.',
    params: z.object({
      command: z.string().min(1).optional().describe('The command line to run'),
      background: z.boolean().default(false).describe('Run command as a background process (its own log; see list_background)'),
      wait: z.boolean().optional().describe('Keep waiting for the command still running after a soft timeout'),
      interrupt: z.boolean().optional().describe('Send Ctrl-C to the running command'),
      restart: z.boolean().optional().describe('Kill the shell and start a fresh one in the workspace'),
      list_background: z.boolean().optional().describe('List background processes'),
      tail_id: z.int().min(1).optional().describe('Show the latest output of this background process'),
      tail_bytes: z.int().min(100).max(1_000_000).default(8000),
      kill_id: z.int().min(1).optional().describe('Stop this background process (and what it started)'),
      signal: z.enum(['SIGTERM', 'SIGINT', 'SIGKILL', 'SIGHUP']).default('SIGTERM'),
      ...shellParams,
    }).strict(),
    timeoutMs: 1_900_000,
    run: async (a, ctx) => {
      const actions = (['command', 'wait', 'interrupt', 'restart', 'list_background', 'tail_id', 'kill_id'] as const).filter((k) => a[k] !== undefined && a[k] !== false);
      if (actions.length !== 1) throw new ToolError(`give exactly one of command, wait, interrupt, restart, list_background, tail_id, kill_id (got ${actions.join(', ') || 'none'})`, 'InvalidArguments');
      const shell = s.shells.bash();
      const opts = { softTimeoutMs: a.soft_timeout_s * 1000, hardTimeoutMs: a.hard_timeout_s * 1000, signal: ctx.signal };
      switch (actions[0]) {
        case 'command': {
          if (a.background) {
            const p = s.background.start(a.command!, shell.currentDir);
            return `Started in the background: ${s.background.describe(p)}\nOutput goes to ${p.logFile}; read it with {"tail_id": ${p.id}}, stop it with {"kill_id": ${p.id}}.`;
          }
          if (shell.busy) throw new ToolError('a command is still running in this shell: call with {"wait": true}, {"interrupt": true} or {"restart": true} first', 'ShellBusy');
          return describeBash(await shell.run(a.command!, opts), a.soft_timeout_s, a.hard_timeout_s);
        }
        case 'wait':
          if (!shell.busy) return 'No command is running.';
          return describeBash(await shell.wait(opts), a.soft_timeout_s, a.hard_timeout_s);
        case 'interrupt': {
          if (!shell.busy) return 'No command is running.';
          const how = await shell.interrupt();
          const rest = shell.busy ? '' : describeBash(await shell.wait({ ...opts, softTimeoutMs: 200, hardTimeoutMs: 500 }), 0.2, 0.5);
          return how === 'restarted' ? 'The command did not stop (a shell builtin loop?): the shell was restarted in the workspace.' : `Interrupted.${rest && rest !== 'No command is running.' ? `\n${rest}` : ''}`;
        }
        case 'restart':
          shell.restart();
          return `The shell was restarted in ${s.paths.root}.`;
        case 'list_background': {
          const all = s.background.list();
          return all.length ? all.map((p) => s.background.describe(p)).join('\n') : 'No background processes.';
        }
        case 'tail_id': {
          const p = s.background.get(a.tail_id!);
          const t = s.background.tail(p.id, a.tail_bytes);
          const head = t.totalBytes > a.tail_bytes ? `[last ${a.tail_bytes} of ${t.totalBytes} bytes]\n` : '';
          return `${s.background.describe(p)}\n${head}${t.text || '(no output yet)'}`;
        }
        case 'kill_id': {
          const p = await s.background.kill(a.kill_id!, a.signal);
          return s.background.describe(p);
        }
      }
      throw new ToolError('no action');
    },
  });
}
