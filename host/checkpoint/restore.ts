// Restoring a checkpoint (checkpoint.ts takes them). Into the same container there are two
// ways:
// - in place (the default): the workbench is cleared through the IDE (unsaved changes
//   reverted, editors, terminals and debug sessions closed), the workspace and the user
//   files the IDE reads live (settings, keybindings, snippets, tasks, local history) are
//   swapped under it, the restore waits until the IDE has taken up the restored settings (the
//   user's and the workspace's), and the checkpoint's editors are reopened. No reload: a reload costs seconds of workbench and
//   extension-host start-up, the time this path exists to save.
// - with a reload: the workbench is closed, all of the user data (and the extensions when
//   they differ) swapped, and the workbench opened again. Taken when the installed extensions
//   differ, when clearing in place fails, or when asked for.
// Either way, documents that had unsaved changes get their unsaved text back (not saved).
// A restore into a new container puts the files in before the IDE starts.
import { createReadStream, existsSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { parse as parseJsonc } from 'jsonc-parser';
import { LimitExceededError, NotAvailableError, TimeoutError, type Params } from '../../bridge/protocol';
import type { BridgeClient } from '../client/bridgeClient';
import type { Deployment } from '../deployment/deployment';
import type { EnvironmentInfo, EnvironmentSpec } from '../deployment/deployment';
import type { Runtime } from '../deployment/runtime';
import { filterTar, readSpooled, tarEntry } from '../deployment/tarArchive';
import { READY_TIMEOUT_MS, startEnvironment, type RunningEnvironment } from '../running/runningEnvironment';
import { waitForSettle } from '../running/settle';
import { EXTENSIONS, IDE_HOME, USER_DATA, WORKSPACE, type CheckpointOptions } from './checkpoint';
import { CheckpointStore, type CheckpointManifest, type EditorTab } from './checkpointStore';
import { loadArchive } from './containerFiles';

export interface RestoreOptions extends CheckpointOptions {
  timeoutMs?: number;
  /** Close and reopen the workbench even where an in-place restore would do. */
  reload?: boolean;
}

export interface RestoreResult {
  name: string;
  durationMs: number;
  /** Where the time went, ms per phase (clear, swapFiles, settings, reopenEditors, settle; or closeWorkbench, openWorkbench). */
  phases: Record<string, number>;
  /** in-place: no workbench reload; reload: the workbench was closed and opened; new-container; criu. */
  how: 'in-place' | 'reload' | 'new-container' | 'criu';
  /** Why a same-container restore reloaded the workbench (absent when it did not). */
  reloadReason?: string;
  editorsOpened: number;
  /** The installed extensions differed from the checkpoint's and were put back too. */
  extensionsReplaced: boolean;
}

// The installed extensions' fingerprint, computed the same way as extensionsFingerprint().
const FINGERPRINT = `cd ${EXTENSIONS} && { ls -A | LC_ALL=C sort; stat -c %s extensions.json 2>/dev/null || echo -; } | sha256sum | cut -c1-64`;

/**
 * A shell function: `again CMD…` runs CMD until it succeeds, at most 5 times. The IDE is live
 * while a restore empties its folders: its local history, a language server or a terminal may
 * add a file to a folder being removed ("Directory not empty"); a second pass removes that too.
 */
export const AGAIN = 'again() { n=1; until "$@"; do [ $n -lt 5 ] || return 1; n=$((n+1)); sleep 0.2; done; }';

// Before a reload restore's archives go in: empty the workspace, drop the user data a
// checkpoint holds (keeping logs and the IDE server's socket), and the extensions when they
// differ ($1 = 'replace'). A constant script.
const RELOAD_SCRIPT = `set -e
${AGAIN}
again find ${WORKSPACE} -mindepth 1 -delete
cd ${USER_DATA} && again find . -mindepth 1 -maxdepth 1 ! -name logs ! -name '*.sock' -exec rm -rf {} +
if [ "$1" = replace ]; then again find ${EXTENSIONS} -mindepth 1 -delete; fi`;

/** The user files the running IDE reads live; the storage folders beside them belong to running processes. */
const LIVE_USER_ENTRY = /^user-data\/User\/(?!(globalStorage|workspaceStorage|caches)(\/|$))./;

// Before an in-place restore's archives go in: empty the workspace and those user files.
const IN_PLACE_SCRIPT = `set -e
${AGAIN}
again find ${WORKSPACE} -mindepth 1 -delete
mkdir -p ${USER_DATA}/User && cd ${USER_DATA}/User
again find . -mindepth 1 -maxdepth 1 ! -name globalStorage ! -name workspaceStorage ! -name caches -exec rm -rf {} +`;

/**
 * The ide.editors.open that brings back a checkpoint's editors: its tabs in tab order (each one
 * opened becomes its group's active tab), then a group's active tab once more where another tab
 * came after it, the focused editor's entry last and named `active`. Every entry is a round
 * through the workbench, seconds each in one just started on a busy machine: none is repeated
 * without need (the extension shows `active` again only when it is not the last entry).
 */
export function reopenParams(editors: CheckpointManifest['editors']): Params<'ide.editors.open'> | null {
  const tabs = editors.tabs;
  if (tabs.length === 0) return null;
  const entry = (t: EditorTab) => ({ file: t.path, cursor: t.cursor ?? undefined, viewColumn: t.viewColumn, preview: t.preview });
  const lastInGroup = new Map(tabs.map((t) => [t.viewColumn, t]));
  const f = editors.focused;
  const focused = (t: EditorTab) => !!f && t.path === f.path && t.viewColumn === f.viewColumn;
  const again = tabs.filter((t) => t.active && lastInGroup.get(t.viewColumn) !== t).sort((a, b) => Number(focused(a)) - Number(focused(b)));
  const list = [...tabs, ...again];
  const i = list.findLastIndex(focused);
  return { editors: list.map(entry), active: i >= 0 ? i : list.length - 1 };
}

/** Opens the checkpoint's editors (reopenParams) after putting back its unsaved text; returns how many tabs. */
async function reopenEditors(client: BridgeClient, manifest: CheckpointManifest): Promise<number> {
  await reapplyUnsaved(client, manifest);
  const params = reopenParams(manifest.editors);
  if (params) await client.call('ide.editors.open', params);
  return manifest.editors.tabs.length;
}

/** Puts the checkpoint's unsaved text back into its documents, leaving them unsaved. */
async function reapplyUnsaved(client: BridgeClient, manifest: CheckpointManifest): Promise<void> {
  for (const d of manifest.unsaved ?? []) await client.call('ide.editors.setText', { file: d.path, text: d.text });
}

async function run(runtime: Runtime, script: string, ...args: string[]): Promise<string> {
  const r = await runtime.exec(['sh', '-c', script, 'restore', ...args]);
  if (r.exitCode !== 0) throw new Error(`preparing the restore failed: ${r.stderr.trim()}`);
  return r.stdout.trim();
}

/** Settings as a flat object (JSONC, as VS Code writes it); {} for none. */
function settingsObject(text: string | undefined): Record<string, unknown> {
  const v: unknown = text ? parseJsonc(text, [], { allowTrailingComma: true }) : {};
  return v && typeof v === 'object' && !Array.isArray(v) ? v as Record<string, unknown> : {};
}

/** User files the workbench reads (and reloads only when they are written through it). */
const WORKBENCH_USER_FILE = /^user-data\/User\/(settings\.json|keybindings\.json|tasks\.json|snippets\/[^/]+)$/;
/**
 * The most of one such file taken up through the workbench (the IDE's user can make them any
 * size): a larger one is swapped on disk only, never read into this process.
 */
const USER_FILE_MAX = 16 * 1024 * 1024;

/** undefined for what is past the bound. */
const bounded = <T>(p: Promise<T>) => p.catch((err: unknown) => {
  if (err instanceof LimitExceededError) return undefined;
  throw err;
});

/** What the workbench reads of the user folder now, by path under it (read before a swap). */
async function workbenchUserFiles(runtime: Runtime): Promise<Map<string, string>> {
  const [top, snippets] = await Promise.all([
    Promise.all(['settings.json', 'keybindings.json', 'tasks.json']
      .map(async (name) => [name, await bounded(runtime.readFile(`${USER_DATA}/User/${name}`, { maxBytes: USER_FILE_MAX }))] as const)),
    bounded(runtime.readTree(`${USER_DATA}/User/snippets`, { maxBytes: USER_FILE_MAX })),
  ]);
  const files = new Map<string, string>();
  for (const [name, content] of top) if (content) files.set(name, content.toString('utf8'));
  for (const [name, content] of snippets ?? []) if (!name.includes('/')) files.set(`snippets/${name}`, content.toString('utf8'));
  return files;
}

const WORKSPACE_SETTINGS = '.vscode/settings.json';

/** The workspace's settings file now and in the checkpoint's workspace archive. */
async function workspaceSettingsFiles(runtime: Runtime, workspaceTar: string): Promise<{ before?: string; after?: string }> {
  const [before, after] = await Promise.all([
    bounded(runtime.readFile(`${WORKSPACE}/${WORKSPACE_SETTINGS}`, { maxBytes: USER_FILE_MAX })),
    tarEntry(createReadStream(workspaceTar), `workspace/${WORKSPACE_SETTINGS}`, true, USER_FILE_MAX),
  ]);
  return { before: before?.toString('utf8'), after: after?.content?.toString('utf8') };
}

/**
 * Has the IDE take up the restored user files: the workbench does not notice files swapped
 * under it, so each one it reads that changed is written again through it
 * (ide.userData.write), and each one the checkpoint does not have is deleted through it. Then
 * waits until the IDE's user settings are the restored file's, for every key that changed.
 */
async function takeUpUserFiles(client: BridgeClient, userFiles: Map<string, Buffer>, before: Map<string, string>, timeoutMs: number): Promise<void> {
  const after = new Map([...userFiles].map(([name, content]) => [name.slice('user-data/User/'.length), content.toString('utf8')]));
  const files: { path: string; text: string | null }[] = [];
  for (const [path, text] of after) if (before.get(path) !== text) files.push({ path, text });
  for (const path of before.keys()) if (!after.has(path)) files.push({ path, text: null });
  if (files.length) await client.call('ide.userData.write', { files });
  await settingsTakenUp(client, 'userValue', before.get('settings.json'), after.get('settings.json'), timeoutMs);
}

/**
 * Waits until the IDE's settings of one scope (user, or the workspace's .vscode/settings.json)
 * are the restored file's, for every key that differs between the file before and after.
 */
export async function settingsTakenUp(
  client: BridgeClient, scope: 'userValue' | 'workspaceValue', beforeText: string | undefined, afterText: string | undefined, timeoutMs: number,
): Promise<void> {
  const was = settingsObject(beforeText);
  const now = settingsObject(afterText);
  // Language blocks ("[python]") are not keys the IDE's inspect() answers for.
  const keys = [...new Set([...Object.keys(was), ...Object.keys(now)])].filter((k) => !k.startsWith('[') && !isDeepStrictEqual(was[k], now[k]));
  const deadline = Date.now() + timeoutMs;
  for (let pending = keys; pending.length;) {
    const values = await Promise.all(pending.map((key) => client.call('ide.settings.get', { key })));
    pending = pending.filter((key, i) => !isDeepStrictEqual(values[i][scope], now[key]));
    if (pending.length && Date.now() > deadline) throw new TimeoutError(`the IDE did not take up the restored ${scope === 'userValue' ? 'user' : 'workspace'} settings within ${timeoutMs} ms (still different: ${pending.join(', ')})`);
    if (pending.length) await new Promise((r) => setTimeout(r, 50));
  }
}

/** Restores checkpoint `name` into the running environment `info` (same container). */
export async function restoreCheckpoint(
  deployment: Deployment, info: EnvironmentInfo, client: BridgeClient, name: string,
  store = new CheckpointStore(), opts: RestoreOptions = {},
): Promise<RestoreResult> {
  const t0 = Date.now();
  const { manifest, dir } = store.read(name);
  const runtime = await deployment.runtime(info.id);
  const timeoutMs = opts.timeoutMs ?? READY_TIMEOUT_MS;
  if (opts.criu) {
    const criu = await deployment.processCheckpointSupport();
    if (!criu.supported) throw new NotAvailableError(criu.reason);
    // Processes come back as they were; the files inside the container are the checkpoint's own.
    await deployment.restoreProcesses(info.id, name);
    const restored = Date.now();
    await client.call('proc.waitReady', { timeoutMs }, { timeoutMs: timeoutMs + 5000 });
    return { name, durationMs: Date.now() - t0, phases: { criuRestore: restored - t0, ready: Date.now() - restored }, how: 'criu', editorsOpened: 0, extensionsReplaced: false };
  }
  const fingerprint = run(runtime, FINGERPRINT).then((f) => f === manifest.extensionsFingerprint);
  let reason = 'asked for';
  if (!opts.reload) {
    const inPlace = await restoreInPlace(runtime, client, manifest, dir, fingerprint, timeoutMs);
    if (!('fallBack' in inPlace)) return { name, durationMs: Date.now() - t0, ...inPlace, how: 'in-place', extensionsReplaced: false };
    reason = inPlace.fallBack;
  }
  const sameExtensions = await fingerprint;
  const reloaded = await restoreWithReload(runtime, client, manifest, dir, !sameExtensions, timeoutMs);
  return { name, durationMs: Date.now() - t0, ...reloaded, how: 'reload', reloadReason: reason, extensionsReplaced: !sameExtensions };
}

/**
 * The in-place restore, or why it cannot be (before anything was swapped): the extensions
 * differ, or the workbench could not be cleared. Failures after the swap are the restore's.
 */
async function restoreInPlace(
  runtime: Runtime, client: BridgeClient, manifest: CheckpointManifest, dir: string, sameExtensions: Promise<boolean>, timeoutMs: number,
): Promise<{ phases: Record<string, number>; editorsOpened: number } | { fallBack: string }> {
  const phases: Record<string, number> = {};
  let t = Date.now();
  const lap = (phase: string) => { phases[phase] = Date.now() - t; t = Date.now(); };
  // All at once: the extensions compared, the checkpoint's live user files and the settings
  // they replace read, and the workbench cleared (harmless where a reload follows).
  const userData = join(dir, manifest.files.userData);
  const [same, userFiles, userFilesBefore, workspaceSettings, cleared] = await Promise.all([
    sameExtensions,
    readSpooled(userData, (n) => WORKBENCH_USER_FILE.test(n), USER_FILE_MAX),
    workbenchUserFiles(runtime),
    workspaceSettingsFiles(runtime, join(dir, manifest.files.workspace)),
    client.call('ide.workbench.clear', { revert: true }).then(() => null, (err: Error) => err.message),
  ]);
  if (!same) return { fallBack: 'the installed extensions differ from the checkpoint\'s' };
  if (cleared !== null) return { fallBack: `clearing the workbench in place failed: ${cleared}` };
  lap('clear');
  await run(runtime, IN_PLACE_SCRIPT);
  await Promise.all([
    loadArchive(runtime, join(dir, manifest.files.workspace), '/'),
    runtime.archiveIn(IDE_HOME, filterTar(createReadStream(userData), (h) => LIVE_USER_ENTRY.test(h.name)).tar),
  ]);
  lap('swapFiles');
  const since = t;
  const [, editorsOpened] = await Promise.all([
    Promise.all([
      takeUpUserFiles(client, userFiles, userFilesBefore, timeoutMs),
      // The IDE notices the swapped .vscode/settings.json by its file watcher, a moment later.
      settingsTakenUp(client, 'workspaceValue', workspaceSettings.before, workspaceSettings.after, timeoutMs),
    ]).then(() => { phases.settings = Date.now() - since; }),
    reopenEditors(client, manifest).then((n) => { phases.reopenEditors = Date.now() - since; return n; }),
  ]);
  t = Date.now();
  await waitForSettle(client, { quietMs: 150, capMs: 2000 });
  lap('settle');
  return { phases, editorsOpened };
}

async function restoreWithReload(
  runtime: Runtime, client: BridgeClient, manifest: CheckpointManifest, dir: string, replaceExtensions: boolean, timeoutMs: number,
): Promise<{ phases: Record<string, number>; editorsOpened: number }> {
  const phases: Record<string, number> = {};
  let t = Date.now();
  const lap = (phase: string) => { phases[phase] = Date.now() - t; t = Date.now(); };
  await client.call('proc.closeWorkbench', { clearState: true });
  lap('closeWorkbench');
  await run(runtime, RELOAD_SCRIPT, replaceExtensions ? 'replace' : 'keep');
  const loads = [loadArchive(runtime, join(dir, manifest.files.workspace), '/'), loadArchive(runtime, join(dir, manifest.files.userData), IDE_HOME)];
  if (replaceExtensions) loads.push(loadArchive(runtime, join(dir, manifest.files.extensions), IDE_HOME));
  await Promise.all(loads);
  lap('swapFiles');
  await client.call('proc.openWorkbench', { timeoutMs }, { timeoutMs: timeoutMs + 5000 });
  lap('openWorkbench');
  const editorsOpened = await reopenEditors(client, manifest);
  lap('reopenEditors');
  await waitForSettle(client, { quietMs: 150, capMs: 2000 });
  lap('settle');
  return { phases, editorsOpened };
}

/** Starts a new environment from checkpoint `name`: its files go in before the IDE starts. */
export async function startFromCheckpoint(
  deployment: Deployment, name: string, spec: EnvironmentSpec = {}, store = new CheckpointStore(), readyTimeoutMs = READY_TIMEOUT_MS,
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
  let editorsOpened: number;
  try {
    editorsOpened = await reopenEditors(env.client, manifest);
    await waitForSettle(env.client, { quietMs: 150, capMs: 2000 });
  } catch (err) {
    // The environment is the caller's only once this returns.
    env.client.close();
    await deployment.remove(env.info.id).catch(() => undefined);
    throw err;
  }
  return {
    ...env,
    restore: { name, durationMs: Date.now() - t0, phases: { start: t - t0, reopenEditors: Date.now() - t }, how: 'new-container', editorsOpened, extensionsReplaced: true },
  };
}
