// One task in one environment: start the IDE with the task's workspace, run the set-up,
// let an agent act (recorded, within the task's limits), and grade the state it leaves in a
// separate verifier container. A session can be graded more than once: the tests grade the
// state right after set-up (what the null agent leaves) and then let the oracle act.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Docker from 'dockerode';
import type { MethodName, ParamsIn, Result } from '../../bridge/protocol';
import type { BridgeClient } from '../client/bridgeClient';
import { DockerDeployment } from '../deployment/dockerDeployment';
import type { EnvironmentInfo } from '../deployment/deployment';
import { startEnvironment } from '../environment/environment';
import { waitForSettle } from '../environment/settle';
import { archiveOf, execIn, putFiles, readFileFrom, type ExecOptions, type ExecResult } from '../evaluation/dockerIo';
import { evaluate } from '../evaluation/evaluate';
import type { EvaluationResult } from '../evaluation/evaluationResult';
import { captureIdeState, ideStateNeeds } from '../evaluation/ideState';
import { restoreRulesOf } from '../evaluation/testInfrastructure';
import { Verifier } from '../evaluation/verifier';
import { LimitReachedError, type Agent, type AgentEnv, type AgentOutcome } from '../agents/agent';
import type { AgentEvent } from '../agents/agentEvents';
import type { Task } from './loadTask';
import { taskName } from './loadTask';
import { eventually, runSteps } from './steps';
import { OBSERVATION_METHODS, TrajectoryRecorder } from './trajectoryRecorder';

/** The environment as the set-up and agents see it: bridge calls, commands, files. */
class ContainerEnv implements AgentEnv {
  answerText?: string;
  constructor(readonly client: BridgeClient, private readonly docker: Docker, private readonly container: Docker.Container) {}

  call<M extends MethodName>(method: M, params: ParamsIn<M>): Promise<Result<M>> {
    return this.client.call(method, params);
  }

  exec(argv: string[], opts: ExecOptions = {}): Promise<ExecResult> {
    return execIn(this.docker, this.container, argv, opts);
  }

  async writeFile(path: string, content: Buffer | string): Promise<void> {
    const abs = path.startsWith('/') ? path : `/workspace/${path}`;
    const dir = abs.slice(0, abs.lastIndexOf('/')) || '/';
    const mk = await this.exec(['mkdir', '-p', dir], { cwd: '/' });
    if (mk.exitCode !== 0) throw new Error(`cannot create ${dir}: ${mk.stderr.trim()}`);
    await putFiles(this.container, dir, [{ path: abs.slice(dir.length + 1), content }]);
  }

  readFile(path: string): Promise<Buffer | undefined> {
    return readFileFrom(this.container, path.startsWith('/') ? path : `/workspace/${path}`);
  }

  async settle(quietMs = 150): Promise<void> {
    // The cap leaves room for the quiet period asked for (a settle step may ask for up to 10 s).
    await waitForSettle(this.client, { quietMs, capMs: Math.max(3000, quietMs + 3000) });
  }

  sync(): void { /* nothing to record */ }
  answer(text: string): void { this.answerText = text; }
  note(): void { /* nothing to record */ }
}

/** Counts the agent's actions against its limits and records them with screenshots. */
class RecordedEnv implements AgentEnv {
  steps = 0;
  private pendingShot = false;
  constructor(
    private readonly inner: ContainerEnv,
    private readonly recorder: TrajectoryRecorder | undefined,
    private readonly limits: { steps: number; deadline: number },
    private readonly screenshots: boolean,
  ) {}

  private count(what: string): void {
    if (Date.now() > this.limits.deadline) throw new LimitReachedError(`time limit reached before ${what}`);
    if (this.steps >= this.limits.steps) throw new LimitReachedError(`step limit (${this.limits.steps}) reached before ${what}`);
    this.steps++;
  }

  async call<M extends MethodName>(method: M, params: ParamsIn<M>): Promise<Result<M>> {
    const action = !OBSERVATION_METHODS.has(method);
    if (action) this.count(method);
    const t0 = Date.now();
    try {
      const result = await this.inner.call(method, params);
      if (action) {
        // Clicks keep the point they landed on, so a replay can click there without marks.
        const keep = method === 'input.click' ? result : undefined;
        this.recorder?.record({ type: 'call', method, params, result: keep, ms: Date.now() - t0 });
        if (method.startsWith('input.')) this.pendingShot = true;
      }
      return result;
    } catch (err) {
      if (action) this.recorder?.record({ type: 'call', method, params, error: (err as Error).message, ms: Date.now() - t0 });
      throw err;
    }
  }

