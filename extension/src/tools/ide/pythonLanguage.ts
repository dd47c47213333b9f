// Python language support for the IDE, offline: the pyright language server (installed in the
// image from the npm registry) as a language client, debugpy (Debian's python3-debugpy) as the
// debug adapter for the "debugpy" and "python" debug types our package.json declares, and
// black / isort (Debian) as the formatter and Organize Imports.
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import * as vscode from 'vscode';
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';
import { runProcess } from '../processRunner';

export const PYRIGHT_SERVER = '/opt/pwp-tools/node_modules/pyright/langserver.index.js';

/** The Python language server, started with the first Python document. */
export interface PythonLanguageServer extends vscode.Disposable {
  /**
   * Stops the server if it runs, back to a fresh IDE's state (none runs; the next Python
   * document starts it again). Its progress in the status bar ("N files to analyze") ends with
   * it: a recycled IDE must not show the last episode's. True when there was one to stop.
   */
  stop(): Promise<boolean>;
}

export function startPythonLanguageServer(log: (line: string) => void, serverModule = PYRIGHT_SERVER): PythonLanguageServer {
  if (!existsSync(serverModule)) { log(`no Python language server at ${serverModule}`); return { dispose: () => undefined, stop: async () => false }; }
  const server: ServerOptions = {
    run: { module: serverModule, transport: TransportKind.ipc },
    debug: { module: serverModule, transport: TransportKind.ipc },
  };
  const output = vscode.window.createOutputChannel('pwp Python (pyright)');
  const options: LanguageClientOptions = {
    documentSelector: [{ scheme: 'file', language: 'python' }, { scheme: 'untitled', language: 'python' }],
    outputChannel: output,
    // Navigation and refactoring come from pyright; Problems keep coming from pwp-python (syntax
    // errors) unless pwp.python.languageServerDiagnostics is on, so the IDE's diagnostics stay
    // as they were without this server (no flood of unresolved-import warnings offline).
    middleware: {
      handleDiagnostics: (uri, diagnostics, next) => next(uri, vscode.workspace.getConfiguration('pwp.python').get('languageServerDiagnostics', false) ? diagnostics : []),
    },
  };
  const client = new LanguageClient('pwp-pyright', 'Python (pyright)', server, options);
  // Started with the first Python document (about 90 MB): environments without Python pay nothing.
  let running: Promise<void> | undefined;
  let subs: vscode.Disposable[] = [];
  const isPython = (d: vscode.TextDocument) => d.languageId === 'python' && (d.uri.scheme === 'file' || d.uri.scheme === 'untitled');
  const start = () => {
    if (running) return;
    for (const s of subs.splice(0)) s.dispose();
    running = client.start().then(() => log('pyright language server started'), (err: Error) => log(`pyright failed to start: ${err.message}`));
  };
  // After a stop, documents of closed editors may stay loaded for a while without being opened
  // again: an editor showing one starts the server too.
  const arm = () => {
    subs = [
      vscode.workspace.onDidOpenTextDocument((d) => { if (isPython(d)) start(); }),
      vscode.window.onDidChangeVisibleTextEditors((es) => { if (es.some((e) => isPython(e.document))) start(); }),
    ];
  };
  arm();
  if (vscode.workspace.textDocuments.some(isPython)) start();
  return {
    stop: async () => {
      const was = running;
      if (!was) return false;
      running = undefined;
      await was;
      await client.stop().catch((err: Error) => log(`pyright did not stop cleanly: ${err.message}`));
      arm();
      return true;
    },
    dispose: () => { for (const s of subs) s.dispose(); if (running) void client.stop().catch(() => undefined); output.dispose(); },
  };
}

export function registerPythonDebugger(): vscode.Disposable {
  const factory: vscode.DebugAdapterDescriptorFactory = {
    createDebugAdapterDescriptor: () => new vscode.DebugAdapterExecutable('python3', ['-m', 'debugpy.adapter']),
  };
  const defaults: vscode.DebugConfigurationProvider = {
    resolveDebugConfiguration: (_folder, config) => {
      if (!config.type && !config.request && !config.name) {
        const editor = vscode.window.activeTextEditor;
        if (editor?.document.languageId !== 'python') return config;
        return { type: 'debugpy', request: 'launch', name: 'Python: current file', program: editor.document.uri.fsPath, console: 'integratedTerminal', justMyCode: true };
      }
      return config;
    },
  };
  return vscode.Disposable.from(
    vscode.debug.registerDebugAdapterDescriptorFactory('debugpy', factory),
    vscode.debug.registerDebugAdapterDescriptorFactory('python', factory),
    vscode.debug.registerDebugConfigurationProvider('debugpy', defaults),
  );
}

/** Runs a Python tool that reads source on stdin and writes the new source on stdout. */
async function filterSource(args: string[], source: string, cwd: string, token: vscode.CancellationToken): Promise<string> {
  const abort = new AbortController();
  token.onCancellationRequested(() => abort.abort());
  const r = await runProcess('python3', args, { cwd, env: process.env, input: source, signal: abort.signal, timeoutMs: 30_000 });
  if (r.code !== 0) throw new Error(`${args[1]} failed: ${r.stderr.trim().split('\n').slice(-3).join(' ') || `exit ${r.code}`}`);
  return r.stdout;
}

function wholeDocument(doc: vscode.TextDocument): vscode.Range {
  return new vscode.Range(0, 0, doc.lineCount, 0);
}

/**
 * Format Document and Organize Imports for Python, which pyright does not provide: black and
 * isort from Debian, run on the buffer's text (unsaved changes included).
 */
export function registerPythonFormatting(): vscode.Disposable {
  const selector: vscode.DocumentSelector = [{ language: 'python', scheme: 'file' }, { language: 'python', scheme: 'untitled' }];
  const cwdOf = (doc: vscode.TextDocument) => (doc.uri.scheme === 'file' ? dirname(doc.uri.fsPath) : process.env.HOME ?? '/');
  return vscode.Disposable.from(
    vscode.languages.registerDocumentFormattingEditProvider(selector, {
      provideDocumentFormattingEdits: async (doc, _options, token) => {
        const text = doc.getText();
        const out = await filterSource(['-m', 'black', '--quiet', '--stdin-filename', doc.uri.fsPath || 'untitled.py', '-'], text, cwdOf(doc), token);
        return out === text ? [] : [vscode.TextEdit.replace(wholeDocument(doc), out)];
      },
    }),
    vscode.languages.registerCodeActionsProvider(selector, {
      provideCodeActions: async (doc, _range, context, token) => {
        // Only when asked for (Organize Imports, or all source actions): isort is a process per call.
        if (!context.only?.contains(vscode.CodeActionKind.SourceOrganizeImports)) return [];
        const text = doc.getText();
        // isort finds its settings (pyproject.toml, .isort.cfg) from the working directory.
        const out = await filterSource(['-m', 'isort', '--quiet', '-'], text, cwdOf(doc), token);
        const action = new vscode.CodeAction('Organize Imports (isort)', vscode.CodeActionKind.SourceOrganizeImports);
        action.edit = new vscode.WorkspaceEdit();
        if (out !== text) action.edit.replace(doc.uri, wholeDocument(doc), out);
        return [action];
      },
    }, { providedCodeActionKinds: [vscode.CodeActionKind.SourceOrganizeImports] }),
  );
}
