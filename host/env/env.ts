// The Env: a real IDE in a container behind a small gymnasium-style contract.
//   reset({seed, options}) -> {observation, info}       a fresh IDE on a task's initial state
//   step(action) -> {observation, reward, terminated, truncated, info}
//   observe(kinds), reward(), pause()/resume(), render(), close()
//   checkpoint(name)/restore(name), handOff(message) to a person watching the live view
//   query(method) (reads between steps), readFile, humanInput, video, detach, lost()
//   episode: what a driver reads of the episode (environment, steps, end, answer, grading)
//   signal: aborts when a limit wrapper's time is up (the one time limit, wrappers.ts)
// Drivers (runs, agents, replay, the inspector, MCP, the Env server) need nothing else:
// `unwrapped` is an escape hatch for wrappers and tests, not a road.
// Limits, recording and observation shaping are wrappers (wrappers.ts, host/trajectory), not flags.
// Actions go through the one action table (actionTable.ts); makeEnv (taskEnv.ts) puts a task on
// it. Below it, host/running is one running environment (container, bridge client, settle);
// Env.attach puts an Env on an environment that was already running (pwp up, pwp mcp --env).
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  errorFromWire, InvalidParamsError, NotAvailableError, PwpError, TargetClosedError, type ControlStatus, type MethodName, type ParamsIn, type Result,
} from '../../bridge/protocol';
import type { BridgeClient } from '../client/bridgeClient';
import { takeCheckpoint, type CheckpointOptions } from '../checkpoint/checkpoint';
import { restoreCheckpoint, startFromCheckpoint, type RestoreOptions, type RestoreResult } from '../checkpoint/restore';
import { CheckpointStore, type CheckpointManifest, type CheckpointSummary } from '../checkpoint/checkpointStore';
import { createDeployment } from '../deployment/backends';
import type { Backend, Deployment } from '../deployment/deployment';
import type { EnvironmentInfo, EnvironmentSpec } from '../deployment/deployment';
import type { ExecOptions, ExecResult } from '../deployment/runtime';
import { tarOfFiles, tarOfFolder } from '../deployment/tarArchive';
import { connectEnvironment, startEnvironment, watchForLoss, whyLost, type RunningEnvironment } from '../running/runningEnvironment';
import { waitForSettle, type SettleOptions, type Settled } from '../running/settle';
import { paths } from '../common/paths';
import { seededRandom } from '../common/seededRandom';
import type { AgentEvent } from '../models/agentEvents';
import type { EvaluationResult } from '../evaluation/evaluationResult';
import { isBridgeInput, performAction } from './actionTable';
import { actionSpace, parseAction, type Action } from './actions';
import { observe, observationSpace, screenshot, type Observation, type ObserveKind, type ObserveOptions } from './observation';
import type { EnvPool, RecycledInfo } from './pool';

export interface ResetOptions {
  /** A host folder whose contents become /workspace. */
  workspaceDir?: string;
  /** Files (path relative to /workspace -> content) written after workspaceDir. */
  files?: Record<string, string>;
  /** User settings (key -> value) in force before the agent's first step. */
  settings?: Record<string, unknown>;
  /** Files to open in editors, in order; the last one has the focus. */
  open?: (string | { file: string; line?: number; column?: number })[];
}

export interface ResetInfo {
  envId: string;
  seed: number | null;
  /** ms from reset() to the first observation */
  durationMs: number;
  /** ms the container took to become ready (0 when it came warm from a pool) */
  startMs: number;
  pooled: boolean;
  /** The pool had this reset's files, settings and editors in place already (EnvOptions.stageNext). */
  staged: boolean;
  /** The episode began in place on an environment the Env attached to (Env.attach), not a new one. */
  attached?: boolean;
  /** The pooled environment served earlier episodes and was recycled since: how, and why more than in place. */
  recycled?: RecycledInfo;
  settle: Settled;
  /** Where the time went, ms per phase (acquire or start, files, open, settle, observe). */
  timings: Record<string, number>;
}

