// Policies around an Env, kept out of it: a wrapper is an EnvLike that delegates to the one
// it wraps and changes one thing. `truncated` (a limit hit) stays distinct from `terminated`
// (the agent said done); after either, a step is refused alike (EpisodeOverError) until reset.
import { NotAvailableError, type MethodName, type ParamsIn, type Result } from '../../bridge/protocol';
import type { Action } from './actions';
import type { CheckpointOptions } from '../checkpoint/checkpoint';
import type { RestoreOptions } from '../checkpoint/restore';
import {
  EpisodeOverError, LimitReachedError,
  type Annotation, type EndAnnotation, type Env, type EnvLike, type RewardAsked, type EpisodeInfo, type RenderOptions, type ResetOptions, type ResetResult, type StepResult,
} from './env';
import type { ObserveKind, ObserveOptions } from './observation';

export class EnvWrapper implements EnvLike {
  constructor(readonly env: EnvLike) {}
  get unwrapped(): Env { return this.env.unwrapped; }
  get actionSpace(): Record<string, unknown> { return this.env.actionSpace; }
  get observationSpace(): Record<string, unknown> { return this.env.observationSpace; }
  get episode(): EpisodeInfo { return this.env.episode; }
  get signal(): AbortSignal { return this.env.signal; }
  reset(args?: { seed?: number; options?: ResetOptions }): Promise<ResetResult> { return this.env.reset(args); }
  step(action: Action): Promise<StepResult> { return this.env.step(action); }
  observe(kinds?: readonly ObserveKind[], o?: ObserveOptions) { return this.env.observe(kinds, o); }
  query<M extends MethodName>(method: M, params: ParamsIn<M>): Promise<Result<M>> { return this.env.query(method, params); }
  readFile(path: string): Promise<Buffer | undefined> { return this.env.readFile(path); }
  humanInput(action: Action, o?: { settle?: boolean }): Promise<void> { return this.env.humanInput(action, o); }
  reward(): Promise<number> { return this.env.reward(); }
  pause(): Promise<void> { return this.env.pause(); }
  resume(): Promise<void> { return this.env.resume(); }
  render(o?: RenderOptions): Promise<Buffer> { return this.env.render(o); }
  checkpoint(name: string, o?: CheckpointOptions) { return this.env.checkpoint(name, o); }
  restore(name: string, o?: RestoreOptions & { newContainer?: boolean }) { return this.env.restore(name, o); }
  listCheckpoints() { return this.env.listCheckpoints(); }
  handOff(message: string, o?: { timeoutMs?: number }) { return this.env.handOff(message, o); }
  startVideo(o?: { fps?: number }): Promise<void> { return this.env.startVideo(o); }
  stopVideo(): Promise<Buffer | undefined> { return this.env.stopVideo(); }
  lost(): Promise<Error | undefined> { return this.env.lost(); }
  annotate(a: Annotation): void { this.env.annotate(a); }
  detach(): Promise<string | undefined> { return this.env.detach(); }
  close(o?: { end?: EndAnnotation }): Promise<void> { return this.env.close(o); }
}

/** A wrapper that may cut the episode: once it has, steps are refused until reset. */
abstract class LimitWrapper extends EnvWrapper {
  private truncatedBy: string | null = null;
  override async reset(args?: { seed?: number; options?: ResetOptions }): Promise<ResetResult> {
    this.truncatedBy = null;
    return super.reset(args);
  }
  /** The reason to cut the episode after this step, or null. */
  protected abstract limitHit(): string | null;
  override async step(action: Action): Promise<StepResult> {
    if (this.truncatedBy) throw new EpisodeOverError(`truncated by the ${this.truncatedBy}`);
    const r = await super.step(action);
    const hit = r.terminated ? null : this.limitHit();
    if (!hit) return r;
    this.truncatedBy = hit;
    // The base Env refuses later steps too, whoever sends them (a wrapper above this one, a runner).
    this.unwrapped.endEpisode?.(`truncated by the ${hit}`);
    return { ...r, truncated: true, info: { ...r.info, truncatedBy: r.info.truncatedBy ?? hit } };
  }
}

/** Gymnasium's TimeLimit: truncates the episode after maxSteps steps. */
export class TimeLimit extends LimitWrapper {
  private steps = 0;
  constructor(env: EnvLike, readonly maxSteps: number) { super(env); }
  override async reset(args?: { seed?: number; options?: ResetOptions }): Promise<ResetResult> {
    this.steps = 0;
    return super.reset(args);
  }
  protected limitHit(): string | null {
    return ++this.steps >= this.maxSteps ? `step limit (${this.maxSteps})` : null;
  }
}

