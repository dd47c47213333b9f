// Gives non-ASCII characters keycodes of their own before they are typed, and keeps them
// (least recently used first out), so that the IDE's keymap already knows them when the
// key events arrive. Spare keycodes are the empty ones and the rarely used XF86 media keys,
// but for the one input.sync presses.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { ActionFailedError } from '../protocol';
import { inputChildren } from './childSlots';
import { SYNC_KEYSYM } from './inputSync';

const run = promisify(execFile);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Time for X clients (Chromium) to take in a MappingNotify before keys use the new map. */
const MAPPING_SETTLE_MS = 60;

export class Keymap {
  private spare?: Promise<number[]>;
  /** slot key -> keycode, in least-recently-used order (Map keeps insertion order). */
  private readonly assigned = new Map<string, number>();

  constructor(private readonly display: string) {}

  /** The display restarted with its default keyboard map: nothing of ours is mapped any more. */
  displayRestarted(): void {
    this.assigned.clear();
  }

  private async xmodmap(args: string[]): Promise<string> {
    try {
      const { stdout } = await inputChildren.run(() => run('xmodmap', args, { env: { ...process.env, DISPLAY: this.display }, timeout: 10_000 }));
      return stdout;
    } catch (err) {
      throw new ActionFailedError(`xmodmap failed: ${(err as Error).message}`);
    }
  }

  /** How many characters outside the keyboard can be mapped at once. */
  async capacity(): Promise<number> {
    return (await this.spareKeycodes()).length;
  }

  /** Read once, shared by concurrent callers (a flood of input.type calls runs xmodmap once). */
  private spareKeycodes(): Promise<number[]> {
    this.spare ??= this.xmodmap(['-pke']).then((table) => {
      const spare = table.split('\n').flatMap((line) => {
        const m = /^keycode\s+(\d+)\s*=\s*(\S*)/.exec(line);
        // The key input.sync presses keeps its keysym.
        return m && (m[2] === '' || (m[2].startsWith('XF86') && m[2] !== SYNC_KEYSYM)) ? [Number(m[1])] : [];
      });
      if (spare.length === 0) throw new ActionFailedError('no spare keycodes to type non-ASCII characters with');
      return spare;
    });
    // A failure is not kept: the next call tries again.
    this.spare.catch(() => { this.spare = undefined; });
    return this.spare;
  }

  /** Maps every slot (slot key -> [lower, upper] keysyms) that is not mapped yet. */
  async ensure(slots: Map<string, [string, string]>): Promise<void> {
    const spare = await this.spareKeycodes();
    const missing = [...slots.keys()].filter((k) => !this.assigned.has(k));
    for (const k of slots.keys()) {
      const code = this.assigned.get(k);
      if (code !== undefined) { this.assigned.delete(k); this.assigned.set(k, code); } // mark recently used
    }
    if (missing.length === 0) return;
    const free = spare.filter((c) => ![...this.assigned.values()].includes(c));
    const edits: string[] = [];
    let evicted = false;
    for (const k of missing) {
      let code = free.shift();
      if (code === undefined) {
        const victim = [...this.assigned.keys()].find((v) => !slots.has(v))!;
        code = this.assigned.get(victim)!;
        this.assigned.delete(victim);
        evicted = true;
      }
      this.assigned.set(k, code);
      const [lower, upper] = slots.get(k)!;
      edits.push('-e', `keycode ${code} = ${lower} ${upper}`);
    }
    // A reused keycode may still have key events in flight for its old character.
    if (evicted) await sleep(MAPPING_SETTLE_MS);
    await this.xmodmap(edits);
    await sleep(MAPPING_SETTLE_MS);
  }
}
