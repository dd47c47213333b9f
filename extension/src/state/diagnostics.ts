// ide.diagnostics: every diagnostic the IDE holds, filtered, optionally after waiting until
// language services have caught up with recent edits and files written on disk.
import { readFile, stat } from 'node:fs/promises';
import * as vscode from 'vscode';
import type { Dispatcher } from '../../../bridge/rpc/dispatcher';
import type { IdeDiagnostic } from '../../../bridge/protocol/ide';
import { selectDiagnostics, waitUntilQuiet } from './diagnosticsQuery';
import { toWireRange } from './positions';
import { CpuActivity, descendants, readProcesses } from '../../../bridge/common/procfs';
import type { PythonDiagnostics } from './pythonDiagnostics';
import { describe, resolveFile } from './resources';

const SEVERITY: Record<vscode.DiagnosticSeverity, IdeDiagnostic['severity']> = {
  [vscode.DiagnosticSeverity.Error]: 'error',
  [vscode.DiagnosticSeverity.Warning]: 'warning',
  [vscode.DiagnosticSeverity.Information]: 'information',
  [vscode.DiagnosticSeverity.Hint]: 'hint',
};

function codeOf(code: vscode.Diagnostic['code']): string | null {
  if (code === undefined) return null;
  return typeof code === 'object' ? String(code.value) : String(code);
}

function toWire(uri: vscode.Uri, d: vscode.Diagnostic): IdeDiagnostic {
  return {
    ...describe(uri),
    range: toWireRange(d.range),
    severity: SEVERITY[d.severity] ?? 'error',
    message: d.message,
    source: d.source ?? null,
    code: codeOf(d.code),
  };
}

/** Remembers when diagnostics or documents last changed, for the settle wait. */
class Activity implements vscode.Disposable {
  last = 0;
  private readonly subs: vscode.Disposable[];
  constructor() {
    const bump = () => { this.last = Date.now(); };
    const watcher = vscode.workspace.createFileSystemWatcher('**/*');
    this.subs = [
      watcher,
      vscode.languages.onDidChangeDiagnostics(bump),
      vscode.workspace.onDidOpenTextDocument(bump),
      vscode.workspace.onDidChangeTextDocument((e) => { if (e.contentChanges.length && e.document.uri.scheme !== 'output') bump(); }),
      vscode.workspace.onDidSaveTextDocument(bump),
      watcher.onDidChange(bump),
      watcher.onDidCreate(bump),
      watcher.onDidDelete(bump),
    ];
  }
  dispose(): void { for (const s of this.subs) s.dispose(); }
}

const JS_TS = new Set(['typescript', 'typescriptreact', 'javascript', 'javascriptreact']);

/**
 * Language servers at work. They run as children of this extension host (tsserver, the JSON
 * and CSS servers…) and use CPU while they check; no API says when they are done, so their
 * CPU use is the signal. TypeScript's extension activating (before tsserver exists) counts too.
 */
class LanguageServers {
  private cpu = new CpuActivity();
  private sampling?: Promise<void>;

  /** Forgets earlier samples: a new wait measures from now. */
  reset(): void { this.cpu = new CpuActivity(); }

  busy(): boolean {
    if (!this.sampling && Date.now() - this.cpu.sampledAt >= 100) {
      const cpu = this.cpu;
      this.sampling = readProcesses().then((all) => {
        // The typings installer retries the (offline) registry forever: not diagnostics work.
        const servers = descendants(all, process.pid).filter((p) => !p.commandLine.some((a) => a.includes('typingsInstaller')));
        cpu.sample(new Map(servers.map((p) => [p.pid, p.cpuTicks])), Date.now());
      }).finally(() => { this.sampling = undefined; });
    }
    return this.cpu.busy || this.typescriptActivating();
  }

  private typescriptActivating(): boolean {
    if (!vscode.workspace.textDocuments.some((d) => JS_TS.has(d.languageId))) return false;
    const ts = vscode.extensions.getExtension('vscode.typescript-language-features');
    return !!ts && !ts.isActive;
  }
}

/** An open, clean document whose file on disk says something else: the IDE has not reloaded it yet. */
async function staleOnDisk(uri: vscode.Uri): Promise<boolean> {
  if (uri.scheme !== 'file') return false;
  const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (!doc || doc.isDirty) return false;
  try {
    if ((await stat(uri.fsPath)).size > 2 * 1024 * 1024) return false;
    return (await readFile(uri.fsPath, 'utf8')) !== doc.getText();
  } catch {
    return false;
  }
}

export function registerDiagnostics(d: Dispatcher, python: PythonDiagnostics): vscode.Disposable {
  const activity = new Activity();
  const servers = new LanguageServers();
  d.register('ide.diagnostics', async (p) => {
    const started = Date.now();
    const target = p.file !== undefined ? resolveFile(p.file) : undefined;
    if (target && p.open !== 'none') await ensureOpen(target, p.open);
    if (target) python.touch(target);

    let settled = true;
    if (p.waitMs > 0) {
      activity.last = Math.max(activity.last, started);
      servers.reset();
      let stale = false;
      let checking: Promise<void> | undefined;
      const refreshStale = () => {
        checking ??= (target ? staleOnDisk(target) : Promise.resolve(false)).then((s) => { stale = s; checking = undefined; });
      };
      settled = await waitUntilQuiet({
        lastActivity: () => activity.last,
        busy: () => { refreshStale(); return servers.busy() || python.busy || stale; },
        quietMs: p.quietMs,
        deadline: started + p.waitMs,
      });
    }

    const all: IdeDiagnostic[] = [];
    for (const [uri, list] of vscode.languages.getDiagnostics()) for (const diag of list) all.push(toWire(uri, diag));
    const isFolderOrFile = target?.scheme === 'file';
    const selected = selectDiagnostics(all, {
      path: isFolderOrFile ? target!.fsPath : undefined,
      uri: target && !isFolderOrFile ? target.toString() : undefined,
      severities: p.severities,
      maxResults: p.maxResults,
    });
    return { ...selected, settled, waitedMs: Date.now() - started };
  });
  return activity;
}

/** Loads a named file so language services see it (a folder, or a missing file, is left alone). */
async function ensureOpen(uri: vscode.Uri, how: 'document' | 'editor'): Promise<void> {
  // Only files on disk: opening an unknown untitled: URI would create a new document.
  if (uri.scheme !== 'file') return;
  const st = await stat(uri.fsPath).catch(() => undefined);
  if (!st?.isFile()) return;
  const inTab = vscode.window.tabGroups.all.some((g) => g.tabs.some((t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === uri.toString()));
  let doc = vscode.workspace.textDocuments.find((x) => x.uri.toString() === uri.toString());
  if (!doc) doc = await vscode.workspace.openTextDocument(uri);
  if (how === 'editor' && !inTab) await vscode.window.showTextDocument(doc, { preview: true, preserveFocus: true });
}