  async exec(argv: string[], opts: ExecOptions = {}): Promise<ExecResult> {
    this.count('exec');
    const r = await this.inner.exec(argv, opts);
    this.recorder?.record({ type: 'exec', argv, cwd: opts.cwd, exitCode: r.exitCode, ms: r.durationMs, stdoutTail: r.stdout.slice(-2000) });
    return r;
  }

  async writeFile(path: string, content: Buffer | string): Promise<void> {
    this.count('writeFile');
    await this.inner.writeFile(path, content);
    const buf = typeof content === 'string' ? Buffer.from(content) : content;
    const text = buf.toString('utf8');
    const isText = Buffer.from(text, 'utf8').equals(buf) && !text.includes('\u0000');
    this.recorder?.record({ type: 'writeFile', path, bytes: buf.length, ...(isText ? { content: text } : { contentBase64: buf.toString('base64') }) });
  }

  readFile(path: string): Promise<Buffer | undefined> { return this.inner.readFile(path); }

  async settle(quietMs?: number): Promise<void> {
    await this.inner.settle(quietMs);
    if (this.pendingShot && this.recorder && this.screenshots) {
      this.pendingShot = false;
      const shot = await this.inner.client.call('capture.screenshot', { format: 'jpeg', quality: 70 });
      const file = this.recorder.saveScreenshot(Buffer.from(shot.data, 'base64'), `step-${this.steps}`);
      this.recorder.record({ type: 'screenshot', file, label: `after step ${this.steps}` });
    }
  }

  sync(what: { ide: string; params: Record<string, unknown>; match: unknown }, ok: boolean, ms: number): void {
    this.recorder?.record({ type: 'sync', ...what, ok, ms });
  }

  answer(text: string): void {
    this.inner.answer(text);
    this.recorder?.record({ type: 'answer', text });
  }

  note(text: string): void { this.recorder?.record({ type: 'note', text }); }

  record(event: AgentEvent): void { this.recorder?.record(event); }
}

export interface SessionOptions {
  image: string;
  deployment?: DockerDeployment;
  labels?: Record<string, string>;
  /** Serve the live view (noVNC) so a person can watch the run. */
  view?: boolean;
  /** Readiness wait for the IDE. */
  readyTimeoutMs?: number;
}

export interface ActOptions {
  /** Where trajectory.jsonl, screenshots/ and video.mp4 go; nothing is recorded without it. */
  runDir?: string;
  video?: boolean;
  screenshots?: boolean;
}

export interface ActResult {
  outcome: AgentOutcome;
  steps: number;
  answer?: string;
  error?: string;
  durationMs: number;
  trajectory?: string;
  video?: string;
  screenshots: number;
}

export class TaskSession {
  private env: ContainerEnv;
  private initialTar?: Buffer;
  timings: Record<string, number> = {};

  private constructor(
    readonly task: Task,
    readonly info: EnvironmentInfo,
    readonly client: BridgeClient,
    private readonly deployment: DockerDeployment,
    private readonly container: Docker.Container,
    private readonly opts: SessionOptions,
  ) {
    this.env = new ContainerEnv(client, deployment.docker, container);
  }

  /** Starts the task's environment and runs its set-up. */
  static async start(task: Task, opts: SessionOptions): Promise<TaskSession> {
    const deployment = opts.deployment ?? new DockerDeployment();
    const t0 = Date.now();
    const workspaceDir = task.workspaceDir ?? mkdtempSync(join(tmpdir(), 'pwp-empty-ws-'));
    const env = await startEnvironment(deployment, {
      image: opts.image,
      workspaceDir,
      display: task.environment.display,
      memoryMb: task.environment.memoryMb,
      view: opts.view,
      labels: { 'pwp.task': taskName(task), ...opts.labels },
    }, opts.readyTimeoutMs);
    const session = new TaskSession(task, env.info, env.client, deployment, await deployment.container(env.info.id), opts);
    session.timings.startMs = Date.now() - t0;
    try {
      const t1 = Date.now();
      // The workbench renders before the extension host has activated pwp's extension.
      await eventually(() => env.client.call('ide.status', {}), () => true, 60_000, 'the IDE extension answering');
      await runSteps(task.setup, session.env, task.dir);
      session.timings.setupMs = Date.now() - t1;
      session.initialTar = await archiveOf(session.container, '/workspace');
    } catch (err) {
      await session.close();
      throw new Error(`${taskName(task)}: set-up failed: ${(err as Error).message}`);
    }
    return session;
  }

