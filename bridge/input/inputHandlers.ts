// input.* methods: keys, text, mouse, and raw xdotool, all as argv for xdotool.
import { NotAvailableError } from '../protocol';
import type { Dispatcher, Session } from '../rpc/dispatcher';
import { parseKeySequence } from './keys';
import type { InputSync } from './inputSync';
import type { Keymap } from './keymap';
import { DEFAULT_TYPING_DELAY_MS, typingChunks } from './typing';
import { checkXdotoolArgv, parseXdotoolChain } from './xdotoolCommand';
import type { Xdotool } from './xdotool';

const BUTTON = { left: '1', middle: '2', right: '3' } as const;
const WHEEL = { up: '4', down: '5', left: '6', right: '7' } as const;
/** How long a part of an `&&` chain waits for the IDE window to take the part before it in (the host's settle waits as long). */
const CHAIN_PART_SYNC_MS = 30_000;

function timed<T extends object>(t0: number, extra: T): T & { durationMs: number } {
  return { ...extra, durationMs: performance.now() - t0 };
}

/** Where a Set-of-Marks id is on screen (served by bridge/dom; input does not depend on it). */
export type MarkResolver = (mark: number, session: Session) => Promise<{ x: number; y: number }>;

export function registerInput(d: Dispatcher, xdo: Xdotool, keymap: Keymap, resolveMark?: MarkResolver, sync?: InputSync): void {
  d.register('input.key', async (p) => {
    const t0 = performance.now();
    const chords = parseKeySequence(p.keys);
    const argv = ['key', '--clearmodifiers', '--delay', '30'];
    for (let i = 0; i < p.repeat; i++) argv.push(...chords);
    await xdo.run(argv);
    return timed(t0, {});
  });

  d.register('input.type', async (p) => {
    const t0 = performance.now();
    const chunks = typingChunks(p.text, await keymap.capacity());
    const delay = String(p.delayMs ?? DEFAULT_TYPING_DELAY_MS);
    await xdo.exclusive(async (exec) => {
      for (const chunk of chunks) {
        await keymap.ensure(chunk.slots);
        await exec(['type', '--delay', delay, '--', chunk.text]);
      }
    });
    return timed(t0, { chars: [...p.text].length });
  });

  d.register('input.click', async (p, session) => {
    const t0 = performance.now();
    let x: number;
    let y: number;
    if (p.mark !== undefined) {
      if (!resolveMark) throw new NotAvailableError('clicking by mark needs the dom service, which this bridge does not run');
      ({ x, y } = await resolveMark(p.mark, session));
    } else {
      // The schema's refinement guarantees both when there is no mark.
      x = p.x as number;
      y = p.y as number;
    }
    const argv = ['mousemove', '--sync', String(x), String(y)];
    for (const m of p.modifiers) argv.push('keydown', m === 'meta' ? 'super' : m);
    argv.push('click', '--repeat', String(p.count), '--delay', '60', BUTTON[p.button]);
    for (const m of [...p.modifiers].reverse()) argv.push('keyup', m === 'meta' ? 'super' : m);
    await xdo.runMoving(argv);
    return timed(t0, { x, y });
  });

  d.register('input.move', async (p) => {
    const t0 = performance.now();
    await xdo.runMoving(['mousemove', '--sync', String(p.x), String(p.y)]);
    return timed(t0, {});
  });

  d.register('input.drag', async (p) => {
    const t0 = performance.now();
    const argv = ['mousemove', '--sync', String(p.from.x), String(p.from.y), 'mousedown', BUTTON[p.button]];
    // Intermediate moves let drag-and-drop targets see the pointer travel.
    for (let i = 1; i <= p.steps; i++) {
      const x = Math.round(p.from.x + ((p.to.x - p.from.x) * i) / p.steps);
      const y = Math.round(p.from.y + ((p.to.y - p.from.y) * i) / p.steps);
      argv.push('mousemove', '--sync', String(x), String(y), 'sleep', '0.01');
    }
    argv.push('mouseup', BUTTON[p.button]);
    await xdo.runMoving(argv);
    return timed(t0, {});
  });

  d.register('input.scroll', async (p) => {
    const t0 = performance.now();
    const argv: string[] = [];
    if (p.x !== undefined && p.y !== undefined) argv.push('mousemove', '--sync', String(p.x), String(p.y));
    argv.push('click', '--repeat', String(p.amount), '--delay', '20', WHEEL[p.direction]);
    await xdo.runMoving(argv);
    return timed(t0, {});
  });

  d.register('input.sync', async (p) => {
    const t0 = performance.now();
    const r = sync ? await sync.sync(p.timeoutMs) : { handled: false, reason: 'this bridge runs no IDE window' };
    return timed(t0, r);
  });

  d.register('input.xdotool', async (p) => {
    const t0 = performance.now();
    // Every part of a `&&` chain is checked before the first one runs.
    const argvs = 'command' in p ? parseXdotoolChain(p.command) : [checkXdotoolArgv(p.argv[0] === 'xdotool' ? p.argv.slice(1) : p.argv)];
    for (const [i, argv] of argvs.entries()) {
      // Each part of a chain waits for the IDE window to take the part before it in, as
      // separate steps do (the host's settle): a palette opened by one part is there for the next.
      if (i > 0 && sync) await sync.sync(CHAIN_PART_SYNC_MS);
      await xdo.run(argv);
    }
    return timed(t0, argvs.length === 1 ? { argv: argvs[0] } : { argv: argvs[0], chain: argvs });
  });
}
