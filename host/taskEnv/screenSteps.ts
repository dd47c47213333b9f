// Steps that watch the screen as an agent sees it: Set-of-Marks elements (dom.marks) and the
// text the workbench shows (dom.tree). They wait on what is on screen, within a bound, never
// for a fixed time; when it never comes, the error says what was looked for, for how long and
// what was on screen instead.
import type { DomNode, Mark } from '../../bridge/protocol';
import type { EnvLike } from '../env/env';
import { scriptedStep } from './scriptedStep';
import { sleep } from '../common/eventually';
import type { MarkQuery } from './stepSchema';

const POLL_MS = 100;
/** Lines of the screen an error shows: enough to see what came instead, short enough to read. */
const SHOWN_LINES = 80;

function shown(text: string): string {
  const lines = text.split('\n').filter((l) => l.trim());
  if (!lines.length) return ' (nothing)';
  const more = lines.length - SHOWN_LINES;
  return `\n${lines.slice(0, SHOWN_LINES).join('\n')}${more > 0 ? `\n… and ${more} more` : ''}`;
}

/** The marks matching q, in screen order (text is a case-insensitive regular expression). */
export function findMarks(marks: readonly Mark[], q: MarkQuery): Mark[] {
  const re = q.text !== undefined ? new RegExp(q.text, 'i') : undefined;
  return marks.filter((m) => (!q.role || m.role === q.role) && (!q.part || m.part === q.part) && (!re || re.test(m.text)));
}

const samePlace = (a: Mark, b: Mark) => a.id === b.id && a.point.x === b.point.x && a.point.y === b.point.y;

/**
 * Reads the marks until one matching q is on screen and returns it as the last read has it.
 * With `stable`, it must also be at the same place in two reads running: rows of a list that
 * is still growing move, and a click has to land where the element is now, not where it was.
 */
export async function waitForMark(env: EnvLike, q: MarkQuery, timeoutMs: number, stable = false): Promise<Mark> {
  const t0 = Date.now();
  const mark = await readMarksUntil(env, q, timeoutMs, stable);
  // The same condition as a matcher (nth aside), so a replay waits for the element too.
  const want = { ...(q.role ? { role: q.role } : {}), ...(q.part ? { part: q.part } : {}), ...(q.text !== undefined ? { text: { $regex: q.text, $flags: 'i' } } : {}) };
  env.annotate({ type: 'sync', ide: 'dom.marks', params: {}, match: { marks: { $contains: [want] } }, ok: true, ms: Date.now() - t0 });
  return mark;
}

async function readMarksUntil(env: EnvLike, q: MarkQuery, timeoutMs: number, stable: boolean): Promise<Mark> {
  const end = Date.now() + timeoutMs;
  let listing: string | undefined;
  let readError: string | undefined;
  let matches = 0;
  let previous: Mark | undefined;
  let moves = 0;
  for (;;) {
    let found: Mark | undefined;
    try {
      const r = await env.query('dom.marks', {});
      listing = r.text;
      readError = undefined;
      const all = findMarks(r.marks, q);
      matches = all.length;
      found = all[q.nth];
    } catch (err) { readError = (err as Error).message; }
    if (found && (!stable || (previous && samePlace(previous, found)))) return found;
    if (found && previous && !samePlace(previous, found)) moves++;
    previous = found;
    if (Date.now() > end) {
      const { nth, ...rest } = q;
      const what = `an element matching ${JSON.stringify(nth ? q : rest)}`;
      if (found) throw new Error(`${what} did not hold still within ${timeoutMs} ms (it moved ${moves} time${moves === 1 ? '' : 's'}, last to ${found.point.x},${found.point.y})`);
      const few = matches > 0 ? ` (${matches} matching, but nth is ${q.nth})` : '';
      const screen = listing === undefined ? `; the marks could not be read: ${readError}`
        : `${readError ? `; the last read of the marks failed (${readError}), the one before showed` : '; on screen:'}${shown(listing)}`;
      throw new Error(`${what} not reached within ${timeoutMs} ms${few}${screen}`);
    }
    await sleep(POLL_MS);
  }
}

/**
 * Clicks the element matching q where it is at click time: the marks are read again right
 * before the click until the element holds still, and the click names the mark of that read.
 */
export async function clickMark(env: EnvLike, q: MarkQuery, o: { button: 'left' | 'middle' | 'right'; count: number; timeoutMs: number }): Promise<Mark> {
  const mark = await waitForMark(env, q, o.timeoutMs, true);
  await scriptedStep(env, { type: 'click', mark: mark.id, button: o.button, count: o.count });
  return mark;
}

/** The text a DOM tree shows, one line per element that has any (its text, else its name, and its value). */
export function screenText(root: DomNode | null): string {
  const lines: string[] = [];
  const walk = (n: DomNode) => {
    if (n.hidden) return;
    const own = [n.text ?? n.name, n.value].filter((x): x is string => !!x && !!x.trim()).join(' ');
    if (own) lines.push(own);
    for (const c of n.children ?? []) walk(c);
  };
  if (root) walk(root);
  return lines.join('\n');
}

/** Reads the text on screen until `re` finds something in it; the error shows the text. */
export async function waitForScreenText(env: EnvLike, re: RegExp, timeoutMs: number): Promise<RegExpExecArray> {
  const end = Date.now() + timeoutMs;
  let text: string | undefined;
  let readError: string | undefined;
  for (;;) {
    try {
      text = screenText((await env.query('dom.tree', { maxNodes: 20_000 })).root);
      readError = undefined;
      const m = re.exec(text);
      if (m) return m;
    } catch (err) { readError = (err as Error).message; }
    if (Date.now() > end) {
      const screen = text === undefined ? `; the screen could not be read: ${readError}`
        : `${readError ? `; the last read of the screen failed (${readError}), the one before showed` : '; on screen:'}${shown(text)}`;
      throw new Error(`${re} not reached within ${timeoutMs} ms${screen}`);
    }
    await sleep(POLL_MS);
  }
}
