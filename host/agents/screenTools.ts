// The keyboard/mouse side of an agent as function tools a model can call: click (a
// Set-of-Marks id or a point), type_text, press_keys, scroll, drag, move_mouse, raw xdotool,
// wait, screenshot, ask_person (where a person can watch) and done. Each is a zod schema (its JSON Schema is what the model sees)
// and turns into an Env action (host/env/actions.ts), which the Env performs through its one
// action table (host/env/actionTable.ts): no bridge call is written here.
import { z } from 'zod';
import type { Action } from '../env/actions';
import type { FunctionTool } from '../models/conversation';

const Coord = z.int().min(0).max(16384);
const Modifiers = z.array(z.enum(['ctrl', 'shift', 'alt', 'super'])).max(4);

interface ScreenTool<S extends z.ZodType> {
  name: string;
  description: string;
  schema: S;
  /** The action it performs; null for tools the agent loop answers itself (screenshot). */
  toAction(args: z.output<S>): Action | null;
}

const define = <S extends z.ZodType>(t: ScreenTool<S>): ScreenTool<S> => t;

export const SCREEN_TOOLS = {
  click: define({
    name: 'click',
    description: 'Click an element: give `mark`, the id of a Set-of-Marks element from the latest listing, or `x` and `y` in screen pixels. ' +
      'button left (default), right or middle; count 2 double-clicks; modifiers are held during the click.',
    schema: z.object({
      mark: z.int().min(0).optional().describe('Set-of-Marks id from the latest [id] [role] [text] listing'),
      x: Coord.optional(), y: Coord.optional(),
      button: z.enum(['left', 'right', 'middle']).optional(),
      count: z.int().min(1).max(3).optional(),
      modifiers: Modifiers.optional(),
    }).strict().refine((a) => (a.mark !== undefined) !== (a.x !== undefined || a.y !== undefined) && (a.mark !== undefined || (a.x !== undefined && a.y !== undefined)), {
      message: 'give either mark, or both x and y',
    }),
    toAction: (a) => ({ type: 'click', mark: a.mark, x: a.x, y: a.y, button: a.button, count: a.count, modifiers: a.modifiers }),
  }),
  click_mark: define({
    name: 'click',
    description: 'Click a Set-of-Marks element by its id from the latest [id] [role] [text] listing (for points on the screen use the computer tool). ' +
      'button left (default), right or middle; count 2 double-clicks.',
    schema: z.object({
      mark: z.int().min(0).describe('Set-of-Marks id from the latest listing'),
      button: z.enum(['left', 'right', 'middle']).optional(),
      count: z.int().min(1).max(3).optional(),
      modifiers: Modifiers.optional(),
    }).strict(),
    toAction: (a) => ({ type: 'click', mark: a.mark, button: a.button, count: a.count, modifiers: a.modifiers }),
  }),
  type_text: define({
    name: 'type_text',
    description: 'Type text into the focused element, exactly as given (any Unicode; "\\n" presses Enter).',
    schema: z.object({ text: z.string().min(1).max(100_000) }).strict(),
    toAction: (a) => ({ type: 'type', text: a.text }),
  }),
  press_keys: define({
    name: 'press_keys',
    description: 'Press a key chord or a space-separated sequence of chords: "ctrl+s", "enter", "ctrl+k ctrl+t", "shift+tab", "escape", "f5".',
    schema: z.object({ keys: z.string().min(1).max(1000), repeat: z.int().min(1).max(100).optional() }).strict(),
    toAction: (a) => ({ type: 'key', keys: a.keys, repeat: a.repeat }),
  }),
  scroll: define({
    name: 'scroll',
    description: 'Scroll the mouse wheel by `amount` notches (default 3) at a point (default: where the pointer is).',
    schema: z.object({ direction: z.enum(['up', 'down', 'left', 'right']), amount: z.int().min(1).max(100).optional(), x: Coord.optional(), y: Coord.optional() }).strict(),
    toAction: (a) => ({ type: 'scroll', direction: a.direction, amount: a.amount, x: a.x, y: a.y }),
  }),
  drag: define({
    name: 'drag',
    description: 'Press the left mouse button at (from_x, from_y), move to (to_x, to_y) and release (select text, move a tab, resize a panel).',
    schema: z.object({ from_x: Coord, from_y: Coord, to_x: Coord, to_y: Coord }).strict(),
    toAction: (a) => ({ type: 'drag', from: { x: a.from_x, y: a.from_y }, to: { x: a.to_x, y: a.to_y } }),
  }),
  move_mouse: define({
    name: 'move_mouse',
    description: 'Move the mouse pointer to (x, y) without clicking (hover).',
    schema: z.object({ x: Coord, y: Coord }).strict(),
    toAction: (a) => ({ type: 'move', x: a.x, y: a.y }),
  }),
  xdotool: define({
    name: 'xdotool',
    description: 'Run a raw xdotool input command, e.g. "xdotool mousemove 100 200 click 1" or "xdotool key --delay 50 ctrl+a". ' +
      'Input subcommands only (key, type, mousemove, click, mousedown, mouseup, keydown, keyup, sleep); coordinates are real screen pixels.',
    schema: z.object({ command: z.string().min(1).max(10_000) }).strict(),
    toAction: (a) => ({ type: 'xdotool', command: a.command }),
  }),
  wait: define({
    name: 'wait',
    description: 'Wait for something to finish (a build, a test run, an extension install) for up to 60 seconds.',
    schema: z.object({ seconds: z.number().min(0).max(60) }).strict(),
    toAction: (a) => ({ type: 'wait', ms: Math.round(a.seconds * 1000) }),
  }),
  screenshot: define({
    name: 'screenshot',
    description: 'Look at the screen: a screenshot, plus (unless marks is false) the Set-of-Marks image and the [id] [role] [text] listing of the elements you can click by id, the pointer position and the focused element.',
    schema: z.object({ marks: z.boolean().optional() }).strict(),
    toAction: () => null,
  }),
  ask_person: define({
    name: 'ask_person',
    description: 'Ask the person watching the IDE live for help: a question, a decision, or something you cannot do yourself (a login, ' +
      'a confirmation). Control passes to them and your input waits until they hand it back; their answer is this tool\'s result.',
    schema: z.object({
      question: z.string().min(1).max(2000).describe('What you need from the person, in a sentence or two'),
      timeout_s: z.int().min(10).max(3600).optional().describe('Give up waiting after this many seconds (default 600)'),
    }).strict(),
    toAction: () => null,
  }),
  done: define({
    name: 'done',
    description: 'Finish: call this once the task is complete (and everything is saved). For a question, put the answer in `answer`.',
    schema: z.object({ answer: z.string().max(100_000).optional() }).strict(),
    toAction: (a) => ({ type: 'done', answer: a.answer }),
  }),
};
export type ScreenToolKey = keyof typeof SCREEN_TOOLS;

/** JSON Schema for a model: the draft marker dropped (some servers reject it). */
export function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _s, ...rest } = z.toJSONSchema(schema, { io: 'input' }) as Record<string, unknown>;
  return rest;
}

export function screenFunctionTool(key: ScreenToolKey): FunctionTool {
  const t = SCREEN_TOOLS[key];
  return { kind: 'function', name: t.name, description: t.description, parameters: jsonSchemaOf(t.schema) };
}

/** Parses a screen tool's arguments; the error names the bad field. */
export function parseScreenArgs(key: ScreenToolKey, args: unknown): { action: Action | null } {
  const t = SCREEN_TOOLS[key] as ScreenTool<z.ZodType>;
  const r = t.schema.safeParse(args);
  if (!r.success) {
    throw new ToolArgumentError(r.error.issues.map((i) => `${i.path.length ? i.path.join('.') : 'arguments'}: ${i.message}`).join('; '));
  }
  return { action: t.toAction(r.data) };
}

/** The model called a tool with arguments that do not fit it. */
export class ToolArgumentError extends Error {
  constructor(message: string) { super(message); this.name = 'ToolArgumentError'; }
}