export interface StepInfo {
  step: number;
  action: Action;
  /** ms for the whole step, for the action itself, and for the observation */
  durationMs: number;
  actionMs: number;
  observeMs: number;
  /** How long the screen took to settle after the action (null for done). */
  settle: Settled | null;
  /** The action was refused or failed (bad parameters, a tool that does not exist, xdotool failing). */
  error?: { name: string; code?: number; message: string };
  /** A tool call's or IDE call's result (tools.call, ide.*). */
  toolResult?: unknown;
  /** An exec action's exit code and output (cut to their last 20000 characters). */
  execResult?: ExecResult;
  /** The screen point a click landed on. */
  at?: { x: number; y: number };
  /** What the agent answered with `done`. */
  answer?: string;
  /** Set by wrappers that cut an episode (time or step limit). */
  truncatedBy?: string;
  /** A task Env's grading of the final state (the done step): score and per-check detail. */
  evaluation?: EvaluationResult;
}

export interface ResetResult { observation: Observation; info: ResetInfo }
export interface StepResult { observation: Observation; reward: number; terminated: boolean; truncated: boolean; info: StepInfo }

export interface RewardContext {
  env: Env;
  client: BridgeClient;
  info: EnvironmentInfo;
  /** A file from the environment as it is now. */
  readFile(path: string): Promise<string>;
  step: number;
  lastAction: Action | null;
  answer: string | null;
}
/** Scores the environment's current state (graders plug in here). */
export type RewardFunction = (ctx: RewardContext) => number | Promise<number>;

/**
 * What an agent or a runner notes in the trajectory beside its steps: a remark, a condition
 * it waited for (a replay waits for it too), a model turn, the end of a run.
 */
export type Annotation =
  | { type: 'note'; text: string }
  | { type: 'sync'; ide: string; params: Record<string, unknown>; match: unknown; ok: boolean; ms: number }
  | RewardAsked
  | { type: 'end'; status: string; reason?: string; steps: number; score?: number }
  | AgentEvent;

/**
 * The agent under test asked for its grade (reward()) after `step` steps: a move of the
 * agent's like a step, recorded with what it got, so a run that probed the grader shows it.
 */
export interface RewardAsked { type: 'rewardAsked'; actor: 'agent'; step: number; outcome: 'refused' | 'score'; score?: number; reason: string }

/** Bridge methods that only look: an agent may call them between steps (they are not steps). */
export const READ_METHODS: ReadonlySet<string> = new Set([
  'capture.screenshot', 'capture.cursor', 'capture.delta', 'proc.health',
  'dom.tree', 'dom.marks', 'dom.marksImage', 'dom.focused',
  'ide.status', 'ide.editors', 'ide.diagnostics', 'ide.settings.get', 'ide.keybindings.get', 'ide.timeline',
  'ide.timeline.read', 'ide.extensions', 'ide.debug', 'ide.terminals', 'tools.list', 'tools.log',
]);

/** Where startVideo records inside the environment. */
const VIDEO_PATH = '/tmp/pwp-run/video.mp4';

export interface RenderOptions { path?: string; format?: 'png' | 'jpeg'; quality?: number }

export interface EnvOptions {
  deployment?: Deployment;
  /** Where environments run when no deployment is given: 'docker' (this host, the default) or 'swarm' (PWP_SWARM_*, docs/scale-out.md). */
  backend?: Backend;
  /** Image to run; default the deployment's (pwp-ide:latest). */
  image?: string;
  display?: { width: number; height: number };
  cpus?: number;
  memoryMb?: number;
  /** Give the environment the outside network (a task's `network: true`); none by default. */
  network?: boolean;
  /** Serve the live view so a person can watch and take part. */
  view?: boolean;
  labels?: Record<string, string>;
  /** Take environments from a warm pool (reset is then a copy into a ready IDE). */
  pool?: EnvPool;
  /**
   * With a pool: have it prepare its spare IDEs with each reset's files, settings and editors
   * in the background, so the next reset with the same options is a hand-over (for loops that
   * reset the same way again and again). A reset with other options takes an untouched IDE.
   */
  stageNext?: boolean;
  reward?: RewardFunction;
  /** When the reward function runs: on `done` only (default), or after every step. */
  rewardOn?: 'done' | 'step';
  /** What step() and reset() observe; default a screenshot. */
  observe?: readonly ObserveKind[];
  observeOptions?: ObserveOptions;
  settle?: SettleOptions;
  /** How long a started or attached environment may take to be ready (default READY_TIMEOUT_MS, 5 min). */
  readyTimeoutMs?: number;
  checkpoints?: CheckpointStore;
}

