// ide.timeline, ide.timeline.read, ide.timeline.restore: the file's local history as the IDE
// keeps it, and restoring an entry through the IDE (edit the document, then save) so dirty
// state, undo and the timeline itself stay coherent.
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type * as vscode from 'vscode';
import { ActionFailedError, InvalidParamsError } from '../../../bridge/protocol';
import type { Dispatcher } from '../../../bridge/rpc/dispatcher';
import { replaceDocumentText } from './documentText';
import { cap } from './positions';
import { findHistoryFolder, readHistoryEntries, type HistoryEntry } from './localHistory';
import { describe, resolveFile, resolveWorkspaceFile } from './resources';

function toWire(e: HistoryEntry) {
  return {
    id: e.id, timestamp: e.timestamp, time: new Date(e.timestamp).toISOString(), source: e.source, label: e.label,
    sourceDescription: e.sourceDescription, size: e.size,
  };
}

export function registerTimeline(d: Dispatcher, userDataDir: string): void {
  const historyHome = join(userDataDir, 'User', 'History');

  async function entriesOf(uri: vscode.Uri): Promise<{ folder: string | undefined; entries: HistoryEntry[] }> {
    const folder = await findHistoryFolder(historyHome, uri.toString(), uri.path);
    return { folder, entries: folder ? await readHistoryEntries(folder, uri.path) : [] };
  }

  async function entryOf(uri: vscode.Uri, id: string): Promise<HistoryEntry> {
    const { folder, entries } = await entriesOf(uri);
    const entry = entries.find((e) => e.id === id);
    if (!entry) {
      throw new InvalidParamsError(`params.entryId: no local-history entry '${id}' for ${uri.fsPath} ` +
        `(${folder ? `in ${folder}: ${entries.map((e) => e.id).join(', ') || 'no entries'}` : `no history folder under ${historyHome}`})`);
    }
    return entry;
  }

  d.register('ide.timeline', async ({ file }) => {
    const uri = resolveFile(file);
    const { folder, entries } = await entriesOf(uri);
    return { ...describe(uri), historyDir: folder ?? null, entries: entries.map(toWire) };
  });

  d.register('ide.timeline.read', async ({ file, entryId, maxChars }) => {
    const entry = await entryOf(resolveFile(file), entryId);
    const content = cap(await readFile(entry.location, 'utf8'), maxChars);
    return { entry: toWire(entry), content: content.text, truncated: content.truncated };
  });

  d.register('ide.timeline.restore', async ({ file, entryId }) => {
    const uri = resolveWorkspaceFile(file);
    const entry = await entryOf(uri, entryId);
    const content = await readFile(entry.location, 'utf8');
    const doc = await replaceDocumentText(uri, content, { eolOfText: true });
    // A document that already held the entry's text has nothing to save.
    const saved = !doc.isDirty || await doc.save();
    if (!saved) throw new ActionFailedError(`the IDE did not save ${uri.fsPath} after restoring it (is it read-only?)`);
    return { ...describe(uri), restoredFrom: toWire(entry), saved, bytes: (await stat(uri.fsPath)).size };
  });
}
