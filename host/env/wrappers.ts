// Policies around an Env, kept out of it: a wrapper is an EnvLike that delegates to the one
// it wraps and changes one thing. `truncated` (a limit hit) stays distinct from `terminated`
// (the agent said done); after either, a step is refused alike (EpisodeOverError) until reset.
import type { Action } from './actions';
import type { CheckpointOptions } from '../checkpoint/checkpoint';
import type { RestoreOptions } from '../checkpoint/restore';
import { EpisodeOverError, type Annotation, type Env, type EnvLike, type RenderOptions, type ResetOptions, type ResetResult, type StepResult } from './env';
import type { ObserveKind } from './observation';

export class EnvWrapper implements EnvLike {
  constructor(readonly env: EnvLike) {}
  get unwrapped(): Env { return this.env.unwrapped; }
  reset(args?: { seed?: number; options?: ResetOptions }): Promise<ResetResult> { return this.env.reset(args); }
  step(action: Action): Promise<StepResult> { return this.env.step(action); }
  observe(kinds?: readonly ObserveKind[]) { return this.env.observe(kinds); }
  reward(): Promise<number> { return this.env.reward(); }
  pause(): Promise<void> { return this.env.pause(); }
  resume(): Promise<void> { return this.env.resume(); }
  render(o?: RenderOptions): Promise<Buffer> { return this.env.render(o); }
  checkpoint(name: string, o?: CheckpointOptions) { return this.env.checkpoint(name, o); }
  restore(name: string, o?: RestoreOptions & { newContainer?: boolean }) { return this.env.restore(name, o); }
  annotate(a: Annotation): void { this.env.annotate(a); }
  close(): Promise<void> { return this.env.close(); }
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
 * Truncates the episode once maxMs of wall time have passed since reset. Time spent paused
 * does not count: a frozen IDE is not the agent's time.
 */
export class WallClockLimit extends LimitWrapper {
  private startedAt = 0;
  private pausedAt: number | null = null;
  private pausedMs = 0;
  constructor(env: EnvLike, readonly maxMs: number, private readonly now: () => number = Date.now) { super(env); }
  get elapsedMs(): number { return (this.pausedAt ?? this.now()) - this.startedAt - this.pausedMs; }
  /** ms left before the limit (never negative). */
  get remainingMs(): number { return Math.max(0, this.maxMs - this.elapsedMs); }
  override async reset(args?: { seed?: number; options?: ResetOptions }): Promise<ResetResult> {
    const r = await super.reset(args);
    this.startedAt = this.now();
    this.pausedMs = 0;
    this.pausedAt = null;
    return r;
  }
  override async pause(): Promise<void> {
    await super.pause();
    this.pausedAt ??= this.now();
  }
  override async resume(): Promise<void> {
    await super.resume();
    if (this.pausedAt !== null) { this.pausedMs += this.now() - this.pausedAt; this.pausedAt = null; }
  }
  protected limitHit(): string | null {
    return this.elapsedMs >= this.maxMs ? `time limit (${this.maxMs} ms)` : null;
  }
}
