// ide.status: who is serving and on which workspace.
import * as vscode from 'vscode';
import type { Dispatcher } from '../../../bridge/rpc/dispatcher';

export function registerStatus(d: Dispatcher, context: vscode.ExtensionContext): void {
  const started = Date.now();
  d.register('ide.status', async () => ({
    vscodeVersion: vscode.version,
    appName: vscode.env.appName,
    extensionVersion: String(context.extension.packageJSON.version),
    workspaceFolders: (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath),
    uptimeMs: Date.now() - started,
  }));
}