/** A run's last trajectory record: how it ended (what result.json says). */
export type EndAnnotation = Extract<Annotation, { type: 'end' }>;

/**
 * The episode as a driver reads it (gymnasium keeps such facts in `info`): where the
 * environment is, how far the episode got, how it ended and how it was graded.
 */
export interface EpisodeInfo {
  /** The running environment and where to reach it; null before reset() and after close(). */
  environment: { id: string; ideUrl: string; bridgeUrl: string; viewUrl: string | null } | null;
  /** Steps taken in this episode (a task's set-up steps are not counted). */
  steps: number;
  paused: boolean;
  /** How the episode ended ('done', or the limit that cut it), or null while it runs. */
  over: string | null;
  /** What the agent answered with done, or null. */
  answer: string | null;
  /** A task Env's latest grading (the done step's, or reward()'s), or null. */
  evaluation: EvaluationResult | null;
  /** ms a task Env's last reset spent on the task's set-up steps (0 for a bare Env) */
  setupMs: number;
  /** ms a task Env's last grading took (0 before one) */
  gradeMs: number;
}

/** A limit ran out (a limit wrapper's signal aborts with it; an agent loop stops on it). */
export class LimitReachedError extends Error {
  constructor(message: string) { super(message); this.name = 'LimitReachedError'; }
}

/** The contract every Env and wrapper keeps; wrappers reach the base through `unwrapped`. */
export interface EnvLike {
  readonly unwrapped: Env;
  /** What step() takes, as one object JSON Schema (usable as a tool's input schema). */
  readonly actionSpace: Record<string, unknown>;
  /** What reset() and step() return as the observation, as JSON Schema. */
  readonly observationSpace: Record<string, unknown>;
  /** The episode now: environment, step count, end, answer, grading (see EpisodeInfo). */
  readonly episode: EpisodeInfo;
  /**
   * Aborts, with a LimitReachedError, when the episode's time limit passes (the wall-clock
   * wrapper's); never without one. A driver stops its agent on it, even mid-step.
   */
  readonly signal: AbortSignal;
  reset(args?: { seed?: number; options?: ResetOptions }): Promise<ResetResult>;
  step(action: Action): Promise<StepResult>;
  /** The observation now; `o` overrides the Env's format and quality for this look (and shapes delta and screenshot). */
  observe(kinds?: readonly ObserveKind[], o?: ObserveOptions): Promise<Observation>;
  query<M extends MethodName>(method: M, params: ParamsIn<M>): Promise<Result<M>>;
  /** A file of the environment (absolute, or relative to /workspace), or undefined when there is none. */
  readFile(path: string): Promise<Buffer | undefined>;
  /**
   * Input a person made (a replayed live-view event), performed through the action table as an
   * agent's input is, but not a step: not counted, observed, rewarded or limited. `settle`
   * waits for the screen afterwards.
   */
  humanInput(action: Action, o?: { settle?: boolean }): Promise<void>;
  reward(): Promise<number>;
  pause(): Promise<void>;
  resume(): Promise<void>;
  render(o?: RenderOptions): Promise<Buffer>;
  checkpoint(name: string, o?: CheckpointOptions): Promise<CheckpointManifest>;
  restore(name: string, o?: RestoreOptions & { newContainer?: boolean }): Promise<RestoreResult>;
  listCheckpoints(): CheckpointSummary[];
  /** Asks the person watching the live view to take over; resolves when they hand control back or the time runs out. */
  handOff(message: string, o?: { timeoutMs?: number }): Promise<ControlStatus>;
  /** Starts recording the screen to a video inside the environment. */
  startVideo(o?: { fps?: number }): Promise<void>;
  /** Stops the video and returns it (MP4), or undefined when none was written. */
  stopVideo(): Promise<Buffer | undefined>;
  /** Why the environment is gone (its node lost, its container removed), or undefined while it is there. */
  lost(): Promise<Error | undefined>;
  /** Notes something in the trajectory (recording wrappers write it; the Env ignores it). */
  annotate(a: Annotation): void;
  /** Lets go of the environment and leaves it running (`--keep`); returns its id. */
  detach(): Promise<string | undefined>;
  /** Ends it; `end` is the trajectory's last record (a recording wrapper writes it after the close record; others ignore it). */
  close(o?: { end?: EndAnnotation }): Promise<void>;
}

