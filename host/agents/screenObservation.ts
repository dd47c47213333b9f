// What a computer-use agent sees of the screen, as content for the model: the screenshot,
// the Set-of-Marks image and its `[id] [role] [text]` listing, the delta (what changed since
// the last look), the pointer and the focused element. The parts come from the Env's
// observation (env.observe, host/env/observation.ts); this file only words them for the model
// and scales images to the size the model works in when a computer-use tool asks for one.
import type { Result } from '../../bridge/protocol';
import type { ContentPart } from '../models/conversation';
import type { ScreenScaling } from '../models/screenScaling';
import type { EnvLike } from '../env/env';
import type { ObservedImage, ObserveKind } from '../env/observation';

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

function describeFocused(f: Result<'dom.focused'>['focused']): string {
  if (!f) return 'nothing has keyboard focus';
  const text = f.text ? ` "${f.text.slice(0, 80)}"` : '';
  const value = f.value !== undefined ? `, value "${f.value.slice(0, 80)}"` : '';
  return `${f.role || f.tag}${text} in the ${f.part || 'workbench'}${value}`;
}

/** What each part of the view is called when it could not be observed. */
const PROBLEM_NAMES: Partial<Record<ObserveKind, string>> = {
  delta: 'delta', screenshot: 'screenshot', marksImage: 'marks', marks: 'marks', cursor: 'cursor', focused: 'focused element',
};

export async function observeScreen(
  env: EnvLike, view: ScreenView,
  o: { step: number; format: 'png' | 'jpeg'; scaling?: ScreenScaling; label?: string; baseline?: string; deltaImage?: boolean },
): Promise<ScreenObservation> {
  const parts: ContentPart[] = [];
  const lines: string[] = [];
  const kinds: ObserveKind[] = [];
  if (view.delta) kinds.push('delta');
  if (view.screenshot) kinds.push('screenshot');
  // The marks image carries the listing too; the listing alone is the cheaper DOM walk.
  if (view.marksImage) kinds.push('marksImage');
  else if (view.marks) kinds.push('marks');
  if (view.cursor) kinds.push('cursor');
  if (view.focused) kinds.push('focused');
  // A named baseline: the delta compares with the agent's previous look, not with screenshots
  // the recorder or a settle wait took in between.
  const obs = await env.observe(kinds, { format: o.format, quality: 80, baseline: o.baseline ?? 'agent', deltaImage: o.deltaImage !== false });
  const problems = kinds.filter((k) => obs.errors?.[k]).map((k) => `${PROBLEM_NAMES[k] ?? k}: ${obs.errors![k]}`);

  const image = async (img: ObservedImage, label: string): Promise<ContentPart> => {
    let data = img.data;
    if (o.scaling && !o.scaling.identity) data = (await o.scaling.image(data, img.format, { width: img.width, height: img.height })).data;
    return { type: 'image', mediaType: img.format === 'png' ? 'image/png' : 'image/jpeg', data: data.toString('base64'), label, step: o.step };
  };
  const pt = (x: number, y: number) => (o.scaling ? o.scaling.toModel(x, y) : { x, y });

  const shot = obs.screenshot;
  const marks = obs.marksImage ?? obs.marks;
  const screen = shot ? { width: shot.width, height: shot.height }
    : obs.marksImage ? { width: obs.marksImage.width, height: obs.marksImage.height } : obs.marks ? obs.marks.screen : null;
  const shown = screen && o.scaling ? o.scaling.model : screen;
  lines.push(`${o.label ?? `Observation after step ${o.step}`}${shown ? ` (screen ${shown.width}x${shown.height})` : ''}:`);
  if (shot) parts.push(await image(shot, `screenshot at step ${o.step}`));
  if (obs.marksImage) parts.push(await image(obs.marksImage, `Set-of-Marks image at step ${o.step}`));
  const delta = obs.delta;
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
  if (obs.cursor) { const c = pt(obs.cursor.x, obs.cursor.y); lines.push(`Mouse pointer at (${c.x}, ${c.y}).`); }
  if (obs.focused !== undefined) lines.push(`Focused: ${describeFocused(obs.focused)}.`);
  if (marks) {
    lines.push(`Set-of-Marks elements, [id] [role] [text] (click one by id with the click tool):\n${marks.text || '(none)'}`);
  }
  if (problems.length) lines.push(`Could not observe: ${problems.join('; ')}`);
  parts.unshift({ type: 'text', text: lines.join('\n') });
  return { parts, markIds: marks ? new Set(marks.marks.map((m) => m.id)) : null, screen };
}