  /** Lets an agent act within the task's limits, recording what it does. */
  async act(agent: Agent, o: ActOptions = {}): Promise<ActResult> {
    const t0 = Date.now();
    const recorder = o.runDir ? new TrajectoryRecorder(o.runDir) : undefined;
    const limits = { steps: this.task.limits.steps, deadline: Date.now() + this.task.limits.seconds * 1000 };
    const env = new RecordedEnv(this.env, recorder, limits, o.screenshots !== false);
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new LimitReachedError(`time limit of ${this.task.limits.seconds} s reached`)), this.task.limits.seconds * 1000);
    let video: string | undefined;
    const recording = recorder && o.video !== false
      ? await this.client.call('capture.recordStart', { fps: 5, path: '/tmp/pwp-run/video.mp4' }).then(() => true, () => false)
      : false;
    const shoot = async (label: string) => {
      if (!recorder || o.screenshots === false) return;
      const shot = await this.client.call('capture.screenshot', { format: 'png' }).catch(() => undefined);
      if (shot) recorder.record({ type: 'screenshot', file: recorder.saveScreenshot(Buffer.from(shot.data, 'base64'), label, 'png'), label });
    };
    await shoot('start');
    let outcome: AgentOutcome;
    let error: string | undefined;
    try {
      outcome = await Promise.race([
        agent.run(env, this.task, controller.signal),
        new Promise<never>((_, reject) => controller.signal.addEventListener('abort', () => reject(controller.signal.reason))),
      ]);
    } catch (err) {
      if (err instanceof LimitReachedError) outcome = { status: 'truncated', reason: err.message };
      else { outcome = { status: 'finished', reason: 'the agent failed' }; error = (err as Error).message; }
    } finally {
      clearTimeout(timer);
    }
    await this.env.settle(300).catch(() => undefined);
    await shoot('end');
    if (recording && recorder) {
      try {
        const stopped = await this.client.call('capture.recordStop', {});
        const data = await readFileFrom(this.container, stopped.path);
        if (data) { video = join(recorder.dir, 'video.mp4'); writeFileSync(video, data); }
      } catch (err) {
        recorder.record({ type: 'note', text: `no video: ${(err as Error).message}` });
      }
    }
    recorder?.record({ type: 'end', status: outcome.status, reason: error ?? outcome.reason, steps: env.steps });
    return {
      outcome, steps: env.steps, answer: this.env.answerText, error, durationMs: Date.now() - t0,
      trajectory: recorder?.file, video, screenshots: recorder?.screenshotCount ?? 0,
    };
  }

  /** A command in the agent's environment, as the IDE user (for tests and tooling, not agents). */
  exec(argv: string[], opts: ExecOptions = {}): Promise<ExecResult> {
    return this.env.exec(argv, opts);
  }

  /** A file of the agent's environment (absolute, or relative to /workspace), or undefined. */
  readFile(path: string): Promise<Buffer | undefined> {
    return this.env.readFile(path);
  }

  /** The answer the agent gave so far (or undefined). */
  get answer(): string | undefined { return this.env.answerText; }

  /** Grades the environment's current state in a fresh verifier container. */
  async grade(o: { answer?: string; saveInputsTo?: string } = {}): Promise<EvaluationResult> {
    const ideState = await captureIdeState(this.client, ideStateNeeds(this.task.evaluator), (p) => readFileFrom(this.container, p));
    const workspaceTar = await archiveOf(this.container, '/workspace');
    if (o.saveInputsTo) {
      mkdirSync(o.saveInputsTo, { recursive: true });
      writeFileSync(join(o.saveInputsTo, 'ide-state.json'), JSON.stringify(ideState, null, 1));
    }
    return gradeState(this.task, { image: this.opts.image, docker: this.deployment.docker, workspaceTar, initialTar: this.initialTar, ideState, answer: o.answer ?? this.env.answerText });
  }

  async close(): Promise<void> {
    this.client.close();
    await this.deployment.remove(this.info.id).catch(() => undefined);
  }
}

/** Runs the task's evaluator on the given state in a fresh verifier, removed afterwards. */
export async function gradeState(task: Task, s: {
  image: string; docker?: Docker; workspaceTar: Buffer; initialTar?: Buffer; ideState?: Parameters<Verifier['load']>[0]['ideState']; answer?: string;
}): Promise<EvaluationResult> {
  const verifier = await Verifier.start({ docker: s.docker, image: s.image, labels: { 'pwp.task': taskName(task) } });
  try {
    await verifier.load({
      workspaceTar: s.workspaceTar, initialTar: s.initialTar, baselineDir: task.workspaceDir, rules: restoreRulesOf(task.evaluator, task.grading),
      hiddenDir: task.hiddenDir, ideState: s.ideState, answer: s.answer,
    });
    return await evaluate(task.evaluator, verifier);
  } finally {
    await verifier.remove();
  }
}
