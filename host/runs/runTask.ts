// One run of one agent on one task, start to finish, through the task's Env (makeEnv): the
// environment and set-up, the agent acting on the Env within the task's limits (recorded by
// RecordTrajectory: trajectory, screenshots; plus a video), grading in the verifier (the done
// step's, or the state the agent left), and result.json in the run's folder. The trajectory's
// last record says what result.json says, whatever ended the run. It drives the Env only
// through its contract (EnvLike) and reads the episode from env.episode.
import { keptLabels } from '../deployment/ownedContainers';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createDeployment } from '../deployment/backends';
import { paths } from '../common/paths';
import type { Deployment } from '../deployment/deployment';
import { readsOnly } from '../evaluation/archiveSandbox';
import type { EvaluationResult } from '../evaluation/evaluationResult';
import { testCounts } from '../evaluation/evaluationResult';
import { LimitReachedError, type Agent, type AgentOutcome } from '../agents/agent';
import type { AgentStats } from '../models/runStatistics';
import { EpisodeOverError, type EnvLike } from '../env/env';
import type { EnvPool } from '../env/pool';
import { RewardAtEnd } from '../env/wrappers';
import { makeEnv } from '../taskEnv/taskEnv';
import { readTrajectory, TRAJECTORY_FILE } from '../trajectory/trajectoryFile';
import { diffFileCount, workMetrics, type WorkMetrics } from '../trajectory/workMetrics';
import { taskName, type Task } from '../taskEnv/loadTask';
import { resolveTaskImage } from '../taskEnv/resolveTaskImage';

export interface RunResult {
  task: string;
  suite: string;
  id: string;
  agent: string;
  /** Model-driven agents: the model, as provider:model. */
  model?: string;
  attempt: number;
  score: number;
  passed: boolean;
  /** Tests that passed and ran, when the evaluator ran tests. */
  tests?: { passed: number; total: number };
  /** finished, truncated (a limit ended it), interrupted (SIGINT/SIGTERM: not graded) or error (the run could not be completed). */
  status: 'finished' | 'truncated' | 'interrupted' | 'error';
  error?: string;
  answer?: string;
  steps: number;
  evaluation?: EvaluationResult;
  image: string;
  runDir: string;
  trajectory?: string;
  video?: string;
  screenshots: number;
  timings: Record<string, number>;
  /** Model-driven agents: iterations, tool usage and transitions, tokens, stopping reason. */
  agentStats?: AgentStats;
  /** How many times the agent asked for its grade mid-episode (each a rewardAsked record in the trajectory). */
  rewardAsked?: number;
  /** How the agent worked on the code (files visited and edited, first edit, syntax errors, failure category), from the trajectory. */
  work?: WorkMetrics;
  startedAt: string;
  endedAt: string;
}

export interface RunOptions {
  agent: Agent;
  /** The run's folder (default .pwp/runs/<time>/<suite>/<id>/<agent>-<attempt>). */
  runDir?: string;
  attempt?: number;
  /** The IDE image: what `default` means and what task Dockerfiles build on (default: built from this tree). */
  defaultImage?: string;
  /** The task's image, resolved already (a bench resolves each task's once, before its runs). */
  image?: string;
  deployment?: Deployment;
  /** Take the environment from a warm pool of the task's image. */
  pool?: EnvPool;
  video?: boolean;
  screenshots?: boolean;
  /** Leave the agent's environment running afterwards (its id is printed by the CLI). */
  keep?: boolean;
  progress?: (line: string) => void;
  /** Called once the environment is ready, before the agent acts (where to watch live). */
  onEnvironment?: (info: { id: string; ideUrl: string; bridgeUrl: string; viewUrl: string | null }) => void;
  /** Serve the live view (noVNC) so a person can watch. */
  view?: boolean;
  labels?: Record<string, string>;
  /**
   * Aborted when the run is interrupted (pwp run's SIGINT/SIGTERM): the agent is stopped, nothing
   * is graded, and result.json (status interrupted, the steps taken) is written before the
   * environment is removed.
   */
  interrupt?: AbortSignal;
}

export function defaultRunDir(task: Task, agent: string, attempt: number): string {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  return join(paths.state, 'runs', stamp, task.suite, task.id, `${agent}-${attempt}`);
}

/** Image files the trajectory saved (one per observed step, plus the reset's). */
function countScreenshots(dir: string): number {
  let n = 0;
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else if (/^(reset|step-\d+)\.(png|jpg)$/.test(e.name)) n++;
    }
  };
  try { walk(dir); } catch { /* no folder, no screenshots */ }
  return n;
}

