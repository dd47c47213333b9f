// One episode the Env server holds: an Env (a task's, or a bare one on a workspace) and how
// its results become JSON. Calls on one episode run one at a time, in the order they came,
// whoever sends them; calls on different episodes run side by side.
import { statSync } from 'node:fs';
import { InvalidParamsError, NotAvailableError } from '../../bridge/protocol';
import type { Deployment } from '../deployment/deployment';
import { Env, type EnvLike, type ResetOptions } from '../env/env';
import { EnvPool } from '../env/pool';
import type { Observation, ObserveKind, ObserveOptions } from '../env/observation';
import { makeEnv } from '../taskEnv/taskEnv';
import { resolveTasks, taskName, type Task } from '../taskEnv/loadTask';
import { RecordTrajectory } from '../trajectory/recordTrajectory';
import type { EnvParams } from './envProtocol';

export interface EpisodeOrigin {
  /** The client that opened it (removed with it after a grace period), or null. */
  ownerKey: string | null;
  /** Handed to an outside agent by pwp run/bench: clients may step it but not reset or close it. */
  attached: boolean;
}

/** Observations as JSON: images as base64. */
export function observationJson(o: Observation): unknown {
  const img = <T extends { data: Buffer }>(i: T) => ({ ...i, data: i.data.toString('base64') });
  return {
    ...o,
    ...(o.screenshot ? { screenshot: img(o.screenshot) } : {}),
    ...(o.marksImage ? { marksImage: img(o.marksImage) } : {}),
    ...(o.delta ? { delta: { ...o.delta, image: o.delta.image ? img(o.delta.image) : null } } : {}),
  };
}

export interface MakeOptions {
  tasksRoot?: string;
  image?: string;
  /** The server's recycling pool of an image, if it keeps one. */
  pool?: (image: string) => EnvPool | undefined;
}

export class Episode {
  private queue: Promise<unknown> = Promise.resolve();
  closed = false;

  constructor(
    readonly id: string,
    readonly env: EnvLike,
    readonly origin: EpisodeOrigin,
    readonly task: Task | null,
    /** A workspace episode's files, put in place on every reset. */
    private readonly workspace: ResetOptions = {},
    /** A warm episode's pool of one (env.make warm), removed with it. */
    private readonly pool?: EnvPool,
  ) {}

  /**
   * Opens an episode from env.make's params (nothing starts until reset). `o.pool` gives the
   * server's recycling pool of an image; the Env takes from it only an IDE that is what the
   * episode asks for (Env.fitsPool: no outside network, display, memory or live view of its own).
   * A warm episode keeps a staged spare of its own, and a task image built at the first reset has
   * no tag yet: neither takes from the server's pool.
   */
  static make(id: string, p: EnvParams<'env.make'>, origin: EpisodeOrigin, deployment: Deployment, o: MakeOptions = {}): Episode {
    const tasksRoot = o.tasksRoot;
    const observe: ObserveKind[] | undefined = p.observe;
    const observeOptions: ObserveOptions = { format: p.format, quality: p.quality };
    // A warm episode's spare starts with the same image, network and live view as its resets would.
    const warm = (spec: { network?: boolean; image?: string; display?: { width: number; height: number }; memoryMb?: number } = {}) => (p.warm
      ? { pool: new EnvPool({ size: 1, deployment, spec: { ...spec, image: spec.image ?? o.image, ...(p.view ? { view: true } : {}) } }), stageNext: true }
      : {});
    const shared = (image: string | undefined) => {
      const pool = !p.warm && image ? o.pool?.(image) : undefined;
      return pool ? { pool } : {};
    };
    if (p.task) {
      if (p.workspace || p.files || p.settings) throw new InvalidParamsError('params: env.make takes a task or a workspace, not both (a task brings its own workspace)');
      const tasks = findTasks(p.task, tasksRoot);
      if (tasks.length !== 1) throw new InvalidParamsError(`params.task: '${p.task}' names ${tasks.length} tasks; env.make opens one`);
      const t = tasks[0];
      // A task image is built at the first reset, so a task with a Dockerfile has no warm spare.
      const image = t.imageSource.kind === 'build' ? undefined : t.imageSource.kind === 'tag' ? t.imageSource.tag : o.image;
      const w = t.imageSource.kind === 'build' ? {} : warm({ network: t.network, image: t.imageSource.kind === 'tag' ? t.imageSource.tag : undefined, display: t.environment.display, memoryMb: t.environment.memoryMb });
      const s = shared(image);
      const env = makeEnv(t, { deployment, image: o.image, observe, observeOptions, limits: p.limits, view: p.view, record: p.record, tasksRoot, ...s, ...w });
      return new Episode(id, env, origin, t, {}, w.pool);
    }
    const w = warm();
    let env: EnvLike = new Env({ deployment, image: o.image, observe, observeOptions, view: p.view, ...shared(o.image), ...w });
    if (p.record) env = new RecordTrajectory(env, p.record, { meta: { workspace: p.workspace ?? null } });
    return new Episode(id, env, origin, null, { workspaceDir: p.workspace, files: p.files, settings: p.settings }, w.pool);
  }

  /** Runs fn after every call sent before it has finished. */
  run<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.queue.then(() => {
      if (this.closed) throw new NotAvailableError(`episode ${this.id} is closed`);
      return fn();
    });
    this.queue = next.catch(() => undefined);
    return next;
  }

  summary(forKey: string | null) {
    return {
      episodeId: this.id, task: this.task ? taskName(this.task) : null, envId: this.env.episode.environment?.id ?? null,
      attached: this.origin.attached, mine: forKey !== null && this.origin.ownerKey === forKey,
    };
  }

  taskSummary() { return this.task ? taskSummary(this.task) : null; }

  resetOptions(o: ResetOptions = {}): ResetOptions {
    const w = this.workspace;
    return { ...w, ...o, files: { ...w.files, ...o.files }, settings: { ...w.settings, ...o.settings } };
  }

  /** Ends the episode: its environment is recycled by the server's pool or removed (a recording is closed first). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try { await this.env.close(); } finally { await this.pool?.close(); }
  }
}

/** A workspace folder must exist on the server's machine (a typo would start an empty IDE). */
export function checkWorkspace(dir: string | undefined): void {
  if (dir === undefined) return;
  const st = statSync(dir, { throwIfNoEntry: false });
  if (!st?.isDirectory()) throw new InvalidParamsError(`params.workspace: ${dir} is not a folder on the server's machine`);
}

/** The tasks a selector names; a name that is not one is the caller's mistake, said as such. */
export function findTasks(selector: string, tasksRoot?: string): Task[] {
  try { return resolveTasks([selector], tasksRoot); } catch (err) {
    throw new InvalidParamsError(`params.task: ${(err as Error).message}`);
  }
}

/** Every bundled task (tasks.list without a selector). */
export function findAllTasks(tasksRoot?: string): Task[] {
  return resolveTasks([], tasksRoot);
}

export function taskSummary(t: Task) {
  return { name: taskName(t), suite: t.suite, id: t.id, instruction: t.instruction, limits: { steps: t.limits.steps, seconds: t.limits.seconds } };
}
