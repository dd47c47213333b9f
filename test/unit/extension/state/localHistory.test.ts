import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  findHistoryFolder, historyFolderName, readHistoryEntries, resourcePath, sourceLabel,
} from '../../../../extension/src/state/localHistory';

describe('local history on disk', () => {
  let home: string;
  beforeEach(() => { home = mkdtempSync(join(tmpdir(), 'pwp-history-')); });
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  function folder(name: string, resource: string | undefined, files: Record<string, string>, entries?: unknown[]): string {
    const dir = join(home, name);
    mkdirSync(dir, { recursive: true });
    for (const [f, c] of Object.entries(files)) writeFileSync(join(dir, f), c);
    if (resource !== undefined) writeFileSync(join(dir, 'entries.json'), JSON.stringify({ version: 1, resource, entries: entries ?? [] }));
    return dir;
  }

  it('names folders with the workbench hash of the resource URI', () => {
    // Folder names observed in a running code-server 4.139.1 for these resources.
    assert.equal(historyFolderName('vscode-remote://127.0.0.1:8080/workspace/good.py'), '767f1af8');
    assert.equal(historyFolderName('vscode-remote:/home/pwp/ide/user-data/User/settings.json'), '52dde1d8');
    assert.equal(historyFolderName('vscode-remote://127.0.0.1:8080/workspace/.vscode/settings.json'), '2f33977a');
  });

  it('finds a file\'s folder by hash, or by the path its entries.json names under another scheme', async () => {
    const byHash = folder(historyFolderName('file:///workspace/a.py'), 'file:///workspace/a.py', {});
    assert.equal(await findHistoryFolder(home, 'file:///workspace/a.py', '/workspace/a.py'), byHash);
    const remote = folder('7', 'vscode-remote://127.0.0.1:8080/workspace/b%20c.py', {});
    assert.equal(await findHistoryFolder(home, 'file:///workspace/b%20c.py', '/workspace/b c.py'), remote);
    assert.equal(await findHistoryFolder(home, 'file:///workspace/none.py', '/workspace/none.py'), undefined);
    assert.equal(await findHistoryFolder(join(home, 'missing'), 'file:///x', '/x'), undefined);
  });

  it('lists entries oldest first with sources and labels from entries.json', async () => {
    const dir = folder('f', 'vscode-remote://h/workspace/a.py', { 'AAAA.py': 'one\n', 'BBBB.py': 'two\n', 'CCCC.py': 'three\n' }, [
      { id: 'BBBB.py', timestamp: 2000, source: 'undoRedo.source' },
      { id: 'AAAA.py', timestamp: 1000 },
      { id: 'CCCC.py', timestamp: 3000, source: 'Workspace Edit', sourceDescription: 'rename x' },
      { id: 'GONE.py', timestamp: 4000 },
    ]);
    const entries = await readHistoryEntries(dir, '/workspace/a.py');
    assert.deepEqual(entries.map((e) => [e.id, e.timestamp, e.source, e.label, e.sourceDescription, e.size]), [
      ['AAAA.py', 1000, 'default.source', 'File Saved', null, 4],
      ['BBBB.py', 2000, 'undoRedo.source', 'Undo / Redo', null, 4],
      ['CCCC.py', 3000, 'Workspace Edit', 'Workspace Edit', 'rename x', 6],
    ]);
    assert.equal(entries[0].location, join(dir, 'AAAA.py'));
  });

  it('counts copies that entries.json does not list yet, by file time, and ignores other files', async () => {
    const dir = folder('g', 'file:///w/a.py', { 'AAAA.py': 'x', 'DDDD.py': 'y', 'notes.txt': 'n', 'EEEE.ts': 'z' }, [{ id: 'AAAA.py', timestamp: 1000 }]);
    utimesSync(join(dir, 'DDDD.py'), 5, 5);
    const entries = await readHistoryEntries(dir, '/w/a.py');
    assert.deepEqual(entries.map((e) => [e.id, e.timestamp]), [['AAAA.py', 1000], ['DDDD.py', 5000]]);
  });

  it('waits out a half-written entries.json instead of losing the folder', async () => {
    const dir = folder('h', undefined, { 'AAAA.py': 'x' });
    writeFileSync(join(dir, 'entries.json'), '{"version":1,"resource":"vscode-remote://h/w/a.py","entr');
    setTimeout(() => writeFileSync(join(dir, 'entries.json'), JSON.stringify({ version: 1, resource: 'vscode-remote://h/w/a.py', entries: [{ id: 'AAAA.py', timestamp: 7, source: 'undoRedo.source' }] })), 30);
    assert.equal(await findHistoryFolder(home, 'file:///w/a.py', '/w/a.py'), dir);
    assert.deepEqual((await readHistoryEntries(dir, '/w/a.py')).map((e) => [e.timestamp, e.source]), [[7, 'undoRedo.source']]);
  });

  it('waits out an entries.json removed for its rewrite, however long the writer takes', async () => {
    // The rewrite is caught between removal and creation: the folder holds the copies, not
    // the index. Written back later than any fixed number of quick retries would wait.
    const dir = folder('i', undefined, { 'AAAA.py': 'x' });
    const model = JSON.stringify({ version: 1, resource: 'vscode-remote://h/w/a.py', entries: [{ id: 'AAAA.py', timestamp: 9 }] });
    const found = findHistoryFolder(home, 'file:///w/a.py', '/w/a.py');
    setTimeout(() => writeFileSync(join(dir, 'entries.json'), model), 300);
    assert.equal(await found, dir);
  });

  it('does not wait on a folder with neither copies nor index', async () => {
    mkdirSync(join(home, 'empty'));
    const remote = folder('j', 'vscode-remote://h/w/b.py', {});
    assert.equal(await findHistoryFolder(home, 'file:///w/b.py', '/w/b.py'), remote);
  });

  it('decodes resource paths and labels unknown sources by their id', () => {
    assert.equal(resourcePath('vscode-remote://127.0.0.1:8080/workspace/a%20b.py'), '/workspace/a b.py');
    assert.equal(resourcePath('not a uri'), undefined);
    assert.equal(sourceLabel('localHistoryRestore.source'), 'File Restored');
    assert.equal(sourceLabel('custom.source'), 'custom');
  });
});
