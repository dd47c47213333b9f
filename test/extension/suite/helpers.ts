// What every suite needs: the extension under test, activated, and a way to call its
// ide.* handlers exactly as the bridge does (params and results validated by the protocol).
import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { MethodName, ParamsIn, Result } from '../../../bridge/protocol';
import type { RpcResponse, Session } from '../../../bridge/rpc/dispatcher';
import type { PwpExtensionApi } from '../../../extension/src/extension';

export const EXTENSION_ID = 'pwp.pwp-ide-bridge';

export function extension(): vscode.Extension<PwpExtensionApi> {
  const ext = vscode.extensions.getExtension<PwpExtensionApi>(EXTENSION_ID);
  if (!ext) throw new Error(`extension ${EXTENSION_ID} is not loaded in this extension host`);
  return ext;
}

export async function extensionApi(): Promise<PwpExtensionApi> {
  return extension().activate();
}

export function newSession(): Session {
  return { id: 0, state: new Map(), signal: new AbortController().signal };
}

/** Calls an ide.* method through the extension's dispatcher; throws its typed errors. */
export async function callIde<M extends MethodName>(method: M, params: ParamsIn<M>): Promise<Result<M>> {
  const { dispatcher } = await extensionApi();
  return (await dispatcher.call(method, params, newSession())) as Result<M>;
}

/** Sends one raw JSON-RPC message, as the bridge forwards it over the extension socket. */
export async function sendRaw(message: unknown): Promise<RpcResponse | undefined> {
  const { dispatcher } = await extensionApi();
  return dispatcher.handle(typeof message === 'string' ? message : JSON.stringify(message), newSession());
}

/**
 * Polls `probe` until it returns a value other than undefined; the IDE applies some changes a tick
 * later, and a loaded machine many seconds later. A wait that succeeds costs no more for a long bound.
 */
export async function eventually<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The first workspace folder (the runner always opens one). */
export function workspaceDir(): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('no workspace folder is open');
  return folder.uri.fsPath;
}

export function workspaceFile(rel: string): string {
  return join(workspaceDir(), rel);
}

/** Opens a workspace file in an editor and returns that editor. */
export async function openEditor(rel: string): Promise<vscode.TextEditor> {
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(workspaceFile(rel)));
  return vscode.window.showTextDocument(doc, { preview: false });
}

/** Closes every editor and extra editor group, discarding unsaved changes (a save prompt would block the run). */
export async function closeAllEditors(): Promise<void> {
  for (const doc of vscode.workspace.textDocuments.filter((d) => d.isDirty)) {
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  }
  await vscode.commands.executeCommand('workbench.action.closeAllGroups');
}

/** Asserts that `call` fails with the typed error whose JSON-RPC code is `code`; returns its message. */
export async function rejectsWithCode(call: Promise<unknown>, code: number): Promise<string> {
  try {
    await call;
  } catch (err) {
    assert.equal((err as { code?: unknown }).code, code, `expected error code ${code}, got: ${(err as Error).message}`);
    return (err as Error).message;
  }
  assert.fail(`expected the call to fail with code ${code}`);
}
