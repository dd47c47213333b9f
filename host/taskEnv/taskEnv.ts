// An Env on a task (gymnasium's `make`): makeEnv('suite/id') gives an Env whose reset() starts
// an environment (or takes one from the warm pool) with the task's workspace, runs its set-up
// steps and puts the instruction in the observation, and whose done step (or reward()) grades
// the state in a verifier container with the task's evaluator: the score is the reward, the
// evaluation (per-check detail) is in info.evaluation. The task's limits are the TimeLimit and
// WallClockLimit wrappers; recording is RecordTrajectory.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LimitExceededError } from '../../bridge/protocol';
import { archiveToFile, readRegularFiles } from '../deployment/runtime';
import type { SpooledArchive } from '../deployment/tarArchive';
import { agentDiff } from '../evaluation/agentDiff';
import type { EvaluationResult } from '../evaluation/evaluationResult';
import { captureIdeState, EXTENSIONS_DIR, IDE_FILE_MAX, IDE_FILES, ideStateNeeds } from '../evaluation/ideState';
import { gradeState } from './gradeState';
import { resolveTaskImage } from './resolveTaskImage';
import { resolveTasks, taskName, type Task } from './loadTask';
import { eventually } from '../common/eventually';
import { runSteps } from './steps';
import { archiveBound, measureWorkspace, tooLarge, tooLargeEvaluation } from './workspaceSize';
import { RecordTrajectory, type RecordOptions } from '../trajectory/recordTrajectory';
import { Env, type EnvLike, type EnvOptions, type EpisodeInfo, type ResetOptions, type ResetResult, type StepInfo } from '../env/env';
import type { Observation, ObserveKind, ObserveOptions } from '../env/observation';
import { TimeLimit, WallClockLimit } from '../env/wrappers';

export interface TaskEnvOptions extends Omit<EnvOptions, 'reward' | 'rewardOn'> {
  /** Grading writes the IDE state it read here (ide-state.json), for a run's folder. */
  saveGradeInputsTo?: string;
  progress?: (line: string) => void;
  /**
   * The task's image, resolved already (a run or bench resolves it once). Without it the first
   * reset resolves it (resolveTaskImage), with `image` as the IDE image: what `default` means
   * and what a task Dockerfile builds on.
   */
  taskImage?: string;
}

export class TaskEnv extends Env {
  private resolvedImage?: string;
  /** The workspace right after set-up, spooled to a host file for the episode (never held in memory). */
  private initial?: SpooledArchive;
  private spoolDir?: string;
  private lastEvaluation: EvaluationResult | null = null;
  /** ms the last reset spent on the task's set-up steps */
  setupMs = 0;
  /** ms the last grading took (in the done step, or reward()/grade()) */
  gradeMs = 0;
  /** Set-up steps are not observed: nobody looks at them. */
  private preparing = false;

  constructor(readonly task: Task, readonly taskOpts: TaskEnvOptions = {}) {
    super({
      display: task.environment.display, memoryMb: task.environment.memoryMb, network: task.network,
      ...taskOpts, labels: { 'pwp.task': taskName(task), ...taskOpts.labels },
    });
    this.resolvedImage = taskOpts.taskImage;
  }

  /** The image this task's environments and verifiers run (built first when the task has a Dockerfile). */
  async resolveImage(): Promise<string> {
    this.resolvedImage ??= await resolveTaskImage(this.task, { deployment: this.deployment, ideImage: this.opts.image, progress: this.taskOpts.progress });
    return this.resolvedImage;
  }

  protected override image(): string | undefined { return this.resolvedImage; }

  /** The evaluation of the latest grading (done step or reward()), or null. */
  get evaluation(): EvaluationResult | null { return this.lastEvaluation; }

  override get episode(): EpisodeInfo {
    return { ...super.episode, evaluation: this.lastEvaluation, setupMs: this.setupMs, gradeMs: this.gradeMs };
  }

