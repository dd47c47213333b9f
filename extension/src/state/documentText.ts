// Replacing a document's whole text through the IDE (one undo step, left unsaved), right after
// the file may have changed on disk. The IDE reloads a clean document when its file watcher
// reports a write: an edit sent while that reload runs is refused (the document's version
// moved), and a reload landing after an edit that changed nothing undoes it. So the edit waits
// until a clean document shows what the disk holds, and a refused edit is tried again.
import * as vscode from 'vscode';
import { ActionFailedError } from '../../../bridge/protocol';

const ATTEMPTS = 5;
/** How long a clean document may take to show a file just written on disk (the watcher's delay). */
const SYNC_WAIT_MS = 5_000;
const RETRY_WAIT_MS = 1_000;

/** Line breaks as one kind, and no byte order mark: the document keeps one EOL of its own. */
const comparable = (text: string) => text.replace(/^\uFEFF/, '').replace(/\r\n/g, '\n');

/** Resolves at the document's next content change, or after ms. */
function nextChange(doc: vscode.TextDocument, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => { clearTimeout(timer); sub.dispose(); resolve(); };
    const timer = setTimeout(done, ms);
    const sub = vscode.workspace.onDidChangeTextDocument((e) => { if (e.document === doc) done(); });
  });
}

/** Waits (at most ms) until a clean document's text is the file's on disk: its reload after a write has landed. */
async function untilShowsDisk(doc: vscode.TextDocument, ms: number): Promise<void> {
  if (doc.uri.scheme !== 'file') return;
  const end = Date.now() + ms;
  while (Date.now() < end && !doc.isDirty) {
    let disk: string;
    try { disk = new TextDecoder().decode(await vscode.workspace.fs.readFile(doc.uri)); } catch { return; }
    if (comparable(disk) === comparable(doc.getText())) return;
    await nextChange(doc, Math.min(250, end - Date.now()));
  }
}

/**
 * Puts `text` into the document of `uri` (no edit when it holds that text already) and returns
 * the document. With `eolOfText`, the document also takes the text's line breaks. Throws
 * ActionFailedError when the IDE kept refusing or undoing the edit.
 */
export async function replaceDocumentText(uri: vscode.Uri, text: string, o: { eolOfText?: boolean } = {}): Promise<vscode.TextDocument> {
  for (let attempt = 1; ; attempt++) {
    const doc = await vscode.workspace.openTextDocument(uri);
    if (!doc.isDirty) await untilShowsDisk(doc, SYNC_WAIT_MS);
    const edits: vscode.TextEdit[] = [];
    if (comparable(doc.getText()) !== comparable(text)) edits.push(vscode.TextEdit.replace(doc.validateRange(new vscode.Range(0, 0, doc.lineCount, 0)), text));
    const crlf = /\r\n/.test(text);
    if (o.eolOfText && /\n/.test(text) && crlf !== (doc.eol === vscode.EndOfLine.CRLF)) edits.push(vscode.TextEdit.setEndOfLine(crlf ? vscode.EndOfLine.CRLF : vscode.EndOfLine.LF));
    if (edits.length === 0) return doc;
    const edit = new vscode.WorkspaceEdit();
    edit.set(uri, edits);
    const applied = await vscode.workspace.applyEdit(edit);
    if (applied && comparable(doc.getText()) === comparable(text)) return doc;
    if (attempt === ATTEMPTS) {
      throw new ActionFailedError(applied ? `the text of ${uri.fsPath} was replaced again after the edit (reloaded from disk?)` : `the IDE refused the edit to ${uri.fsPath}`);
    }
    await nextChange(doc, RETRY_WAIT_MS);
  }
}
