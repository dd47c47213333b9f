// Bench part (scripts/performance/performance.ts runs it): episodes per hour and CPU per episode on
// real tasks. The vscode-config suite's oracle acts through the task Env (makeEnv: reset sets the
// task up, the done step grades it: on the host, its evaluators only read), 1, 2 and 4 episodes at a time, three
// ways side by side in one run:
//   recycled   a pool of as many containers as episodes at a time, each recycled in place between
//              its episodes (host/checkpoint/recycle.ts), no spare: a reset waits for the recycle
//              of a used environment, so its time is what reusing one costs
//   spare      the same with one container more (one at a time only): the next episode takes the
//              one recycled while the last one ran, so the recycle is off the reset's path
//   fresh      a warm pool that hands each IDE out once and starts a replacement (a fresh IDE per
//              episode, the cold start off the episode's path but on the machine's CPU)
//   new        a new container per episode, started on the episode's path (the naive way; at 4)
// Every level runs the same tasks (the suite's first N). CPU per episode is the whole machine's busy
// CPU over the level's wall clock divided by its episodes; at 1 at a time, also less the CPU spent
// while the oracle acted (its own actions: the IDE drawing what it typed). An oracle episode that
// does not score 1 is a bench error: it is reported and left out of the count.
import { readFileSync } from 'node:fs';
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
  /** ms of the recycle the reset waited for (a used environment), by phase */
  recycle?: { ms: number; how: string; phases: Record<string, number> };
  /** CPU-seconds of the whole machine while the oracle acted, its done step's grading left out (meaningful one at a time) */
  agentCpu: number;
  gradeMs: number;
  /** ms to remove the environment (a force-remove of the container and its network) */
  closeMs: number;
  error?: string;
}

