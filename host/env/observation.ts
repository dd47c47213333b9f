// What an agent sees, each part only when asked for: an agent that reads the Set-of-Marks
// listing does not pay for a PNG, and one that looks at pixels does not pay for a DOM walk.
// The one place the screen is fetched and decoded: the Env's observations and render(), the
// agents' views (through env.observe), the inspector's frames, MCP and `pwp screenshot`.
import { z } from 'zod';
import { methods, type Mark, type Result } from '../../bridge/protocol';
import type { BridgeClient } from '../client/bridgeClient';

export const OBSERVE_KINDS = ['screenshot', 'marks', 'marksImage', 'delta', 'cursor', 'focused', 'ide'] as const;
export type ObserveKind = (typeof OBSERVE_KINDS)[number];

export interface ObservedImage { format: 'png' | 'jpeg'; width: number; height: number; data: Buffer }

/** The IDE in a few lines: where the cursor is, what is unsaved, how many problems. */
export interface IdeSummary {
  activeEditor: { path: string | null; uri: string; languageId: string; line: number; column: number; dirty: boolean } | null;
  openEditors: string[];
  dirtyFiles: string[];
  diagnostics: { error: number; warning: number; information: number; hint: number };
}

export interface Observation {
  screenshot?: ObservedImage;
  /** Set-of-Marks: elements with ids for `click {mark}`, and the `[id] [role] [text]` listing. */
  marks?: { marks: Mark[]; text: string; screen: { width: number; height: number } };
  marksImage?: ObservedImage & { marks: Mark[]; text: string };
  /** What changed since the previous screenshot or delta; `image` is the changed box. */
  delta?: { changed: boolean; box: { x: number; y: number; width: number; height: number } | null; image: ObservedImage | null };
  cursor?: { x: number; y: number };
  focused?: Result<'dom.focused'>['focused'];
  ide?: IdeSummary;
  /** What the task asks (an Env made on a task by makeEnv). */
  instruction?: string;
  /** ms each part took */
  timings: Partial<Record<ObserveKind, number>>;
  /** Parts that could not be observed now (e.g. `ide` while the IDE reloads), with the reason. */
  errors?: Partial<Record<ObserveKind, string>>;
}

export interface ObserveOptions {
  format?: 'png' | 'jpeg';
  quality?: number;
  /** Crop the screenshot to this box (a zoom). */
  region?: { x: number; y: number; width: number; height: number };
  /** The delta's named baseline: an agent compares with its own previous look, not the recorder's (default 'default'). */
  baseline?: string;
  /** false: the delta says only whether and where the screen changed. */
  deltaImage?: boolean;
  /** Throw a part's error (typed, as the bridge sent it) instead of noting it in `errors`: for a look that must succeed. */
  throwErrors?: boolean;
}

const image = (i: { format: 'png' | 'jpeg'; width: number; height: number; data: string }): ObservedImage =>
  ({ format: i.format, width: i.width, height: i.height, data: Buffer.from(i.data, 'base64') });

/** The screen (or a region of it) now, decoded; errors are thrown as they come (typed on the wire). */
export async function screenshot(client: BridgeClient, o: Pick<ObserveOptions, 'format' | 'quality' | 'region'> = {}): Promise<ObservedImage> {
  return image(await client.call('capture.screenshot', { format: o.format ?? 'png', quality: o.quality, region: o.region }));
}

export async function ideSummary(client: BridgeClient): Promise<IdeSummary> {
  const [editors, diagnostics] = await Promise.all([
    client.call('ide.editors', { maxTextChars: 0 }),
    client.call('ide.diagnostics', { open: 'none', maxResults: 1 }),
  ]);
  const tabs = editors.groups.flatMap((g) => g.tabs);
  const a = editors.activeEditor;
  return {
    activeEditor: a ? { path: a.path, uri: a.uri, languageId: a.languageId, line: a.cursor.line, column: a.cursor.column, dirty: a.dirty } : null,
    openEditors: tabs.map((t) => t.path ?? t.uri ?? t.label),
    dirtyFiles: tabs.filter((t) => t.dirty).map((t) => t.path ?? t.uri ?? t.label),
    diagnostics: diagnostics.counts,
  };
}

