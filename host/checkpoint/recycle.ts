// Recycling: a used environment brought back, in place, to the state it had right after it
// started, so the next episode costs a restore and not a cold start. The baseline is taken once
// per container, right after its start: the user state (host/running/userState.ts: every path
// the IDE user can write, the workspace, the IDE's user data and extensions included), the
// pointer's position and the pristine fingerprint (host/running/pristine.ts).
// A recycle, in order:
//   workbench    unsaved changes reverted; editors, terminals and debug sessions closed; what
//                the IDE started on demand ended (the Python language server, the status bar's
//                debug entry); extensions the episode installed uninstalled through the IDE
//   processes    every process of the IDE user that is not the IDE's ends (shells, jobs, daemons)
//   input        held keys and buttons released, clipboard and primary selection dropped
//   files        every path the user can write put back, what the baseline lacks removed
//                (one program run in the container does these three)
//   workbench    the IDE told of the user files put back (settings, keybindings, tasks,
//                snippets), and waits until it has taken the settings up
//   breakpoints  every breakpoint removed
//   zoom         the browser's zoom back to 100%
//   pointer      the mouse back where it was
// then the pristine check. Extensions the episode installed are uninstalled through the IDE at
// the start, which unloads them unless they ran code. Where in place is not enough (such an
// extension stays loaded, in place fails, or the check found a difference), the next step up:
// the same with the workbench closed and opened again around the files (which puts back the
// IDE's storage and the page's own state too); where even that fails the check, the caller (the
// pool) starts a new container. The result says what was done and why.
import type { BridgeClient } from '../client/bridgeClient';
import type { Deployment, EnvironmentInfo } from '../deployment/deployment';
import type { Runtime } from '../deployment/runtime';
import { differences, fingerprint, offScreen, onScreen, onScreenOnly, TOOLS_SNAPSHOT, type Fingerprint } from '../running/pristine';
import { READY_TIMEOUT_MS } from '../running/runningEnvironment';
import { recycleUserState, saveBaseline, writableRoots, type UserStatePart, type UserStateRecycled } from '../running/userState';
import { waitForSettle } from '../running/settle';
import { USER_DATA } from './checkpoint';
import { settingsTakenUp } from './restore';

export const RECYCLE_PARTS = ['workbench', 'processes', 'input', 'files', 'breakpoints', 'zoom', 'pointer'] as const;
export type RecyclePart = typeof RECYCLE_PARTS[number];

/** A container's state right after its start, to recycle it back to. */
export interface Baseline {
  fingerprint: Fingerprint;
  pointer: { x: number; y: number };
  /** ms the baseline took. */
  ms: number;
}

export interface RecycleResult {
  /** The environment is as fresh (the pristine check passed). */
  pristine: boolean;
  /** in-place: put back under the running IDE; reload: the workbench was closed and opened again too. */
  how: 'in-place' | 'reload';
  /** Why a reload was needed (absent when none was). */
  reason?: string;
  /** What the pristine check found last (empty when pristine). */
  differences: string[];
  /** What was ended and put back, for the record. */
  killed: string[];
  filesRemoved: string[];
  filesRestored: string[];
  ms: number;
  phases: Record<string, number>;
}

export interface RecycleOptions {
  /** Test-only: parts to leave out, to show the pristine check catching what they put back. */
  skip?: readonly RecyclePart[];
  /** Reload the workbench when in place is not pristine (default true). */
  reload?: boolean;
  timeoutMs?: number;
}

/** A settled screen, so that the screen and Set-of-Marks parts compare like with like. */
const settle = (client: BridgeClient) => waitForSettle(client, { quietMs: 300, capMs: 5000 });
/** The recycle check's first quiet window: a step's (running/settle.ts); a check that finds a difference waits the longer one. */
const QUICK_QUIET_MS = 150;
/** Settled looks again at differences only on the screen (marks, pixels) before they count. */
const ON_SCREEN_LOOKS = 3;
/**
 * After a reload, which costs seconds anyway, such differences get looks until this long has
 * passed: a workbench just opened on a loaded machine takes its time over what it shows
 * (extensions activating, Source Control's count), and a difference that stays is a replaced
 * container, which costs far more.
 */
const ON_SCREEN_AFTER_RELOAD_MS = 30_000;
/**
 * How long in place waits for the IDE to take up the user and workspace settings it put back
 * (well under a second normally). One that is not taken up by then is a reload's to fix, which
 * costs a few seconds; waiting out the IDE's ready timeout costs minutes.
 */
const IN_PLACE_TAKE_UP_MS = 20_000;