/** The typed error a step's action was refused or failed with (info.error), or null when it succeeded. */
export function stepError(info: StepInfo): PwpError | null {
  return info.error ? errorFromWire({ code: info.error.code ?? -32603, message: info.error.message }) : null;
}

/** A step after the episode ended (done, or a limit wrapper truncated it): call reset() first. */
export class EpisodeOverError extends NotAvailableError {
  constructor(how: string) { super(`the episode is over (${how}): call reset() to start another`); }
}

export class Env implements EnvLike {
  readonly deployment: Deployment;
  private env?: RunningEnvironment;
  /** The environment was running before this Env (attach): close() leaves it running. */
  private attached = false;
  /** The pool the environment came from, when it goes back there to be recycled (EnvPool.release). */
  private lentBy?: EnvPool;
  /** reset() has begun an episode (an attached Env has an environment before that). */
  private begun = false;
  private isPaused = false;
  private steps = 0;
  private over = false;
  private overHow: string | null = null;
  private lastAction: Action | null = null;
  private answer: string | null = null;
  private readonly store: CheckpointStore;
  /** Seeded by reset({seed}); Math.random-like. */
  random: () => number = Math.random;

  constructor(readonly opts: EnvOptions = {}) {
    this.deployment = opts.deployment ?? opts.pool?.deployment ?? createDeployment(opts.backend);
    this.store = opts.checkpoints ?? new CheckpointStore();
  }

  /**
   * An Env on an environment that is already running (`pwp up`, `pwp mcp --env`, the
   * inspector's): it does not own it, so close() only disconnects and leaves it running, and
   * reset() begins an episode in place (its files, settings and editors applied to the IDE as it
   * is) instead of replacing it. As for any Env, steps wait for that first reset().
   */
  static async attach(id: string, opts: EnvOptions = {}): Promise<Env> {
    const deployment = opts.deployment ?? opts.pool?.deployment ?? createDeployment(opts.backend);
    const info = await deployment.get(id);
    // Its spec is the running environment's (what a restore into a new container starts, what a recording names).
    const env = new Env({ ...opts, deployment, image: opts.image ?? info.image, display: opts.display ?? info.display });
    const { client, health } = await connectEnvironment(info, opts.readyTimeoutMs);
    watchForLoss(deployment, info, client);
    env.env = { info, client, health, startMs: 0 };
    env.attached = true;
    return env;
  }

  /** Whether this Env attached to an environment it did not start (see attach). */
  get isAttached(): boolean { return this.attached; }

  get unwrapped(): Env { return this; }
  /** Whether rewards mean anything here (a reward function, or a task's grading), or are the 0 of an Env with none. */
  get rewarded(): boolean { return !!this.opts.reward; }
  get actionSpace(): Record<string, unknown> { return actionSpace(); }
  get observationSpace(): Record<string, unknown> { return observationSpace(); }
  /** A bare Env has no time limit: its signal never aborts (WallClockLimit's does). */
  readonly signal: AbortSignal = new AbortController().signal;

  get episode(): EpisodeInfo {
    const i = this.env?.info;
    return {
      environment: i ? { id: i.id, ideUrl: i.ideUrl, bridgeUrl: i.bridgeUrl, viewUrl: i.viewUrl ?? null } : null,
      steps: this.steps, paused: this.isPaused, over: this.episodeOver, answer: this.answer,
      evaluation: null, setupMs: 0, gradeMs: 0,
    };
  }
  get paused(): boolean { return this.isPaused; }
  /** What the agent answered with done in this episode, or null. */
  get answerGiven(): string | null { return this.answer; }
  get stepCount(): number { return this.steps; }

  /** The bridge connection (for what the Env does not wrap). */
  get client(): BridgeClient { return this.running().client; }
  get info(): EnvironmentInfo { return this.running().info; }
  get id(): string | undefined { return this.env?.info.id; }

  private running(): RunningEnvironment {
    if (!this.env) throw new NotAvailableError('the environment is not running: call reset() first');
    return this.env;
  }

  private live(): RunningEnvironment {
    const env = this.running();
    if (this.isPaused) throw new NotAvailableError('the environment is paused: call resume() first');
    return env;
  }

  /** The image environments start from (a task Env resolves its task's). */
  protected image(): string | undefined { return this.opts.image; }