/** The work metrics of a finished run, from its trajectory and agent.diff (none when the run never started). */
function runWork(runDir: string, result: RunResult): WorkMetrics | undefined {
  if (!result.trajectory || !existsSync(result.trajectory)) return undefined;
  const diff = join(runDir, 'agent.diff');
  const changedFiles = existsSync(diff) ? diffFileCount(readFileSync(diff, 'utf8')) : 0;
  try {
    return workMetrics(readTrajectory(result.trajectory), { passed: result.passed, finished: result.status === 'finished', changedFiles });
  } catch {
    return undefined; // a trajectory cut short by a crash still leaves result.json
  }
}

export async function runTask(task: Task, o: RunOptions): Promise<RunResult> {
  const attempt = o.attempt ?? 1;
  const runDir = resolve(o.runDir ?? defaultRunDir(task, o.agent.name, attempt));
  mkdirSync(runDir, { recursive: true });
  // A re-run into the same folder must not leave an earlier run's trajectory, video or grading behind.
  for (const stale of ['video.mp4', 'evaluation.json', 'ide-state.json', 'agent.diff', 'reference.diff', TRAJECTORY_FILE, 'episode-1', 'screenshots']) {
    rmSync(join(runDir, stale), { recursive: true, force: true });
  }
  const startedAt = new Date().toISOString();
  const t0 = Date.now();
  const progress = o.progress ?? (() => undefined);
  // Resolved before the environment: the trajectory records the IDE image (a replay resolves
  // the task's image from it again), result.json the image the task ran in.
  const deployment = o.deployment ?? o.pool?.deployment ?? createDeployment();
  const ideImage = o.defaultImage ?? (o.image || task.imageSource.kind === 'tag' ? undefined : await deployment.ensureImage({ progress }));
  const image = o.image ?? await resolveTaskImage(task, { deployment, ideImage, progress });
  const base = { task: taskName(task), suite: task.suite, id: task.id, agent: o.agent.name, ...(o.agent.model ? { model: o.agent.model } : {}), attempt, image, runDir, startedAt };
  const shots = o.screenshots !== false;
  const env = makeEnv(task, {
    image: ideImage, taskImage: image, deployment, pool: o.pool, view: o.view, labels: { 'pwp.run': runDir, ...(o.keep ? keptLabels() : {}), ...o.labels },
    observe: shots ? ['screenshot'] : [], observeOptions: { format: 'jpeg', quality: 70 },
    saveGradeInputsTo: runDir, progress,
    record: { dir: runDir, humanPollMs: o.view ? 500 : 0, meta: { agent: o.agent.name, ...(o.agent.model ? { model: o.agent.model } : {}), attempt } },
  });
  const timings: Record<string, number> = {};

  // Builds result.json and ends the trajectory with the same status and score, whatever ended
  // the run; the environment is closed here (unless kept) so that record is the last one.
  const finish = async (r: Omit<RunResult, keyof typeof base | 'endedAt' | 'trajectory' | 'screenshots' | 'timings'>): Promise<RunResult> => {
    timings.totalMs = Date.now() - t0;
    const result: RunResult = {
      ...base, ...r, trajectory: join(runDir, TRAJECTORY_FILE), screenshots: countScreenshots(runDir), timings, endedAt: new Date().toISOString(),
    };
    const end = { type: 'end' as const, status: result.status, ...(result.error ? { reason: result.error } : {}), steps: result.steps, score: result.score };
    // An interrupted run may not live through the environment's removal: its result comes first.
    if (result.status === 'interrupted') writeFileSync(join(runDir, 'result.json'), `${JSON.stringify(result, null, 1)}\n`);
    if (o.keep && env.episode.environment) {
      const id = await env.detach();
      progress(`environment ${id} keeps running: pwp down ${id}`);
    }
    await env.close({ end }).catch(() => undefined);
    result.work = runWork(runDir, result);
    writeFileSync(join(runDir, 'result.json'), `${JSON.stringify(result, null, 1)}\n`);
    return result;
  };

  const interrupted = () => finish({ score: 0, passed: false, status: 'interrupted', error: `interrupted: ${String(o.interrupt?.reason ?? 'stopped')}`, steps: env.episode.steps });
  try {
    progress(`${taskName(task)}: starting the environment and setting up`);
    const reset = await env.reset();
    if (o.interrupt?.aborted) return await interrupted();
    timings.startMs = reset.info.pooled ? reset.info.timings.acquire ?? 0 : reset.info.startMs;
    timings.setupMs = env.episode.setupMs;
  } catch (err) {
    if (o.interrupt?.aborted) return interrupted();
    return finish({ score: 0, passed: false, status: 'error', error: (err as Error).message, steps: 0 });
  }
  const where = env.episode.environment!;
  o.onEnvironment?.({ id: where.id, ideUrl: where.ideUrl, bridgeUrl: where.bridgeUrl, viewUrl: where.viewUrl });
  try {
    progress(`${taskName(task)}: ${o.agent.name} agent acting`);
    const video = o.video !== false && await env.startVideo({ fps: 5 }).then(() => true, () => false);
    const ta = Date.now();
    // The agent acts on a view whose grade stays the run's until the end (RewardAtEnd).
    const agentView = new RewardAtEnd(env, { intermediate: task.grading.intermediateRewards });
    const { outcome, error } = await runAgent(o.agent, agentView, task, o.interrupt);
    if (o.interrupt?.aborted) { timings.agentMs = Date.now() - ta; return await interrupted(); }
    const steps = env.episode.steps;
    // Nothing is left to grade or record when the environment itself is gone (its node lost).
    const lost = await env.lost();
    if (lost) {
      timings.agentMs = Date.now() - ta;
      return await finish({ score: 0, passed: false, status: 'error', error: `${lost.name}: ${lost.message}`, steps });
    }
    // An agent that stops without done (the null agent, the oracle of an older trajectory) is done now.
    if (!error && !env.episode.over) await env.step({ type: 'done' }).catch(() => undefined);
    timings.agentMs = Date.now() - ta;
    let videoFile: string | undefined;
    if (video) {
      try {
        const data = await env.stopVideo();
        if (data) { videoFile = join(runDir, 'video.mp4'); writeFileSync(videoFile, data); }
      } catch (err) {
        env.annotate({ type: 'note', text: `no video: ${(err as Error).message}` });
      }
    }
    // Where it grades (gradeState.ts): an evaluator that runs anything gets a verifier container, one that only reads is graded on the host.
    progress(`${taskName(task)}: grading ${readsOnly(task.evaluator) ? 'outside the environment (its evaluator only reads the final state)' : 'in a verifier container'}`);
    // The done step graded already (its reward); its grading time is then not the agent's.
    const ended = env.episode;
    const graded = ended.over === 'done' ? ended.evaluation : null;
    if (graded) timings.agentMs -= ended.gradeMs;
    const evaluation = graded ?? await gradeNow(env);
    timings.gradeMs = env.episode.gradeMs;
    writeFileSync(join(runDir, 'evaluation.json'), `${JSON.stringify(evaluation, null, 1)}\n`);
    const truncatedBy = ended.over?.startsWith('truncated') ? ended.over : undefined;
    const status = error || outcome.error ? 'error' : truncatedBy || outcome.status === 'truncated' ? 'truncated' : 'finished';
    return await finish({
      score: evaluation.score, passed: evaluation.passed, tests: testCounts(evaluation),
      status, error: error ?? outcome.error ?? (status === 'truncated' ? outcome.reason ?? truncatedBy : undefined),
      answer: ended.answer ?? undefined, steps, evaluation,
      ...(videoFile ? { video: videoFile } : {}),
      ...(outcome.stats ? { agentStats: outcome.stats } : {}),
      ...(agentView.asked ? { rewardAsked: agentView.asked } : {}),
    });
  } catch (err) {
    if (o.interrupt?.aborted) return await interrupted();
    return await finish({ score: 0, passed: false, status: 'error', error: (err as Error).message, steps: env.episode.steps });
  }
}

