// The pristine check: a fingerprint of everything an episode can leave behind, taken once of a
// freshly started environment (its baseline) and again after it was recycled; any difference
// fails the check, naming the part. Parts: the IDE user's processes (command lines, the IDE's
// on-demand helpers left out), a hash listing of every path the user can write, the workspace
// included (FILE_MASK left out), the IDE state (editors, terminals, debug sessions and
// breakpoints, user settings and keybindings, extensions), the Set-of-Marks listing, the keys
// and buttons held and the selections (clipboard), and the screen with SCREEN_MASK blanked.
import { isDeepStrictEqual } from 'node:util';
import type { BridgeClient } from '../client/bridgeClient';
import type { Runtime } from '../deployment/runtime';
import { readScreen, readUserState, readUserStateOffScreen, type ScreenBox } from './userState';

/**
 * What of the screen changes by itself and is left out of the comparison: none at a fresh start
 * (no editor is open, so no cursor blinks; the workbench shows no clock; the pointer is put back
 * where it was). Kept as a list so a workbench that grows one has a place to say so. Besides the
 * mask, a pixel counts as the same within the compositor's anti-aliasing noise (userState.py).
 */
export const SCREEN_MASK: readonly ScreenBox[] = [];

/**
 * What differs between two containers freshly started from one image, and only there: each
 * start's own identity (code-server's generated config, the IDE's machine and device ids) and the
 * tools' snapshot of the workspace, a git commit that carries its time. A recycle puts these back
 * to the container's own start, which the pristine check compares with; comparing with another
 * container's start (test/integration/recycle.test.ts) leaves these paths out.
 */
/** The tools' snapshot of the workspace (the extension's tools/baseline.ts), a git folder of the IDE user's. */
export const TOOLS_SNAPSHOT = '/home/pwp/.pwp/tools/baseline.git';

export const PER_START: readonly string[] = [
  '/home/pwp/.config/code-server/config.yaml', '/home/pwp/ide/user-data/User/machineid',
  '/home/pwp/.cache/Microsoft/DeveloperTools/deviceid', `${TOOLS_SNAPSHOT}/`,
];

export interface Fingerprint {
  processes: string[];
  files: Record<string, string>;
  input: unknown;
  ide: Record<string, unknown>;
  marks: string[];
  screen: string | null;
}

export type FingerprintPart = keyof Fingerprint;

/**
 * Takes the fingerprint of an environment as it is now (once its user state's baseline is saved,
 * userState.ts); `baseline`: this is the baseline's, whose screen the later ones are compared with.
 */
export async function fingerprint(runtime: Runtime, client: BridgeClient, o: { baseline?: boolean } = {}): Promise<Fingerprint> {
  const [state, ide, marks] = await Promise.all([readUserState(runtime, { mask: SCREEN_MASK, saveScreen: o.baseline }), ideState(runtime, client), marksOf(client)]);
  return { processes: state.processes, files: state.files, input: state.input, ide, marks, screen: state.screen };
}

/** What the screen shows: read once it has settled. */
export type OnScreen = Pick<Fingerprint, 'marks' | 'screen'>;

/**
 * The fingerprint but what the screen shows (processes, files, input, IDE state): none of it waits
 * for the screen to settle, so it is read while it does (the recycle's check).
 */
export async function offScreen(runtime: Runtime, client: BridgeClient): Promise<Omit<Fingerprint, keyof OnScreen>> {
  const [state, ide] = await Promise.all([readUserStateOffScreen(runtime), ideState(runtime, client)]);
  return { processes: state.processes, files: state.files, input: state.input, ide };
}

/** The Set-of-Marks listing and the screen, compared with the baseline's as fingerprint() compares them. */
export async function onScreen(runtime: Runtime, client: BridgeClient): Promise<OnScreen> {
  const [screen, marks] = await Promise.all([readScreen(runtime, { mask: SCREEN_MASK }), marksOf(client)]);
  return { marks, screen };
}

async function marksOf(client: BridgeClient): Promise<string[]> {
  const marks = await client.call('dom.marks', {});
  return marks.marks.map((m) => [m.role, m.text, m.part, JSON.stringify(m.box), m.focused ? 'focused' : '', m.selected ? 'selected' : '', m.expanded === undefined ? '' : `expanded=${m.expanded}`, m.checked === undefined ? '' : `checked=${m.checked}`].join(' ').trim());
}

async function ideState(runtime: Runtime, client: BridgeClient): Promise<Record<string, unknown>> {
  const [editors, terminals, debug, settings, keybindings, extensions] = await Promise.all([
    client.call('ide.editors', { maxTextChars: 0 }),
    client.call('ide.terminals', {}),
    client.call('ide.debug', {}),
    // Bounded: a settings file past it fails the check (the environment is replaced).
    runtime.readFile('/home/pwp/ide/user-data/User/settings.json', { maxBytes: 16 * 1024 * 1024 }),
    client.call('ide.keybindings.get', {}),
    client.call('ide.extensions', { kind: 'user' }),
  ]);
  return {
    tabs: editors.groups.map((g) => g.tabs.map((t) => `${t.kind}:${t.path ?? t.label}`)),
    terminals: terminals.terminals.map((t) => t.name),
    breakpoints: debug.breakpoints,
    sessions: debug.sessions.map((s) => s.name),
    settings: settings?.toString('utf8') ?? null,
    keybindings: keybindings,
    extensions: extensions.extensions.map((e) => `${e.id}@${e.version}`).sort(),
  };
}

/** Whether every difference (lines of differences()) is of what the screen shows (the marks, the pixels), none of the state behind it. */
export function onScreenOnly(diffs: readonly string[]): boolean {
  return diffs.every((d) => d.startsWith('marks:') || d.startsWith('screen:'));
}

/** What differs between a baseline and now, one line per difference (empty: pristine). */
export function differences(base: Fingerprint, now: Fingerprint): string[] {
  const out: string[] = [];
  const lists = (part: FingerprintPart, a: string[], b: string[]) => {
    const was = new Set(a);
    const is = new Set(b);
    for (const x of b) if (!was.has(x)) out.push(`${part}: added ${x.slice(0, 300)}`);
    for (const x of a) if (!is.has(x)) out.push(`${part}: missing ${x.slice(0, 300)}`);
    if (!out.some((o) => o.startsWith(`${part}:`)) && !isDeepStrictEqual(a, b)) out.push(`${part}: differs in order or count`);
  };
  lists('processes', base.processes, now.processes);
  for (const p of new Set([...Object.keys(base.files), ...Object.keys(now.files)])) {
    if (base.files[p] !== now.files[p]) out.push(`files: ${p}: ${base.files[p] ?? 'absent'} -> ${now.files[p] ?? 'absent'}`);
  }
  if (!isDeepStrictEqual(base.input, now.input)) out.push(`input: ${JSON.stringify(base.input)} -> ${JSON.stringify(now.input)}`);
  for (const k of new Set([...Object.keys(base.ide), ...Object.keys(now.ide)])) {
    if (!isDeepStrictEqual(base.ide[k], now.ide[k])) out.push(`ide.${k}: ${JSON.stringify(base.ide[k]).slice(0, 300)} -> ${JSON.stringify(now.ide[k]).slice(0, 300)}`);
  }
  lists('marks', base.marks, now.marks);
  if (base.screen !== now.screen) out.push(`screen: ${now.screen ?? 'unreadable'}`);
  return out;
}