  /**
   * Runs once the environment is up, before the first observation: a task Env sets its task
   * up here. Steps taken here are not the episode's (the count starts after).
   */
  protected async prepareEpisode(): Promise<void> { /* a bare Env has nothing to set up */ }

  /** Ends the episode without done (a limit wrapper truncated it): later steps are refused. */
  endEpisode(how: string): void {
    this.over = true;
    this.overHow ??= how;
  }

  /** How the episode ended ('done', or the limit that cut it), or null while it runs. */
  get episodeOver(): string | null { return this.over ? this.overHow ?? 'done' : null; }

  /**
   * A pooled IDE is the pool's image, network, display, memory and live view: an Env (a task's)
   * that asks for others starts its own rather than run on the wrong one.
   */
  private fitsPool(pool: EnvironmentSpec): boolean {
    const mine = this.spec();
    const same = <T>(a: T | undefined, b: T | undefined) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
    return (!mine.image || !pool.image || mine.image === pool.image) && !!mine.network === !!pool.network && !!mine.view === !!pool.view
      && same(mine.display, pool.display) && same(mine.memoryMb, pool.memoryMb);
  }

  private spec(): EnvironmentSpec {
    const o = this.opts;
    return { image: this.image(), display: o.display, cpus: o.cpus, memoryMb: o.memoryMb, network: o.network, view: o.view, labels: o.labels };
  }

  async reset(args: { seed?: number; options?: ResetOptions } = {}): Promise<ResetResult> {
    const t0 = Date.now();
    const o = args.options ?? {};
    const inPlace = this.attached && !!this.env;
    this.begun = false;
    // The previous episode's container is removed in the background (seconds of Docker's time
    // the next episode need not wait for); close() waits for it.
    if (!inPlace) this.retire();
    this.steps = 0;
    this.over = false;
    this.overHow = null;
    this.lastAction = null;
    this.answer = null;
    this.random = args.seed === undefined ? Math.random : seededRandom(args.seed);
    let pooled = false;
    let staged = false;
    let recycled: RecycledInfo | undefined;
    const timings: Record<string, number> = {};
    let mark = Date.now();
    const lap = (name: string) => { const now = Date.now(); timings[name] = now - mark; mark = now; };
    if (inPlace) {
      await prepareWarm(this.deployment, this.running(), o);
      lap('files');
      await openEditors(this.running(), o);
      lap('open');
    } else if (this.opts.pool && this.fitsPool(this.opts.pool.spec ?? {})) {
      const key = this.opts.stageNext ? stagingKey(o) : undefined;
      const got = await this.opts.pool.acquire(key);
      this.env = got.env;
      if (this.opts.pool.recycles) this.lentBy = this.opts.pool;
      recycled = this.opts.pool.recycledInfo(got.env);
      pooled = true;
      staged = got.staged;
      lap('acquire');
      if (!staged) {
        await prepareWarm(this.deployment, got.env, o);
        lap('files');
        await openEditors(got.env, o);
        lap('open');
      }
      // The spare counts as ready once its screen has settled too: a hand-over then has nothing left to wait for.
      if (key) {
        this.opts.pool.stage({
          key,
          prepare: async (spare) => { await prepareWarm(this.deployment, spare, o); await openEditors(spare, o); await waitForSettle(spare.client, this.opts.settle); },
        });
      }
    } else {
      this.env = await startEnvironment(this.deployment, { ...this.spec(), ...this.coldFiles(o) }, this.opts.readyTimeoutMs);
      lap('start');
      await openEditors(this.env, o);
      lap('open');
    }
    const env = this.running();
    this.begun = true; // a task's set-up steps (prepareEpisode) are steps too
    await this.prepareEpisode();
    lap('prepare');
    this.steps = 0;
    this.over = false;
    this.overHow = null;
    this.lastAction = null;
    const settle = await waitForSettle(env.client, this.opts.settle);
    lap('settle');
    const observation = await this.observe();
    lap('observe');
    return {
      observation,
      info: {
        envId: env.info.id, seed: args.seed ?? null, durationMs: Date.now() - t0, startMs: pooled || inPlace ? 0 : env.startMs, pooled, staged,
        ...(inPlace ? { attached: true } : {}), ...(recycled ? { recycled } : {}), settle, timings,
      },
    };
  }