/** Grades the state now: a task Env's reward() is its grading, whose detail the episode keeps. */
async function gradeNow(env: EnvLike): Promise<EvaluationResult> {
  await env.reward();
  const evaluation = env.episode.evaluation;
  if (!evaluation) throw new Error('the Env graded nothing: a run needs a task Env');
  return evaluation;
}

/**
 * The agent within the task's time limit: the Env's own (its WallClockLimit, whose signal
 * aborts when the limit passes, even while the agent is blocked in a step). A limit that ends
 * the agent is an outcome, not an error. An interrupt stops the agent the same way.
 */
export async function runAgent(agent: Agent, env: EnvLike, task: Task, interrupt?: AbortSignal): Promise<{ outcome: AgentOutcome; error?: string }> {
  const signal = interrupt ? AbortSignal.any([env.signal, interrupt]) : env.signal;
  let stop: () => void = () => undefined;
  try {
    const outcome = await Promise.race([
      agent.run(env, task, signal),
      new Promise<never>((_, reject) => {
        stop = () => reject(signal.reason);
        if (signal.aborted) stop();
        else signal.addEventListener('abort', stop, { once: true });
      }),
    ]);
    return { outcome };
  } catch (err) {
    if (err instanceof LimitReachedError || err instanceof EpisodeOverError) return { outcome: { status: 'truncated', reason: err.message } };
    return { outcome: { status: 'finished', reason: 'the agent failed' }, error: (err as Error).message };
  } finally {
    signal.removeEventListener('abort', stop);
  }
}
