// ide.editors: tab groups and tabs, the active editor and what it shows.
import * as vscode from 'vscode';
import type { Dispatcher } from '../../../bridge/rpc/dispatcher';
import type { Result } from '../../../bridge/protocol';
import { replaceDocumentText } from './documentText';
import { cap, fromWirePosition, toWirePosition, toWireRange } from './positions';
import { describe, resolveFile } from './resources';

type Tab = Result<'ide.editors'>['groups'][number]['tabs'][number];

function languageOf(uri: vscode.Uri | undefined): string | null {
  if (!uri) return null;
  return vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString())?.languageId ?? null;
}

function describeTab(tab: vscode.Tab): Tab {
  const input = tab.input;
  let kind: Tab['kind'] = 'other';
  let uri: vscode.Uri | undefined;
  let original: vscode.Uri | undefined;
  if (input instanceof vscode.TabInputText) { kind = 'text'; uri = input.uri; }
  else if (input instanceof vscode.TabInputTextDiff) { kind = 'diff'; uri = input.modified; original = input.original; }
  else if (input instanceof vscode.TabInputNotebook) { kind = 'notebook'; uri = input.uri; }
  else if (input instanceof vscode.TabInputNotebookDiff) { kind = 'notebookDiff'; uri = input.modified; original = input.original; }
  else if (input instanceof vscode.TabInputCustom) { kind = 'custom'; uri = input.uri; }
  else if (input instanceof vscode.TabInputWebview) { kind = 'webview'; }
  else if (input instanceof vscode.TabInputTerminal) { kind = 'terminal'; }
  const where = uri ? describe(uri) : { uri: null, path: null };
  return {
    label: tab.label,
    kind,
    ...where,
    originalUri: original?.toString() ?? null,
    languageId: languageOf(uri),
    dirty: tab.isDirty,
    active: tab.isActive,
    pinned: tab.isPinned,
    preview: tab.isPreview,
  };
}

function visibleText(editor: vscode.TextEditor, max: number): { text: string; truncated: boolean } {
  const parts: string[] = [];
  let length = 0;
  for (const r of editor.visibleRanges) {
    // Whole lines: a visible range starts and ends mid-line only when scrolled sideways.
    const text = editor.document.getText(new vscode.Range(r.start.line, 0, r.end.line, editor.document.lineAt(r.end.line).text.length));
    parts.push(text);
    length += text.length;
    if (length > max) break;
  }
  return cap(parts.join('\n'), max);
}

function activeEditor(max: number): Result<'ide.editors'>['activeEditor'] {
  const e = vscode.window.activeTextEditor;
  if (!e) return null;
  const doc = e.document;
  const visible = visibleText(e, max);
  return {
    ...describe(doc.uri),
    languageId: doc.languageId,
    viewColumn: e.viewColumn ?? null,
    lineCount: doc.lineCount,
    dirty: doc.isDirty,
    untitled: doc.isUntitled,
    eol: doc.eol === vscode.EndOfLine.CRLF ? 'CRLF' : 'LF',
    tabSize: e.options.tabSize ?? null,
    insertSpaces: e.options.insertSpaces ?? null,
    cursor: toWirePosition(e.selection.active),
    selections: e.selections.map((s) => ({
      anchor: toWirePosition(s.anchor),
      active: toWirePosition(s.active),
      start: toWirePosition(s.start),
      end: toWirePosition(s.end),
      empty: s.isEmpty,
      text: cap(doc.getText(s), max).text,
    })),
    visibleRanges: e.visibleRanges.map(toWireRange),
    visibleText: visible.text,
    visibleTextTruncated: visible.truncated,
  };
}

/** Files larger than this are not compared with their document (reading them costs more than a rare stale one). */
const MAX_COMPARED_BYTES = 8 * 1024 * 1024;

/** A file's text as a document would hold it (UTF-8, without its BOM), line ends aside; undefined when it is not such text. */
async function diskText(uri: vscode.Uri): Promise<string | undefined> {
  try {
    if ((await vscode.workspace.fs.stat(uri)).size > MAX_COMPARED_BYTES) return undefined;
    return comparable(new TextDecoder('utf-8', { fatal: true }).decode(await vscode.workspace.fs.readFile(uri)));
  } catch {
    return undefined;
  }
}

