// Thin adapter: file reads and writes through the IDE, so open editors show the new text, the
// edit is one undo step, and the save lands in local history (the Timeline). New files and
// deletions go through WorkspaceEdit too, so the explorer and editors follow.
import type { Dirent } from 'node:fs';
import { lstat } from 'node:fs/promises';
import * as vscode from 'vscode';
import { replaceDocumentText } from '../state/documentText';
import { ConfinedFs } from './confinedFs';
import { ToolError } from './toolError';
import type { FileAccess } from './toolServices';
import { looksBinary } from './textEdits';
import type { WorkspacePaths } from './workspacePaths';

/** Larger files are written on disk directly: a text model of them would cost the IDE too much. */
const MAX_IDE_EDIT_BYTES = 8 * 1024 * 1024;

function openDocument(abs: string): vscode.TextDocument | undefined {
  return vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && d.uri.fsPath === abs);
}

// Every read and every new file goes through ConfinedFs (no link followed after the check, no
// hard-linked file). Edits of existing files go through the IDE's buffer and save, for undo
// and local history; the IDE writes by path, so the file is checked before and after.
export class IdeFileAccess implements FileAccess {
  private readonly fs: ConfinedFs;

  constructor(paths: WorkspacePaths) {
    this.fs = new ConfinedFs(paths);
  }

  async readText(abs: string): Promise<string> {
    const doc = openDocument(abs);
    if (doc) {
      this.fs.checkFile(abs);
      return doc.getText();
    }
    const buf = this.fs.readBytes(abs);
    if (looksBinary(buf)) throw new ToolError(`${abs} is a binary file (${buf.length} bytes); it cannot be shown as text`, 'BinaryFile');
    return buf.toString('utf8');
  }

  async readBytes(abs: string): Promise<Buffer> {
    return this.fs.readBytes(abs);
  }

  async exists(abs: string): Promise<boolean> { return !!this.fs.lstat(abs); }
  async list(abs: string): Promise<Dirent[]> { return this.fs.readdir(abs); }
  async isDirectory(abs: string): Promise<boolean> { return !!this.fs.lstat(abs)?.isDirectory(); }

  async writeText(abs: string, text: string): Promise<{ created: boolean }> {
    const st = this.fs.lstat(abs);
    if (st?.isDirectory()) throw new ToolError(`${abs} is a directory, not a file`, 'IsADirectory');
    // New files and very large ones: written on disk by name in the verified folder; the
    // explorer and editors follow through the IDE's file watcher.
    if (!st || Buffer.byteLength(text) > MAX_IDE_EDIT_BYTES || st.size > MAX_IDE_EDIT_BYTES) return this.fs.writeBytes(abs, text);
    this.fs.checkFile(abs);
    const doc = await replaceDocumentText(vscode.Uri.file(abs), text).catch((err: Error) => { throw new ToolError(err.message, 'EditFailed'); });
    if (doc.isDirty) {
      this.fs.checkFile(abs);
      if (!(await doc.save())) throw new ToolError(`the IDE could not save ${abs}`, 'SaveFailed');
      this.fs.checkFile(abs);
    }
    return { created: false };
  }

  async writeBytes(abs: string, data: Buffer): Promise<{ created: boolean }> {
    return this.fs.writeBytes(abs, data);
  }

  async remove(abs: string, opts: { recursive?: boolean } = {}): Promise<void> {
    const self = await lstat(abs).catch(() => undefined);
    const st = this.fs.lstat(abs);
    if (!st && !self) throw new ToolError(`file not found: ${abs}`, 'NotFound');
    // A regular file is unlinked by its name in the verified folder; a link (only the link
    // goes) and a folder go through the IDE so that editors and the explorer follow.
    if (st?.isFile() && !self?.isSymbolicLink()) {
      this.fs.unlinkFile(abs);
      return;
    }
    const edit = new vscode.WorkspaceEdit();
    edit.deleteFile(vscode.Uri.file(abs), { recursive: !!opts.recursive, ignoreIfNotExists: false });
    if (!(await vscode.workspace.applyEdit(edit))) {
      await vscode.workspace.fs.delete(vscode.Uri.file(abs), { recursive: !!opts.recursive, useTrash: false });
    }
  }
}