  /** A cold start gets its files before the IDE starts: workspace, files, and settings merged into the defaults. */
  private coldFiles(o: ResetOptions): Pick<EnvironmentSpec, 'workspaceDir' | 'archives'> {
    const archives: NonNullable<EnvironmentSpec['archives']> = [];
    if (o.files && Object.keys(o.files).length) archives.push({ path: '/workspace', tar: () => tarOfFiles(o.files!) });
    if (o.settings && Object.keys(o.settings).length) {
      // The image's user settings are images/ide/settings.json of this tree.
      const defaults = JSON.parse(readFileSync(join(paths.images, 'ide', 'settings.json'), 'utf8')) as Record<string, unknown>;
      const text = JSON.stringify({ ...defaults, ...o.settings }, null, 2);
      archives.push({ path: '/home/pwp/ide/user-data/User', tar: () => tarOfFiles({ 'settings.json': text }) });
    }
    return { workspaceDir: o.workspaceDir, archives };
  }

  async step(action: Action): Promise<StepResult> {
    const { client } = this.live();
    if (!this.begun) throw new NotAvailableError('no episode has begun: call reset() first');
    if (this.over) throw new EpisodeOverError(this.overHow ?? 'done was sent');
    const t0 = performance.now();
    this.steps++;
    const info: StepInfo = { step: this.steps, action, durationMs: 0, actionMs: 0, observeMs: 0, settle: null };
    let settleAfter = true;
    try {
      const a = parseAction(action);
      info.action = a;
      const out = await performAction(this.actionContext(), a);
      settleAfter = out.settle;
      if (out.toolResult !== undefined) info.toolResult = out.toolResult;
      if (out.execResult) info.execResult = out.execResult;
      if (out.at) info.at = out.at;
      if (a.type === 'done') info.answer = out.answer;
    } catch (err) {
      if (err instanceof TargetClosedError || !(err instanceof PwpError)) throw err;
      info.error = { name: err.name, code: err.code, message: err.message };
    }
    info.actionMs = +(performance.now() - t0).toFixed(1);
    this.lastAction = info.action;
    if (settleAfter) {
      const quietMs = info.action.type === 'wait' ? info.action.quietMs : undefined;
      const opts = quietMs === undefined ? this.opts.settle : { ...this.opts.settle, quietMs, capMs: Math.max(this.opts.settle?.capMs ?? 3000, quietMs + 3000) };
      info.settle = await waitForSettle(client, opts, isBridgeInput(info.action));
    }
    const terminated = info.action.type === 'done' && !info.error;
    if (terminated) { this.over = true; this.overHow = 'done'; this.answer = info.answer ?? null; }
    const reward = await this.stepReward(terminated, info);
    const t1 = performance.now();
    const observation = await this.observe();
    info.observeMs = +(performance.now() - t1).toFixed(1);
    info.durationMs = +(performance.now() - t0).toFixed(1);
    return { observation, reward, terminated, truncated: false, info };
  }

  /** The reward a step earns: the reward function's, on done (or every step when asked). */
  protected async stepReward(terminated: boolean, _info: StepInfo): Promise<number> {
    return this.opts.reward && (terminated || this.opts.rewardOn === 'step') ? this.reward() : 0;
  }

  private actionContext() {
    return {
      client: this.live().client,
      exec: (argv: string[], o: ExecOptions) => this.exec(argv, o),
      writeFile: (path: string, content: Buffer) => this.writeFile(path, content),
    };
  }

  /** A command in the environment as the IDE user (what an exec action runs). */
  async exec(argv: string[], o: ExecOptions = {}): Promise<ExecResult> {
    const { info } = this.live();
    return (await this.deployment.runtime(info.id)).exec(argv, o);
  }

  /** Writes a file (absolute, or relative to /workspace) as the IDE user, creating its folder. */
  async writeFile(path: string, content: Buffer | string): Promise<void> {
    const abs = path.startsWith('/') ? path : `/workspace/${path}`;
    const dir = abs.slice(0, abs.lastIndexOf('/')) || '/';
    const mk = await this.exec(['mkdir', '-p', dir], { cwd: '/' });
    if (mk.exitCode !== 0) throw new NotAvailableError(`cannot create ${dir}: ${mk.stderr.trim()}`);
    await (await this.deployment.runtime(this.live().info.id)).writeFiles(dir, [{ path: abs.slice(dir.length + 1), content }]);
  }

