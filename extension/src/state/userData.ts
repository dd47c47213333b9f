// Files of the IDE's user data (settings.json, keybindings.json, tasks.json, snippets) written
// so that the workbench takes them up. code-server's workbench addresses them as
// `vscode-remote:<path>` and does not notice them changing on disk behind its back; it
// reloads one when its own file service writes (or deletes) that exact resource. So writes go
// through the workbench's file service (workspace.fs with that URI), and straight to disk only
// where that scheme is not served. ide.userData.write serves checkpoint restores.
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { InvalidParamsError } from '../../../bridge/protocol';
import type { Dispatcher } from '../../../bridge/rpc/dispatcher';

const remote = (path: string) => vscode.Uri.from({ scheme: 'vscode-remote', path });

/** Writes a user-data file the way the workbench itself would, so it picks the change up. */
export async function writeUserDataFile(path: string, text: string, log: (line: string) => void): Promise<void> {
  try {
    await vscode.workspace.fs.writeFile(remote(path), Buffer.from(text, 'utf8'));
    return;
  } catch (err) {
    log(`writing ${path} through the workbench failed (${(err as Error).message}); writing it on disk`);
  }
  await writeFile(path, text);
}

/** Deletes one through the workbench; written empty first, as one already gone on disk cannot be deleted through it. */
async function deleteUserDataFile(path: string, log: (line: string) => void): Promise<void> {
  try {
    await vscode.workspace.fs.writeFile(remote(path), new Uint8Array());
    await vscode.workspace.fs.delete(remote(path), { useTrash: false });
    return;
  } catch (err) {
    if (err instanceof vscode.FileSystemError && err.code === 'FileNotFound') return;
    log(`deleting ${path} through the workbench failed (${(err as Error).message}); deleting it on disk`);
  }
  await rm(path, { force: true });
}

export function registerUserData(d: Dispatcher, userDataDir: string, log: (line: string) => void): void {
  const userDir = join(userDataDir, 'User');
  d.register('ide.userData.write', async ({ files }) => {
    // Checked first, so a bad name changes nothing.
    for (const f of files) {
      if (f.path.split('/').some((part) => part === '..' || part === '.' || part === '')) throw new InvalidParamsError(`params.files: '${f.path}' is not a plain path under the user folder`);
    }
    await Promise.all(files.map((f) => (f.text === null ? deleteUserDataFile(join(userDir, f.path), log) : writeUserDataFile(join(userDir, f.path), f.text, log))));
    return { written: files.filter((f) => f.text !== null).map((f) => f.path), deleted: files.filter((f) => f.text === null).map((f) => f.path) };
  });
}
