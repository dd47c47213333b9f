// Composition root: wires the ide.* handlers to the bridge connection. Nothing else.
import * as vscode from 'vscode';
import { extensionLinkUrl } from '../../bridge/protocol';
import { Dispatcher } from '../../bridge/rpc/dispatcher';
import { BridgeConnection } from './bridgeConnection';
import { DebugStatusEntry, registerDebug } from './state/debug';
import { registerDiagnostics } from './state/diagnostics';
import { registerEditors } from './state/editors';
import { registerExtensions } from './state/extensions';
import { registerKeybindings } from './state/keybindings';
import { PythonDiagnostics } from './state/pythonDiagnostics';
import { userDataDir } from './state/resources';
import { registerSettings } from './state/settings';
import { registerStatus } from './state/status';
import { registerTerminals } from './state/terminals';
import { registerTimeline } from './state/timeline';
import { registerUserData } from './state/userData';
import { registerWorkbench } from './state/workbench';
import { registerPythonDebugger, registerPythonFormatting, startPythonLanguageServer } from './tools/ide/pythonLanguage';
import { registerTools } from './tools/registerTools';

/** What `activate()` returns: the extension's tests reach the handlers through it. */
export interface PwpExtensionApi { readonly dispatcher: Dispatcher }

export function activate(context: vscode.ExtensionContext): PwpExtensionApi {
  const port = process.env.PWP_EXTENSION_PORT;
  const token = process.env.PWP_EXTENSION_TOKEN;
  const output = vscode.window.createOutputChannel('pwp');
  const log = (line: string) => output.appendLine(`[${new Date().toISOString()}] ${line}`);
  context.subscriptions.push(output);
  const dispatcher = new Dispatcher();
  registerStatus(dispatcher, context);
  const python = new PythonDiagnostics(log);
  context.subscriptions.push(python, registerDiagnostics(dispatcher, python), registerDebug(dispatcher));
  registerEditors(dispatcher);
  registerSettings(dispatcher);
  registerKeybindings(dispatcher, userDataDir(context), log);
  registerTimeline(dispatcher, userDataDir(context));
  registerUserData(dispatcher, userDataDir(context), log);
  registerExtensions(dispatcher, context);
  registerTerminals(dispatcher);
  const pythonServer = startPythonLanguageServer(log);
  const debugEntry = new DebugStatusEntry();
  registerWorkbench(dispatcher, [
    { name: 'Python language server', end: () => pythonServer.stop() },
    { name: 'debug status bar entry', end: () => debugEntry.end() },
  ]);
  context.subscriptions.push(registerTools(dispatcher, log), pythonServer, debugEntry, registerPythonDebugger(), registerPythonFormatting());
  if (!port || !token) {
    log('PWP_EXTENSION_PORT/PWP_EXTENSION_TOKEN not set: not running under the pwp bridge');
    return { dispatcher };
  }
  const connection = new BridgeConnection({ url: extensionLinkUrl(port, { token, activated: Date.now() }), dispatcher, log });
  connection.start();
  context.subscriptions.push({ dispose: () => connection.dispose() });
  return { dispatcher };
}

export function deactivate(): void { /* disposables handle shutdown */ }
