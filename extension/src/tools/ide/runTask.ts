// run_task: runs a task the workspace configures (tasks.json, npm scripts…) through the IDE's
// task system, as Terminal > Run Task does, and waits for its exit code.
import * as vscode from 'vscode';
import { z } from 'zod';
import { defineTool } from '../toolRegistry';
import { ToolError } from '../toolError';
import type { ToolServices } from '../toolServices';

const label = (t: vscode.Task) => (t.source && t.source !== 'Workspace' ? `${t.source}: ${t.name}` : t.name);

export function runTaskTool(_s: ToolServices) {
  return defineTool({
    name: 'run_task',
    group: 'ide',
    effects: 'destructive',
    description: 'Run a configured task (from .vscode/tasks.json, or detected such as npm scripts) in the IDE\'s terminal ' +
      'and wait for it to finish; returns its exit code. Without name, lists the tasks.',
    params: z.object({ name: z.string().min(1).optional(), timeout_s: z.number().min(1).max(1800).default(300) }).strict(),
    timeoutMs: 1_810_000,
    run: async (a, ctx) => {
      const tasks = await vscode.tasks.fetchTasks();
      if (!a.name) return tasks.length ? `Tasks:\n${tasks.map((t) => `- ${label(t)}`).join('\n')}` : 'The workspace configures no tasks.';
      const task = tasks.find((t) => t.name === a.name) ?? tasks.find((t) => label(t) === a.name);
      if (!task) throw new ToolError(`no task named ${JSON.stringify(a.name)}; tasks: ${tasks.map(label).join(', ') || 'none'}`, 'NotFound');
      const started = Date.now();
      let execution: vscode.TaskExecution | undefined;
      const done = new Promise<number | undefined>((resolve) => {
        const subs = [
          vscode.tasks.onDidEndTaskProcess((e) => {
            if (e.execution === execution || e.execution.task.name === task.name) { subs.forEach((d) => d.dispose()); resolve(e.exitCode); }
          }),
          vscode.tasks.onDidEndTask((e) => { if (e.execution === execution) setTimeout(() => { subs.forEach((d) => d.dispose()); resolve(undefined); }, 200); }),
        ];
        ctx.signal.addEventListener('abort', () => { subs.forEach((d) => d.dispose()); resolve(undefined); }, { once: true });
      });
      execution = await vscode.tasks.executeTask(task);
      const timer = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), a.timeout_s * 1000));
      const code = await Promise.race([done, timer]);
      if (code === 'timeout') { execution.terminate(); return { isError: true, content: [{ type: 'text', text: `Task ${label(task)} did not finish within ${a.timeout_s} s and was terminated.` }] }; }
      const secs = ((Date.now() - started) / 1000).toFixed(1);
      const text = `Task ${label(task)} finished in ${secs} s${code === undefined ? '' : ` with exit code ${code}`}. Its output is in the IDE's terminal panel.`;
      return code ? { isError: true, content: [{ type: 'text', text }] } : text;
    },
  });
}
