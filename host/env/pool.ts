// A warm pool: N environments started ahead of time and kept ready, so Env.reset() copies a
// task's files into an IDE that is already up instead of waiting for a cold start. No workbench
// reload is needed on reset: the IDE was never used (or was recycled to as it started), its file
// watcher shows the copied files, and settings go through the IDE (Env.prepareWarm).
//
// Recycling (on by default): an environment an Env is done with comes back to the pool
// (release()), which brings it back to the state it had right after its start, in place, in the
// background (host/checkpoint/recycle.ts: processes, input, workbench, breakpoints, the user's
// files), and hands it out again only once the pristine check passed. A container serves at most
// `maxEpisodes` episodes (DEFAULT_MAX_EPISODES); one that fails the check, or reached the cap, is
// removed and a fresh one started in its place. The Env releases an environment only when its
// episode is over and graded (the next reset(), or close()), so a grading never waits on a
// recycle and never sees the next episode. Without recycling each environment is handed out once
// and a replacement starts as soon as one is taken.
//
// Staging goes one step further for an Env that resets the same way again and again (a
// reinforcement-learning loop, attempts at one task): the pool prepares its spare IDEs with
// that reset's files, settings and editors in the background (stage()), so the next reset
// with the same key is a hand-over. An IDE staged for one key is never handed to another:
// when the key changes, spares staged for the old one are removed and replaced.
import { createDeployment } from '../deployment/backends';
import type { Deployment } from '../deployment/deployment';
import type { EnvironmentSpec } from '../deployment/deployment';
import { startEnvironment, type RunningEnvironment } from '../running/runningEnvironment';
import { recycle, takeBaseline, type Baseline, type RecyclePart, type RecycleResult } from '../checkpoint/recycle';

/** Episodes a container serves, recycled in between, before a fresh one replaces it. */
export const DEFAULT_MAX_EPISODES = 50;

export interface RecycleSettings {
  /** Episodes a container serves before a fresh one replaces it (default DEFAULT_MAX_EPISODES). */
  maxEpisodes?: number;
  /** Test-only: recycling leaves these parts out (the pristine check must then fail). */
  skip?: readonly RecyclePart[];
}

/** How a baseline is taken and an environment recycled (the tests' seam). */
export interface Recycler {
  baseline(env: RunningEnvironment): Promise<Baseline>;
  recycle(env: RunningEnvironment, base: Baseline, skip?: readonly RecyclePart[]): Promise<RecycleResult>;
}

/** What an environment handed out has been through (ResetInfo.recycled). */
export interface RecycledInfo {
  /** Episodes this container served before this one. */
  episodes: number;
  how: RecycleResult['how'];
  /** Why more than an in-place recycle was needed. */
  reason?: string;
  ms: number;
  phases: Record<string, number>;
}

/** What the pool has done, for a bench or a log. */
export interface PoolStats {
  started: number;
  recycled: number;
  /** Containers removed instead of recycled, by why. */
  replaced: { cap: number; notPristine: number; failed: number };
  /** Each container replaced for a difference or a failure, in order: what the last check found, or the error. */
  replacements: { env: string; why: 'notPristine' | 'failed'; differences: string[]; message: string }[];
  /** ms of each recycle, in order. */
  recycleMs: number[];
  /** Why each recycle that needed more than in place did (a workbench reload), in order. */
  reloads: string[];
  /** ms by phase, summed over the recycles (host/checkpoint/recycle.ts names them). */
  phaseMs: Record<string, number>;
}

