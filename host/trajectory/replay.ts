// The one replayer: performs a recorded trajectory again through an Env. The first episode's
// reset (with the workspace saved beside the trajectory), then every agent action and every
// recorded human input in the order they happened. A click on a Set-of-Marks id goes to the
// point the original click landed on (mark ids belong to the original session); a condition
// the original waited for (a `sync` note) is waited for again. Human input goes in as the key
// and button presses the person made. `pwp replay`, the replay agent and library users all
// come through here.
import { isAbsolute, join } from 'node:path';
import type { HumanEvent } from '../../bridge/protocol';
import type { Action } from '../env/actions';
import type { EnvLike, ResetOptions, StepResult } from '../env/env';
import { waitForSettle } from '../env/running/settle';
import { match } from '../evaluation/matcher';
import { eventually } from '../tasks/steps';
import { readTrajectory, type Trajectory, type TrajectoryRecord } from './trajectoryFile';

export interface ReplayOptions {
  /** Which episode (reset) to replay, 1-based; default the first. */
  episode?: number;
  /** Called after each replayed record (progress output). */
  onRecord?: (r: TrajectoryRecord, index: number, total: number) => void;
  signal?: AbortSignal;
}

export interface ReplayResult {
  agentSteps: number;
  humanEvents: number;
  /** Steps whose outcome differed from the recording: an error now but not then, or the other way round. */
  divergences: { seq: number; recorded: string | null; replayed: string | null }[];
  terminated: boolean;
  /** The reward of the last step replayed (a task Env's grade when that step was done). */
  reward: number | null;
  /** The last step's info (a task Env puts the evaluation there). */
  last: StepResult | null;
  durationMs: number;
}

/** xdotool argv for a person's input event; null for what cannot be replayed as input (clipboard). */
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

/** Performs an episode's records (after its reset) on an Env that is already reset. */
export async function replayRecords(records: readonly TrajectoryRecord[], env: EnvLike, o: ReplayOptions = {}): Promise<ReplayResult> {
  const t0 = Date.now();
  const result: ReplayResult = { agentSteps: 0, humanEvents: 0, divergences: [], terminated: false, reward: null, last: null, durationMs: 0 };
  let buttons = 0;
  for (const [i, r] of records.entries()) {
    if (o.signal?.aborted) throw o.signal.reason;
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
      if (argv) await env.unwrapped.client.call('input.xdotool', { argv });
      result.humanEvents++;
    } else if (r.type === 'sync' && r.ok) {
      await eventually(() => env.unwrapped.query(r.ide as 'ide.status', r.params as never), (v) => match(v, r.match).ok,
        Math.max(15_000, r.ms * 3), `${r.ide} matching ${JSON.stringify(r.match)}`);
    }
    o.onRecord?.(r, i, records.length);
  }
  // Human input is not followed by a settle wait as agent steps are: let the last of it land.
  if (!result.terminated && result.humanEvents) await waitForSettle(env.unwrapped.client);
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
  const r = await replayRecords(records, env, o);
  return { ...r, durationMs: Date.now() - t0 };
}
