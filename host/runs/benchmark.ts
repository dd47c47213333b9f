// A bench: every (task, agent, attempt) run, N at a time, each in its own environment and
// verifier. Results are appended to <out>/results.jsonl as each run ends; runs already
// there are skipped, so an interrupted bench resumes. Afterwards: summary, report.md,
// report.html. Each run's folder is <out>/runs/<suite>/<id>/<agent>-<attempt>/. Environments
// come from warm pools (one per image in use, as big as the runs at a time), closed at the end.
// Tasks left out of the scores (flagged rows the caller left out, tasks whose image waits for a
// toolchain nobody supplied) are listed apart in the summary and reports, never counted.
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeAgent } from '../agents/agentRegistry';
import { COMMAND_AGENT_NAME } from '../agents/commandAgent';
import type { ModelAgentConfig } from '../agents/modelAgentSettings';
import { createDeployment } from '../deployment/backends';
import type { Deployment } from '../deployment/deployment';
import { imagePools, type ImageOf } from '../taskEnv/imagePools';
import { appendResult, isDone, readResults, runKey, summarize, type LeftOutTask, type ResultLine, type Summary } from './benchmarkResults';
import { htmlReport, markdownReport } from './benchmarkReport';
import { taskName, type Task } from '../taskEnv/loadTask';
import { runTask, type RunResult } from './runTask';
import { checkToolchains, MissingToolchainError, resolveTaskImages } from '../taskEnv/resolveTaskImage';
import { INVALID_TAG, leftOutReason, PENDING_TAG } from '../taskEnv/taskFlags';
import { hostFiles } from '../evaluation/hostFolder';
import { unguardedGrading } from '../evaluation/unguardedGrading';

/** `model` (provider:model) is set for model-driven agents: runs of different models are different runs. */
export interface BenchJob { task: Task; agent: string; attempt: number; model?: string }

/** A run's folder name: <agent>[-<model>]-<attempt>. */
export function runFolderName(job: Pick<BenchJob, 'agent' | 'attempt' | 'model'>): string {
  return `${job.agent}${job.model ? `-${job.model.replace(/[^A-Za-z0-9._-]+/g, '_')}` : ''}-${job.attempt}`;
}

export interface BenchOptions {
  tasks: Task[];
  agent: string;
  attempts: number;
  parallel: number;
  outDir: string;
  /** Tasks the caller left out (partitionFlagged's), listed apart in the summary and reports. */
  leftOut?: LeftOutTask[];
  /** Also run the null and oracle agents once per task (the baselines in the summary). */
  baselines?: boolean;
  /** The IDE image: what `default` means and what task Dockerfiles build on (default: built from this tree, when a task needs it). */
  defaultImage?: string;
  /** Lines about images being built before the runs. */
  progress?: (line: string) => void;
  video?: boolean;
  /** Serve the live view from every environment, so a person can watch and answer ask_person. */
  view?: boolean;
  /** Each run's environment once it is up (the live-view URLs to print). */
  onEnvironment?: (job: BenchJob, info: { id: string; ideUrl: string; viewUrl: string | null }) => void;
  /** For the replay agent: a trajectory file, or an earlier bench folder whose runs it replays. */
  trajectory?: string;
  /** For model-driven agents: the model (provider:model, for results and resuming) and how to build the agent. */
  model?: string;
  agentConfig?: ModelAgentConfig;
  /** For outside agents (agent 'cmd'): the command each run starts (pwp bench --agent-cmd). */
  agentCommand?: string;
  deployment?: Deployment;
  /** Once aborted (Ctrl-C), no run starts and no run still going is recorded: a re-run does them. */
  signal?: AbortSignal;
  onStart?: (job: BenchJob, done: number, total: number) => void;
  onEnd?: (job: BenchJob, result: RunResult, done: number, total: number) => void;
}

export interface BenchOutcome { results: ResultLine[]; ran: number; skipped: number; summary: Summary; files: { results: string; markdown: string; html: string } }

