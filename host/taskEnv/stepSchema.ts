// The steps a task's setup and its oracle are written in. A step is an object with exactly one
// action key (`{ "key": "ctrl+s" }`, `{ "openFile": "src/app.py" }`) plus that action's options,
// and optionally a `note` for the reader. Input steps wait for the screen to settle afterwards.
import { z } from 'zod';
import { isMethodName, methods } from '../../bridge/protocol';
import { MatcherSchema } from '../evaluation/matcher';

const RelPath = z.string().min(1).max(1000).refine((p) => !p.split('/').includes('..'), 'must not contain ".."');
/** A file of the task folder (or of the suite's shared `_…` folders, through ..). */
const TaskFile = z.string().min(1).max(1000);
const Argv = z.array(z.string().max(100_000)).min(1).max(500);
const Note = { note: z.string().max(2000).optional() };

/** A regular expression, checked to compile when the task loads (flags are the step's own). */
const Regex = (max: number, min = 0) => z.string().min(min).max(max).superRefine((src, ctx) => {
  try { new RegExp(src); } catch (err) { ctx.addIssue({ code: 'custom', message: `not a valid regular expression: ${(err as Error).message}` }); }
});

/**
 * How long a step waits for a state (on screen, focus, an ide.* result) unless it says: a loaded
 * machine can take tens of seconds to open a view, and a wait ends as soon as the state is there.
 */
export const SCREEN_WAIT_MS = 60_000;
const ScreenWait = z.int().min(0).max(600_000).default(SCREEN_WAIT_MS);

const IdeMethod = z.string().refine((m) => m.startsWith('ide.') && isMethodName(m), 'expected an ide.* method of bridge/protocol');

/** Which element to click, found in dom.marks: text is a regular expression (case-insensitive). */
export const MarkQuery = z.object({
  text: Regex(500).optional(),
  role: z.string().max(100).optional(),
  part: z.string().max(100).optional(),
  /** Which match to take when several do (0 = the first in screen order). */
  nth: z.int().min(0).default(0),
}).strict();
export type MarkQuery = z.infer<typeof MarkQuery>;