export async function observe(client: BridgeClient, kinds: readonly ObserveKind[], o: ObserveOptions = {}): Promise<Observation> {
  const want = new Set(kinds);
  const format = o.format ?? 'png';
  const quality = o.quality ?? 80;
  const obs: Observation = { timings: {} };
  const timed = async <T>(kind: ObserveKind, fn: () => Promise<T>, set: (v: T) => void) => {
    const t0 = performance.now();
    try { set(await fn()); } catch (err) {
      if (o.throwErrors) throw err;
      (obs.errors ??= {})[kind] = `${(err as Error).name}: ${(err as Error).message}`;
    } finally { obs.timings[kind] = +(performance.now() - t0).toFixed(1); }
  };
  // delta and screenshot share the connection's baseline frame: the delta is taken first so it
  // compares against the previous observation, not against this one's screenshot.
  const screen = async () => {
    if (want.has('delta')) {
      await timed('delta', () => client.call('capture.delta', { format, quality, baseline: o.baseline, includeImage: o.deltaImage }), (d) => {
        obs.delta = { changed: d.changed, box: d.box, image: d.image ? image(d.image) : null };
      });
    }
    if (want.has('screenshot')) await timed('screenshot', () => screenshot(client, { format, quality, region: o.region }), (s) => { obs.screenshot = s; });
  };
  await Promise.all([
    screen(),
    want.has('marks') && timed('marks', () => client.call('dom.marks', {}), (m) => { obs.marks = { marks: m.marks, text: m.text, screen: m.screen }; }),
    want.has('marksImage') && timed('marksImage', () => client.call('dom.marksImage', { format, quality }), (m) => {
      obs.marksImage = { ...image(m.image), marks: m.marks, text: m.text };
    }),
    want.has('cursor') && timed('cursor', () => client.call('capture.cursor', {}), (c) => { obs.cursor = c; }),
    want.has('focused') && timed('focused', () => client.call('dom.focused', {}), (f) => { obs.focused = f.focused; }),
    want.has('ide') && timed('ide', () => ideSummary(client), (s) => { obs.ide = s; }),
  ]);
  return obs;
}

// The observation space, for programs that read observations as JSON (the Env server, tool
// lists): images travel as base64 there. Marks and focus reuse the wire's own schemas.
const ImageSpace = z.object({ format: z.enum(['png', 'jpeg']), width: z.int(), height: z.int(), data: z.string().describe('the image, base64') });
const MarksSpace = methods['dom.marks'].result.pick({ marks: true, text: true });
const Box = z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() });
const Counts = z.object({ error: z.int(), warning: z.int(), information: z.int(), hint: z.int() });
export const ObservationSpace = z.object({
  screenshot: ImageSpace.optional(),
  marks: MarksSpace.extend({ screen: methods['dom.marks'].result.shape.screen }).optional(),
  marksImage: ImageSpace.extend(MarksSpace.shape).optional(),
  delta: z.object({ changed: z.boolean(), box: Box.nullable(), image: ImageSpace.nullable() }).optional(),
  cursor: z.object({ x: z.number(), y: z.number() }).optional(),
  focused: methods['dom.focused'].result.shape.focused.optional(),
  ide: z.object({
    activeEditor: z.object({ path: z.string().nullable(), uri: z.string(), languageId: z.string(), line: z.int(), column: z.int(), dirty: z.boolean() }).nullable(),
    openEditors: z.array(z.string()),
    dirtyFiles: z.array(z.string()),
    diagnostics: Counts,
  }).optional(),
  instruction: z.string().optional().describe("the task's instruction (task Envs)"),
  timings: z.record(z.string(), z.number()),
  errors: z.record(z.string(), z.string()).optional(),
});

/** The observation space as JSON Schema. */
export function observationSpace(): Record<string, unknown> {
  return z.toJSONSchema(ObservationSpace, { io: 'output' }) as Record<string, unknown>;
}
