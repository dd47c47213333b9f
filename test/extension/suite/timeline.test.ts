// ide.timeline, ide.timeline.read and ide.timeline.restore on the local history the IDE
// itself records when it saves a file.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { ErrorCode } from '../../../bridge/protocol/errors';
import { callIde, closeAllEditors, eventually, rejectsWithCode, workspaceFile } from './helpers';

const REL = 'timeline/notes.txt';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Replaces the editor's text, as typing would, and saves it through the IDE (which records a history entry). */
async function saveText(text: string): Promise<void> {
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(workspaceFile(REL)));
  const editor = await vscode.window.showTextDocument(doc);
  assert.ok(await editor.edit((b) => b.replace(new vscode.Range(0, 0, doc.lineCount, 0), text)));
  assert.ok(await doc.save());
}

async function entriesAtLeast(n: number) {
  return eventually(async () => {
    const t = await callIde('ide.timeline', { file: REL });
    return t.entries.length >= n ? t : undefined;
  }, `${n} local-history entries for ${REL}`);
}

describe('ide.timeline', function () {
  this.timeout(180_000);

  before(async () => {
    // Saves of the same kind within the merge window replace each other; keep them apart.
    await vscode.workspace.getConfiguration().update('workbench.localHistory.mergeWindow', 1, vscode.ConfigurationTarget.Global);
    const create = new vscode.WorkspaceEdit();
    create.createFile(vscode.Uri.file(workspaceFile(REL)), { ignoreIfExists: true });
    assert.ok(await vscode.workspace.applyEdit(create));
    await saveText('first version\n');
    await sleep(1200); // time has to pass (the 1 s merge window); a slow machine only makes the gap longer
    await saveText('second version\n');
  });
  after(async () => {
    await vscode.workspace.getConfiguration().update('workbench.localHistory.mergeWindow', undefined, vscode.ConfigurationTarget.Global);
    await closeAllEditors();
  });

  it('lists an entry for each save the IDE made, oldest first, labelled as the Timeline view labels them', async () => {
    const t = await entriesAtLeast(2);
    assert.equal(t.path, workspaceFile(REL));
    assert.ok(t.historyDir, 'the history folder was found');
    assert.deepEqual(t.entries.map((e) => [e.source, e.label]), [['default.source', 'File Saved'], ['default.source', 'File Saved']]);
    const stamps = t.entries.map((e) => e.timestamp);
    assert.deepEqual(stamps, [...stamps].sort((a, b) => a - b));
  });

  it('reads the content each entry holds', async () => {
    const t = await entriesAtLeast(2);
    const contents = await Promise.all(t.entries.map(async (e) => (await callIde('ide.timeline.read', { file: REL, entryId: e.id })).content));
    assert.ok(contents.includes('first version\n'), JSON.stringify(contents));
    assert.equal(contents[contents.length - 1], 'second version\n');
  });

  it('restores an entry through the IDE: the document and the file on disk change, and the save is recorded', async () => {
    const before = await entriesAtLeast(2);
    const contents = await Promise.all(before.entries.map(async (e) => (await callIde('ide.timeline.read', { file: REL, entryId: e.id })).content));
    const first = before.entries[contents.indexOf('first version\n')];
    await sleep(1200); // outside the merge window, so the restore's save is an entry of its own
    const r = await callIde('ide.timeline.restore', { file: REL, entryId: first.id });
    assert.equal(r.saved, true);
    assert.equal(r.restoredFrom.id, first.id);
    assert.equal(readFileSync(workspaceFile(REL), 'utf8'), 'first version\n');
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.fsPath === workspaceFile(REL));
    assert.equal(doc?.getText(), 'first version\n');
    assert.equal(doc?.isDirty, false);
    await entriesAtLeast(before.entries.length + 1);
  });

  it('keeps finding a file\'s entries while the IDE rewrites its history index after each save', async () => {
    // The browser workbench flushes entries.json on every change; a read in the middle of
    // that write must not make the entries disappear.
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(workspaceFile(REL)));
    const editor = await vscode.window.showTextDocument(doc);
    let saving = true;
    const empty: number[] = [];
    let reads = 0;
    const reader = (async () => {
      while (saving) {
        const n = (await callIde('ide.timeline', { file: REL })).entries.length;
        if (n === 0) empty.push(reads);
        reads++;
        await sleep(5);
      }
    })();
    try {
      for (let i = 0; i < 50; i++) {
        assert.ok(await editor.edit((b) => b.insert(new vscode.Position(0, 0), `${i}\n`)));
        assert.ok(await doc.save());
        await sleep(100);
      }
    } finally {
      saving = false;
      await reader;
    }
    assert.deepEqual(empty, [], `${empty.length} of ${reads} reads found no entries`);
  });

  it('rejects an entry id the file does not have, naming the ones it has', async () => {
    const message = await rejectsWithCode(callIde('ide.timeline.read', { file: REL, entryId: 'nope.txt' }), ErrorCode.InvalidParams);
    assert.match(message, /nope\.txt/);
  });

  it('refuses to restore a file outside the workspace', async () => {
    await rejectsWithCode(callIde('ide.timeline.restore', { file: '/etc/hostname', entryId: 'abcd.txt' }), ErrorCode.InvalidParams);
  });
});