export interface EnvPoolOptions {
  /** Environments kept ready ahead of demand; 0 starts one only for a caller waiting (an Env server's pool). */
  size: number;
  /**
   * Ready environments kept at most: one recycled when that many wait already is removed (an Env
   * server keeps a few for the next env.make, not every one its busiest moment needed).
   */
  idle?: number;
  spec?: EnvironmentSpec;
  deployment?: Deployment;
  readyTimeoutMs?: number;
  /** Starts at most this many environments at once (cold starts compete for the CPU). */
  startConcurrency?: number;
  /**
   * Starts at most this many environments in all (failed starts do not count): a runner that
   * knows how many episodes it has (a bench) gets no replacement that nobody will take.
   */
  total?: number;
  /**
   * Starts that fail in a row before a waiting caller gets the error (default 3). A start that
   * times out on a machine under heavy load is usually fine on the next try; one that fails
   * for a reason (a missing image) fails each time and is reported after these tries.
   */
  startAttempts?: number;
  /**
   * Episodes the pool serves in all, where the caller knows (a bench's runs): once that many
   * environments have been handed out, one given back is removed rather than recycled for nobody.
   */
  episodes?: number;
  log?: (line: string) => void;
  /** Recycle environments between episodes (the default), or false to hand each out once. */
  recycle?: RecycleSettings | false;
  /** How a baseline is taken and an environment recycled (the tests' seam); host/checkpoint/recycle.ts unless given. */
  recycler?: Recycler;
  /** How an environment is started (the tests' seam); startEnvironment on the deployment unless given. */
  start?: (spec: EnvironmentSpec, signal: AbortSignal) => Promise<RunningEnvironment>;
}

/** How the pool prepares spare IDEs for the next episode: `key` names the preparation. */
export interface Staging { key: string; prepare: (env: RunningEnvironment) => Promise<void> }

export class EnvPool {
  readonly deployment: Deployment;
  /** Ready environments, each with the staging key it was prepared with (undefined: untouched). */
  private readonly ready: { env: RunningEnvironment; key?: string }[] = [];
  private staging?: Staging;
  /** Callers waiting: each takes an untouched environment, or one staged with its key. */
  private readonly waiters: { resolve: (got: { env: RunningEnvironment; staged: boolean }) => void; reject: (err: Error) => void; key?: string }[] = [];
  /** Environments being staged now. */
  private preparing = 0;
  private starting = 0;
  private started = 0;
  private closed = false;
  /** Aborts the starts still under way when the pool closes: nobody will take what they make. */
  private readonly closing = new AbortController();
  private lastError: Error | null = null;
  /** Each live environment's recycling baseline and the episodes it served. */
  private readonly served = new Map<string, { baseline?: Baseline; episodes: number; last?: RecycledInfo }>();
  /** Environments handed out that may come back (release), and those being recycled now. */
  private onLoan = 0;
  private recycling = 0;
  /** Removals under way (close() waits for them). */
  private readonly removing = new Set<Promise<void>>();
  /** Environments handed out so far: once `episodes` have been, none that comes back is needed again. */
  private handedOut = 0;
  readonly stats: PoolStats = { started: 0, recycled: 0, replaced: { cap: 0, notPristine: 0, failed: 0 }, replacements: [], recycleMs: [], reloads: [], phaseMs: {} };
  /** Starts failed in a row since the last one that succeeded (or the last error reported). */
  private failedInARow = 0;

  /** What the pool's environments are started with. */
  get spec(): EnvironmentSpec | undefined { return this.opts.spec; }

  constructor(private readonly opts: EnvPoolOptions) {
    if (!Number.isInteger(opts.size) || opts.size < 0) throw new Error(`pool size must be a whole number, got ${opts.size}`);
    if (opts.idle !== undefined && (!Number.isInteger(opts.idle) || opts.idle < 0)) throw new Error(`pool idle must be a whole number, got ${opts.idle}`);
    if (opts.total !== undefined && (!Number.isInteger(opts.total) || opts.total < 1)) throw new Error(`pool total must be a positive integer, got ${opts.total}`);
    if (opts.startAttempts !== undefined && (!Number.isInteger(opts.startAttempts) || opts.startAttempts < 1)) throw new Error(`pool startAttempts must be a positive integer, got ${opts.startAttempts}`);
    const cap = opts.recycle ? opts.recycle.maxEpisodes : undefined;
    if (cap !== undefined && (!Number.isInteger(cap) || cap < 1)) throw new Error(`pool maxEpisodes must be a positive integer, got ${cap}`);
    this.deployment = opts.deployment ?? createDeployment();
  }

