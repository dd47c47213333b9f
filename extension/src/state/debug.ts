// ide.debug, ide.debug.addBreakpoints, ide.debug.removeBreakpoints: breakpoints through the
// debug API (the IDE's breakpoint model, so the gutter and the Breakpoints view agree) and
// the debug sessions seen since the extension started.
import * as vscode from 'vscode';
import type { Dispatcher } from '../../../bridge/rpc/dispatcher';
import type { Result } from '../../../bridge/protocol';
import { fromWirePosition } from './positions';
import { describe, resolveFile } from './resources';

type WireBreakpoint = Result<'ide.debug'>['breakpoints'][number];

function toWire(b: vscode.Breakpoint): WireBreakpoint {
  const common = {
    id: b.id, enabled: b.enabled, condition: b.condition ?? null, hitCondition: b.hitCondition ?? null, logMessage: b.logMessage ?? null,
  };
  if (b instanceof vscode.SourceBreakpoint) {
    const at = b.location.range.start;
    return { ...common, kind: 'source', ...describe(b.location.uri), line: at.line + 1, column: at.character + 1, functionName: null };
  }
  if (b instanceof vscode.FunctionBreakpoint) {
    return { ...common, kind: 'function', uri: null, path: null, line: null, column: null, functionName: b.functionName };
  }
  return { ...common, kind: 'other', uri: null, path: null, line: null, column: null, functionName: null };
}

export function registerDebug(d: Dispatcher): vscode.Disposable {
  const sessions = new Map<string, vscode.DebugSession>();
  const subs = [
    vscode.debug.onDidStartDebugSession((s) => sessions.set(s.id, s)),
    vscode.debug.onDidTerminateDebugSession((s) => sessions.delete(s.id)),
  ];
  if (vscode.debug.activeDebugSession) sessions.set(vscode.debug.activeDebugSession.id, vscode.debug.activeDebugSession);

  d.register('ide.debug', async () => {
    const active = vscode.debug.activeDebugSession;
    return {
      breakpoints: vscode.debug.breakpoints.map(toWire),
      sessions: [...sessions.values()].map((s) => ({
        id: s.id,
        name: s.name,
        type: s.type,
        active: s.id === active?.id,
        parentId: s.parentSession?.id ?? null,
        workspaceFolder: s.workspaceFolder?.uri.fsPath ?? null,
        request: typeof s.configuration.request === 'string' ? s.configuration.request : null,
      })),
      activeSessionId: active?.id ?? null,
    };
  });

  d.register('ide.debug.addBreakpoints', async ({ breakpoints }) => {
    const created = breakpoints.map((b) => {
      if ('functionName' in b) return new vscode.FunctionBreakpoint(b.functionName, b.enabled, b.condition, b.hitCondition, b.logMessage);
      const p = fromWirePosition(b);
      const location = new vscode.Location(resolveFile(b.file), new vscode.Position(p.line, p.character));
      return new vscode.SourceBreakpoint(location, b.enabled, b.condition, b.hitCondition, b.logMessage);
    });
    vscode.debug.addBreakpoints(created);
    return { added: created.map(toWire) };
  });

  d.register('ide.debug.removeBreakpoints', async (p) => {
    const all = vscode.debug.breakpoints;
    let doomed: vscode.Breakpoint[];
    if ('all' in p) doomed = [...all];
    else if ('ids' in p) doomed = all.filter((b) => p.ids.includes(b.id));
    else {
      const uri = resolveFile(p.file).toString();
      doomed = all.filter((b) => b instanceof vscode.SourceBreakpoint && b.location.uri.toString() === uri &&
        (p.line === undefined || b.location.range.start.line === p.line - 1));
    }
    if (doomed.length) vscode.debug.removeBreakpoints(doomed);
    return { removed: doomed.length };
  });

  return { dispose: () => { for (const s of subs) s.dispose(); } };
}

/**
 * The status bar's debug entry ("Debug: <configuration>"). With debug.showInStatusBar at its
 * default, onFirstSessionStart, the workbench adds it when the debugger first leaves its inactive
 * state and keeps it for good, while a fresh IDE has none. Setting "never" removes it, and putting
 * the setting back does not add it again (only the debugger starting does): how a recycled IDE
 * loses it in place. The extension cannot see the entry; it sees the launches that add it (each
 * one's configuration is resolved, even where no session starts after) and the sessions.
 */
export class DebugStatusEntry implements vscode.Disposable {
  private shown = vscode.debug.activeDebugSession !== undefined;
  private readonly subs = [
    vscode.debug.onDidStartDebugSession(() => { this.shown = true; }),
    vscode.debug.registerDebugConfigurationProvider('*', {
      resolveDebugConfiguration: (_folder, config) => { this.shown = true; return config; },
    }),
  ];

  /** Removes the entry if a launch may have added it; true when it did. Writes the user settings (and puts them back). */
  async end(): Promise<boolean> {
    if (!this.shown) return false;
    this.shown = false;
    const config = vscode.workspace.getConfiguration('debug');
    // "always" shows it at a fresh start too, "never" not even now: only the default is undone.
    if (config.get('showInStatusBar') !== 'onFirstSessionStart') return false;
    const before = config.inspect('showInStatusBar')?.globalValue;
    await config.update('showInStatusBar', 'never', vscode.ConfigurationTarget.Global);
    await config.update('showInStatusBar', before, vscode.ConfigurationTarget.Global);
    return true;
  }

  dispose(): void { for (const s of this.subs) s.dispose(); }
}
