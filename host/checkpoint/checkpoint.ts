// Taking a checkpoint of an environment's IDE state: the workspace files, the IDE's user
// data (settings, keybindings, local history, backups of unsaved editors, extensions) and
// the editor layout with cursor positions, read in one frozen moment. Restoring is in
// restore.ts.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { NotAvailableError, type Result } from '../../bridge/protocol';
import type { BridgeClient } from '../client/bridgeClient';
import type { Deployment } from '../deployment/deployment';
import type { EnvironmentInfo } from '../deployment/deployment';
import { tarEntry } from '../deployment/tarArchive';
import { CheckpointStore, type CheckpointManifest, type EditorTab } from './checkpointStore';
import { saveArchive } from './containerFiles';

export const WORKSPACE = '/workspace';
export const IDE_HOME = '/home/pwp/ide';
export const USER_DATA = `${IDE_HOME}/user-data`;
export const EXTENSIONS = `${IDE_HOME}/extensions`;

/** What of the user data a checkpoint leaves out: logs, caches, live sockets and locks. */
export function keepUserDataEntry(name: string): boolean {
  return !/^user-data\/(logs(\/|$)|CachedProfilesData(\/|$)|User\/caches(\/|$)|.*\.sock$|.*\/vscode\.lock$)/.test(name);
}

/** Identifies the set of installed extensions; computed the same way in the container (restoreScript). */
export function extensionsFingerprint(topLevelNames: string[], extensionsJsonSize: number | null): string {
  const text = [...new Set(topLevelNames)].sort().map((n) => `${n}\n`).join('') + `${extensionsJsonSize ?? '-'}\n`;
  return createHash('sha256').update(text).digest('hex');
}

export interface CheckpointOptions {
  /** Also checkpoint running processes with CRIU (Docker experimental mode); fails where the host cannot. */
  criu?: boolean;
}

function editorTabs(editors: Result<'ide.editors'>): CheckpointManifest['editors'] {
  const cursors = new Map<string, { line: number; column: number }>();
  for (const v of editors.visibleEditors) if (v.path) cursors.set(`${v.viewColumn}:${v.path}`, v.cursor);
  const a = editors.activeEditor;
  if (a?.path) cursors.set(`${a.viewColumn}:${a.path}`, a.cursor);
  const tabs: EditorTab[] = [];
  for (const g of editors.groups) {
    for (const t of g.tabs) {
      // Files only: diffs, terminals and webviews are not reopened.
      if (t.kind !== 'text' || !t.path) continue;
      tabs.push({ path: t.path, viewColumn: g.viewColumn, preview: t.preview, cursor: cursors.get(`${g.viewColumn}:${t.path}`) ?? null, active: t.active, dirty: t.dirty });
    }
  }
  const focused = a?.path && a.viewColumn ? { path: a.path, viewColumn: a.viewColumn } : null;
  return { tabs, focused };
}

/** Takes a checkpoint of environment `info` under `name` (replacing one of that name). */
export async function takeCheckpoint(
  deployment: Deployment, info: EnvironmentInfo, client: BridgeClient, name: string,
  store = new CheckpointStore(), opts: CheckpointOptions = {},
): Promise<CheckpointManifest> {
  const t0 = Date.now();
  const criu = opts.criu ? await deployment.processCheckpointSupport() : undefined;
  if (criu && !criu.supported) throw new NotAvailableError(criu.reason);
  const [open, unsaved] = await Promise.all([client.call('ide.editors', { maxTextChars: 0 }), client.call('ide.editors.unsaved', {})]);
  const editors = editorTabs(open);
  const runtime = await deployment.runtime(info.id);
  const staging = store.staging(name);
  try {
    const extNames: string[] = [];
    let extJsonSize: number | null = null;
    // Frozen while the archives are read: one consistent moment across workspace and user data.
    // Where the freezer cannot stop everything even after retries (an overloaded host), the
    // archives are read live and the manifest says so.
    // A runtime inside the container (the bridge) would be frozen too: then the archives are read live.
    const frozen = runtime.worksWhilePaused && await deployment.pause(info.id).then(() => true, () => false);
    let sizes: { bytes: number }[];
    try {
      sizes = await Promise.all([
        saveArchive(runtime, WORKSPACE, join(staging, 'workspace.tar')),
        saveArchive(runtime, USER_DATA, join(staging, 'user-data.tar'), keepUserDataEntry),
        saveArchive(runtime, EXTENSIONS, join(staging, 'extensions.tar'), (n) => {
          const m = /^extensions\/([^/]+)/.exec(n);
          if (m) extNames.push(m[1]);
          return true;
        }),
      ]);
    } finally {
      if (frozen) await deployment.unpause(info.id);
    }
    // extensions.json's size, read from the saved tar's header.
    extJsonSize = await extensionsJsonSize(join(staging, 'extensions.tar'));
    if (criu) await deployment.checkpointProcesses(info.id, name);
    const manifest: CheckpointManifest = {
      version: 1,
      name,
      createdAt: new Date().toISOString(),
      environment: { id: info.id, image: info.image, display: info.display },
      editors,
      unsaved: unsaved.documents.filter((d) => d.path && !d.truncated).map((d) => ({ path: d.path!, text: d.text })),
      extensionsFingerprint: extensionsFingerprint(extNames, extJsonSize),
      files: { workspace: 'workspace.tar', userData: 'user-data.tar', extensions: 'extensions.tar' },
      frozen,
      bytes: sizes.reduce((n, s) => n + s.bytes, 0),
      durationMs: Date.now() - t0,
    };
    store.commit(staging, manifest);
    return manifest;
  } catch (err) {
    store.discard(staging);
    throw err;
  }
}

async function extensionsJsonSize(tarFile: string): Promise<number | null> {
  return (await tarEntry(createReadStream(tarFile), 'extensions/extensions.json'))?.header.size ?? null;
}
