// The one replayer: performs a recorded trajectory again through an Env. The first episode's
// reset (with the workspace saved beside the trajectory), then every agent action and every
// recorded human input in the order they happened. A click on a Set-of-Marks id goes to the
// point the original click landed on (mark ids belong to the original session); a condition
// the original waited for (a `sync` note) is waited for again. Where the recording observed the
// IDE (`ide`), each action waits first until the replay's active editor and cursor are as they
// were then: on a slower machine the previous action may not have landed yet, and input sent
// early goes astray. (Unsaved state is not compared: a save may finish on either side of the
// original's observation.) Human input goes in as the key and button
// presses the person made, through the Env's action table (env.humanInput) like any agent
// input, but not as steps. `pwp replay`, the replay agent and library users all come through
// here.
import { isAbsolute, join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { HumanEvent } from '../../bridge/protocol';
import type { Action } from '../env/actions';
import type { EnvLike, ResetOptions, StepResult } from '../env/env';
import type { IdeSummary } from '../env/observation';
import { match } from '../evaluation/matcher';
import { eventually } from '../common/eventually';
import { readTrajectory, type Trajectory, type TrajectoryRecord } from './trajectoryFile';

export interface ReplayOptions {
  /** Which episode (reset) to replay, 1-based; default the first. */
  episode?: number;
  /** Called after each replayed record (progress output). */
  onRecord?: (r: TrajectoryRecord, index: number, total: number) => void;
  signal?: AbortSignal;
  /** How long an action waits for the recorded editor state before going ahead (default 30 s). */
  syncTimeoutMs?: number;
}

export interface ReplayResult {
  agentSteps: number;
  humanEvents: number;
  /**
   * Where the replay differed from the recording: a step's error now but not then (or the
   * other way round), or editors that never became as recorded before the next action.
   */
  divergences: { seq: number; recorded: string | null; replayed: string | null }[];
  terminated: boolean;
  /** The reward of the last step replayed (a task Env's grade when that step was done). */
  reward: number | null;
  /** The last step's info (a task Env puts the evaluation there). */
  last: StepResult | null;
  durationMs: number;
}

/** xdotool argv for a person's input event (an xdotool action's); null for what cannot be replayed as input (clipboard). */
export function humanEventArgv(e: HumanEvent, buttonsBefore: number): string[] | null {
  if (e.kind === 'key') return [e.down ? 'keydown' : 'keyup', e.name];
  if (e.kind !== 'pointer') return null;
  const at = ['mousemove', String(e.x), String(e.y)];
  const changed = e.action === 'press' || e.action === 'wheel' ? e.buttons & ~buttonsBefore : buttonsBefore & ~e.buttons;
  const button = changed ? String(Math.log2(changed & -changed) + 1) : null;
  switch (e.action) {
    case 'move': return at;
    case 'press': return button ? [...at, 'mousedown', button] : at;
    case 'release': return button ? [...at, 'mouseup', button] : at;
    case 'wheel': return button ? [...at, 'click', button] : at;
  }
}

/** The records of one episode: from its reset to the next one. */
export function episodeOf(traj: Trajectory, episode = 1): { reset: Extract<TrajectoryRecord, { type: 'reset' }>; records: TrajectoryRecord[] } {
  const resets = traj.records.map((r, i) => (r.type === 'reset' ? i : -1)).filter((i) => i >= 0);
  if (resets.length < episode) throw new Error(`${traj.dir} has ${resets.length} episode(s); cannot replay episode ${episode}`);
  const start = resets[episode - 1];
  return { reset: traj.records[start] as Extract<TrajectoryRecord, { type: 'reset' }>, records: traj.records.slice(start + 1, resets[episode] ?? traj.records.length) };
}

/** The action to perform again: a click on a mark goes where the original landed. */
function replayable(r: Extract<TrajectoryRecord, { type: 'step' }>): Action {
  const a = r.action;
  const at = r.info.at as { x: number; y: number } | undefined;
  if ((a.type === 'click' || a.type === 'double_click' || a.type === 'right_click') && a.mark !== undefined && at) {
    const { mark: _m, ...rest } = a;
    return { ...rest, x: at.x, y: at.y };
  }
  return a;
}

type EditorState = { active: string | null; line: number | null; column: number | null };

/** The editor state a recorded `ide` observation shows, or null where none was recorded. */
function recordedEditors(r: TrajectoryRecord | undefined): EditorState | null {
  const ide = r && (r.type === 'reset' || r.type === 'step') ? r.observation?.ide as IdeSummary | undefined : undefined;
  if (!ide) return null;
  const a = ide.activeEditor;
  return { active: a?.path ?? null, line: a?.line ?? null, column: a?.column ?? null };
}

function describeEditors(e: EditorState): string {
  return `${e.active ?? 'no editor'}${e.line ? `:${e.line}:${e.column}` : ''}`;
}

/** Waits until the replay's active editor and cursor are as recorded; what they are when they never get there. */
async function syncEditors(env: EnvLike, want: EditorState, timeoutMs: number): Promise<string | null> {
  const now = async (): Promise<EditorState> => {
    const { ide } = await env.observe(['ide'], { throwErrors: true });
    return recordedEditors({ type: 'step', observation: { ide } } as unknown as TrajectoryRecord)!;
  };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const got = await now().catch(() => null);
    if (got && isDeepStrictEqual(got, want)) return null;
    if (Date.now() > deadline) return got ? describeEditors(got) : 'the IDE did not answer';
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Performs an episode's records (after its reset) on an Env that is already reset; `after` is
 * the record the Env's state stands for now (the episode's reset), whose editors it waits for.
 */
export async function replayRecords(records: readonly TrajectoryRecord[], env: EnvLike, o: ReplayOptions = {}, after?: TrajectoryRecord): Promise<ReplayResult> {
  const t0 = Date.now();
  const result: ReplayResult = { agentSteps: 0, humanEvents: 0, divergences: [], terminated: false, reward: null, last: null, durationMs: 0 };
  let buttons = 0;
  // Human input is not followed by a settle wait as agent steps are: the last input of the
  // replay waits for the screen, so what it did has landed when the replay returns.
  const lastInput = records.findLastIndex((r) => r.type === 'step' || (r.type === 'human' && humanEventArgv(r.event, 0) !== null));
  // The last observed record, until the first action after it has waited for its editors.
  let observed = after;
  for (const [i, r] of records.entries()) {
    if (o.signal?.aborted) throw o.signal.reason;
    if (r.type === 'step' || r.type === 'human') {
      const want = recordedEditors(observed);
      if (want) {
        const differs = await syncEditors(env, want, o.syncTimeoutMs ?? 30_000);
        if (differs) result.divergences.push({ seq: observed!.seq, recorded: describeEditors(want), replayed: differs });
      }
      observed = r.type === 'step' ? r : undefined;
    }
    if (r.type === 'step') {
      const s = await env.step(replayable(r));
      result.agentSteps++;
      result.last = s;
      result.reward = s.reward;
      const recorded = (r.info.error as { name?: string } | undefined)?.name ?? null;
      const replayed = s.info.error?.name ?? null;
      if (recorded !== replayed) result.divergences.push({ seq: r.seq, recorded, replayed });
      if (s.terminated) result.terminated = true;
      if (s.terminated || s.truncated) break;
    } else if (r.type === 'human') {
      const argv = humanEventArgv(r.event, buttons);
      if (r.event.kind === 'pointer') buttons = r.event.buttons;
      if (argv) await env.humanInput({ type: 'xdotool', argv }, { settle: i === lastInput });
      result.humanEvents++;
    } else if (r.type === 'sync' && r.ok) {
      await eventually(() => env.query(r.ide as 'ide.status', r.params as never), (v) => match(v, r.match).ok,
        Math.max(15_000, r.ms * 3), `${r.ide} matching ${JSON.stringify(r.match)}`);
    }
    o.onRecord?.(r, i, records.length);
  }
  result.durationMs = Date.now() - t0;
  return result;
}

/** Resets the Env as the recorded episode was reset, then replays it. */
export async function replayTrajectory(path: string, env: EnvLike, o: ReplayOptions = {}): Promise<ReplayResult> {
  const t0 = Date.now();
  const traj = readTrajectory(path);
  const { reset, records } = episodeOf(traj, o.episode);
  const options = { ...reset.options } as ResetOptions;
  if (options.workspaceDir && !isAbsolute(options.workspaceDir)) options.workspaceDir = join(traj.dir, options.workspaceDir);
  await env.reset({ seed: reset.seed ?? undefined, options });
  const r = await replayRecords(records, env, o, reset);
  return { ...r, durationMs: Date.now() - t0 };
}
