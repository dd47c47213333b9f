// ide.keybindings.get / ide.keybindings.update: the user keybindings.json in the IDE's user
// data. code-server's workbench addresses that file as `vscode-remote:<path>` and does not
// notice it changing on disk behind its back; it reloads keybindings when its own file
// service writes that exact resource. So the write goes through the workbench's file service
// (workspace.fs with that URI), and straight to disk only where that scheme is not served.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { ActionFailedError } from '../../../bridge/protocol';
import type { Dispatcher } from '../../../bridge/rpc/dispatcher';
import { editKeybindings, readKeybindings } from './keybindingsJson';

async function readText(path: string): Promise<string> {
  try { return await readFile(path, 'utf8'); } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw err;
  }
}

/** Writes a user-data file the way the workbench itself would, so it picks the change up. */
export async function writeUserDataFile(path: string, text: string, log: (line: string) => void): Promise<void> {
  try {
    await vscode.workspace.fs.writeFile(vscode.Uri.from({ scheme: 'vscode-remote', path }), Buffer.from(text, 'utf8'));
    return;
  } catch (err) {
    log(`writing ${path} through the workbench failed (${(err as Error).message}); writing it on disk`);
  }
  await writeFile(path, text);
}

export function registerKeybindings(d: Dispatcher, userDataDir: string, log: (line: string) => void): void {
  const path = join(userDataDir, 'User', 'keybindings.json');
  d.register('ide.keybindings.get', async () => ({ path, ...readKeybindings(await readText(path)) }));
  d.register('ide.keybindings.update', async (p) => {
    const before = await readText(path);
    let edited;
    try { edited = editKeybindings(before, p.remove, p.add); } catch (err) { throw new ActionFailedError((err as Error).message, { path }); }
    if (edited.text !== before) await writeUserDataFile(path, edited.text, log);
    return { path, ...readKeybindings(edited.text), removed: edited.removed, added: edited.added };
  });
}
