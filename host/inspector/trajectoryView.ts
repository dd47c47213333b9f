// Trajectories as the viewer steps through them: one entry a thing that happened (an agent
// step, a tool call, a person's input, a checkpoint), each with the screen after it, the
// action, the tool call and its result, the model's text and the reward. The format is the
// one RecordTrajectory writes (host/trajectory: header/reset/step/human records, with notes,
// waits, model turns and the run's end; result.json beside a task run). Runs recorded before
// there was one format (call/exec/screenshot/note records) are still read. Pure file
// reading, no environment needed.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import type { HumanEvent } from '../../bridge/protocol';
import { readTrajectory, TRAJECTORY_FILE, type TrajectoryRecord } from '../trajectory/trajectoryFile';
import { HumanInputFolder, type HumanAction } from './humanInput';

export interface ToolResultView {
  isError: boolean;
  /** Text parts, and image parts as files beside the trajectory. */
  content: ({ type: 'text'; text: string } | { type: 'image'; file: string })[];
}

export interface TrajectoryStep {
  index: number;
  /** ms since the epoch (Env format) or since the run started (task format) */
  t: number;
  actor: 'agent' | 'human' | 'system';
  kind: string;
  /** One line: what happened. */
  title: string;
  action?: unknown;
  tool?: { name: string; args: unknown; result?: ToolResultView };
  /** What the model said with this step, when the agent recorded it. */
  modelText?: string;
  reward?: number;
  terminated?: boolean;
  truncated?: boolean;
  error?: string;
  /** Files beside the trajectory (relative paths). */
  screenshot?: string;
  marksImage?: string;
  marks?: string;
  /** The step whose screenshot `screenshot` is, when this step has none of its own. */
  screenshotFrom?: number;
  details?: Record<string, unknown>;
}

export interface TrajectoryView {
  /** Absolute path of the folder; image paths are relative to it. */
  dir: string;
  format: 'env' | 'task';
  meta: Record<string, unknown>;
  steps: TrajectoryStep[];
  /** The final score, when the run was graded. */
  result: { score?: number; passed?: boolean; status?: string } | null;
  tornTail: boolean;
}

export interface TrajectorySummary {
  /** The trajectory.jsonl file. */
  file: string;
  dir: string;
  /** Relative to the root it was found under. */
  name: string;
  root: string;
  modified: string;
  bytes: number;
  format: 'env' | 'task' | 'unknown';
  envId: string | null;
}

/** Text the model produced with a step, wherever an agent put it in the step's info. */
function modelTextOf(info: Record<string, unknown> | undefined): string | undefined {
  if (!info) return undefined;
  for (const k of ['modelText', 'thought', 'reasoning', 'assistant', 'message']) {
    const v = info[k];
    if (typeof v === 'string' && v.trim()) return v;
    if (v && typeof v === 'object' && typeof (v as { text?: unknown }).text === 'string') return (v as { text: string }).text;
  }
  return undefined;
}

function toolResultOf(r: unknown): ToolResultView | undefined {
  const x = r as { content?: { type?: string; text?: string; file?: string }[]; isError?: boolean } | undefined;
  if (!x || !Array.isArray(x.content)) return undefined;
  return {
    isError: !!x.isError,
    content: x.content.flatMap((c): ToolResultView['content'] => (c.type === 'text' && typeof c.text === 'string' ? [{ type: 'text' as const, text: c.text }]
      : c.type === 'image' && typeof c.file === 'string' ? [{ type: 'image' as const, file: c.file }] : [])),
  };
}

export function actionTitle(a: Record<string, unknown>): string {
  const at = a.mark !== undefined ? ` mark ${a.mark}` : a.x !== undefined ? ` (${a.x}, ${a.y})` : '';
  switch (a.type) {
    case 'key': return `key ${a.keys}${a.repeat && a.repeat !== 1 ? ` ×${a.repeat}` : ''}`;
    case 'type': return `type ${JSON.stringify(String(a.text).slice(0, 80))}`;
    case 'click': case 'double_click': case 'right_click': return `${String(a.type).replace('_', ' ')}${at}`;
    case 'tool': return `tool ${a.name}`;
    case 'done': return a.answer ? `done: ${String(a.answer).slice(0, 80)}` : 'done';
    case 'wait': return `wait ${a.ms} ms`;
    case 'xdotool': return `xdotool ${a.command ?? (a.argv as string[] | undefined)?.join(' ') ?? ''}`;
    case 'exec': return `exec ${((a.argv as string[] | undefined) ?? []).join(' ').slice(0, 100)}`;
    case 'write_file': return `write ${a.path}`;
    case 'ide': return `${a.method}`;
    default: return String(a.type);
  }
}

