// The IDE's local history on disk: <user-data>/User/History/<hash of the resource URI>/ holds
// one copy per entry and entries.json ({version, resource, entries: [{id, source?,
// sourceDescription?, timestamp}]}). Read the way the workbench reads it: copies in the folder
// are entries even before entries.json lists them. No vscode import.
import { readdir, readFile, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';

export interface HistoryEntry {
  id: string;
  timestamp: number;
  source: string;
  label: string;
  sourceDescription: string | null;
  size: number | null;
  /** The copy of the file this entry holds. */
  location: string;
}

/** The workbench's string hash (vs/base/common/hash.ts), which names each history folder. */
export function vscodeStringHash(s: string): number {
  const step = (val: number, h: number) => (((h << 5) - h) + val) | 0;
  let h = step(149417, 0);
  for (let i = 0; i < s.length; i++) h = step(s.charCodeAt(i), h);
  return h;
}

export function historyFolderName(resource: string): string {
  return vscodeStringHash(resource).toString(16);
}

export const DEFAULT_SOURCE = 'default.source';
/** The labels the workbench registers for its save sources (English). */
export const SOURCE_LABELS: Record<string, string> = {
  'default.source': 'File Saved',
  'undoRedo.source': 'Undo / Redo',
  'localHistoryRestore.source': 'File Restored',
  'moved.source': 'File Moved',
  'renamed.source': 'File Renamed',
  'searchReplace.source': 'Search and Replace',
  'textFileCreate.source': 'File Created',
  'textFileOverwrite.source': 'File Replaced',
  'textFileEncoding.source': 'File Encoding Changed',
  'fileWorkingCopyCreate.source': 'File Created',
  'fileWorkingCopyReplace.source': 'File Replaced',
  'merge-editor.source': 'Before Resolving Conflicts In Merge Editor',
};

export function sourceLabel(source: string): string {
  return SOURCE_LABELS[source] ?? source.replace(/\.source$/, '');
}

interface SerializedModel {
  resource?: unknown;
  entries?: { id?: unknown; timestamp?: unknown; source?: unknown; sourceDescription?: unknown }[];
}

/**
 * entries.json, or undefined when there is none. The workbench rewrites it after every save
 * (the file removed and written anew, or truncated and written), so a read can land between the
 * two: missing while its folder holds the history's copies, or half written. Such a read is
 * tried again until one parses, up to `patienceMs`; a folder without copies and without
 * entries.json has no index to wait for.
 */
async function readModel(folder: string, patienceMs: number): Promise<SerializedModel | undefined> {
  const deadline = Date.now() + patienceMs;
  for (;;) {
    let text: string | undefined;
    try { text = await readFile(join(folder, 'entries.json'), 'utf8'); } catch { text = undefined; }
    if (text !== undefined) {
      try { return JSON.parse(text) as SerializedModel; } catch { /* half written: read again */ }
    } else if (!(await holdsCopies(folder))) {
      return undefined;
    }
    if (Date.now() >= deadline) return undefined;
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Whether a history folder holds entry copies (anything but its index). */
async function holdsCopies(folder: string): Promise<boolean> {
  try { return (await readdir(folder)).some((n) => n !== 'entries.json'); } catch { return false; }
}

/** How long a read waits out the workbench's rewrite of an index. */
const REWRITE_PATIENCE_MS = 2000;

/** The path a history resource names, whatever its scheme (file:, vscode-remote://host…). */
export function resourcePath(resource: string): string | undefined {
  try { return decodeURIComponent(new URL(resource).pathname); } catch { return undefined; }
}

/**
 * The history folder of a file. The workbench hashes the URI as it sees it, which in a browser
 * window is `vscode-remote://<host>/<path>` rather than the extension host's `file:///<path>`:
 * try the hash of the URI first, then match entries.json files on the path.
 */
export async function findHistoryFolder(historyHome: string, resource: string, path: string): Promise<string | undefined> {
  const byHash = join(historyHome, historyFolderName(resource));
  const model = await readModel(byHash, REWRITE_PATIENCE_MS);
  if (model && typeof model.resource === 'string' && resourcePath(model.resource) === path) return byHash;
  let names: string[];
  try { names = await readdir(historyHome); } catch { return undefined; }
  // Every folder is read once at once; only those caught in a rewrite are waited on, so a
  // search does not wait on every other file's history.
  const read = await Promise.all(names.map(async (name) => {
    const folder = join(historyHome, name);
    return { folder, model: await readModel(folder, 0) };
  }));
  for (const r of read) {
    if (!r.model && await holdsCopies(r.folder)) r.model = await readModel(r.folder, REWRITE_PATIENCE_MS);
  }
  let best: { folder: string; mtime: number } | undefined;
  for (const { folder, model: m } of read) {
    if (typeof m?.resource !== 'string' || resourcePath(m.resource) !== path) continue;
    // Two windows onto the same file under different hosts: the one written last is current.
    const mtime = (await stat(join(folder, 'entries.json')).catch(() => undefined))?.mtimeMs ?? 0;
    if (!best || mtime > best.mtime) best = { folder, mtime };
  }
  return best?.folder;
}

/** Entries of a resource's history folder, oldest first. */
export async function readHistoryEntries(folder: string, path: string): Promise<HistoryEntry[]> {
  const ext = extname(path);
  const pattern = new RegExp(`^[A-Za-z0-9]{4}${ext.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
  let names: string[];
  try { names = await readdir(folder); } catch { return []; }
  const entries = new Map<string, HistoryEntry>();
  for (const name of names) {
    if (name === 'entries.json' || !pattern.test(name)) continue;
    const st = await stat(join(folder, name)).catch(() => undefined);
    if (!st?.isFile()) continue;
    entries.set(name, {
      id: name, timestamp: st.mtimeMs, source: DEFAULT_SOURCE, label: sourceLabel(DEFAULT_SOURCE),
      sourceDescription: null, size: st.size, location: join(folder, name),
    });
  }
  const model = await readModel(folder, REWRITE_PATIENCE_MS);
  for (const e of model?.entries ?? []) {
    const found = typeof e.id === 'string' ? entries.get(e.id) : undefined;
    if (!found) continue; // listed but its copy is gone: the workbench drops it too
    if (typeof e.timestamp === 'number') found.timestamp = e.timestamp;
    if (typeof e.source === 'string') { found.source = e.source; found.label = sourceLabel(e.source); }
    if (typeof e.sourceDescription === 'string') found.sourceDescription = e.sourceDescription;
  }
  return [...entries.values()].sort((a, b) => a.timestamp - b.timestamp);
}
