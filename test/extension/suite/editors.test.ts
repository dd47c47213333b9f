// ide.editors reports what the IDE's editors really show: opened through the VS Code API
// here, read back through the extension's handler.
import * as assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { ErrorCode } from '../../../bridge/protocol/errors';
import { callIde, closeAllEditors, openEditor, rejectsWithCode, workspaceFile } from './helpers';

describe('ide.editors', () => {
  afterEach(closeAllEditors);

  it('reports no active editor when none is open', async () => {
    await closeAllEditors();
    const r = await callIde('ide.editors', {});
    assert.equal(r.activeEditor, null);
    assert.deepEqual(r.groups.flatMap((g) => g.tabs), []);
  });

  it('reports a document opened with showTextDocument as the active editor and an active tab', async () => {
    await openEditor('hello.txt');
    const r = await callIde('ide.editors', {});
    const path = workspaceFile('hello.txt');
    assert.equal(r.activeEditor?.path, path);
    assert.equal(r.activeEditor?.uri, vscode.Uri.file(path).toString());
    assert.equal(r.activeEditor?.languageId, 'plaintext');
    assert.equal(r.activeEditor?.lineCount, 2);
    assert.equal(r.activeEditor?.dirty, false);
    assert.equal(r.activeEditor?.untitled, false);
    assert.deepEqual(r.activeEditor?.cursor, { line: 1, column: 1 });
    assert.match(r.activeEditor?.visibleText ?? '', /hello from the pwp extension tests/);
    const tab = r.groups.flatMap((g) => g.tabs).find((t) => t.path === path);
    assert.ok(tab, 'a tab for hello.txt');
    assert.equal(tab.kind, 'text');
    assert.equal(tab.active, true);
    assert.ok(r.visibleEditors.some((e) => e.path === path));
  });

  it('reports selections 1-based, with the selected text and the cursor at the moving end', async () => {
    const editor = await openEditor('hello.txt');
    // "hello from …": select "from" backwards, so the cursor sits before it.
    editor.selection = new vscode.Selection(0, 10, 0, 6);
    const r = await callIde('ide.editors', {});
    const [sel] = r.activeEditor?.selections ?? [];
    assert.equal(sel.text, 'from');
    assert.deepEqual(sel.start, { line: 1, column: 7 });
    assert.deepEqual(sel.end, { line: 1, column: 11 });
    assert.deepEqual(sel.anchor, { line: 1, column: 11 });
    assert.deepEqual(r.activeEditor?.cursor, { line: 1, column: 7 });
    assert.equal(sel.empty, false);
  });

  it('reports unsaved edits as dirty on the editor and its tab', async () => {
    const editor = await openEditor('src/sample.ts');
    await editor.edit((b) => b.insert(new vscode.Position(0, 0), '// edited\n'));
    const r = await callIde('ide.editors', {});
    assert.equal(r.activeEditor?.dirty, true);
    assert.equal(r.activeEditor?.languageId, 'typescript');
    assert.equal(r.activeEditor?.lineCount, 5);
    const tab = r.groups.flatMap((g) => g.tabs).find((t) => t.path === workspaceFile('src/sample.ts'));
    assert.equal(tab?.dirty, true);
  });

  it('reports an untitled document with its language and no file path', async () => {
    const doc = await vscode.workspace.openTextDocument({ language: 'python', content: 'print("hi")\n' });
    await vscode.window.showTextDocument(doc);
    const r = await callIde('ide.editors', {});
    assert.equal(r.activeEditor?.untitled, true);
    assert.equal(r.activeEditor?.path, null);
    assert.equal(r.activeEditor?.languageId, 'python');
    assert.match(r.activeEditor?.uri ?? '', /^untitled:/);
  });

  it('lists one group per editor column, with the tabs of each', async () => {
    await openEditor('hello.txt');
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(workspaceFile('src/sample.ts')));
    await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Two });
    const r = await callIde('ide.editors', {});
    assert.equal(r.groups.length, 2);
    assert.deepEqual(r.groups.map((g) => g.tabs.map((t) => t.label)), [['hello.txt'], ['sample.ts']]);
    assert.equal(r.groups.find((g) => g.active)?.viewColumn, 2);
    assert.equal(r.activeEditor?.viewColumn, 2);
  });

  it('cuts the visible text at maxTextChars and says so', async () => {
    await openEditor('hello.txt');
    const r = await callIde('ide.editors', { maxTextChars: 5 });
    assert.equal(r.activeEditor?.visibleText, 'hello');
    assert.equal(r.activeEditor?.visibleTextTruncated, true);
  });

  it('setText right after the file changed on disk leaves the document holding that text, unsaved', async () => {
    // As a checkpoint restore does it: the file is put back on disk while a clean editor shows
    // the newer text, then the checkpoint's unsaved text (equal to what the editor shows) goes in.
    // Applied before the IDE reloaded the file, the edit would change nothing and the reload undo it.
    const file = workspaceFile('set-text.txt');
    writeFileSync(file, 'DRAFT notes\n');
    try {
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
      await vscode.window.showTextDocument(doc);
      writeFileSync(file, 'notes\n');
      const r = await callIde('ide.editors.setText', { file, text: 'DRAFT notes\n' });
      assert.equal(r.dirty, true);
      assert.equal(doc.getText(), 'DRAFT notes\n');
      assert.equal(doc.isDirty, true);
    } finally {
      await closeAllEditors();
      rmSync(file, { force: true });
    }
  });

  it('rejects a negative maxTextChars', async () => {
    const message = await rejectsWithCode(callIde('ide.editors', { maxTextChars: -1 }), ErrorCode.InvalidParams);
    assert.match(message, /maxTextChars/);
  });
});