/** `rewarded`: false when the recorded Env had no reward (no task, no reward function), so its steps' 0 is shown as no reward at all. */
function fromEnvFormat(records: TrajectoryRecord[], rewarded: boolean): TrajectoryStep[] {
  const steps: TrajectoryStep[] = [];
  const folder = new HumanInputFolder();
  // Human events fold into actions; a typing run may grow over several events.
  const stepOf = new Map<HumanAction, TrajectoryStep>();
  const push = (s: Omit<TrajectoryStep, 'index'>) => {
    steps.push({ ...s, index: steps.length });
    if (s.actor !== 'human') folder.interrupt();
  };
  // Notes and model text go with the step after them.
  let pendingNote: string | undefined;
  const takeNote = () => { const n = pendingNote; pendingNote = undefined; return n; };
  for (const r of records) {
    switch (r.type) {
      case 'header': break;
      case 'note': pendingNote = pendingNote ? `${pendingNote}\n${r.text}` : r.text; break;
      case 'model': if (r.text.trim()) pendingNote = pendingNote ? `${pendingNote}\n${r.text}` : r.text; break;
      case 'toolResult': break; // the step that ran the tool carries its result
      case 'modelError': push({ t: r.t, actor: 'agent', kind: 'error', title: `model error: ${r.error}`, error: r.error }); break;
      case 'agentStats': push({ t: r.t, actor: 'system', kind: 'agentStats', title: `agent stopped: ${r.stats.stoppedBy}`, details: { ...r.stats } }); break;
      case 'sync': push({ t: r.t, actor: 'agent', kind: 'sync', title: `waited for ${r.ide} (${r.ok ? 'ok' : 'not reached'})`, details: { params: r.params, match: r.match, ms: r.ms } }); break;
      case 'rewardAsked': push({ t: r.t, actor: 'agent', kind: 'rewardAsked', title: `asked for its grade: ${r.outcome === 'score' ? `score ${r.score}` : 'refused'} (${r.reason})`, details: { step: r.step, outcome: r.outcome, score: r.score } }); break;
      case 'end':
        push({ t: r.t, actor: 'system', kind: 'end', title: `end: ${r.status}${r.score !== undefined ? `, score ${r.score}` : ''}${r.reason ? ` (${r.reason})` : ''}`, terminated: r.status === 'finished', truncated: r.status === 'truncated', modelText: takeNote() });
        break;
      case 'reset':
        push({
          t: r.t, actor: 'system', kind: 'reset', title: `reset${r.seed !== null ? ` (seed ${r.seed})` : ''}`,
          screenshot: r.observation.screenshot, marksImage: r.observation.marksImage, marks: r.observation.marks?.file,
          details: { options: r.options, info: r.info },
        });
        break;
      case 'step': {
        const info = r.info as Record<string, unknown>;
        const a = r.action as Record<string, unknown>;
        const err = info.error as { message?: string } | undefined;
        push({
          t: r.t, actor: 'agent', kind: 'step', title: `step ${r.step}: ${actionTitle(a)}`, action: r.action,
          tool: a.type === 'tool' ? { name: String(a.name), args: a.args ?? {}, result: toolResultOf(info.toolResult) } : undefined,
          modelText: modelTextOf(info) ?? takeNote(), reward: rewarded ? r.reward : undefined, terminated: r.terminated, truncated: r.truncated,
          error: err?.message, screenshot: r.observation.screenshot, marksImage: r.observation.marksImage, marks: r.observation.marks?.file,
          details: { info: { ...info, toolResult: undefined }, timings: r.observation.timings },
        });
        break;
      }
      case 'human': {
        const before = folder.actions.length;
        folder.push([r.event as HumanEvent]);
        const acts = folder.actions;
        for (let i = before; i < acts.length; i++) {
          push({ t: acts[i].t, actor: 'human', kind: `human ${acts[i].kind}`, title: `person: ${acts[i].text}` });
          stepOf.set(acts[i], steps[steps.length - 1]);
        }
        const grown = acts.length === before ? stepOf.get(acts[before - 1]) : undefined;
        if (grown) grown.title = `person: ${acts[before - 1].text}`;
        break;
      }
      case 'checkpoint': case 'restore':
        push({ t: r.t, actor: 'system', kind: r.type, title: `${r.type} ${r.name}`, details: r.result });
        break;
      case 'error':
        push({ t: r.t, actor: 'agent', kind: 'error', title: `error during ${r.during}: ${r.error.message}`, action: r.action, error: r.error.message });
        break;
      default:
        push({ t: r.t, actor: 'system', kind: r.type, title: r.type });
    }
  }
  return steps;
}