/** Takes a container's baseline; call it right after the start, before anything else happens in it. */
export async function takeBaseline(deployment: Deployment, info: EnvironmentInfo, client: BridgeClient): Promise<Baseline> {
  const t0 = Date.now();
  const runtime = await deployment.runtime(info.id);
  await toolsSnapshotWritten(runtime);
  await saveBaseline(runtime, await writableRoots(runtime, info.image));
  await settle(client);
  const [fp, pointer] = await Promise.all([fingerprint(runtime, client, { baseline: true }), client.call('capture.cursor', {})]);
  return { fingerprint: fp, pointer, ms: Date.now() - t0 };
}

/**
 * Waits until the tools' snapshot has its commit. The extension writes it in the background as
 * the IDE starts (init, add, commit), so a baseline saved before then holds it half written: a
 * recycle puts that half back, the pristine check (whose fingerprint is read later) finds files
 * missing, and the reload's extension host, seeing no commit, writes a new one with another
 * time, so the container is replaced. The extension makes the folder as it activates, before
 * the IDE is ready; none means no tools (nothing to wait for). One that never gets its commit
 * (the tools failed) is saved as it is after the bound.
 */
async function toolsSnapshotWritten(runtime: Runtime): Promise<void> {
  const script = 'i=0; while [ -d "$1" ] && ! git --git-dir="$1" rev-parse -q --verify HEAD >/dev/null 2>&1; do i=$((i+1)); [ $i -ge 600 ] && exit 1; sleep 0.1; done';
  await runtime.exec(['sh', '-c', script, 'sh', TOOLS_SNAPSHOT], { cwd: '/', timeoutSec: 120 });
}

const USER_FOLDER = `${USER_DATA}/User/`;

/**
 * Puts the workbench's user files back through the IDE (it does not notice files changed behind
 * it): each is written as the baseline has it (deleted where the baseline has none), then the
 * folders the episode made for them are removed, and the settings of both scopes waited for.
 */
async function takeUp(runtime: Runtime, client: BridgeClient, u: UserStateRecycled, timeoutMs: number): Promise<void> {
  const { texts } = u;
  const files = Object.entries(texts).filter(([p]) => p.startsWith(USER_FOLDER)).map(([p, t]) => ({ path: p.slice(USER_FOLDER.length), text: t.after }));
  if (files.length) await client.call('ide.userData.write', { files });
  // One that is not empty stays, for the pristine check to find.
  if (u.keptFolders.length) await runtime.exec(['rmdir', '--ignore-fail-on-non-empty', '--', ...u.keptFolders], { cwd: '/' });
  const scope = (path: string, which: 'userValue' | 'workspaceValue') => {
    const t = texts[path];
    return t ? settingsTakenUp(client, which, t.before ?? undefined, t.after ?? undefined, timeoutMs) : undefined;
  };
  await Promise.all([scope(`${USER_FOLDER}settings.json`, 'userValue'), scope('/workspace/.vscode/settings.json', 'workspaceValue')]);
}

/** Puts a used environment back to its baseline in place, and checks that it is pristine. */
export async function recycle(
  deployment: Deployment, info: EnvironmentInfo, client: BridgeClient, base: Baseline, o: RecycleOptions = {},
): Promise<RecycleResult> {
  const t0 = Date.now();
  const runtime = await deployment.runtime(info.id);
  const skip = new Set(o.skip ?? []);
  const timeoutMs = o.timeoutMs ?? READY_TIMEOUT_MS;
  const phases: Record<string, number> = {};
  let t = Date.now();
  const lap = (name: string) => { phases[name] = (phases[name] ?? 0) + Date.now() - t; t = Date.now(); };
  const done = { killed: [] as string[], removed: [] as string[], restored: [] as string[] };
  const pass = async (reload: boolean) => {
    const r = await putBack(runtime, client, base, { reload, skip, timeoutMs, lap });
    done.killed.push(...r.killed);
    done.removed.push(...r.removed);
    done.restored.push(...r.restored);
    return r;
  };
  let reason: string | undefined;
  const reloads = o.reload !== false && !skip.has('workbench');
  // In place fails where the IDE refuses a part of it (a command canceled under it): the next step up.
  const first = await pass(false).catch((err: Error) => {
    if (!reloads) throw err;
    reason = `in place failed: ${err.message}`;
    return undefined;
  });
  if (first?.stillLoaded.length && reloads) reason = `an installed extension ran code (its host must start again): ${first.stillLoaded.join(', ')}`;
  let diff = reason ? [] : await check(runtime, client, base, lap);
  if (!reason && diff.length && reloads) reason = `in place left differences: ${diff.slice(0, 3).join('; ')}`;
  if (reason) {
    await pass(true);
    diff = await check(runtime, client, base, lap, ON_SCREEN_AFTER_RELOAD_MS);
  }
  return {
    pristine: diff.length === 0, how: reason ? 'reload' : 'in-place', ...(reason ? { reason } : {}),
    differences: diff, killed: done.killed, filesRemoved: done.removed, filesRestored: done.restored, ms: Date.now() - t0, phases,
  };
}