/**
 * A task's one time limit: maxMs of wall time since reset. Time while the Env is paused
 * (pause()/resume(): the container frozen, e.g. while a person inspects it) does not count, as
 * a frozen IDE is not the agent's time; a hand-off to a person is not a pause and counts.
 * The limit acts twice on the same clock: a step that ends past it is truncated, and `signal`
 * aborts the moment it passes, so a driver stops an agent that is blocked (a long step, a
 * model call) instead of waiting for its next step. Drivers take their abort from `signal`.
 */
export class WallClockLimit extends LimitWrapper {
  private startedAt = 0;
  private pausedAt: number | null = null;
  private pausedMs = 0;
  private controller = new AbortController();
  private timer?: NodeJS.Timeout;
  constructor(env: EnvLike, readonly maxMs: number, private readonly now: () => number = Date.now) { super(env); }
  get elapsedMs(): number { return (this.pausedAt ?? this.now()) - this.startedAt - this.pausedMs; }
  /** ms left before the limit (never negative). */
  get remainingMs(): number { return Math.max(0, this.maxMs - this.elapsedMs); }
  /** Aborts with a LimitReachedError when the limit passes (or when the Env inside says its own did). */
  override get signal(): AbortSignal { return AbortSignal.any([this.controller.signal, super.signal]); }
  override async reset(args?: { seed?: number; options?: ResetOptions }): Promise<ResetResult> {
    this.disarm();
    const r = await super.reset(args);
    this.startedAt = this.now();
    this.pausedMs = 0;
    this.pausedAt = null;
    this.controller = new AbortController();
    this.arm();
    return r;
  }
  override async pause(): Promise<void> {
    await super.pause();
    this.pausedAt ??= this.now();
    this.disarm();
  }
  override async resume(): Promise<void> {
    await super.resume();
    if (this.pausedAt !== null) { this.pausedMs += this.now() - this.pausedAt; this.pausedAt = null; }
    this.arm();
  }
  override async close(o?: { end?: EndAnnotation }): Promise<void> {
    this.disarm();
    return super.close(o);
  }
  protected limitHit(): string | null {
    return this.elapsedMs >= this.maxMs ? `time limit (${this.maxMs} ms)` : null;
  }
  /** Aborts the signal when the time left has passed (not counting pauses, which disarm it). */
  private arm(): void {
    this.disarm();
    if (this.controller.signal.aborted) return;
    this.timer = setTimeout(() => {
      if (this.pausedAt !== null) return;
      if (this.remainingMs > 0) { this.arm(); return; }
      this.controller.abort(new LimitReachedError(`time limit of ${this.maxMs / 1000} s reached`));
    }, this.remainingMs);
    this.timer.unref();
  }
  private disarm(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}

/**
 * The agent's view of an episode run for scoring (`pwp run`, `pwp bench`, any agent under test):
 * the grade is the runner's. Grading runs the hidden tests, so an agent that could ask for it
 * mid-episode could hill-climb on them, and on their output. Before the episode ends, reward()
 * is refused (or, where the task allows intermediate rewards, gives the score alone), and the
 * episode's evaluation stays hidden; every such call is noted in the trajectory. Library users
 * who drive their own Env hold the episode themselves and keep reward() as it is.
 */
export class RewardAtEnd extends EnvWrapper {
  /** How many times the agent asked for its grade before the end (refused or given the score). */
  asked = 0;

  constructor(env: EnvLike, private readonly o: { intermediate?: boolean } = {}) { super(env); }

  override get episode(): EpisodeInfo {
    const e = this.env.episode;
    return e.over ? e : { ...e, evaluation: null };
  }

  override async reward(): Promise<number> {
    const e = this.env.episode;
    const asked = (outcome: RewardAsked['outcome'], reason: string, score?: number) => {
      this.asked++;
      this.annotate({ type: 'rewardAsked', actor: 'agent', step: e.steps, outcome, reason, ...(score !== undefined ? { score } : {}) });
    };
    if (e.over) {
      // The end's grade, once given (the done step's); a cut episode is graded by its runner.
      if (e.evaluation) return e.evaluation.score;
      asked('refused', 'the episode was cut: its runner grades it');
      throw new NotAvailableError('the episode is over and its runner grades it: the score is in the run\'s result');
    }
    if (!this.o.intermediate) {
      asked('refused', 'the grade is the run\'s, given at the end');
      throw new NotAvailableError("this episode is run for scoring: its grade is given when it ends (a done action), not before");
    }
    const score = await this.env.reward();
    asked('score', 'the task allows intermediate rewards: the score alone', score);
    return score;
  }
}