  async readFile(path: string): Promise<Buffer | undefined> {
    const { info } = this.running();
    return (await this.deployment.runtime(info.id)).readFile(path.startsWith('/') ? path : `/workspace/${path}`);
  }

  query<M extends MethodName>(method: M, params: ParamsIn<M>): Promise<Result<M>> {
    if (!READ_METHODS.has(method)) return Promise.reject(new InvalidParamsError(`${method} changes the environment: send it as an action through step()`));
    return this.live().client.call(method, params);
  }

  annotate(_a: Annotation): void { /* recording wrappers write annotations; the bare Env keeps none */ }

  async observe(kinds: readonly ObserveKind[] = this.opts.observe ?? ['screenshot'], o?: ObserveOptions): Promise<Observation> {
    return observe(this.live().client, kinds, { ...this.opts.observeOptions, ...o });
  }

  async humanInput(action: Action, o: { settle?: boolean } = {}): Promise<void> {
    const { client } = this.live();
    const a = parseAction(action);
    if (!isBridgeInput(a)) throw new InvalidParamsError(`action.type: a person's input is keys, text or the mouse, not ${a.type}`);
    await performAction(this.actionContext(), a);
    if (o.settle) await waitForSettle(client, this.opts.settle, true);
  }

  async startVideo(o: { fps?: number } = {}): Promise<void> {
    await this.live().client.call('capture.recordStart', { fps: o.fps, path: VIDEO_PATH });
  }

  async stopVideo(): Promise<Buffer | undefined> {
    const stopped = await this.live().client.call('capture.recordStop', {});
    return this.readFile(stopped.path);
  }

  async lost(): Promise<Error | undefined> {
    const env = this.env;
    return env ? whyLost(this.deployment, env.info, env.client) : undefined;
  }

  /** The reward function's score for the state now (0 without one). */
  async reward(): Promise<number> {
    const fn = this.opts.reward;
    if (!fn) return 0;
    const { client, info } = this.live();
    return fn({
      env: this, client, info, step: this.steps, lastAction: this.lastAction, answer: this.answer,
      readFile: async (p) => {
        const content = await this.readFile(p);
        if (!content) throw new NotAvailableError(`${p} is not a file of the environment`);
        return content.toString('utf8');
      },
    });
  }

  /** Freezes the container: every process stops where it is until resume(). */
  async pause(): Promise<void> {
    const { info } = this.running();
    if (this.isPaused) return;
    await this.deployment.pause(info.id, { held: true });
    this.isPaused = true;
  }

  async resume(): Promise<void> {
    const { info } = this.running();
    if (!this.isPaused) return;
    await this.deployment.unpause(info.id);
    this.isPaused = false;
  }

  /** The current frame as PNG (or JPEG), written to `path` when given. */
  async render(o: RenderOptions = {}): Promise<Buffer> {
    const format = o.format ?? (o.path && /\.jpe?g$/i.test(o.path) ? 'jpeg' : 'png');
    const { data } = await screenshot(this.live().client, { format, quality: o.quality });
    if (o.path) writeFileSync(o.path, data);
    return data;
  }

  async checkpoint(name: string, o: CheckpointOptions = {}): Promise<CheckpointManifest> {
    const { info, client } = this.live();
    return takeCheckpoint(this.deployment, info, client, name, this.store, o);
  }

  /** Restores a checkpoint into this environment, or (newContainer) into a fresh one that replaces it. */
  async restore(name: string, o: RestoreOptions & { newContainer?: boolean } = {}): Promise<RestoreResult> {
    if (o.newContainer) {
      if (o.criu) throw new NotAvailableError('a process checkpoint restores only into the container it was taken from');
      await this.dispose();
      this.attached = false; // the new container is this Env's own
      const env = await startFromCheckpoint(this.deployment, name, this.spec(), this.store, this.opts.readyTimeoutMs);
      this.env = env;
      return env.restore;
    }
    const { info, client } = this.live();
    return restoreCheckpoint(this.deployment, info, client, name, this.store, { ...o, timeoutMs: this.opts.readyTimeoutMs });
  }

  listCheckpoints(): CheckpointSummary[] { return this.store.list(); }
  deleteCheckpoint(name: string): void { this.store.delete(name); }