/** The trajectory a replay of `job` follows: the file given, or the same task's run in an earlier bench. */
export function replaySource(trajectory: string, job: BenchJob): string {
  if (!existsSync(trajectory)) throw new Error(`no trajectory file or bench folder at ${trajectory}`);
  if (trajectory.endsWith('.jsonl')) return trajectory;
  const dir = join(trajectory, 'runs', job.task.suite, job.task.id);
  const runs = existsSync(dir) ? readdirSync(dir).filter((d) => existsSync(join(dir, d, 'trajectory.jsonl'))) : [];
  const pick =
    runs.find((d) => d === `oracle-${job.attempt}`) ??
    runs.find((d) => d.endsWith(`-${job.attempt}`) && !d.startsWith('replay-')) ??
    runs.find((d) => !d.startsWith('replay-'));
  if (!pick) throw new Error(`no recorded run of ${taskName(job.task)} in ${trajectory}`);
  return join(dir, pick, 'trajectory.jsonl');
}

/** The files of a task's hidden workspace, relative to /workspace, as the verifier gets them. */
function hiddenWorkspaceFiles(task: Task): string[] {
  const dir = task.hiddenDir && join(task.hiddenDir, 'workspace');
  return dir && existsSync(dir) ? [...hostFiles(dir).keys()] : [];
}

/**
 * A flagged task (taskFlags.ts), or one whose grading the code under test could pass without
 * solving it (unguardedGrading.ts), as the summary lists it; undefined when it counts.
 */
export function flaggedOut(task: Task): LeftOutTask | undefined {
  const reason = leftOutReason(task);
  if (!reason) {
    const unguarded = unguardedGrading(task.evaluator, hiddenWorkspaceFiles(task));
    return unguarded ? { task: taskName(task), suite: task.suite, kind: 'unguarded', reason: `its grading is unguarded: ${unguarded}` } : undefined;
  }
  const tagged = (tag: string) => task.tags.some((t) => t.startsWith(`${tag}:`));
  const kind = tagged(INVALID_TAG) ? 'invalid' : tagged(PENDING_TAG) ? 'pending' : 'needs-live-server';
  return { task: taskName(task), suite: task.suite, kind, reason };
}

/** The tasks a bench counts, and the flagged ones it leaves out by default (see taskFlags.ts). */
export function partitionFlagged(tasks: readonly Task[]): { counted: Task[]; leftOut: LeftOutTask[] } {
  const leftOut: LeftOutTask[] = [];
  const counted = tasks.filter((t) => {
    const out = flaggedOut(t);
    if (out) leftOut.push(out);
    return !out;
  });
  return { counted, leftOut };
}

/** A task whose image needs a toolchain nobody supplied (MissingToolchainError), as the summary lists it. */
export function pendingOut(task: Task): LeftOutTask | undefined {
  try {
    checkToolchains(task.imageSource);
    return undefined;
  } catch (err) {
    if (err instanceof MissingToolchainError) return { task: taskName(task), suite: task.suite, kind: 'pending', reason: err.message };
    throw err;
  }
}

export function benchJobs(o: Pick<BenchOptions, 'tasks' | 'agent' | 'attempts' | 'baselines' | 'model'>): BenchJob[] {
  const jobs: BenchJob[] = [];
  for (const task of o.tasks) {
    for (let attempt = 1; attempt <= o.attempts; attempt++) jobs.push({ task, agent: o.agent, attempt, ...(o.model ? { model: o.model } : {}) });
    if (o.baselines) for (const b of ['null', 'oracle']) if (b !== o.agent) jobs.push({ task, agent: b, attempt: 1 });
  }
  return jobs;
}

