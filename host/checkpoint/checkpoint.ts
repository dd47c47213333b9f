// Checkpoint and restore of an environment's IDE state: the workspace files, the IDE's user
// data (settings, keybindings, local history, backups of unsaved editors, extensions) and
// the editor layout with cursor positions. A restore swaps the files while the workbench is
// closed, so the IDE never sees a half-restored state and never writes its old state back
// over the restored one, then opens the workbench and the checkpoint's editors again.
import { createHash } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { join } from 'node:path';
import { NotAvailableError, type Result } from '../../bridge/protocol';
import type { BridgeClient } from '../client/bridgeClient';
import type { DockerDeployment } from '../deployment/dockerDeployment';
import type { EnvironmentInfo, EnvironmentSpec } from '../deployment/deployment';
import { tarHeader } from '../deployment/tarArchive';
import { startEnvironment, type RunningEnvironment } from '../env/running/runningEnvironment';
import { waitForSettle } from '../env/running/settle';
import { CheckpointStore, type CheckpointManifest, type EditorTab } from './checkpointStore';
import { loadArchive, saveArchive } from './containerFiles';

const WORKSPACE = '/workspace';
const IDE_HOME = '/home/pwp/ide';
const USER_DATA = `${IDE_HOME}/user-data`;
const EXTENSIONS = `${IDE_HOME}/extensions`;

/** What of the user data a checkpoint leaves out: logs, caches, live sockets and locks. */
export function keepUserDataEntry(name: string): boolean {
  return !/^user-data\/(logs(\/|$)|CachedProfilesData(\/|$)|User\/caches(\/|$)|.*\.sock$|.*\/vscode\.lock$)/.test(name);
}

/** Identifies the set of installed extensions; computed the same way in the container (restoreScript). */
export function extensionsFingerprint(topLevelNames: string[], extensionsJsonSize: number | null): string {
  const text = [...new Set(topLevelNames)].sort().map((n) => `${n}\n`).join('') + `${extensionsJsonSize ?? '-'}\n`;
  return createHash('sha256').update(text).digest('hex');
}

// Run in the container before the archives go in: empty the workspace, drop the user data a
// checkpoint holds (keeping logs and the IDE server's socket), and replace the extensions
// only when they differ ($1 = the checkpoint's fingerprint). A constant script; the one
// argument is a hex digest.
const RESTORE_SCRIPT = `set -e
find ${WORKSPACE} -mindepth 1 -delete
cd ${USER_DATA} && find . -mindepth 1 -maxdepth 1 ! -name logs ! -name '*.sock' -exec rm -rf {} +
cd ${EXTENSIONS}
now=$({ ls -A | LC_ALL=C sort; stat -c %s extensions.json 2>/dev/null || echo -; } | sha256sum | cut -c1-64)
if [ "$now" = "$1" ]; then echo same; else find ${EXTENSIONS} -mindepth 1 -delete; echo replaced; fi`;

export interface CheckpointOptions {
  /** Also checkpoint running processes with CRIU (Docker experimental mode); fails where the host cannot. */
  criu?: boolean;
}