type TaskRecord = { i: number; t: number; type: string } & Record<string, unknown>;

function fromTaskFormat(records: TaskRecord[]): TrajectoryStep[] {
  const steps: TrajectoryStep[] = [];
  const push = (s: Omit<TrajectoryStep, 'index'>) => steps.push({ ...s, index: steps.length });
  let pendingNote: string | undefined;
  for (const r of records) {
    switch (r.type) {
      case 'call': {
        const method = String(r.method);
        const params = r.params as Record<string, unknown>;
        const isTool = method === 'tools.call';
        push({
          t: r.t, actor: 'agent', kind: 'call',
          title: isTool ? `tool ${params.name}` : `${method} ${JSON.stringify(params).slice(0, 100)}`,
          action: { method, params },
          tool: isTool ? { name: String(params.name), args: params.args ?? {}, result: toolResultOf(r.result) } : undefined,
          modelText: pendingNote, error: typeof r.error === 'string' ? r.error : undefined,
          details: { ms: r.ms, result: isTool ? undefined : r.result },
        });
        pendingNote = undefined;
        break;
      }
      case 'exec':
        push({ t: r.t, actor: 'agent', kind: 'exec', title: `exec ${(r.argv as string[]).join(' ').slice(0, 100)}`, action: { argv: r.argv, cwd: r.cwd }, details: { exitCode: r.exitCode, stdoutTail: r.stdoutTail, ms: r.ms }, modelText: pendingNote });
        pendingNote = undefined;
        break;
      case 'writeFile':
        push({ t: r.t, actor: 'agent', kind: 'writeFile', title: `write ${r.path} (${r.bytes} bytes)`, action: { path: r.path, content: r.content }, modelText: pendingNote });
        pendingNote = undefined;
        break;
      case 'screenshot': {
        // A screenshot belongs to the action before it (taken once the screen settled).
        const prev = steps[steps.length - 1];
        if (prev && !prev.screenshot && prev.kind !== 'screenshot') prev.screenshot = String(r.file);
        else push({ t: r.t, actor: 'system', kind: 'screenshot', title: `screen: ${r.label}`, screenshot: String(r.file) });
        break;
      }
      case 'note': pendingNote = pendingNote ? `${pendingNote}\n${r.text}` : String(r.text); break;
      case 'answer': push({ t: r.t, actor: 'agent', kind: 'answer', title: `answer: ${String(r.text).slice(0, 80)}`, modelText: String(r.text) }); break;
      case 'sync': push({ t: r.t, actor: 'agent', kind: 'sync', title: `waited for ${r.ide} (${r.ok ? 'ok' : 'not reached'})`, details: { params: r.params, match: r.match, ms: r.ms } }); break;
      case 'end': push({ t: r.t, actor: 'system', kind: 'end', title: `end: ${r.status}${r.reason ? ` (${r.reason})` : ''}`, terminated: r.status === 'finished', truncated: r.status === 'truncated', modelText: pendingNote }); break;
      default: push({ t: r.t, actor: 'system', kind: r.type, title: r.type });
    }
  }
  if (pendingNote) push({ t: records[records.length - 1]?.t ?? 0, actor: 'agent', kind: 'note', title: 'note', modelText: pendingNote });
  return steps;
}

/** Steps without a screenshot show the latest one before them. */
function carryScreens(steps: TrajectoryStep[]): void {
  let last: TrajectoryStep | undefined;
  for (const s of steps) {
    if (s.screenshot) { last = s; continue; }
    if (last?.screenshot) { s.screenshot = last.screenshot; s.screenshotFrom = last.index; }
  }
}

function formatOf(file: string): 'env' | 'task' | 'unknown' {
  try {
    const fd = readFileSync(file, 'utf8').slice(0, 4096);
    const first = JSON.parse(fd.split('\n')[0]) as Record<string, unknown>;
    if (first.type === 'header') return 'env';
    if (typeof first.i === 'number') return 'task';
  } catch { /* empty or torn */ }
  return 'unknown';
}