export async function runBench(o: BenchOptions): Promise<BenchOutcome> {
  mkdirSync(o.outDir, { recursive: true });
  const file = join(o.outDir, 'results.jsonl');
  const previous = new Map(readResults(file).map((r) => [runKey(r), r]));
  // A pending task is not run: its image cannot be built until its toolchain is supplied.
  const pending = o.tasks.flatMap((t) => pendingOut(t) ?? []);
  const pendingNames = new Set(pending.map((p) => p.task));
  const tasks = o.tasks.filter((t) => !pendingNames.has(taskName(t)));
  const all = benchJobs({ ...o, tasks });
  const todo = all.filter((j) => !isDone(previous.get(runKey({ task: taskName(j.task), agent: j.agent, attempt: j.attempt, model: j.model }))));
  const deployment = o.deployment ?? createDeployment();
  // Every task's image before the first run: the IDE image and each task image built once.
  const todoTasks = [...new Set(todo.map((j) => j.task))];
  const needIde = todoTasks.some((t) => t.imageSource.kind !== 'tag');
  const ideImage = o.defaultImage ?? (needIde ? await deployment.ensureImage({ progress: o.progress }) : undefined);
  const images = await resolveTaskImages(todoTasks, { deployment, ideImage, progress: o.progress });
  const imageOf: ImageOf = (task) => { const i = images.get(task); return typeof i === 'string' ? i : undefined; };
  const pools = imagePools(todo.map((j) => j.task), { parallel: o.parallel, imageOf, view: o.view, labels: { 'pwp.bench': o.outDir }, log: o.progress }, deployment);
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < todo.length && !o.signal?.aborted) {
      const job = todo[next++];
      o.onStart?.(job, done, todo.length);
      let result: RunResult;
      try {
        const image = images.get(job.task);
        if (image instanceof Error) throw image;
        const agent = makeAgent(job.agent, {
          trajectory: job.agent === 'replay' && o.trajectory ? replaySource(o.trajectory, job) : undefined,
          command: o.agentCommand,
          ...(job.model ? o.agentConfig : {}),
          // An outside agent is held to the same time cap as a model agent.
          ...(job.agent === COMMAND_AGENT_NAME ? { timeCapMs: o.agentConfig?.timeCapMs } : {}),
        });
        result = await runTask(job.task, {
          agent, attempt: job.attempt, defaultImage: ideImage, image, video: o.video, deployment, pool: pools.for(job.task), view: o.view,
          onEnvironment: o.onEnvironment ? (e) => o.onEnvironment!(job, e) : undefined,
          runDir: join(o.outDir, 'runs', job.task.suite, job.task.id, runFolderName(job)),
          labels: { 'pwp.bench': o.outDir },
        });
      } catch (err) {
        // Nothing is lost: the run is recorded as an error and a re-run tries it again.
        const now = new Date().toISOString();
        result = {
          task: taskName(job.task), suite: job.task.suite, id: job.task.id, agent: job.agent, ...(job.model ? { model: job.model } : {}), attempt: job.attempt,
          score: 0, passed: false, status: 'error', error: (err as Error).message, steps: 0, image: imageOf(job.task) ?? '',
          runDir: join(o.outDir, 'runs', job.task.suite, job.task.id, runFolderName(job)), screenshots: 0, timings: {}, startedAt: now, endedAt: now,
        };
      }
      if (o.signal?.aborted) return;
      appendResult(file, result);
      done++;
      o.onEnd?.(job, result, done, todo.length);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, Math.min(o.parallel, todo.length)) }, worker));
  } finally {
    await pools.close();
  }

  // The summary covers the tasks and agents of this bench, from this and earlier sessions.
  const names = new Set(tasks.map(taskName));
  const agents = new Set(all.map((j) => j.agent));
  // An earlier session's extra attempts (a larger --attempts) are not this bench's.
  const results = readResults(file).filter((r) => names.has(r.task) && agents.has(r.agent) && r.attempt <= (r.agent === o.agent ? o.attempts : 1));
  const summary = summarize(results, [...(o.leftOut ?? []), ...pending]);
  const title = `pwp bench: ${[...agents].join(', ')} on ${[...new Set(o.tasks.map((t) => t.suite))].join(', ')}`;
  const markdown = join(o.outDir, 'report.md');
  const html = join(o.outDir, 'report.html');
  writeFileSync(markdown, markdownReport(summary, results, o.outDir, title));
  writeFileSync(html, htmlReport(summary, results, o.outDir, title));
  writeFileSync(join(o.outDir, 'summary.json'), `${JSON.stringify(summary, null, 1)}\n`);
  return { results, ran: todo.length, skipped: all.length - todo.length, summary, files: { results: file, markdown, html } };
}