  /** Whether environments come back to this pool (release) to be recycled. */
  get recycles(): boolean { return this.opts.recycle !== false; }

  /** The recycling baseline of an environment of this pool (undefined where it has none). */
  baselineOf(id: string): Baseline | undefined { return this.served.get(id)?.baseline; }

  /** What an environment handed out by this pool has been through (undefined: a fresh one). */
  recycledInfo(env: RunningEnvironment): RecycledInfo | undefined { return this.served.get(env.info.id)?.last; }

  /** Starts filling the pool; resolves once every slot holds a ready environment. */
  async fill(): Promise<void> {
    this.topUp();
    // With a total, a pool that has started all it may and has none starting is as full as it gets.
    while (!this.closed && this.ready.length < this.opts.size && (this.starting > 0 || this.mayStartMore())) {
      if (this.lastError && this.starting === 0) throw this.lastError;
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  get readyCount(): number { return this.ready.length; }

  /**
   * A ready environment (waiting for one if none is ready yet); the caller owns it from now on.
   * With a key, one staged with that key is preferred (also one still being staged, which is
   * further along than an untouched one), and `staged` says whether it was; otherwise an
   * untouched one. An environment staged with another key is never handed out.
   */
  async acquire(key?: string): Promise<{ env: RunningEnvironment; staged: boolean }> {
    if (this.closed) throw new Error('the pool is closed');
    const i = key === undefined ? -1 : this.ready.findIndex((r) => r.key === key);
    const waitForStaging = i < 0 && key !== undefined && key === this.staging?.key && this.preparing > 0;
    const j = i >= 0 || waitForStaging ? i : this.ready.findIndex((r) => r.key === undefined);
    const got = j >= 0 ? this.ready.splice(j, 1)[0] : undefined;
    // Environments still to come (not yet started, or starting), each promised to a waiter in turn.
    const toCome = (this.opts.total ?? Infinity) - this.started + this.starting + (this.recycles ? this.onLoan + this.recycling : 0);
    if (!got && this.waiters.length >= toCome) throw new Error(`the pool has handed out all ${this.opts.total} environments it may start`);
    const p = got ? Promise.resolve({ env: got.env, staged: got.key !== undefined })
      : new Promise<{ env: RunningEnvironment; staged: boolean }>((resolve, reject) => this.waiters.push({ resolve, reject, key }));
    // Counted at once when one was ready, so that the top-up below sees it on loan.
    const lend = () => { this.onLoan++; this.handedOut++; };
    if (got) lend();
    else void p.then(lend, () => undefined);
    this.lastError = null;
    this.topUp();
    return p;
  }

  /**
   * Prepares spare environments with `staging` from now on (those ready now, and each one
   * started later) until another staging replaces it; spares staged for another key are
   * removed and replaced. A failed preparation removes that environment, never a caller's.
   */
  stage(staging: Staging): void {
    if (this.closed) return;
    const changed = this.staging?.key !== staging.key;
    this.staging = staging;
    if (!changed) return;
    for (const r of this.ready.splice(0)) {
      if (r.key === undefined) this.prepare(r.env);
      else if (r.key === staging.key) this.ready.push(r);
      else {
        this.started--; // its replacement may start
        void this.discard(r.env);
      }
    }
    this.topUp();
  }

  /**
   * Stages `env` with the current staging (if any) and makes it ready. One that a caller waits
   * for untouched (another key, or none) goes to it now; callers waiting with this staging's key
   * get it staged, as they would have to prepare it themselves anyway.
   */
  private prepare(env: RunningEnvironment): void {
    const staging = this.staging;
    if (!staging || this.waiters.some((w) => w.key !== staging.key)) return this.hand(env);
    this.starting++;
    this.preparing++;
    staging.prepare(env).then(
      () => this.hand(env, staging.key),
      (err: Error) => {
        this.opts.log?.(`pool: preparing an environment for the next episode failed: ${err.message}`);
        this.started--;
        void this.discard(env);
      },
    ).finally(() => { this.starting--; this.preparing--; this.topUp(); });
  }

  /** A waiter takes it (any waiter an untouched one, only one of the same key a staged one), or it waits ready. */
  private hand(env: RunningEnvironment, key?: string): void {
    if (this.closed) { void this.discard(env); return; }
    // A key that is no longer the staging's: this IDE is prepared for nobody.
    if (key !== undefined && key !== this.staging?.key) { this.started--; void this.discard(env); this.topUp(); return; }
    const w = this.waiters.findIndex((x) => key === undefined || x.key === key);
    if (w >= 0) this.waiters.splice(w, 1)[0].resolve({ env, staged: key !== undefined });
    else if (this.ready.length >= (this.opts.idle ?? Infinity)) { this.started--; void this.discard(env); }
    else this.ready.push({ env, key });
  }

  private topUp(): void {
    const concurrency = this.opts.startConcurrency ?? 2;
    while (!this.closed && this.ready.length + this.starting + this.recycling < this.opts.size + this.waiters.length && this.starting < concurrency
      && this.mayStartMore()) {
      this.starting++;
      this.started++;
      const spec = { ...this.opts.spec, labels: { ...this.opts.spec?.labels, 'pwp.pool': '1' } };
      let tryAgain = false;
      const signal = this.closing.signal;
      (this.opts.start ? this.opts.start(spec, signal) : startEnvironment(this.deployment, spec, this.opts.readyTimeoutMs, signal))
        .then(async (env) => {
          if (this.closed) return this.discard(env);
          this.lastError = null;
          this.failedInARow = 0;
          this.stats.started++;
          if (this.recycles) await this.baseline(env);
          if (this.closed) return this.discard(env);
          this.prepare(env);
        }, (err: Error) => {
          this.started--;
          if (this.closed) return; // given up by close()
          const attempts = this.opts.startAttempts ?? 3;
          tryAgain = ++this.failedInARow < attempts && !this.closed;
          this.opts.log?.(`pool: an environment failed to start (${this.failedInARow} of ${attempts} tries): ${err.message}${tryAgain ? '; starting another' : ''}`);
          if (tryAgain) return;
          this.failedInARow = 0;
          this.lastError = err;
          // Someone waiting gets the failure instead of waiting forever; the pool retries on the next acquire.
          this.waiters.shift()?.reject(err);
        })
        // After an error is reported the pool waits for the next acquire, unless this start's tries go on.
        .finally(() => { this.starting--; if (!this.lastError || tryAgain) this.topUp(); });
    }
  }

  /**
   * Whether another start is of use: under the total, and (for a caller that said how many
   * episodes, recycling) not when the environments the pool has, is starting or will get back
   * cover every episode it has still to hand out: another start would cost a cold start's CPU
   * where a recycle of seconds does (a bench's last runs on an image, the gold and null runs of
   * a dataset check's row). One given back and replaced makes room again.
   */
  private mayStartMore(): boolean {
    if (this.started >= (this.opts.total ?? Infinity)) return false;
    if (!this.recycles || this.opts.episodes === undefined) return true;
    return this.ready.length + this.starting + this.recycling + this.onLoan < this.opts.episodes - this.handedOut;
  }

  /** Takes a new environment's recycling baseline; without one it is handed out once. */
  private async baseline(env: RunningEnvironment): Promise<void> {
    try {
      const baseline = await (this.opts.recycler?.baseline(env) ?? takeBaseline(this.deployment, env.info, env.client));
      this.served.set(env.info.id, { baseline, episodes: 0 });
    } catch (err) {
      this.opts.log?.(`pool: taking the recycling baseline of ${env.info.id} failed (it serves one episode): ${(err as Error).message}`);
      this.served.set(env.info.id, { episodes: 0 });
    }
  }

  /**
   * Gives back an environment this pool handed out, once its episode is over and graded: it is
   * recycled in the background and handed out again when pristine, or removed and replaced
   * (the cap reached, the check failed, no baseline). Without recycling it is removed.
   */
  release(env: RunningEnvironment): void {
    this.onLoan = Math.max(0, this.onLoan - 1);
    const s = this.served.get(env.info.id);
    const cap = (this.opts.recycle || undefined)?.maxEpisodes ?? DEFAULT_MAX_EPISODES;
    const replace = (why: keyof PoolStats['replaced'] | null, message?: string, differences: string[] = []) => {
      if (why) this.stats.replaced[why]++;
      if (why && why !== 'cap') this.stats.replacements.push({ env: env.info.id, why, differences, message: message ?? 'no recycling baseline' });
      if (message) this.opts.log?.(`pool: ${env.info.id} is replaced by a fresh one: ${message}`);
      this.started--; // its replacement may start
      void this.discard(env);
      this.topUp();
    };
    // Closed, not recycling, or every episode the pool was started for has its environment: removed.
    if (this.closed || !this.recycles || this.handedOut >= (this.opts.episodes ?? Infinity)) { void this.discard(env); return; }
    if (!s?.baseline) return replace('failed');
    if (s.episodes + 1 >= cap) return replace('cap');
    this.recycling++;
    const skip = (this.opts.recycle || undefined)?.skip;
    (this.opts.recycler?.recycle(env, s.baseline, skip) ?? recycle(this.deployment, env.info, env.client, s.baseline, { skip })).then((r) => {
      this.stats.recycleMs.push(r.ms);
      if (r.reason) this.stats.reloads.push(r.reason);
      for (const [k, v] of Object.entries(r.phases)) this.stats.phaseMs[k] = (this.stats.phaseMs[k] ?? 0) + v;
      if (!r.pristine) return replace('notPristine', r.differences.slice(0, 5).join('; '), r.differences);
      this.stats.recycled++;
      s.episodes++;
      s.last = { episodes: s.episodes, how: r.how, ...(r.reason ? { reason: r.reason } : {}), ms: r.ms, phases: r.phases };
      this.prepare(env);
    }, (err: Error) => replace('failed', `recycling failed: ${err.message}`))
      .finally(() => { this.recycling--; this.topUp(); });
  }

  /**
   * Lets go of an environment this pool handed out that will not come back (Env.detach: left
   * running for a person or a later command): it is the caller's now, and a replacement may start.
   */
  forget(env: RunningEnvironment): void {
    if (!this.served.delete(env.info.id)) return;
    this.onLoan = Math.max(0, this.onLoan - 1);
    this.started--;
    this.topUp();
  }

  private discard(env: RunningEnvironment): Promise<void> {
    env.client.close();
    this.served.delete(env.info.id);
    // close() waits for these: a recycle that ends after close() discards what it recycled.
    const removal = this.deployment.remove(env.info.id).catch(() => undefined).finally(() => { this.removing.delete(removal); });
    this.removing.add(removal);
    return removal;
  }

  /**
   * Removes every environment the pool still holds (handed-out ones belong to their Envs); starts
   * under way are given up at once rather than finished and removed (a cold start's CPU for
   * nothing: an Env server session that ends leaves its staged spare half-started).
   */
  async close(): Promise<void> {
    this.closed = true;
    this.closing.abort(new Error('the pool is closed'));
    for (const w of this.waiters.splice(0)) w.reject(new Error('the pool is closed'));
    while (this.starting > 0 || this.recycling > 0) await new Promise((r) => setTimeout(r, 100));
    await Promise.all(this.ready.splice(0).map((r) => this.discard(r.env)));
    while (this.removing.size) await Promise.all([...this.removing]);
  }
}
