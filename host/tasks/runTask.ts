// One run of one agent on one task, start to finish: environment and set-up, the agent
// (recorded: trajectory, screenshots, video), the IDE state and workspace it leaves,
// grading in the verifier, and result.json in the run's folder.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type Docker from 'dockerode';
import { ensureImage } from '../image/buildImage';
import { paths } from '../image/imageInputs';
import type { DockerDeployment } from '../deployment/dockerDeployment';
import type { EvaluationResult } from '../evaluation/evaluationResult';
import { testCounts } from '../evaluation/evaluationResult';
import type { Agent } from '../agents/agent';
import type { AgentStats } from '../agents/agentStats';
import { taskName, type Task } from './loadTask';
import { TaskSession } from './taskSession';

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
  /** finished, truncated (a limit ended it) or error (the run could not be completed). */
  status: 'finished' | 'truncated' | 'error';
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
  startedAt: string;
  endedAt: string;
}

export interface RunOptions {
  agent: Agent;
  /** The run's folder (default .pwp/runs/<time>/<suite>/<id>/<agent>-<attempt>). */
  runDir?: string;
  attempt?: number;
  /** The image for tasks that say `default` (resolved once by a bench). */
  defaultImage?: string;
  deployment?: DockerDeployment;
  docker?: Docker;
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
}

export function defaultRunDir(task: Task, agent: string, attempt: number): string {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  return join(paths.state, 'runs', stamp, task.suite, task.id, `${agent}-${attempt}`);
}

export async function resolveImage(task: Task, defaultImage?: string, progress?: (l: string) => void): Promise<string> {
  if (task.image !== 'default') return task.image;
  return defaultImage ?? ensureImage({ progress });
}

export async function runTask(task: Task, o: RunOptions): Promise<RunResult> {
  const attempt = o.attempt ?? 1;
  const runDir = resolve(o.runDir ?? defaultRunDir(task, o.agent.name, attempt));
  mkdirSync(runDir, { recursive: true });
  // A re-run into the same folder must not leave an earlier run's video or grading behind.
  for (const stale of ['video.mp4', 'evaluation.json']) rmSync(join(runDir, stale), { force: true });
  const startedAt = new Date().toISOString();
  const t0 = Date.now();
  const progress = o.progress ?? (() => undefined);
  const image = await resolveImage(task, o.defaultImage, progress);
  const base = { task: taskName(task), suite: task.suite, id: task.id, agent: o.agent.name, ...(o.agent.model ? { model: o.agent.model } : {}), attempt, image, runDir, startedAt };
  const finish = (r: Omit<RunResult, keyof typeof base | 'endedAt'>): RunResult => {
    const result: RunResult = { ...base, ...r, endedAt: new Date().toISOString() };
    writeFileSync(join(runDir, 'result.json'), `${JSON.stringify(result, null, 1)}\n`);
    return result;
  };

  let session: TaskSession;
  try {
    progress(`${taskName(task)}: starting the environment and setting up`);
    session = await TaskSession.start(task, { image, deployment: o.deployment, view: o.view, labels: { 'pwp.run': runDir, ...o.labels } });
  } catch (err) {
    return finish({ score: 0, passed: false, status: 'error', error: (err as Error).message, steps: 0, screenshots: 0, timings: { totalMs: Date.now() - t0 } });
  }
  o.onEnvironment?.({ id: session.info.id, ideUrl: session.info.ideUrl, bridgeUrl: session.info.bridgeUrl, viewUrl: session.info.viewUrl ?? null });
  try {
    progress(`${taskName(task)}: ${o.agent.name} agent acting`);
    const acted = await session.act(o.agent, { runDir, video: o.video, screenshots: o.screenshots });
    progress(`${taskName(task)}: grading in a verifier container`);
    const tg = Date.now();
    const evaluation = await session.grade({ saveInputsTo: runDir });
    const timings = { ...session.timings, agentMs: acted.durationMs, gradeMs: Date.now() - tg, totalMs: Date.now() - t0 };
    writeFileSync(join(runDir, 'evaluation.json'), `${JSON.stringify(evaluation, null, 1)}\n`);
    return finish({
      score: evaluation.score, passed: evaluation.passed, tests: testCounts(evaluation),
      status: acted.error || acted.outcome.error ? 'error' : acted.outcome.status,
      error: acted.error ?? acted.outcome.error ?? (acted.outcome.status === 'truncated' ? acted.outcome.reason : undefined),
      answer: acted.answer, steps: acted.steps, evaluation,
      trajectory: acted.trajectory, video: acted.video, screenshots: acted.screenshots, timings,
      ...(acted.outcome.stats ? { agentStats: acted.outcome.stats } : {}),
    });
  } catch (err) {
    return finish({ score: 0, passed: false, status: 'error', error: (err as Error).message, steps: 0, screenshots: 0, timings: { ...session.timings, totalMs: Date.now() - t0 } });
  } finally {
    if (o.keep) progress(`environment ${session.info.id} keeps running: pwp down ${session.info.id}`);
    else await session.close();
  }
}