const shapes = {
  key: z.object({ key: z.string().min(1).max(1000), repeat: z.int().min(1).max(100).default(1), ...Note }).strict(),
  type: z.object({
    type: z.string().max(100_000),
    /** Check that the focused field now holds the text, and type it again if keys were lost (a view still opening). */
    verify: z.boolean().default(false),
    ...Note,
  }).strict(),
  /** Waits until keyboard focus is on an element like this (dom.focused; text is a regular expression on its label and value). */
  waitForFocus: z.object({
    waitForFocus: z.object({
      part: z.string().max(100).optional(),
      role: z.string().max(100).optional(),
      text: Regex(500).optional(),
      /** A regular expression on the element's place in the page (dom.focused `path`). */
      path: Regex(500).optional(),
    }).strict(),
    timeoutMs: ScreenWait,
    /**
     * The key that brings the element up (the step before), pressed again whenever the focus has
     * not come within pressEveryMs: a key pressed while the IDE is still loading can do nothing.
     */
    pressAgain: z.string().min(1).max(1000).optional(),
    pressEveryMs: z.int().min(1000).max(600_000).default(15_000),
    ...Note,
  }).strict(),
  /** Waits until a Set-of-Marks element like this is on screen (a list that grows, a view that opens). */
  waitForMark: z.object({ waitForMark: MarkQuery, timeoutMs: ScreenWait, ...Note }).strict(),
  /** Waits until the text the workbench shows has a match of this regular expression (case-insensitive): a message, an output line. */
  waitForText: z.object({ waitForText: Regex(2000, 1), timeoutMs: ScreenWait, ...Note }).strict(),
  click: z.object({
    click: z.union([MarkQuery, z.object({ x: z.int().min(0), y: z.int().min(0) }).strict()]),
    button: z.enum(['left', 'middle', 'right']).default('left'),
    count: z.int().min(1).max(3).default(1),
    /** For an element: how long to wait for it to be on screen and hold still (default SCREEN_WAIT_MS). */
    timeoutMs: z.int().min(0).max(600_000).optional(),
    ...Note,
  }).strict().refine((s) => s.timeoutMs === undefined || !('x' in s.click), { message: 'a click on a point does not wait: timeoutMs is for a click on an element', path: ['timeoutMs'] }),
  /** The command palette: ctrl+shift+p, the label typed, enter. */
  palette: z.object({ palette: z.string().min(1).max(500), ...Note }).strict(),
  /**
   * In the quick pick that has the keyboard (a theme picker its keys opened): the text typed, enter
   * once the first option offered holds it. Enter on a list still filtering picks what was first before.
   */
  pick: z.object({ pick: z.string().min(1).max(500), ...Note }).strict(),
  /** Quick open by keyboard (ctrl+p, the path, enter); waits until the file is the active editor. */
  openFile: z.object({ openFile: RelPath, ...Note }).strict(),
  ide: z.object({ ide: IdeMethod, params: z.record(z.string(), z.unknown()).default({}), ...Note }).strict(),
  writeFile: z.object({
    writeFile: z.string().min(1).max(1000),
    content: z.string().optional(),
    /** A file of the task folder to copy (for binary or long files). */
    from: TaskFile.optional(),
    ...Note,
  }).strict().refine((s) => (s.content === undefined) !== (s.from === undefined), 'give either content or from'),
  /** Sets top-level keys of a JSON-with-comments file (settings.json, launch.json), keeping its comments. */
  editJson: z.object({ editJson: z.string().min(1).max(1000), set: z.record(z.string(), z.unknown()), ...Note }).strict(),
  exec: z.object({
    exec: Argv,
    cwd: z.string().max(1000).optional(),
    timeoutSec: z.int().min(1).max(3600).default(120),
    /** Fail the step unless the command exits with this code; null accepts any. */
    exitCode: z.int().nullable().default(0),
    ...Note,
  }).strict(),
  /** Starts a long-running process in the background and waits until it listens on the port. */
  startServer: z.object({
    startServer: Argv, port: z.int().min(1).max(65535), cwd: z.string().max(1000).optional(), timeoutSec: z.int().min(1).max(600).default(30), ...Note,
  }).strict(),
  /** Saves each version of a file through the IDE in turn, so its local history (Timeline) has one entry each. */
  history: z.object({
    history: RelPath,
    versions: z.array(z.union([z.string(), z.object({ from: TaskFile }).strict()])).min(1).max(50),
    ...Note,
  }).strict(),
  /** Restores a file to one of its local-history entries through the IDE (0 is the oldest, -1 the newest). */
  restoreFromTimeline: z.object({ restoreFromTimeline: RelPath, entry: z.int(), ...Note }).strict(),
  /** Packages an extension folder of the task with vsce and writes the .vsix into the environment. */
  buildVsix: z.object({ buildVsix: TaskFile, out: z.string().min(1).max(1000), ...Note }).strict(),
  /** An IDE tool (tools.call: file/bash, IDE-native, IDE-Bench, assisted); fails on an error result unless allowed. */
  tool: z.object({
    tool: z.string().min(1).max(200),
    args: z.record(z.string(), z.unknown()).default({}),
    timeoutMs: z.int().min(100).max(3_600_000).optional(),
    allowError: z.boolean().default(false),
    ...Note,
  }).strict(),
  /** The agent's final answer. */
  answer: z.object({ answer: z.string().max(100_000), ...Note }).strict(),
  /** The final answer read from a command's output (the first capture group of regex, or all of stdout). */
  answerFrom: z.object({
    answerFrom: z.union([
      z.object({ exec: Argv, regex: Regex(2000).optional(), cwd: z.string().max(1000).optional(), timeoutSec: z.int().min(1).max(600).default(120) }).strict(),
      z.object({
        tool: z.string().min(1).max(200), args: z.record(z.string(), z.unknown()).default({}), regex: Regex(2000).optional(),
        timeoutMs: z.int().min(100).max(3_600_000).optional(),
      }).strict(),
      /** An ide.* read (debug variables, settings, diagnostics), as JSON text. */
      z.object({ ide: IdeMethod, params: z.record(z.string(), z.unknown()).default({}), regex: Regex(2000).optional() }).strict(),
    ]),
    ...Note,
  }).strict(),
  /**
   * The final answer read off the screen: the first capture group of regex over the text the
   * workbench shows (one line per element: its text, name or value), waiting for it to appear.
   * Only what an agent could see, so an input-only oracle may use it.
   */
  answerFromScreen: z.object({
    answerFromScreen: z.object({ regex: Regex(2000, 1), timeoutMs: ScreenWait }).strict(),
    ...Note,
  }).strict(),
  wait: z.object({ wait: z.int().min(0).max(600_000), ...Note }).strict(),
  /** Polls an ide.* method until its result matches. */
  waitFor: z.object({
    waitFor: z.object({ ide: IdeMethod, params: z.record(z.string(), z.unknown()).default({}), match: MatcherSchema }).strict(),
    timeoutMs: ScreenWait,
    ...Note,
  }).strict(),
  settle: z.object({ settle: z.int().min(50).max(10_000), ...Note }).strict(),
} as const;