/**
 * The pristine check after a recycle. What does not wait for the screen (processes, files, input,
 * IDE state) is read while the screen settles over a short quiet window; the Set-of-Marks and
 * the screen after it. Only a check that finds nothing passes on that: one that finds a difference
 * is taken again whole after the longer quiet window of the baseline's, and again a few times while
 * what differs is only on the screen, so a screen, a list or an IDE part still catching up is not
 * taken for a difference (after a reload, for as long as onScreenMs).
 */
async function check(runtime: Runtime, client: BridgeClient, base: Baseline, lap: (name: string) => void, onScreenMs = 0): Promise<string[]> {
  const parts = offScreen(runtime, client);
  parts.catch(() => undefined);
  await waitForSettle(client, { quietMs: QUICK_QUIET_MS, capMs: 5000 });
  lap('settle');
  const diff = differences(base.fingerprint, { ...(await parts), ...(await onScreen(runtime, client)) });
  lap('check');
  if (!diff.length) return diff;
  let again = diff;
  // What the screen shows may trail the state it shows (Source Control's badge after a reload
  // waits for git): differences only there get a few more settled looks before they count.
  const until = Date.now() + onScreenMs;
  for (let look = 0; (look <= ON_SCREEN_LOOKS || Date.now() < until) && again.length; look++) {
    if (look > 0 && !onScreenOnly(again)) break;
    await settle(client);
    lap('settle');
    again = differences(base.fingerprint, await fingerprint(runtime, client));
    lap('check');
  }
  return again;
}

/** One pass of putting everything back, in place or around a closed workbench. */
async function putBack(
  runtime: Runtime, client: BridgeClient, base: Baseline,
  o: { reload: boolean; skip: ReadonlySet<RecyclePart>; timeoutMs: number; lap: (name: string) => void },
): Promise<{ killed: string[]; removed: string[]; restored: string[]; stillLoaded: string[] }> {
  const workbench = !o.skip.has('workbench');
  let stillLoaded: string[] = [];
  if (o.reload) await client.call('proc.closeWorkbench', { clearState: true });
  else if (workbench) {
    // In place, what the IDE started on demand ends too (its language server, the debug entry),
    // and the extensions the episode installed are uninstalled through it: before the files,
    // which put back the user settings that ending the debug entry writes, and the extensions'.
    await client.call('ide.workbench.clear', { revert: true, started: true });
    stillLoaded = (await client.call('ide.extensions.uninstall', { keep: baselineExtensions(base) })).stillLoaded;
  }
  o.lap('workbench');
  const skipped: UserStatePart[] = (['processes', 'input', 'files'] as const).filter((p) => o.skip.has(p));
  const u = await recycleUserState(runtime, { skip: skipped, workbenchClosed: o.reload });
  o.lap('userState');
  if (o.reload) {
    // A reopened workbench has the files the recycle put back; its zoom comes from the browser (put back below).
    await client.call('proc.openWorkbench', { timeoutMs: o.timeoutMs }, { timeoutMs: o.timeoutMs + 5000 });
  } else if (workbench) {
    await takeUp(runtime, client, u, Math.min(o.timeoutMs, IN_PLACE_TAKE_UP_MS));
  }
  // The layout last: the Explorer shows the workspace as the files part left it.
  if (o.reload || workbench) await client.call('ide.workbench.clear', { revert: true, layout: true });
  o.lap('workbench');
  if (!o.skip.has('breakpoints')) await client.call('ide.debug.removeBreakpoints', { all: true });
  if (!o.skip.has('zoom')) await client.call('dom.zoom', { reset: true });
  if (!o.skip.has('pointer')) await client.call('input.move', { x: base.pointer.x, y: base.pointer.y });
  o.lap('ide');
  return { killed: u.killed, removed: u.removed, restored: u.restored, stillLoaded };
}

/** The user extensions of the baseline's IDE state (`id@version` in the fingerprint), by id. */
function baselineExtensions(base: Baseline): string[] {
  const list = base.fingerprint.ide.extensions;
  return Array.isArray(list) ? list.map((e) => String(e).replace(/@[^@]*$/, '')) : [];
}
