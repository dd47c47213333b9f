// Bench part (scripts/performance/performance.ts runs it): episodes per hour on real tasks. The vscode-config
// suite's oracle acts through the task Env (makeEnv: reset sets the task up, the done step
// grades it in a verifier container), with environments from a warm EnvPool, 1, 2 and 4
// episodes at a time; the naive way, measured beside it, runs 4 at a time with a new container
// per episode. Every level runs the same tasks (the suite's first N), so the levels compare
// like for like. An oracle episode that does not score 1 is a bench error: it is reported and
// left out of the count.
import { OracleAgent } from '../../host/agents/oracleAgent';
import type { DockerDeployment } from '../../host/deployment/dockerDeployment';
import type { EnvLike, StepInfo, StepResult } from '../../host/env/env';
import type { Action } from '../../host/env/actions';
import { EnvPool } from '../../host/env/pool';
import { makeEnv } from '../../host/taskEnv/taskEnv';
import { EnvWrapper } from '../../host/env/wrappers';
import { resolveTasks, taskName, type Task } from '../../host/taskEnv/loadTask';
import { runAgent } from '../../host/runs/runTask';
import { pct, ratio } from './stats';

type Figures = Record<string, number | string | null>;
type Row = [string, string, string, string];

export const TASK_EPISODE_LEVELS = [1, 2, 4] as const;
const SUITE = 'vscode-config';
const LABELS = { 'pwp.bench': 'task-episodes' };

interface Episode {
  task: string;
  /** ms from makeEnv to the environment removed: reset, the agent, grading, close */
  ms: number;
  /** ms of the agent's own work: its run (steps, and its waits on the IDE between them) less the done step's grading */
  agentMs: number;
  resetMs: number;
  gradeMs: number;
  /** ms to remove the environment (a force-remove of the container and its network) */
  closeMs: number;
  error?: string;
}

/** Keeps every step's info, so the episode can tell the agent's time from the grading's. */
class StepLog extends EnvWrapper {
  readonly steps: StepInfo[] = [];
  override async step(action: Action): Promise<StepResult> {
    const r = await super.step(action);
    this.steps.push(r.info);
    return r;
  }
}

async function episode(task: Task, o: { image: string; deployment: DockerDeployment; pool?: EnvPool }): Promise<Episode> {
  const t0 = performance.now();
  const env = new StepLog(makeEnv(task, {
    image: o.image, deployment: o.deployment, pool: o.pool, labels: LABELS,
    // What `pwp run` observes: a JPEG screenshot after every step.
    observe: ['screenshot'], observeOptions: { format: 'jpeg', quality: 70 },
  }));
  const e: Episode = { task: taskName(task), ms: 0, agentMs: 0, resetMs: 0, gradeMs: 0, closeMs: 0 };
  try {
    e.resetMs = (await env.reset()).info.durationMs;
    const ta = performance.now();
    const { outcome, error } = await runAgent(new OracleAgent(), env as EnvLike, task);
    const runMs = performance.now() - ta;
    // The done step grades (the task Env's stepReward); done neither settles nor, here, takes long to observe.
    const done = env.steps.find((s) => s.action.type === 'done' && s.evaluation);
    e.gradeMs = done ? done.durationMs - done.actionMs - done.observeMs : 0;
    e.agentMs = runMs - e.gradeMs;
    const ev = done?.evaluation;
    e.error = error ?? outcome.error ?? (outcome.status === 'truncated' ? `truncated: ${outcome.reason}`
      : !ev ? 'the oracle ended without a graded done step' : ev.score !== 1 ? `scored ${ev.score}: ${ev.summary}` : undefined);
  } catch (err) {
    e.error = (err as Error).message;
  } finally {
    const tc = performance.now();
    await env.close().catch(() => undefined);
    e.closeMs = performance.now() - tc;
    e.ms = performance.now() - t0;
  }
  return e;
}

/** `tasks` with `concurrency` episodes at a time, timed from the first episode's start to the last one's end. */
async function level(tasks: Task[], concurrency: number, o: { image: string; deployment: DockerDeployment; pooled: boolean }): Promise<{ wallMs: number; episodes: Episode[] }> {
  // A pool as big as the episodes at a time, that starts no more environments than the level has episodes.
  const pool = o.pooled ? new EnvPool({ size: concurrency, total: tasks.length, spec: { image: o.image, labels: LABELS }, deployment: o.deployment }) : undefined;
  try {
    await pool?.fill(); // a warm pool is kept ready between benches; filling it is not an episode's cost
    const t0 = performance.now();
    const episodes: Episode[] = [];
    let next = 0;
    await Promise.all(Array.from({ length: Math.min(concurrency, tasks.length) }, async () => {
      while (next < tasks.length) episodes.push(await episode(tasks[next++], { ...o, pool }));
    }));
    return { wallMs: performance.now() - t0, episodes };
  } finally {
    await pool?.close();
  }
}