const comparable = (text: string) => text.replace(/\r\n/g, '\n');

/**
 * Makes a saved document read as its file again. The IDE keeps a document for a while after
 * its editor closed and takes up a change of its file when a file watcher reports it: a moment
 * later on a busy machine, never for a change no watcher sees (a write through a shared memory
 * map). A checkpoint restore swaps files under closed editors and reopens them at once, so the
 * editor could show the text from before. Reverting reads the file again, but the IDE reverts
 * only a document with unsaved changes (and only the active editor's): one edit makes it so.
 */
async function reloadIfStale(doc: vscode.TextDocument, at: { viewColumn?: number; preview?: boolean }): Promise<void> {
  if (doc.isDirty || doc.uri.scheme !== 'file') return;
  const disk = await diskText(doc.uri);
  if (disk === undefined || disk === comparable(doc.getText())) return;
  await vscode.window.showTextDocument(doc, { viewColumn: at.viewColumn, preview: at.preview, preserveFocus: false });
  const edit = new vscode.WorkspaceEdit();
  edit.insert(doc.uri, new vscode.Position(0, 0), ' ');
  if (!await vscode.workspace.applyEdit(edit)) return;
  await vscode.commands.executeCommand('workbench.action.files.revert');
}

export function registerEditors(d: Dispatcher): void {
  d.register('ide.editors', async ({ maxTextChars }) => ({
    groups: vscode.window.tabGroups.all.map((g) => ({
      viewColumn: g.viewColumn,
      active: g.isActive,
      tabs: g.tabs.map(describeTab),
    })),
    activeEditor: activeEditor(maxTextChars),
    visibleEditors: vscode.window.visibleTextEditors.map((e) => ({
      ...describe(e.document.uri),
      languageId: e.document.languageId,
      viewColumn: e.viewColumn ?? null,
      visibleRanges: e.visibleRanges.map(toWireRange),
      cursor: toWirePosition(e.selection.active),
    })),
  }));

  d.register('ide.editors.open', async ({ editors, active }) => {
    const focus = Math.min(active ?? editors.length - 1, editors.length - 1);
    const opened: Result<'ide.editors.open'>['opened'] = [];
    // In order, so tabs keep their order (each opens right of the group's active one); the
    // focused editor takes the focus where it comes last, else it is shown once more at the end
    // (every showing is a round through the workbench: seconds in one that is starting).
    const last = editors.length - 1;
    const steps: { i: number; takeFocus: boolean; again: boolean }[] = [...editors.keys()].map((i) => ({ i, takeFocus: i === focus && i === last, again: false }));
    if (focus !== last) steps.push({ i: focus, takeFocus: true, again: true });
    for (const { i, takeFocus, again } of steps) {
      const e = editors[i];
      const doc = await vscode.workspace.openTextDocument(resolveFile(e.file));
      if (!again) await reloadIfStale(doc, e);
      const p = e.cursor ? fromWirePosition(e.cursor) : undefined;
      const at = p ? doc.validatePosition(new vscode.Position(p.line, p.character)) : undefined;
      const editor = await vscode.window.showTextDocument(doc, {
        viewColumn: e.viewColumn, preview: e.preview, preserveFocus: !takeFocus, selection: at ? new vscode.Range(at, at) : undefined,
      });
      if (at) editor.revealRange(new vscode.Range(at, at), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
      opened[i] = { ...describe(doc.uri), viewColumn: editor.viewColumn ?? null, cursor: toWirePosition(editor.selection.active) };
    }
    return { opened };
  });

  d.register('ide.editors.unsaved', async ({ maxChars }) => ({
    documents: vscode.workspace.textDocuments.filter((doc) => doc.isDirty).map((doc) => {
      const c = cap(doc.getText(), maxChars);
      return { ...describe(doc.uri), text: c.text, truncated: c.truncated };
    }),
  }));

  d.register('ide.editors.setText', async ({ file, text }) => {
    const doc = await replaceDocumentText(resolveFile(file), text);
    return { ...describe(doc.uri), dirty: doc.isDirty };
  });
}