  override async reset(args: { seed?: number; options?: ResetOptions } = {}): Promise<ResetResult> {
    await this.resolveImage();
    this.lastEvaluation = null;
    this.dropInitial();
    const workspaceDir = this.task.workspaceDir ?? mkdtempSync(join(tmpdir(), 'pwp-empty-ws-'));
    return super.reset({ ...args, options: { workspaceDir, ...args.options } });
  }

  /** The task's set-up, after the IDE is up and before the agent's first observation. */
  protected override async prepareEpisode(): Promise<void> {
    const t0 = Date.now();
    this.preparing = true;
    try {
      // The workbench renders before the extension host has activated pwp's extension.
      await eventually(() => this.query('ide.status', {}), () => true, 60_000, 'the IDE extension answering');
      await runSteps(this.task.setup, this, this.task.dir);
      this.initial = await archiveToFile(await this.deployment.runtime(this.info.id), '/workspace', join(this.spool(), 'initial.tar'));
    } catch (err) {
      await this.close().catch(() => undefined);
      throw new Error(`${taskName(this.task)}: set-up failed: ${(err as Error).message}`, { cause: err });
    } finally {
      this.preparing = false;
    }
    this.setupMs = Date.now() - t0;
  }

  override async observe(kinds?: readonly ObserveKind[], o?: ObserveOptions): Promise<Observation> {
    if (this.preparing) return { timings: {} };
    return { ...(await super.observe(kinds, o)), instruction: this.task.instruction };
  }

  /** The task's grading gives the rewards. */
  override get rewarded(): boolean { return true; }

  protected override async stepReward(terminated: boolean, info: StepInfo): Promise<number> {
    if (!terminated) return 0;
    const evaluation = await this.grade();
    info.evaluation = evaluation;
    return evaluation.score;
  }

  override async reward(): Promise<number> {
    return (await this.grade()).score;
  }

  /** Grades the environment's state now in a fresh verifier container. */
  async grade(): Promise<EvaluationResult> {
    const t0 = Date.now();
    const runtime = await this.deployment.runtime(this.info.id);
    // Listed as root: the agent may have made its own folders unreadable to the IDE user.
    const findFolders = ['/usr/bin/find', EXTENSIONS_DIR, '-mindepth', '1', '-maxdepth', '1', '-type', 'd', '-printf', '%f\n'];
    const listExtensionFolders = async () => (await this.exec(findFolders, { user: 'root', cwd: '/' }))
      .stdout.split('\n').filter(Boolean);
    // The IDE's own files in one read (one by one, each is an archive the engine packs).
    // Bounded: the agent can make any of them any size; one past the bound is read as missing
    // (the IDE grader then fails its checks, with the reason among the state's errors).
    const ideFiles = await readRegularFiles(runtime, IDE_FILES, { maxBytes: IDE_FILE_MAX }).catch((err: unknown) => {
      if (err instanceof LimitExceededError) return new Map<string, Buffer | undefined>();
      throw err;
    });
    const readFile = (p: string) => (ideFiles.has(p) ? Promise.resolve(ideFiles.get(p)) : runtime.readFile(p, { maxBytes: IDE_FILE_MAX }));
    const ideState = await captureIdeState(this.client, ideStateNeeds(this.task.evaluator), readFile, listExtensionFolders);
    // A workspace past the task's limits is not read at all (nor past them, if it grows
    // meanwhile); within them it is spooled to a host file and streamed from there.
    const limits = this.task.limits;
    const over = tooLarge(await measureWorkspace((argv, o) => this.exec(argv, o)), limits);
    let workspace: SpooledArchive | undefined;
    if (!over) {
      workspace = await archiveToFile(runtime, '/workspace', join(this.spool(), 'final.tar'), { maxBytes: archiveBound(limits) }).catch((err: unknown) => {
        if (err instanceof LimitExceededError) return undefined;
        throw err;
      });
    }
    if (!workspace) {
      const why = over ?? `workspace too large: it grew past ${limits.workspaceBytes} bytes in ${limits.workspaceFiles} files while it was read`;
      this.lastEvaluation = tooLargeEvaluation(this.task.evaluator.kind, why, t0);
      this.gradeMs = Date.now() - t0;
      return this.lastEvaluation;
    }
    try {
      const dir = this.taskOpts.saveGradeInputsTo;
      if (dir) {
        mkdirSync(dir, { recursive: true });
        writeFileSync(join(dir, 'ide-state.json'), JSON.stringify(ideState, null, 1));
        // The agent's changes since set-up, beside the task's reference patch when it has one.
        if (this.initial) writeFileSync(join(dir, 'agent.diff'), (await agentDiff(this.initial, workspace)).diff);
        const reference = referencePatch(this.task);
        if (reference) copyFileSync(reference, join(dir, 'reference.diff'));
      }
      this.lastEvaluation = await gradeState(this.task, {
        image: this.resolvedImage!, deployment: this.deployment, workspaceTar: workspace, initialTar: this.initial, ideState, answer: this.answerGiven ?? undefined,
      });
    } finally {
      rmSync(workspace.file, { force: true });
    }
    this.gradeMs = Date.now() - t0;
    return this.lastEvaluation;
  }