/** Keeps every step's info, so the episode can tell the agent's time from the grading's. */
class StepLog extends EnvWrapper {
  readonly steps: StepInfo[] = [];
  /** CPU-seconds of the whole machine during the done step: the grading, not the agent's. */
  doneCpu = 0;
  override async step(action: Action): Promise<StepResult> {
    const c0 = busyCpuSeconds();
    const r = await super.step(action);
    if (action.type === 'done') this.doneCpu += busyCpuSeconds() - c0;
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
  const e: Episode = { task: taskName(task), ms: 0, agentMs: 0, resetMs: 0, agentCpu: 0, gradeMs: 0, closeMs: 0 };
  try {
    const reset = await env.reset();
    e.resetMs = reset.info.durationMs;
    const r = reset.info.recycled;
    if (r) e.recycle = { ms: r.ms, how: r.how, phases: r.phases };
    const ta = performance.now();
    const ca = busyCpuSeconds();
    const { outcome, error } = await runAgent(new OracleAgent(), env as EnvLike, task);
    const runMs = performance.now() - ta;
    // The done step grades: its CPU is the episode's overhead, not the oracle's.
    e.agentCpu = busyCpuSeconds() - ca - env.doneCpu;
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

/** How the environments of a level are had: see the header. */
type Way = 'recycled' | 'spare' | 'fresh' | 'new';

/** The whole machine's busy CPU-seconds since boot (all cores: user, nice, system, irq, softirq, steal). */
function busyCpuSeconds(): number {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  return (f[0] + f[1] + f[2] + f[5] + f[6] + (f[7] ?? 0)) / 100;
}

/** `tasks` with `concurrency` episodes at a time, timed from the first episode's start to the last one's end. */
interface LevelRun { wallMs: number; cpu: number; episodes: Episode[] }

async function level(tasks: Task[], concurrency: number, way: Way, o: { image: string; deployment: DockerDeployment }): Promise<LevelRun> {
  const spec = { image: o.image, labels: LABELS };
  const recycling = way === 'recycled' || way === 'spare';
  // A warm-up round of `concurrency` episodes before the clock, so that every timed episode
  // meets the pool as it is in a long run: recycled ones a used environment to recycle, fresh ones
  // a replacement start of their own (with the pool's first IDEs on the clock, a quarter of a
  // 16-episode level at 4 at a time needed no start: the fresh figure was flattered).
  const warmUp = way === 'new' ? [] : tasks.slice(0, concurrency);
  const served = tasks.length + warmUp.length;
  const pool = recycling ? new EnvPool({ size: concurrency, total: concurrency + (way === 'spare' ? 1 : 0), episodes: served, spec, deployment: o.deployment, recycle: {} })
    : way === 'fresh' ? new EnvPool({ size: concurrency, total: served, spec, deployment: o.deployment, recycle: false })
      : undefined;
  try {
    await pool?.fill(); // a warm pool is kept ready between benches; filling it is not an episode's cost
    const warm = await Promise.all(warmUp.map((t) => episode(t, { ...o, pool })));
    const failed = warm.find((e) => e.error);
    if (failed) throw new Error(`the warm-up episode ${failed.task} failed: ${failed.error}`);
    const t0 = performance.now();
    const c0 = busyCpuSeconds();
    const episodes: Episode[] = [];
    let next = 0;
    await Promise.all(Array.from({ length: Math.min(concurrency, tasks.length) }, async () => {
      while (next < tasks.length) episodes.push(await episode(tasks[next++], { ...o, pool }));
    }));
    return { wallMs: performance.now() - t0, cpu: busyCpuSeconds() - c0, episodes };
  } finally {
    await pool?.close();
  }
}

function levelFigures(suffix: string, r: LevelRun): Figures {
  const ok = r.episodes.filter((e) => !e.error);
  const p50 = (f: (e: Episode) => number) => (ok.length ? Math.round(pct(ok.map(f), 50)) : null);
  const recycles = ok.filter((e) => e.recycle);
  const phases = [...new Set(recycles.flatMap((e) => Object.keys(e.recycle!.phases)))];
  return {
    [`task_episodes_per_hour_${suffix}`]: Math.round((ok.length * 3_600_000) / r.wallMs),
    [`task_episode_cpu_s_${suffix}`]: ok.length ? +(r.cpu / ok.length).toFixed(2) : null,
    [`task_episode_cpu_besides_agent_s_${suffix}`]: ok.length ? +((r.cpu - ok.reduce((n, e) => n + e.agentCpu, 0)) / ok.length).toFixed(2) : null,
    [`task_episode_p50_ms_${suffix}`]: p50((e) => e.ms),
    [`task_episode_overhead_p50_ms_${suffix}`]: p50((e) => e.ms - e.agentMs),
    [`task_episode_reset_p50_ms_${suffix}`]: p50((e) => e.resetMs),
    [`task_episode_reset_used_p50_ms_${suffix}`]: recycles.length ? Math.round(pct(recycles.map((e) => e.resetMs), 50)) : null,
    [`task_episode_recycle_p50_ms_${suffix}`]: recycles.length ? Math.round(pct(recycles.map((e) => e.recycle!.ms), 50)) : null,
    [`task_episode_recycle_phases_p50_ms_${suffix}`]: recycles.length
      ? phases.map((k) => `${k} ${Math.round(pct(recycles.map((e) => e.recycle!.phases[k] ?? 0), 50))}`).join(', ') : null,
    [`task_episode_reloads_${suffix}`]: recycles.filter((e) => e.recycle!.how !== 'in-place').length,
    [`task_episode_grade_p50_ms_${suffix}`]: p50((e) => e.gradeMs),
    [`task_episode_close_p50_ms_${suffix}`]: p50((e) => e.closeMs),
    [`task_episode_agent_p50_ms_${suffix}`]: p50((e) => e.agentMs),
    [`task_episode_errors_${suffix}`]: r.episodes.length - ok.length,
  };
}

/**
 * The vscode-config oracle, `perLevel` tasks at each of 1, 2 and 4 at a time, recycled and with a
 * fresh IDE each, and 4 at a time with a new container each. `errors` lists the failed episodes
 * (a bench error).
 */
export async function benchTaskEpisodes(
  deployment: DockerDeployment, image: string, say: (l: string) => void, perLevel = 16,
): Promise<{ figures: Figures; rows: Row[]; errors: string[] }> {
  const suite = resolveTasks([SUITE]);
  const tasks = Array.from({ length: perLevel }, (_, i) => suite[i % suite.length]);
  const figures: Figures = {
    task_episodes_tasks: tasks.map(taskName).join(' '),
    task_episodes_method: `${SUITE} oracle through makeEnv, the same ${perLevel} tasks per level; per level: wall clock from the first episode's start to the last one's end; `
      + 'recycled = a pool of as many containers as episodes at a time, recycled in place between episodes, no spare (a reset waits for the recycle); '
      + 'fresh = a warm pool (filled before the clock) handing each IDE out once and starting a replacement; new = a new container per episode on its path; '
      + 'the pools are filled and one warm-up round of as many episodes as run at a time is played before the clock (every timed episode meets a used environment, or needs a start of its own); '
      + 'episode = makeEnv + reset + the oracle + grading (the done step) + close; CPU = the whole machine\'s busy CPU over the level / episodes; '
      + 'besides agent = less the CPU while the oracle acted, its done step\'s grading counted as overhead (one at a time only: at 2 and 4 the windows overlap other episodes\' work)',
  };
  const rows: Row[] = [];
  const errors: string[] = [];
  const run = async (concurrency: number, way: Way): Promise<void> => {
    const suffix = `${concurrency}_${way}`;
    say(`task episodes: ${SUITE} oracle, ${tasks.length} episodes, ${concurrency} at a time, ${way}`);
    const r = await level(tasks, concurrency, way, { image, deployment });
    for (const e of r.episodes) if (e.error) errors.push(`task episodes (${suffix}): ${e.task}: ${e.error}`);
    Object.assign(figures, levelFigures(suffix, r));
  };
  for (const c of TASK_EPISODE_LEVELS) await run(c, 'recycled');
  await run(1, 'spare');
  for (const c of TASK_EPISODE_LEVELS) await run(c, 'fresh');
  await run(4, 'new');
  const f = (k: string) => figures[k];
  for (const c of TASK_EPISODE_LEVELS) {
    const rec = f(`task_episodes_per_hour_${c}_recycled`) as number;
    const fresh = f(`task_episodes_per_hour_${c}_fresh`) as number;
    figures[`task_episodes_per_hour_ratio_${c}`] = rec && fresh ? ratio(rec, fresh) : null;
  }
  // The headline pair (docs/performance.md): recycled vs a new container each, 4 at a time.
  figures.task_episodes_per_hour_4 = f('task_episodes_per_hour_4_recycled');
  figures.task_episodes_per_hour_4_naive = f('task_episodes_per_hour_4_new');
  const perHour4 = figures.task_episodes_per_hour_4 as number;
  const naive4 = figures.task_episodes_per_hour_4_naive as number;
  figures.task_episodes_per_hour_ratio_4_naive = perHour4 && naive4 ? ratio(perHour4, naive4) : null;
  const failed = (s: string) => (f(`task_episode_errors_${s}`) ? `, ${f(`task_episode_errors_${s}`)} FAILED` : '');
  for (const c of TASK_EPISODE_LEVELS) {
    rows.push([`${SUITE} oracle episodes/hour, ${c} at a time, recycled vs a fresh IDE each`,
      `${f(`task_episodes_per_hour_${c}_recycled`)} (${f(`task_episode_cpu_s_${c}_recycled`)} CPU-s each${failed(`${c}_recycled`)})`,
      `${f(`task_episodes_per_hour_${c}_fresh`)} (${f(`task_episode_cpu_s_${c}_fresh`)} CPU-s each${failed(`${c}_fresh`)})`,
      `${f(`task_episodes_per_hour_ratio_${c}`)}x`]);
    rows.push(['  recycled: reset of a used environment p50; the recycle p50 by phase',
      `${f(`task_episode_reset_used_p50_ms_${c}_recycled`)} ms; ${f(`task_episode_recycle_p50_ms_${c}_recycled`)} ms (${f(`task_episode_recycle_phases_p50_ms_${c}_recycled`)}), ${f(`task_episode_reloads_${c}_recycled`)} reloads`,
      '', '']);
  }
  rows.push(['  recycled with one spare container, 1 at a time: reset p50 (the recycle off its path)',
    `${f('task_episode_reset_p50_ms_1_spare')} ms (${f('task_episodes_per_hour_1_spare')} episodes/hour)`, '', '']);
  rows.push(['  CPU per episode besides the oracle\'s actions, 1 at a time', `${f('task_episode_cpu_besides_agent_s_1_recycled')} CPU-s recycled`,
    `${f('task_episode_cpu_besides_agent_s_1_fresh')} CPU-s fresh IDE`, '']);
  rows.push(['vscode-config oracle episodes/hour, 4 at a time, vs a new container each', `${perHour4}`, `${naive4}${failed('4_new')}`,
    `${figures.task_episodes_per_hour_ratio_4_naive}x`]);
  return { figures, rows, errors };
}
