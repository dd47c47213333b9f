// ide.keybindings.get / ide.keybindings.update: the user keybindings.json in the IDE's user
// data, written through the workbench's file service so that it reloads them (userData.ts).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ActionFailedError } from '../../../bridge/protocol';
import type { Dispatcher } from '../../../bridge/rpc/dispatcher';
import { editKeybindings, readKeybindings } from './keybindingsJson';
import { writeUserDataFile } from './userData';

async function readText(path: string): Promise<string> {
  try { return await readFile(path, 'utf8'); } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw err;
  }
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