  override async close(o?: Parameters<Env['close']>[0]): Promise<void> {
    try {
      await super.close(o);
    } finally {
      this.dropInitial();
      if (this.spoolDir) rmSync(this.spoolDir, { recursive: true, force: true });
      this.spoolDir = undefined;
    }
  }

  /** This Env's folder of spooled archives (made on first use, removed on close). */
  private spool(): string {
    this.spoolDir ??= mkdtempSync(join(tmpdir(), 'pwp-spool-'));
    return this.spoolDir;
  }

  private dropInitial(): void {
    if (this.initial) rmSync(this.initial.file, { force: true });
    this.initial = undefined;
  }
}

/** The task's reference solution as a patch (a .diff or .patch in its oracle folder), if it has one. */
function referencePatch(task: Task): string | undefined {
  const dir = join(task.dir, 'oracle');
  if (!existsSync(dir)) return undefined;
  const file = readdirSync(dir).sort().find((f) => f.endsWith('.diff') || f.endsWith('.patch'));
  return file ? join(dir, file) : undefined;
}

export interface MakeEnvOptions extends TaskEnvOptions {
  /** Apply the task's step and time limits (TimeLimit, WallClockLimit); default true. */
  limits?: boolean;
  /** Record the episodes into this folder (RecordTrajectory). */
  record?: string | ({ dir: string } & RecordOptions);
  /** Where `suite/id` names are looked up (default the bundled tasks/). */
  tasksRoot?: string;
}

/** An Env on a task: `makeEnv('vscode-config/rebind-shortcut')`, or a loaded Task. */
export function makeEnv(task: string | Task, o: MakeEnvOptions = {}): EnvLike & { readonly unwrapped: TaskEnv } {
  const t = typeof task === 'string' ? resolveOne(task, o.tasksRoot) : task;
  let env: EnvLike = new TaskEnv(t, o);
  if (o.limits !== false) env = new WallClockLimit(new TimeLimit(env, t.limits.steps), t.limits.seconds * 1000);
  if (o.record) {
    const r = typeof o.record === 'string' ? { dir: o.record } : o.record;
    env = new RecordTrajectory(env, r.dir, { ...r, meta: { task: taskName(t), instruction: t.instruction, ...r.meta } });
  }
  return env as EnvLike & { readonly unwrapped: TaskEnv };
}

function resolveOne(sel: string, root?: string): Task {
  const tasks = resolveTasks([sel], root);
  if (tasks.length !== 1) throw new Error(`'${sel}' names ${tasks.length} tasks; makeEnv takes one`);
  return tasks[0];
}
