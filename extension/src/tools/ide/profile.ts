// profile: runs a Python file under the stack-recording tracer (profileTracer.ts), saves the
// collapsed stacks in the workspace (.pwp/profile/<file>.folded, the format flame-graph tools
// read), shows them as a flame graph in an editor tab of the IDE, and returns the widest stacks
// and each function's self and total time.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, extname, join } from 'node:path';
import * as vscode from 'vscode';
import { z } from 'zod';
import { defineTool } from '../toolRegistry';
import { ToolError } from '../toolError';
import type { ToolServices } from '../toolServices';
import { runProcess } from '../processRunner';
import { buildTree, flameGraphHtml, layout, parseFolded, summarize } from './flameGraph';
import { PROFILE_TRACER } from './profileTracer';

export const PROFILE_DIR = '.pwp/profile';
const VIEW_TYPE = 'pwp.flameGraph';

/** One flame-graph tab, reused by later profiles (as the IDE reuses a preview). */
class FlameGraphView {
  private panel: vscode.WebviewPanel | undefined;

  /** Shows the graph; resolves whether its tab is open in the workbench (the tab comes asynchronously after the panel). */
  async show(title: string, html: (cspSource: string) => string, signal: AbortSignal): Promise<boolean> {
    if (!this.panel) {
      this.panel = vscode.window.createWebviewPanel(
        VIEW_TYPE,
        title,
        { viewColumn: vscode.ViewColumn.Active, preserveFocus: false },
        { enableScripts: false, retainContextWhenHidden: false },
      );
      this.panel.onDidDispose(() => { this.panel = undefined; });
    }
    this.panel.title = title;
    this.panel.webview.html = html(this.panel.webview.cspSource);
    this.panel.reveal(undefined, false);
    const open = () =>
      vscode.window.tabGroups.all.some((g) =>
        g.tabs.some((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith(VIEW_TYPE) && t.label === title),
      );
    if (open()) return true;
    return new Promise<boolean>((resolve) => {
      const done = (ok: boolean) => { clearTimeout(timer); sub.dispose(); signal.removeEventListener('abort', onAbort); resolve(ok); };
      const sub = vscode.window.tabGroups.onDidChangeTabs(() => { if (open()) done(true); });
      const timer = setTimeout(() => done(open()), 15_000);
      const onAbort = () => done(false);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }
}


export function profileTool(s: ToolServices) {
  const view = new FlameGraphView();
  return defineTool({
    name: 'profile',
    group: 'ide',
    effects: 'write',
    description: 'Profile a Python program: run it under a deterministic profiler that records the time of every full ' +
      `call stack, save the collapsed stacks to ${PROFILE_DIR}/<file>.folded, open a flame graph of them in the IDE ` +
      '(width is time; hover a box for its stack), and return the widest stacks and each function\'s self time ' +
      '(in its own code) and total time (with what it calls). Times include the profiler\'s overhead per call.',
    params: z.object({
      file: z.string().min(1).describe('The Python file to run'),
      args: z.array(z.string()).default([]),
      open_view: z.boolean().default(true).describe('Show the flame graph in the IDE'),
      top_stacks: z.int().min(1).max(100).default(8),
      top_functions: z.int().min(1).max(500).default(25),
      clock: z.enum(['cpu', 'wall']).default('cpu').describe('cpu: the main thread\'s CPU time (what the program computed, the same on a busy machine); ' +
        'wall: elapsed time, also its waiting (sleep, I/O) and the time the machine gave to other programs'),
      timeout_s: z.number().min(1).max(600).default(120),
    }).strict(),
    timeoutMs: 620_000,
    run: async (a, ctx) => {
      const abs = s.paths.resolve(a.file, 'file');
      if (extname(abs) !== '.py') throw new ToolError(`profile runs Python files (.py); ${a.file} is not one`, 'NotAvailable');
      if (!(await s.files.exists(abs))) throw new ToolError(`file not found: ${a.file}`, 'NotFound');
      const shown = s.paths.display(abs);
      const out = join(s.paths.root, PROFILE_DIR, `${shown.replace(/[\\/]/g, '_')}.folded`);
      await mkdir(dirname(out), { recursive: true });
      await mkdir(s.stateDir, { recursive: true });
      const tracer = join(s.stateDir, 'profile_tracer.py');
      await writeFile(tracer, PROFILE_TRACER);
      await writeFile(out, '');
      const r = await runProcess('python3', [tracer, out, a.clock, abs, ...a.args], {
        cwd: s.paths.root,
        env: s.env,
        timeoutMs: a.timeout_s * 1000,
        signal: ctx.signal,
        maxBytes: 1024 * 1024,
      });
      if (r.timedOut) throw new ToolError(`${shown} ran longer than ${a.timeout_s} s under the profiler (raise timeout_s)`, 'Timeout');
      const stacks = parseFolded(await readFile(out, 'utf8'));
      const output = `${r.stdout}${r.stderr}`.trimEnd();
      const tail = output ? `\nProgram output (last part):\n${output.slice(-3000)}` : '';
      const status = r.code === null ? `killed by ${r.signal}` : `exit code ${r.code}`;
      if (!stacks.length) return `${shown} ended (${status}) before any time was recorded.${tail}`;
      const title = `Flame graph: ${shown}`;
      const opened = a.open_view && await view.show(title, (csp) => flameGraphHtml(layout(buildTree(stacks, shown)), title, csp), ctx.signal);
      const viewNote = !a.open_view ? '' : opened ? '; the flame graph is open in the editor' : '; the flame graph view was asked for but its tab did not appear within 15 s';
      const clock = a.clock === 'cpu' ? 'CPU time of the main thread (clock "cpu")' : 'elapsed time, waiting included (clock "wall")';
      return `Profiled ${shown} (${status}). Collapsed stacks saved to ${s.paths.display(out)}${viewNote}.\nTimes are ${clock}.\n\n` +
        `${summarize(stacks, { topStacks: a.top_stacks, topFunctions: a.top_functions })}${tail}`;
    },
  });
}
