import { z } from 'zod';
import { Point, method } from './common';

const MouseButton = z.enum(['left', 'middle', 'right']);
/** Modifier names accepted with clicks and in key chords. */
const Modifier = z.enum(['ctrl', 'shift', 'alt', 'super', 'meta']);
const InputDone = z.object({ durationMs: z.number() });

export const inputMethods = {
  'input.key': method(
    'Press a key chord or a space-separated sequence of chords, e.g. "ctrl+s" or "ctrl+k ctrl+t".',
    z.object({
      keys: z.string().min(1).max(1000),
      repeat: z.int().min(1).max(100).default(1),
    }).strict(),
    InputDone,
  ),
  'input.type': method(
    'Type text (any Unicode) into the focused element, in order, as keystrokes.',
    z.object({
      text: z.string().max(100_000),
      delayMs: z.int().min(0).max(1000).optional(),
    }).strict(),
    InputDone.extend({ chars: z.int() }),
  ),
  'input.click': method(
    'Click at a point, or on a Set-of-Marks element by its id from dom.marks (at its `point`: the centre of its ' +
      'visible part); left, middle or right, count 2 for a double click, optionally holding modifiers.',
    z.object({
      x: z.int().min(0).max(16384).optional(),
      y: z.int().min(0).max(16384).optional(),
      /** A mark id from this connection's latest dom.marks (or dom.marksImage). */
      mark: z.int().min(0).max(1_000_000).optional(),
      button: MouseButton.default('left'),
      count: z.int().min(1).max(3).default(1),
      modifiers: z.array(Modifier).max(4).default([]),
    }).strict().refine(
      (p) => (p.mark !== undefined ? p.x === undefined && p.y === undefined : p.x !== undefined && p.y !== undefined),
      { message: 'give either x and y, or mark (not both)' },
    ),
    InputDone.extend({ x: z.int(), y: z.int() }),
  ),
  'input.move': method('Move the mouse pointer to a point.', Point.strict(), InputDone),
  'input.drag': method(
    'Press a mouse button at one point, move to another and release.',
    z.object({ from: Point, to: Point, button: MouseButton.default('left'), steps: z.int().min(1).max(100).default(10) }).strict(),
    InputDone,
  ),
  'input.scroll': method(
    'Scroll the wheel at a point (or where the pointer is) by a number of notches.',
    z.object({
      x: z.int().min(0).max(16384).optional(),
      y: z.int().min(0).max(16384).optional(),
      direction: z.enum(['up', 'down', 'left', 'right']),
      amount: z.int().min(1).max(100).default(3),
    }).strict(),
    InputDone,
  ),
  'input.sync': method(
    'Wait until the IDE window has handled every key and click sent before this call (a key the bridge alone ' +
      'listens for, XF86Launch9, is pressed after them and awaited in the page, which never passes it on). handled is ' +
      'false, with the reason, when that cannot be known: the window has no keyboard focus, a frame it cannot see has ' +
      'it, or timeoutMs passed.',
    z.object({ timeoutMs: z.int().min(0).max(60_000).default(5000) }).strict(),
    InputDone.extend({ handled: z.boolean(), reason: z.string().optional() }),
  ),
  'input.xdotool': method(
    'Run an xdotool command given as a PwP-style string ("xdotool mousemove 10 20 click 1") or an argv array. ' +
      'Commands chained with && run one after another. Only input subcommands are allowed; it never runs through a shell.',
    z.union([
      z.object({ command: z.string().min(1).max(10_000) }).strict(),
      z.object({ argv: z.array(z.string().max(10_000)).min(1).max(200) }).strict(),
    ]),
    InputDone.extend({
      argv: z.array(z.string()),
      /** A `&&` chain: every command's argv, in the order they ran (argv is the first). */
      chain: z.array(z.array(z.string())).optional(),
    }),
  ),
};