  /**
   * Asks the person watching the live view to take over, and waits (at most timeoutMs) until
   * they hand control back. Meanwhile agent input waits instead of fighting the person.
   */
  async handOff(message: string, o: { timeoutMs?: number } = {}): Promise<ControlStatus> {
    const { client } = this.live();
    const timeoutMs = o.timeoutMs ?? 10 * 60_000;
    await client.call('control.request', { message, timeoutMs });
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const s = await client.call('control.wait', { holder: 'agent', timeoutMs: Math.min(60_000, Math.max(0, deadline - Date.now())) }, { timeoutMs: 75_000 });
      if (s.holder === 'agent' || Date.now() >= deadline) return s;
    }
  }

  /**
   * Closes the connection and leaves the environment running, as close() does for an attached
   * one (`--keep`: a person or a later command takes it from here). Returns its id.
   */
  async detach(): Promise<string | undefined> {
    const id = this.id;
    this.attached = true;
    await this.dispose();
    return id;
  }

  /** Removes the container and closes the connection; nothing is left behind (an attached environment is only disconnected). */
  async close(_o?: { end?: EndAnnotation }): Promise<void> {
    await this.dispose();
    await Promise.all(this.retiring);
    this.retiring = [];
    const err = this.retireError;
    this.retireError = null;
    if (err) throw err;
  }

  /** Removals of earlier episodes' containers still under way, and the first that failed. */
  private retiring: Promise<void>[] = [];
  private retireError: Error | null = null;

  /** Lets go of the current environment now and removes it in the background. */
  private retire(): void {
    const p = this.dispose().catch((err: Error) => { this.retireError ??= err; });
    this.retiring.push(p);
    void p.finally(() => { this.retiring = this.retiring.filter((x) => x !== p); });
  }

  private async dispose(): Promise<void> {
    const env = this.env;
    const paused = this.isPaused;
    const lentBy = this.lentBy;
    this.env = undefined;
    this.lentBy = undefined;
    this.isPaused = false;
    if (!env) return;
    if (lentBy && !this.attached) {
      // Back to its pool, which recycles it in the background: this episode was graded already.
      if (paused) await this.deployment.unpause(env.info.id).catch(() => undefined);
      lentBy.release(env);
      return;
    }
    // Detached: it stays running, no longer the pool's.
    lentBy?.forget(env);
    env.client.close();
    if (this.attached) {
      // Not ours: leave it as we found it (running), only disconnected.
      this.attached = false;
      if (paused) await this.deployment.unpause(env.info.id).catch(() => undefined);
      return;
    }
    if (paused) await this.deployment.unpause(env.info.id).catch(() => undefined);
    await this.deployment.remove(env.info.id).catch((err: Error) => {
      if (!(err instanceof NotAvailableError)) throw err;
    });
  }
}

/**
 * A warm IDE gets its files copied in and its settings through the IDE (no reload); the two
 * go side by side, as one is Docker's work and the other the IDE's.
 */
export async function prepareWarm(deployment: Deployment, env: RunningEnvironment, o: ResetOptions): Promise<void> {
  const files = async () => {
    if (!o.workspaceDir && !(o.files && Object.keys(o.files).length)) return;
    const runtime = await deployment.runtime(env.info.id);
    if (o.workspaceDir) await runtime.archiveIn('/workspace', tarOfFolder(o.workspaceDir));
    if (o.files && Object.keys(o.files).length) await runtime.archiveIn('/workspace', tarOfFiles(o.files));
    // get_diff_patch shows changes since the task started: the tools' snapshot of the workspace
    // was taken at the IDE's start (or put back by a recycle), before the task's files came in.
    await env.client.call('tools.baseline', {});
  };
  const settings = async () => {
    for (const [key, value] of Object.entries(o.settings ?? {})) await env.client.call('ide.settings.update', { key, value, target: 'user' });
  };
  await Promise.all([files(), settings()]);
}

async function openEditors(env: RunningEnvironment, o: ResetOptions): Promise<void> {
  if (!o.open?.length) return;
  const editors = o.open.map((f) => (typeof f === 'string' ? { file: f } : { file: f.file, cursor: f.line ? { line: f.line, column: f.column ?? 1 } : undefined }));
  await env.client.call('ide.editors.open', { editors });
}

/** Names a reset's preparation: the same options give the same key. */
function stagingKey(o: ResetOptions): string {
  return createHash('sha256').update(JSON.stringify([o.workspaceDir ?? null, o.files ?? null, o.settings ?? null, o.open ?? null])).digest('hex');
}