type Shapes = typeof shapes;
export type StepKind = keyof Shapes;
export type Step = { [K in StepKind]: z.output<Shapes[K]> }[StepKind];
export type StepOf<K extends StepKind> = z.output<Shapes[K]>;
export const STEP_KINDS = Object.keys(shapes) as StepKind[];

/** Steps that act only through the keyboard and mouse (and observe). */
export const INPUT_ONLY_KINDS: ReadonlySet<StepKind> = new Set([
  'key', 'type', 'click', 'palette', 'pick', 'openFile', 'wait', 'waitFor', 'waitForFocus', 'waitForMark', 'waitForText', 'settle', 'answerFromScreen',
]);

export function stepKind(step: Step): StepKind {
  return STEP_KINDS.find((k) => k in step)!;
}

function describeIssue(i: z.core.$ZodIssue): string {
  if (i.code === 'unrecognized_keys') return `unknown field${i.keys.length > 1 ? 's' : ''} ${i.keys.map((k) => `"${k}"`).join(', ')}`;
  if (i.code === 'invalid_value' && Array.isArray(i.values)) return `expected one of ${i.values.map((v) => JSON.stringify(v)).join(', ')}`;
  return i.message;
}

export const StepSchema: z.ZodType<Step> = z.unknown().transform((v, ctx) => {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) {
    ctx.addIssue({ code: 'custom', message: `expected a step object with one of: ${STEP_KINDS.join(', ')}` });
    return z.NEVER;
  }
  const kinds = STEP_KINDS.filter((k) => k in v);
  if (kinds.length !== 1) {
    ctx.addIssue({
      code: 'custom',
      message: kinds.length === 0
        ? `expected exactly one action key, one of: ${STEP_KINDS.join(', ')} (found ${Object.keys(v).join(', ') || 'none'})`
        : `expected exactly one action key, found ${kinds.join(' and ')}`,
    });
    return z.NEVER;
  }
  const r = shapes[kinds[0]].safeParse(v);
  if (!r.success) {
    for (const issue of r.error.issues) ctx.addIssue({ code: 'custom', message: describeIssue(issue), path: issue.path as (string | number)[] });
    return z.NEVER;
  }
  const step = r.data as Step;
  if ('ide' in step) {
    const p = methods[step.ide as keyof typeof methods].params.safeParse(step.params);
    if (!p.success) for (const issue of p.error.issues) ctx.addIssue({ code: 'custom', message: describeIssue(issue), path: ['params', ...(issue.path as (string | number)[])] });
  }
  return step;
}) as unknown as z.ZodType<Step>;