export function trajectoryFileOf(path: string): string {
  return existsSync(path) && statSync(path).isDirectory() ? join(path, TRAJECTORY_FILE) : path;
}

/** Reads a trajectory (its folder or its .jsonl) for the viewer. */
export function loadTrajectoryView(path: string): TrajectoryView {
  const file = resolve(trajectoryFileOf(path));
  if (!existsSync(file)) throw new Error(`no trajectory at ${path}`);
  const dir = dirname(file);
  const format = formatOf(file);
  let steps: TrajectoryStep[];
  let meta: Record<string, unknown> = {};
  let torn = false;
  if (format === 'task') {
    const lines = readFileSync(file, 'utf8').split('\n').filter((l) => l.trim());
    const records: TaskRecord[] = [];
    lines.forEach((l, i) => {
      try { records.push(JSON.parse(l) as TaskRecord); } catch { if (i === lines.length - 1) torn = true; else throw new Error(`${file}:${i + 1}: not a JSON record`); }
    });
    steps = fromTaskFormat(records);
  } else {
    const t = readTrajectory(file);
    meta = t.header?.meta ?? {};
    torn = t.tornTail !== null;
    // Older trajectories do not say: their rewards are shown as recorded.
    steps = fromEnvFormat(t.records, meta.rewarded !== false);
  }
  carryScreens(steps);
  let result: TrajectoryView['result'] = null;
  const resultFile = join(dir, 'result.json');
  if (existsSync(resultFile)) {
    try {
      const r = JSON.parse(readFileSync(resultFile, 'utf8')) as { score?: number; passed?: boolean; status?: string; task?: string; agent?: string };
      result = { score: r.score, passed: r.passed, status: r.status };
      meta = { task: r.task, agent: r.agent, ...meta };
      const end = [...steps].reverse().find((s) => s.kind === 'end');
      if (end && typeof r.score === 'number') end.reward = r.score;
    } catch { /* a half-written result.json: no reward shown */ }
  } else {
    const rewards = steps.filter((s) => typeof s.reward === 'number');
    if (rewards.length) result = { score: rewards.reduce((n, s) => n + (s.reward ?? 0), 0) };
  }
  return { dir, format: format === 'task' ? 'task' : 'env', meta, steps, result, tornTail: torn };
}

/** The environment a trajectory belongs to, from its header or first reset (Env format). */
export function trajectoryEnvId(file: string): string | null {
  try {
    const head = readFileSync(file, 'utf8').slice(0, 64 * 1024).split('\n').slice(0, 3);
    for (const line of head) {
      const r = JSON.parse(line) as { type?: string; meta?: { envId?: unknown }; info?: { envId?: unknown } };
      if (r.type === 'header' && typeof r.meta?.envId === 'string') return r.meta.envId;
      if (r.type === 'reset' && typeof r.info?.envId === 'string') return r.info.envId;
    }
  } catch { /* not readable yet */ }
  return null;
}

/** trajectory.jsonl files under the roots (newest first), at most `depth` folders down. */
export function listTrajectories(roots: readonly string[], depth = 6, limit = 500): TrajectorySummary[] {
  const out: TrajectorySummary[] = [];
  const walk = (root: string, dir: string, d: number) => {
    let entries;
    try { entries = readdirSync(dir, { withFileTypes: true }); } catch { return; }
    for (const e of entries) {
      if (e.isFile() && e.name === TRAJECTORY_FILE) {
        const file = join(dir, e.name);
        const st = statSync(file);
        out.push({
          file, dir, root, name: relative(root, dir) || '.', modified: st.mtime.toISOString(), bytes: st.size,
          format: formatOf(file), envId: trajectoryEnvId(file),
        });
      } else if (e.isDirectory() && d > 0 && !e.name.startsWith('.') && e.name !== 'screenshots' && !/^episode-\d+$/.test(e.name)) {
        walk(root, join(dir, e.name), d - 1);
      }
    }
  };
  for (const r of roots) walk(resolve(r), resolve(r), depth);
  return out.sort((a, b) => b.modified.localeCompare(a.modified)).slice(0, limit);
}

/** Resolves `rel` inside `dir`, refusing anything that leaves it. */
export function fileInside(dir: string, rel: string): string | null {
  const base = resolve(dir);
  const p = resolve(base, rel);
  return p.startsWith(base + sep) ? p : null;
}
