// A recorded trajectory, step by step: the screen after each step (with the Set-of-Marks
// boxes when they were recorded), the action, the tool call and its result, the model's
// text and the reward. A scrubber, buttons and the keyboard (← → Home End PageUp PageDown)
// move through it. Needs no environment: everything comes from the files of the run.
import type { Mark } from '../../../bridge/protocol';
import type { TrajectoryStep, TrajectoryView } from '../trajectoryView';
import { clear, getJson, h, json, time } from './dom';

export function showTrajectory(root: HTMLElement, file: string): () => void {
  const fileUrl = (rel: string) => `/api/trajectory/file?file=${encodeURIComponent(file)}&rel=${encodeURIComponent(rel)}`;
  let view: TrajectoryView | null = null;
  let index = 0;
  const marksCache = new Map<string, Promise<Mark[]>>();

  const scrub = h('input#scrubber', { type: 'range', min: 0, max: 0, value: 0 });
  const position = h('span#position', {}, '');
  const prev = h('button#prev', { title: 'previous step (←)' }, '◀');
  const next = h('button#next', { title: 'next step (→)' }, '▶');
  const showMarks = h('input#traj-marks', { type: 'checkbox' });
  const img = h('img#traj-screen', { alt: 'the screen after this step' });
  const overlay = h('canvas#traj-overlay');
  const shotNote = h('p#shot-note.muted', {}, '');
  const detail = h('div#step-detail');
  const list = h('ol#step-list');
  const head = h('div.traj-head', {}, h('span.muted', {}, 'loading…'));
  clear(root, h('div.trajectory', {},
    head,
    h('div.scrub', {}, prev, scrub, next, position, h('label', {}, showMarks, ' marks')),
    h('div.traj-main', {},
      h('div.traj-left', {}, h('div.screen-wrap', {}, img, overlay), shotNote),
      h('div.traj-right', {}, detail)),
    h('h3', {}, 'All steps'), list));

  const drawMarks = async (step: TrajectoryStep) => {
    const ctx = overlay.getContext('2d')!;
    overlay.width = img.naturalWidth || 1280;
    overlay.height = img.naturalHeight || 800;
    ctx.clearRect(0, 0, overlay.width, overlay.height);
    if (!showMarks.checked || !step.marks) return;
    let p = marksCache.get(step.marks);
    if (!p) {
      p = fetch(fileUrl(step.marks)).then((r) => r.json()).then((m: { marks?: Mark[] }) => m.marks ?? []);
      marksCache.set(step.marks, p);
    }
    const marks = await p.catch(() => [] as Mark[]);
    ctx.font = '12px sans-serif';
    ctx.textBaseline = 'top';
    for (const m of marks) {
      ctx.strokeStyle = '#ffb000';
      ctx.lineWidth = 1.5;
      ctx.strokeRect(m.box.x, m.box.y, m.box.width, m.box.height);
      ctx.fillStyle = '#ffb000';
      ctx.fillRect(m.box.x, m.box.y, ctx.measureText(String(m.id)).width + 6, 15);
      ctx.fillStyle = '#000';
      ctx.fillText(String(m.id), m.box.x + 3, m.box.y + 1);
    }
  };

  const section = (title: string, ...body: (Node | string | null)[]) => h('section.step-part', { 'data-part': title.toLowerCase() }, h('h4', {}, title), ...body);

  function render(): void {
    if (!view) return;
    const steps = view.steps;
    if (!steps.length) { clear(detail, h('p.muted', {}, 'this trajectory has no steps yet')); return; }
    index = Math.max(0, Math.min(index, steps.length - 1));
    const s = steps[index];
    scrub.value = String(index);
    position.textContent = `${index + 1} / ${steps.length}`;
    prev.disabled = index === 0;
    next.disabled = index === steps.length - 1;
    if (s.screenshot) {
      const src = fileUrl(s.screenshot);
      if (img.getAttribute('src') !== src) img.src = src;
      img.hidden = false;
      shotNote.textContent = s.screenshotFrom !== undefined ? `(no screenshot with this step: the screen after step ${s.screenshotFrom + 1})` : '';
    } else {
      img.hidden = true;
      shotNote.textContent = 'no screenshot recorded yet';
    }
    void drawMarks(s);
    const result = s.tool?.result;
    clear(detail,
      h('p.step-title', {}, h('span', { class: `badge actor-${s.actor}` }, s.actor === 'human' ? 'person' : s.actor), ' ', h('strong', {}, s.title)),
      h('p.muted', {}, s.t > 1e12 ? new Date(s.t).toISOString().replace('T', ' ').slice(0, 23) : `${(s.t / 1000).toFixed(2)} s into the run`, ` · ${s.kind}`),
      s.modelText ? section('Model', h('pre.model-text', {}, s.modelText)) : null,
      s.action !== undefined && !s.tool ? section('Action', h('pre', {}, json(s.action))) : null,
      s.tool ? section('Tool call', h('p', {}, h('code', {}, s.tool.name)), h('pre', {}, json(s.tool.args)),
        result ? h('div', { class: result.isError ? 'tool-result error' : 'tool-result' },
          h('h5', {}, result.isError ? 'Result (error)' : 'Result'),
          ...result.content.map((c) => (c.type === 'text' ? h('pre', {}, c.text) : h('img.tool-image', { src: fileUrl(c.file), alt: 'tool image' }))))
          : h('p.muted', {}, 'no result recorded')) : null,
      s.error ? section('Error', h('pre.error', {}, s.error)) : null,
      s.reward !== undefined || s.terminated || s.truncated ? section('Reward', h('p#reward', {}, `${s.reward ?? 0}`, s.terminated ? ' · terminated' : '', s.truncated ? ' · truncated' : '')) : null,
      s.details ? h('details', {}, h('summary', {}, 'details'), h('pre', {}, json(s.details))) : null);
    for (const li of Array.from(list.children)) li.classList.toggle('current', Number((li as HTMLElement).dataset.index) === index);
    list.children[index]?.scrollIntoView({ block: 'nearest' });
  }

  const go = (i: number) => { index = i; render(); };
  scrub.addEventListener('input', () => go(Number(scrub.value)));
  prev.addEventListener('click', () => go(index - 1));
  next.addEventListener('click', () => go(index + 1));
  showMarks.addEventListener('change', () => { if (view?.steps[index]) void drawMarks(view.steps[index]); });
  img.addEventListener('load', () => { if (view?.steps[index]) void drawMarks(view.steps[index]); });
  const onKey = (e: KeyboardEvent) => {
    if (!view || (e.target instanceof HTMLInputElement && e.target.type !== 'range')) return;
    const n = view.steps.length;
    const to = ({ ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: n - 1, PageDown: index + 10, PageUp: index - 10 } as Record<string, number>)[e.key];
    if (to === undefined) return;
    e.preventDefault();
    go(Math.max(0, Math.min(n - 1, to)));
  };
  window.addEventListener('keydown', onKey);

  getJson<TrajectoryView>(`/api/trajectory?file=${encodeURIComponent(file)}`).then((v) => {
    view = v;
    scrub.max = String(Math.max(0, v.steps.length - 1));
    const meta = Object.entries(v.meta).filter(([, x]) => x !== null && x !== undefined && typeof x !== 'object').map(([k, x]) => `${k}: ${x}`).join(' · ');
    clear(head,
      h('h2', {}, v.dir),
      h('p.muted', {}, `${v.format === 'env' ? 'Env recorder' : 'task runner'} format · ${v.steps.length} steps`, meta ? ` · ${meta}` : '', v.tornTail ? ' · last line torn (still being written, or a crash)' : ''),
      v.result ? h('p#result', {}, 'result: ', v.result.score !== undefined ? `score ${v.result.score}` : '', v.result.passed !== undefined ? (v.result.passed ? ' · passed' : ' · failed') : '', v.result.status ? ` · ${v.result.status}` : '') : null);
    clear(list, v.steps.map((s) => h('li', { 'data-index': s.index, class: `actor-${s.actor}`, onclick: () => go(s.index) },
      h('span.t', {}, s.t > 1e12 ? time(s.t) : `${(s.t / 1000).toFixed(1)} s`), ' ', h('span.who', {}, s.actor === 'human' ? 'person' : s.actor), ' ', s.title,
      s.reward ? h('span.reward', {}, ` reward ${s.reward}`) : null)));
    render();
  }).catch((err: Error) => clear(head, h('p.error', {}, err.message)));

  return () => window.removeEventListener('keydown', onKey);
}
