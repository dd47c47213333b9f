// What a computer-use agent sees of the screen, as content for the model: the screenshot,
// the Set-of-Marks image and its `[id] [role] [text]` listing, the delta (what changed since
// the last look), the pointer and the focused element. Images are scaled to the size the
// model works in when a computer-use tool asks for one.
import type { Result } from '../../bridge/protocol';
import type { ContentPart } from '../models/conversation';
import type { ScreenScaling } from '../models/screenScaling';
import type { EnvLike } from '../env/env';

export interface ScreenView {
  screenshot?: boolean;
  marksImage?: boolean;
  /** The listing (also refreshes the mark ids clicks refer to). */
  marks?: boolean;
  delta?: boolean;
  cursor?: boolean;
  focused?: boolean;
}

export const FULL_VIEW: ScreenView = { screenshot: true, marksImage: true, marks: true, delta: true, cursor: true, focused: true };

export interface ScreenObservation {
  parts: ContentPart[];
  /** Mark ids the listing shows (for checking a click before it is sent). */
  markIds: Set<number> | null;
  screen: { width: number; height: number } | null;
}

type Img = { format: 'png' | 'jpeg'; width: number; height: number; data: string };

function describeFocused(f: Result<'dom.focused'>['focused']): string {
  if (!f) return 'nothing has keyboard focus';
  const text = f.text ? ` "${f.text.slice(0, 80)}"` : '';
  const value = f.value !== undefined ? `, value "${f.value.slice(0, 80)}"` : '';
  return `${f.role || f.tag}${text} in the ${f.part || 'workbench'}${value}`;
}

export async function observeScreen(
  env: EnvLike, view: ScreenView,
  o: { step: number; format: 'png' | 'jpeg'; scaling?: ScreenScaling; label?: string; baseline?: string; deltaImage?: boolean },
): Promise<ScreenObservation> {
  const parts: ContentPart[] = [];
  const lines: string[] = [];
  const quality = 80;
  const problems: string[] = [];
  const attempt = async <T>(what: string, fn: () => Promise<T>): Promise<T | undefined> => {
    try { return await fn(); } catch (err) { problems.push(`${what}: ${(err as Error).message}`); return undefined; }
  };
  const image = async (img: Img, label: string): Promise<ContentPart> => {
    let data: Buffer = Buffer.from(img.data, 'base64');
    if (o.scaling && !o.scaling.identity) data = (await o.scaling.image(data, img.format, { width: img.width, height: img.height })).data;
    return { type: 'image', mediaType: img.format === 'png' ? 'image/png' : 'image/jpeg', data: data.toString('base64'), label, step: o.step };
  };
  const pt = (x: number, y: number) => (o.scaling ? o.scaling.toModel(x, y) : { x, y });

  // A named baseline: the delta compares with the agent's previous look, not with screenshots
  // the recorder or a settle wait took in between.
  const delta = view.delta
    ? await attempt('delta', () => env.unwrapped.query('capture.delta', { format: o.format, quality, baseline: o.baseline ?? 'agent', includeImage: o.deltaImage !== false }))
    : undefined;
  const shot = view.screenshot ? await attempt('screenshot', () => env.unwrapped.query('capture.screenshot', { format: o.format, quality })) : undefined;
  const marks = view.marksImage
    ? await attempt('marks', () => env.unwrapped.query('dom.marksImage', { format: o.format, quality }))
    : view.marks ? await attempt('marks', () => env.unwrapped.query('dom.marks', {})) : undefined;
  const cursor = view.cursor ? await attempt('cursor', () => env.unwrapped.query('capture.cursor', {})) : undefined;
  const focused = view.focused ? await attempt('focused element', () => env.unwrapped.query('dom.focused', {})) : undefined;

  const screen = shot ? { width: shot.width, height: shot.height } : marks ? marks.screen : null;
  const shown = screen && o.scaling ? o.scaling.model : screen;
  lines.push(`${o.label ?? `Observation after step ${o.step}`}${shown ? ` (screen ${shown.width}x${shown.height})` : ''}:`);
  if (shot) parts.push(await image(shot, `screenshot at step ${o.step}`));
  if (marks && 'image' in marks) parts.push(await image(marks.image as Img, `Set-of-Marks image at step ${o.step}`));
  if (delta) {
    if (!delta.changed || !delta.box) lines.push('Changed since the last look: nothing.');
    else {
      const b = delta.box;
      const p = pt(b.x, b.y);
      const q = pt(b.x + b.width, b.y + b.height);
      lines.push(`Changed since the last look: the region from (${p.x}, ${p.y}) to (${q.x}, ${q.y})${delta.image ? ' (image of it attached)' : ''}.`);
      if (delta.image) parts.push(await image(delta.image, `changed region at step ${o.step}`));
    }
  }
  if (cursor) { const c = pt(cursor.x, cursor.y); lines.push(`Mouse pointer at (${c.x}, ${c.y}).`); }
  if (focused) lines.push(`Focused: ${describeFocused(focused.focused)}.`);
  if (marks) {
    lines.push(`Set-of-Marks elements, [id] [role] [text] (click one by id with the click tool):\n${marks.text || '(none)'}`);
  }
  if (problems.length) lines.push(`Could not observe: ${problems.join('; ')}`);
  parts.unshift({ type: 'text', text: lines.join('\n') });
  return { parts, markIds: marks ? new Set(marks.marks.map((m) => m.id)) : null, screen };
}
