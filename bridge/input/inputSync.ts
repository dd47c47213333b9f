// input.sync: waits until the IDE window has handled every key and click sent before it.
// xdotool returns once the X server has the events; the browser and the page take them in
// later, and on a loaded machine seconds later, so a screen that has not changed yet is no
// proof that the input was handled. Input reaches the page in the order it was sent, so a key
// pressed after it arriving in the page proves that everything before it arrived. A listener
// of ours, installed in every frame before the page's own scripts, counts that key and hides
// it from the IDE.
import type { Xdotool } from './xdotool';

/**
 * The key that marks the end of the input sent so far: a launcher key of Xvfb's default map,
 * which Chromium reports by its key position as F18 (its DOM `code`, whatever its keymap says).
 * No keyboard an agent is offered has it; the Keymap never lends its keycode for typing.
 */
export const SYNC_KEYSYM = 'XF86Launch9';
const SYNC_CODE = 'F18';

/** What input.sync needs of the workbench page (bridge/browser/workbenchPage.ts). */
export interface SyncPage {
  evaluate<T>(expression: string, timeoutMs?: number): Promise<T>;
  /** Runs `source` in every document the page loads from now on, before the document's own scripts. */
  addInitScript(source: string): Promise<void>;
}

export interface SyncResult { handled: boolean; reason?: string }

// In each frame: a counter on the top window when the frame may reach it (same origin), else its own.
const LISTENER = `(() => {
  if (window.__pwpInputSync) return;
  const own = { seen: 0 };
  Object.defineProperty(window, '__pwpInputSync', { value: own });
  const counter = () => { try { return window.top.__pwpInputSync || own; } catch { return own; } };
  const swallow = (e) => {
    if (e.code !== '${SYNC_CODE}') return;
    e.preventDefault();
    e.stopImmediatePropagation();
    if (e.type === 'keydown') counter().seen++;
  };
  for (const type of ['keydown', 'keypress', 'keyup']) window.addEventListener(type, swallow, true);
})()`;

// The count so far, or null when the key would not reach a listener of ours: the window has
// no keyboard focus, or the focus is in a frame whose document is not ours to see.
const COUNT_IF_REACHABLE = `(() => {
  ${LISTENER};
  if (!document.hasFocus()) return null;
  let doc = document;
  for (let depth = 0; depth < 10; depth++) {
    const active = doc.activeElement;
    if (!active || (active.tagName !== 'IFRAME' && active.tagName !== 'FRAME')) return window.__pwpInputSync.seen;
    let inner = null;
    try { inner = active.contentDocument; } catch { inner = null; }
    if (!inner || !inner.defaultView || !inner.defaultView.__pwpInputSync) return null;
    doc = inner;
  }
  return null;
})()`;

const waitForCount = (above: number, ms: number) => `new Promise((resolve) => {
  const end = performance.now() + ${ms};
  const tick = () => {
    if (window.__pwpInputSync.seen > ${above}) resolve(true);
    else if (performance.now() > end) resolve(false);
    else setTimeout(tick, 5);
  };
  tick();
})`;

export class InputSync {
  constructor(private readonly xdo: Xdotool, private readonly page: SyncPage) {}

  async sync(timeoutMs: number): Promise<SyncResult> {
    const end = performance.now() + timeoutMs;
    const { page } = this;
    let before: number | null;
    try {
      // Documents loaded later run the listener first; the one open now gets it just below.
      await page.addInitScript(LISTENER);
      before = await page.evaluate<number | null>(COUNT_IF_REACHABLE, Math.max(1000, timeoutMs));
    } catch (err) {
      return { handled: false, reason: `the IDE window cannot be asked: ${(err as Error).message}` };
    }
    if (before === null) return { handled: false, reason: 'the IDE window does not have the keyboard focus, or a frame it cannot see has it' };
    // Queued behind every earlier input call.
    await this.xdo.run(['key', SYNC_KEYSYM]);
    const left = Math.max(0, Math.round(end - performance.now()));
    const seen = await page.evaluate<boolean>(waitForCount(before, left), left + 2000).catch(() => false);
    return seen ? { handled: true } : { handled: false, reason: `the IDE window did not take the input within ${timeoutMs} ms` };
  }
}
