// debug: set breakpoints, run a program under the IDE's debugger until it stops, and read the
// stack and variables; then continue, step, evaluate or stop. Python runs under debugpy (our
// extension's debug adapter), JavaScript/TypeScript under the built-in js-debug. Breakpoints
// are the IDE's own (they show in the gutter and the Breakpoints view).
import { extname } from 'node:path';
import * as vscode from 'vscode';
import { z } from 'zod';
import { defineTool } from '../toolRegistry';
import { ToolError } from '../toolError';
import type { ToolServices } from '../toolServices';
import type { DebugSessions, SessionState } from './debugSessions';
import { rel } from './ideDocuments';

interface Frame { id: number; name: string; line: number; column: number; source?: { path?: string; name?: string } }
interface Variable { name: string; value: string; type?: string; variablesReference: number }

/** A frame's source as a file path; adapters in a remote IDE may report vscode-remote:// URIs. */
export function framePath(path: string | undefined): string | undefined {
  if (!path) return undefined;
  if (/^[a-zA-Z][\w+.-]+:\/\//.test(path)) { try { return vscode.Uri.parse(path).path; } catch { return path; } }
  return path;
}

/** js-debug's skipFiles for "just my code": Node's internals, and installed packages unless the caller wants library frames. */
const jsSkipFiles = (justMyCode: boolean) => (justMyCode ? ['<node_internals>/**', '**/node_modules/**'] : ['<node_internals>/**']);

function launchConfig(abs: string, root: string, args: string[], stopOnEntry: boolean, justMyCode: boolean): vscode.DebugConfiguration {
  const ext = extname(abs);
  const name = `pwp: ${abs.slice(root.length + 1)}`;
  if (ext === '.py') return { type: 'debugpy', request: 'launch', name, program: abs, cwd: root, args, console: 'internalConsole', justMyCode, stopOnEntry };
  if (['.js', '.mjs', '.cjs', '.ts', '.mts', '.cts'].includes(ext)) {
    // The IDE's own Node (24): it runs TypeScript by stripping types, which Debian's node does not.
    return { type: 'pwa-node', request: 'launch', name, program: abs, cwd: root, args, console: 'internalConsole', stopOnEntry, skipFiles: jsSkipFiles(justMyCode), outputCapture: 'std', runtimeExecutable: process.execPath };
  }
  throw new ToolError(`no debugger for ${ext || 'files without an extension'} here: Python (.py) and JavaScript/TypeScript (.js, .mjs, .ts) are supported, or give a launch configuration name`, 'NotAvailable');
}

/**
 * A launch.json configuration by name. Given just_my_code, a copy of it with that setting
 * (debugpy's justMyCode, js-debug's skipFiles); without, the name, so the IDE resolves it as
 * the Run and Debug view would.
 */
function namedConfig(folder: vscode.WorkspaceFolder | undefined, name: string, justMyCode: boolean | undefined): string | vscode.DebugConfiguration {
  if (justMyCode === undefined) return name;
  const all = vscode.workspace.getConfiguration('launch', folder).get<vscode.DebugConfiguration[]>('configurations') ?? [];
  const found = all.find((c) => c?.name === name);
  if (!found) throw new ToolError(`no launch configuration named ${JSON.stringify(name)} (there are: ${all.map((c) => JSON.stringify(c?.name)).join(', ') || 'none'})`, 'NotFound');
  if (found.type === 'debugpy' || found.type === 'python') return { ...found, justMyCode };
  if (['node', 'pwa-node', 'node-terminal', 'pwa-chrome', 'chrome'].includes(found.type)) {
    // The configuration's own patterns stay, but for node_modules, which just_my_code decides.
    const own = (Array.isArray(found.skipFiles) ? found.skipFiles as unknown[] : []).filter((p): p is string => typeof p === 'string' && !p.includes('node_modules'));
    return { ...found, skipFiles: [...new Set([...own, ...jsSkipFiles(justMyCode)])] };
  }
  throw new ToolError(`just_my_code is not supported for ${found.type} configurations`, 'NotAvailable');
}

export function debugTool(s: ToolServices, sessions: DebugSessions) {
  let rootId: string | undefined;
  let everStopped = false;

  const family = () => (rootId ? sessions.family(rootId) : []);
  const stoppedState = () => family().find((st) => st.stopped && !st.terminated);
  const allDone = () => { const f = family(); return f.length > 0 && f.every((st) => st.terminated); };
  const output = () => family().map((st) => st.output).join('').slice(-4000);

  async function waitForStop(timeoutS: number, signal: AbortSignal): Promise<SessionState | 'terminated' | 'running'> {
    const r = await sessions.until<SessionState | 'terminated'>(() => stoppedState() ?? (allDone() ? 'terminated' : undefined), timeoutS * 1000, signal);
    return r ?? 'running';
  }

  async function describeStop(st: SessionState, frameIndex: number, maxVars: number): Promise<string> {
    const session = st.session;
    const { stackFrames } = await session.customRequest('stackTrace', { threadId: st.stopped!.threadId, startFrame: 0, levels: 30 }) as { stackFrames: Frame[] };
    if (!stackFrames.length) return `Stopped (${st.stopped!.reason}) with no stack.`;
    const where = (f: Frame) => { const p = framePath(f.source?.path); return `${p ? rel(s, vscode.Uri.file(p)) : f.source?.name ?? '?'}:${f.line}`; };
    // Runtime internals (node's loader frames) say nothing about the program: counted, not listed.
    const internal = (f: Frame) => /<node_internals>|^node:/.test(f.source?.path ?? f.source?.name ?? '');
    const shownFrames = stackFrames.map((f, i) => ({ f, i })).filter(({ f, i }) => i === frameIndex || !internal(f));
    const hidden = stackFrames.length - shownFrames.length;
    const stack = shownFrames.map(({ f, i }) => `${i === frameIndex ? '>' : ' '} #${i} ${f.name} at ${where(f)}`).join('\n') + (hidden ? `\n  (+${hidden} runtime-internal frames)` : '');
    const frame = stackFrames[Math.min(frameIndex, stackFrames.length - 1)];
    const { scopes } = await session.customRequest('scopes', { frameId: frame.id }) as { scopes: { name: string; variablesReference: number; expensive?: boolean }[] };
    const parts: string[] = [];
    for (const scope of scopes.filter((x) => !x.expensive && !/^globals?$/i.test(x.name)).slice(0, 3)) {
      const { variables } = await session.customRequest('variables', { variablesReference: scope.variablesReference }) as { variables: Variable[] };
      const shown = variables.filter((v) => !/^(__\w+__|special variables|function variables|class variables)$/.test(v.name)).slice(0, maxVars);
      const value = (v: Variable) => { const first = v.value.split('\n')[0]; return first.length < v.value.length ? `${first.slice(0, 300)} …` : v.value.slice(0, 300); };
      parts.push(`${scope.name}:\n${shown.map((v) => `  ${v.name}${v.type ? ` (${v.type})` : ''} = ${value(v)}`).join('\n') || '  (none)'}`);
    }
    let code = '';
    const fp = framePath(frame.source?.path);
    if (fp) { try { code = (await vscode.workspace.openTextDocument(vscode.Uri.file(fp))).lineAt(frame.line - 1).text.trim(); } catch { /* no source */ } }
    const reason = `${st.stopped!.reason}${st.stopped!.description ? ` (${st.stopped!.description})` : ''}`;
    return `Stopped: ${reason} at ${where(frame)} in ${frame.name}${code ? `\n  ${frame.line} | ${code}` : ''}\nStack:\n${stack}\n${parts.join('\n')}`;
  }

  async function report(r: SessionState | 'terminated' | 'running', frameIndex: number, maxVars: number, timeoutS: number): Promise<string> {
    const out = output();
    const tail = out.trim() ? `\nProgram output (last part):\n${out.trimEnd()}` : '';
    if (r === 'terminated') {
      const code = family().find((st) => st.exitCode !== undefined)?.exitCode;
      rootId = undefined;
      return `The program ended${everStopped ? '' : ' without stopping at a breakpoint'}${code === undefined ? '' : ` (exit code ${code})`}.${tail}`;
    }
    if (r === 'running') return `Still running after ${timeoutS} s without stopping (use state to check again, or stop).${tail}`;
    everStopped = true;
    return `${await describeStop(r, frameIndex, maxVars)}${tail}`;
  }

  return defineTool({
    name: 'debug',
    group: 'ide',
    effects: 'write',
    description: 'Debug a program in the IDE. start: set breakpoints (lines of file, optional conditions), launch file (Python, ' +
      'JavaScript or TypeScript) or a launch.json configuration, run to the first breakpoint, and return the stack and ' +
      'local variables. Then: continue, step_over, step_into, step_out (each runs to the next stop), evaluate an ' +
      'expression in the selected frame, state, or stop. just_my_code false lets step_into enter library code ' +
      '(the standard library, site-packages, node_modules).',
    params: z.object({
      action: z.enum(['start', 'continue', 'step_over', 'step_into', 'step_out', 'evaluate', 'state', 'stop']),
      file: z.string().min(1).optional().describe('start: the program to debug'),
      breakpoints: z.array(z.object({ line: z.int().min(1), condition: z.string().optional(), file: z.string().optional().describe('default: file') }).strict()).default([]),
      configuration: z.string().optional().describe('start: the name of a launch.json configuration instead of file'),
      args: z.array(z.string()).default([]),
      stop_on_entry: z.boolean().default(false),
      just_my_code: z.boolean().optional().describe('start: stop and step only in the workspace\'s code (default true for a file; a configuration keeps its own setting unless this is given)'),
      expression: z.string().optional().describe('evaluate: the expression'),
      frame_index: z.int().min(0).default(0).describe('Which stack frame to show variables of / evaluate in (0 = innermost)'),
      max_variables: z.int().min(1).max(500).default(50),
      timeout_s: z.number().min(1).max(600).default(30).describe('How long to wait for the program to stop'),
    }).strict(),
    timeoutMs: 620_000,
    run: async (a, ctx) => {
      if (a.action === 'start') {
        if (!a.file && !a.configuration) throw new ToolError('start needs file or configuration', 'MissingArgument');
        if (rootId && !allDone()) { const old = family().find((st) => !st.session.parentSession)?.session; if (old) await vscode.debug.stopDebugging(old); }
        const abs = a.file ? s.paths.resolve(a.file, 'file') : undefined;
        if (abs && !(await s.files.exists(abs))) throw new ToolError(`file not found: ${a.file}`, 'NotFound');
        const bps = a.breakpoints.map((b) => {
          const f = b.file ? s.paths.resolve(b.file, 'breakpoints.file') : abs;
          if (!f) throw new ToolError('breakpoints need a file (or the file argument)', 'MissingArgument');
          return new vscode.SourceBreakpoint(new vscode.Location(vscode.Uri.file(f), new vscode.Position(b.line - 1, 0)), true, b.condition);
        });
        const fresh = bps.filter(
          (b) =>
            !vscode.debug.breakpoints.some(
              (x) =>
                x instanceof vscode.SourceBreakpoint &&
                x.location.uri.fsPath === b.location.uri.fsPath &&
                x.location.range.start.line === b.location.range.start.line,
            ),
        );
        if (fresh.length) vscode.debug.addBreakpoints(fresh);
        const folder = vscode.workspace.workspaceFolders?.[0];
        let started: vscode.DebugSession | undefined;
        const sub = vscode.debug.onDidStartDebugSession((x) => { if (!x.parentSession && !started) started = x; });
        try {
          const config = a.configuration ? namedConfig(folder, a.configuration, a.just_my_code) : launchConfig(abs!, s.paths.root, a.args, a.stop_on_entry, a.just_my_code ?? true);
          const ok = await vscode.debug.startDebugging(folder, config);
          if (!ok) throw new ToolError(`the IDE could not start debugging ${a.configuration ?? a.file}`, 'DebugFailed');
          await sessions.until(() => started, 5000, ctx.signal);
        } finally {
          sub.dispose();
        }
        if (!started) throw new ToolError('the debug session did not start', 'DebugFailed');
        rootId = started.id;
        everStopped = false;
        const where = bps.map((b) => `${rel(s, b.location.uri)}:${b.location.range.start.line + 1}`).join(', ');
        const r = await waitForStop(a.timeout_s, ctx.signal);
        return `Debugging ${a.configuration ?? rel(s, vscode.Uri.file(abs!))}${where ? ` with breakpoints at ${where}` : ''}.\n${await report(r, a.frame_index, a.max_variables, a.timeout_s)}`;
      }

      if (!rootId) throw new ToolError('no debug session: start one first', 'NoSession');
      if (a.action === 'stop') {
        const root = family().find((st) => !st.session.parentSession)?.session;
        if (root) await vscode.debug.stopDebugging(root);
        rootId = undefined;
        return 'Debug session stopped.';
      }
      if (a.action === 'state') return report(stoppedState() ?? (allDone() ? 'terminated' : 'running'), a.frame_index, a.max_variables, 0);
      const st = stoppedState();
      if (!st) return report(allDone() ? 'terminated' : 'running', a.frame_index, a.max_variables, 0);
      if (a.action === 'evaluate') {
        if (!a.expression) throw new ToolError('evaluate needs expression', 'MissingArgument');
        const { stackFrames } = (await st.session.customRequest('stackTrace', {
          threadId: st.stopped!.threadId,
          startFrame: 0,
          levels: a.frame_index + 1,
        })) as { stackFrames: Frame[] };
        try {
          const r = await st.session.customRequest('evaluate', { expression: a.expression, frameId: stackFrames[Math.min(a.frame_index, stackFrames.length - 1)]?.id, context: 'repl' }) as { result: string; type?: string };
          return `${a.expression} = ${r.result}${r.type ? ` (${r.type})` : ''}`;
        } catch (err) {
          throw new ToolError(`cannot evaluate ${a.expression}: ${(err as Error).message}`, 'EvaluateFailed');
        }
      }
      const request = { continue: 'continue', step_over: 'next', step_into: 'stepIn', step_out: 'stepOut' }[a.action];
      const threadId = st.stopped!.threadId;
      st.stopped = undefined;
      await st.session.customRequest(request, { threadId });
      return report(await waitForStop(a.timeout_s, ctx.signal), a.frame_index, a.max_variables, a.timeout_s);
    },
  });
}