function levelFigures(suffix: string, r: { wallMs: number; episodes: Episode[] }): Figures {
  const ok = r.episodes.filter((e) => !e.error);
  const p50 = (f: (e: Episode) => number) => (ok.length ? Math.round(pct(ok.map(f), 50)) : null);
  return {
    [`task_episodes_per_hour_${suffix}`]: Math.round((ok.length * 3_600_000) / r.wallMs),
    [`task_episode_p50_ms_${suffix}`]: p50((e) => e.ms),
    [`task_episode_overhead_p50_ms_${suffix}`]: p50((e) => e.ms - e.agentMs),
    [`task_episode_reset_p50_ms_${suffix}`]: p50((e) => e.resetMs),
    [`task_episode_grade_p50_ms_${suffix}`]: p50((e) => e.gradeMs),
    [`task_episode_close_p50_ms_${suffix}`]: p50((e) => e.closeMs),
    [`task_episode_agent_p50_ms_${suffix}`]: p50((e) => e.agentMs),
    [`task_episode_errors_${suffix}`]: r.episodes.length - ok.length,
  };
}

/**
 * The vscode-config oracle, `perLevel` tasks at each of 1, 2 and 4 at a time from a warm pool,
 * and 4 at a time with a new container each. `errors` lists the failed episodes (a bench error).
 * With more tasks than episodes at a time, later episodes take environments the pool started
 * while earlier ones ran (a steady state, not only the pre-filled pool).
 */
export async function benchTaskEpisodes(
  deployment: DockerDeployment, image: string, say: (l: string) => void, perLevel = 8,
): Promise<{ figures: Figures; rows: Row[]; errors: string[] }> {
  const suite = resolveTasks([SUITE]);
  const tasks = Array.from({ length: perLevel }, (_, i) => suite[i % suite.length]);
  const figures: Figures = {
    task_episodes_tasks: tasks.map(taskName).join(' '),
    task_episodes_method: `${SUITE} oracle through makeEnv, the same ${perLevel} tasks per level; per level: wall clock from the first episode's start to the last one's end `
      + '(warm pool of the level\'s size, filled before the clock starts, refilling while episodes run: with more tasks than the level, later episodes wait for refills if they are not ready); episode = makeEnv + reset (pool acquire, files, task set-up, settle, screenshot) '
      + '+ the oracle + grading in a verifier (the done step) + close (container removed); agent time = the oracle\'s run (its steps with their settle and screenshot, and its waits on the IDE) '
      + 'less the done step\'s grading; overhead = episode - agent time; naive = 4 at a time, a new container per episode',
  };
  const rows: Row[] = [];
  const errors: string[] = [];
  const run = async (concurrency: number, pooled: boolean): Promise<void> => {
    const suffix = `${concurrency}${pooled ? '' : '_naive'}`;
    say(`task episodes: ${SUITE} oracle, ${tasks.length} episodes, ${concurrency} at a time, ${pooled ? 'warm pool' : 'a new container each'}`);
    const r = await level(tasks, concurrency, { image, deployment, pooled });
    for (const e of r.episodes) if (e.error) errors.push(`task episodes (${suffix}): ${e.task}: ${e.error}`);
    Object.assign(figures, levelFigures(suffix, r));
  };
  for (const c of TASK_EPISODE_LEVELS) await run(c, true);
  await run(4, false);
  const perHour4 = figures.task_episodes_per_hour_4 as number;
  const naive4 = figures.task_episodes_per_hour_4_naive as number;
  figures.task_episodes_per_hour_ratio_4 = perHour4 && naive4 ? ratio(perHour4, naive4) : null;
  const failed = (s: string) => (figures[`task_episode_errors_${s}`] ? `, ${figures[`task_episode_errors_${s}`]} FAILED` : '');
  for (const c of TASK_EPISODE_LEVELS) {
    const four = c === 4;
    rows.push([`${SUITE} oracle episodes/hour, ${c} at a time`,
      `${figures[`task_episodes_per_hour_${c}`]} (p50 ${figures[`task_episode_p50_ms_${c}`]} ms each, `
        + `overhead ${figures[`task_episode_overhead_p50_ms_${c}`]} ms${failed(String(c))})`,
      four ? `${naive4} (new container each; overhead p50 ${figures.task_episode_overhead_p50_ms_4_naive} ms${failed('4_naive')})` : '',
      four ? `${figures.task_episodes_per_hour_ratio_4}x` : '']);
    rows.push(['  overhead, ms p50', `reset ${figures[`task_episode_reset_p50_ms_${c}`]}, grading ${figures[`task_episode_grade_p50_ms_${c}`]}, close ${figures[`task_episode_close_p50_ms_${c}`]} (agent ${figures[`task_episode_agent_p50_ms_${c}`]})`, '', '']);
  }
  return { figures, rows, errors };
}
