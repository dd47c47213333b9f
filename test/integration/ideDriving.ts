// Driving the IDE as a person would, for integration tests: keyboard and mouse only, but
// waiting on what the IDE shows (marks, editor state) instead of on fixed times, so that a
// loaded machine slows a test down rather than failing it.
import type { Mark } from '../../bridge/protocol';
import type { BridgeClient } from '../../host/client/bridgeClient';
import { eventually as pollUntil } from '../../host/common/eventually';
import { waitForSettle } from '../../host/running/settle';
import type { TestEnvironment } from './environmentFixture';

/**
 * Polls `read` until `ok` holds, returning the last value (host/common/eventually.ts), within a
 * bound a loaded machine meets by default: a wait that succeeds costs no more for a long bound,
 * and the IDE can take tens of seconds to show something there.
 */
export function eventually<T>(read: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 60_000, what = 'condition'): Promise<T> {
  return pollUntil(read, ok, timeoutMs, what);
}

/** Runs a command in the container (as the IDE's user by default); stdout, then stderr. */
export async function execIn(env: TestEnvironment, cmd: string[], user = 'pwp'): Promise<string> {
  const r = await (await env.deployment.runtime(env.info.id)).exec(cmd, { user });
  return r.stdout + r.stderr;
}

/** Writes a file inside the container as its user, the way a tool outside the IDE would. */
export async function writeOnDisk(env: TestEnvironment, path: string, content: string | Buffer): Promise<void> {
  const slash = path.lastIndexOf('/');
  await execIn(env, ['mkdir', '-p', path.slice(0, slash)]);
  await (await env.deployment.runtime(env.info.id)).writeFiles(path.slice(0, slash), [{ path: path.slice(slash + 1), content }]);
}

/**
 * Reads the marks until `pred` holds on them. When they never do, the error says what a person
 * would look at (the quick input, notifications, menus, what has focus) rather than the first
 * marks, which are the title bar's.
 */
export async function marksUntil(client: BridgeClient, what: string, pred: (m: Mark[]) => boolean, timeoutMs = 60_000): Promise<Mark[]> {
  let last: Mark[] = [];
  try {
    return await eventually(async () => (last = (await client.call('dom.marks', {})).marks), pred, timeoutMs, what);
  } catch (err) {
    throw new Error(`${what} not reached within ${timeoutMs} ms; the screen showed ${describeMarks(last)}`, { cause: err });
  }
}

const LOOKED_AT = new Set(['quickinput', 'notifications', 'menu', 'dialog']);
/** The marks a person would look at when the IDE did not do what was asked, one short line each. */
function describeMarks(marks: Mark[]): string {
  const shown = marks.filter((m) => LOOKED_AT.has(m.part) || m.focused).slice(0, 12);
  const line = (m: Mark) => `${m.part}/${m.role}${m.focused ? '(focused)' : ''} ${JSON.stringify(m.text.slice(0, 80))}`;
  return `${marks.length} marks${shown.length ? `: ${shown.map(line).join('; ')}` : ', none in the quick input, notifications, menus or dialogs, none focused'}`;
}

const inQuickInput = (m: Mark[], role: string, text: (t: string) => boolean) =>
  m.some((x) => x.part === 'quickinput' && x.role === role && text(x.text));

/** The quick input's text box shows the whole query and its first entry starts with `base`. */
export function quickOpenShows(m: Mark[], query: string, base: string): boolean {
  const input = m.find((x) => x.part === 'quickinput' && x.role === 'textbox');
  const options = m.filter((x) => x.part === 'quickinput' && x.role === 'option').sort((a, b) => a.box.y - b.box.y);
  return !!input && input.text.endsWith(`"${query}"`) && options.length > 0 && options[0].text.startsWith(base);
}

/** Opens a workspace file with quick open (ctrl+p, the name, enter) and waits until it is the active editor. */
export async function openWithKeyboard(client: BridgeClient, name: string): Promise<void> {
  const base = name.split('/').pop()!;
  const isActive = (e: { activeEditor: { path: string | null } | null }) => !!e.activeEditor?.path?.endsWith(`/${name}`);
  for (let attempt = 1; ; attempt++) {
    await client.call('input.key', { keys: 'ctrl+p' });
    await marksUntil(client, 'the quick open input', (m) => inQuickInput(m, 'textbox', () => true));
    await client.call('input.type', { text: name });
    // Enter picks the first entry: wait until the query is in and the search listed the file first.
    await marksUntil(client, `${base} first in quick open`, (m) => quickOpenShows(m, name, base));
    await client.call('input.key', { keys: 'enter' });
    try {
      // Opening a file can take tens of seconds on a loaded machine; the second look is for an
      // Enter the quick open never got, not for a slow IDE.
      await eventually(() => client.call('ide.editors', {}), isActive, 60_000, `${name} active`);
      break;
    } catch (err) {
      if (attempt >= 2) throw err;
      await client.call('input.key', { keys: 'escape' }); // a person would look again and retry
    }
  }
  await waitForSettle(client, { quietMs: 200 });
}

/** Runs a command from the palette by its label; `downs` moves past earlier matches. */
export async function runCommand(client: BridgeClient, label: string, downs = 0): Promise<void> {
  await client.call('input.key', { keys: 'ctrl+shift+p' });
  await marksUntil(client, 'the command palette', (m) => inQuickInput(m, 'textbox', () => true));
  await client.call('input.type', { text: label });
  const wanted = label.toLowerCase();
  await marksUntil(client, `"${label}" in the palette`, (m) => inQuickInput(m, 'option', (t) => t.toLowerCase().includes(wanted)));
  if (downs) await client.call('input.key', { keys: 'down', repeat: downs });
  await client.call('input.key', { keys: 'enter' });
  await waitForSettle(client, { quietMs: 300 });
}