export interface RestoreResult {
  name: string;
  durationMs: number;
  /** Where the time went: closing the workbench, swapping files, opening it, reopening editors. */
  phases: Record<string, number>;
  editorsOpened: number;
  /** The installed extensions differed from the checkpoint's and were put back too. */
  extensionsReplaced: boolean;
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
  deployment: DockerDeployment, info: EnvironmentInfo, client: BridgeClient, name: string,
  store = new CheckpointStore(), opts: CheckpointOptions = {},
): Promise<CheckpointManifest> {
  const t0 = Date.now();
  const criu = opts.criu ? await deployment.processCheckpointSupport() : undefined;
  if (criu && !criu.supported) throw new NotAvailableError(criu.reason);
  const editors = editorTabs(await client.call('ide.editors', { maxTextChars: 0 }));
  const runtime = await deployment.runtime(info.id);
  const staging = store.staging(name);
  try {
    const extNames: string[] = [];
    let extJsonSize: number | null = null;
    // Frozen while the archives are read: one consistent moment across workspace and user data.
    // Where the freezer cannot stop everything even after retries (an overloaded host), the
    // archives are read live and the manifest says so.
    const frozen = await deployment.pause(info.id).then(() => true, () => false);
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
  return (await tarHeader(createReadStream(tarFile), 'extensions/extensions.json'))?.size ?? null;
}

/** Opens the checkpoint's editors in their groups, in tab order, each group's active tab on top. */
async function reopenEditors(client: BridgeClient, editors: CheckpointManifest['editors']): Promise<number> {
  const tabs = editors.tabs;
  if (tabs.length === 0) return 0;
  const list: { file: string; cursor?: { line: number; column: number }; viewColumn: number; preview: boolean }[] = [];
  for (const t of tabs) list.push({ file: t.path, cursor: t.cursor ?? undefined, viewColumn: t.viewColumn, preview: t.preview });
  for (const t of tabs.filter((x) => x.active)) list.push({ file: t.path, cursor: t.cursor ?? undefined, viewColumn: t.viewColumn, preview: t.preview });
  const f = editors.focused;
  let active = list.length - 1;
  if (f) {
    const i = list.findIndex((e) => e.file === f.path && e.viewColumn === f.viewColumn);
    if (i >= 0) active = i;
  }
  await client.call('ide.editors.open', { editors: list, active });
  return tabs.length;
}

/** Restores checkpoint `name` into the running environment `info` (same container). */
export async function restoreCheckpoint(
  deployment: DockerDeployment, info: EnvironmentInfo, client: BridgeClient, name: string,
  store = new CheckpointStore(), opts: CheckpointOptions & { timeoutMs?: number } = {},
): Promise<RestoreResult> {
  const t0 = Date.now();
  const phases: Record<string, number> = {};
  const lap = (phase: string, since: number) => { phases[phase] = Date.now() - since; return Date.now(); };
  const { manifest, dir } = store.read(name);
  if (opts.criu) {
    const criu = await deployment.processCheckpointSupport();
    if (!criu.supported) throw new NotAvailableError(criu.reason);
  }
  const runtime = await deployment.runtime(info.id);
  let t = Date.now();
  if (opts.criu) {
    // Processes come back as they were; the files inside the container are the checkpoint's own.
    await deployment.restoreProcesses(info.id, name);
    t = lap('criuRestore', t);
    await client.call('proc.waitReady', { timeoutMs: opts.timeoutMs ?? 60_000 });
    return { name, durationMs: Date.now() - t0, phases, editorsOpened: 0, extensionsReplaced: false };
  }
  await client.call('proc.closeWorkbench', { clearState: true });
  t = lap('closeWorkbench', t);
  const prep = await runtime.exec(['sh', '-c', RESTORE_SCRIPT, 'restore', manifest.extensionsFingerprint]);
  if (prep.exitCode !== 0) throw new Error(`preparing the restore failed: ${prep.stderr.trim()}`);
  const loads = [loadArchive(runtime, join(dir, manifest.files.workspace), '/'), loadArchive(runtime, join(dir, manifest.files.userData), IDE_HOME)];
  const extensionsReplaced = prep.stdout.trim() === 'replaced';
  if (extensionsReplaced) loads.push(loadArchive(runtime, join(dir, manifest.files.extensions), IDE_HOME));
  await Promise.all(loads);
  t = lap('swapFiles', t);
  await client.call('proc.openWorkbench', { timeoutMs: opts.timeoutMs ?? 60_000 });
  t = lap('openWorkbench', t);
  const editorsOpened = await reopenEditors(client, manifest.editors);
  t = lap('reopenEditors', t);
  await waitForSettle(client, { quietMs: 150, capMs: 2000 });
  lap('settle', t);
  return { name, durationMs: Date.now() - t0, phases, editorsOpened, extensionsReplaced };
}

/** Starts a new environment from checkpoint `name`: its files go in before the IDE starts. */
export async function startFromCheckpoint(
  deployment: DockerDeployment, name: string, spec: EnvironmentSpec = {}, store = new CheckpointStore(), readyTimeoutMs = 120_000,
): Promise<RunningEnvironment & { restore: RestoreResult }> {
  const t0 = Date.now();
  const { manifest, dir } = store.read(name);
  for (const f of Object.values(manifest.files)) if (!existsSync(join(dir, f))) throw new NotAvailableError(`checkpoint '${name}' is missing ${f}`);
  const env = await startEnvironment(deployment, {
    ...spec,
    image: spec.image ?? manifest.environment.image,
    display: spec.display ?? manifest.environment.display,
    archives: [
      ...(spec.archives ?? []),
      { path: '/', tar: () => createReadStream(join(dir, manifest.files.workspace)) },
      { path: IDE_HOME, tar: () => createReadStream(join(dir, manifest.files.userData)) },
      { path: IDE_HOME, tar: () => createReadStream(join(dir, manifest.files.extensions)) },
    ],
  }, readyTimeoutMs);
  const t = Date.now();
  const editorsOpened = await reopenEditors(env.client, manifest.editors);
  await waitForSettle(env.client, { quietMs: 150, capMs: 2000 });
  return { ...env, restore: { name, durationMs: Date.now() - t0, phases: { start: t - t0, reopenEditors: Date.now() - t }, editorsOpened, extensionsReplaced: true } };
}
