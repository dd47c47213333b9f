// Recording is a wrapper: every reset, step (action, tool call, observation, reward, timings,
// errors), checkpoint and pause goes to the trajectory as it happens, and so does what a
// person does in the live view (polled from the bridge's control.events), tagged `human`:
// each input once, from the first reset on (what a person did in an environment before a
// session attached to it belongs to no episode of this trajectory).
import type { HumanEvent } from '../../bridge/protocol';
import type { Action } from '../env/actions';
import type { CheckpointOptions } from '../checkpoint/checkpoint';
import type { RestoreOptions } from '../checkpoint/restore';
import type { Annotation, EndAnnotation, EnvLike, ResetOptions, ResetResult, StepResult } from '../env/env';
import type { Observation } from '../env/observation';
import { EnvWrapper } from '../env/wrappers';
import { TrajectoryWriter, type ObservationRef } from './trajectoryFile';

export interface RecordOptions {
  /** How often to collect the person's input while nothing else happens (ms); 0 turns polling off. */
  humanPollMs?: number;
  /** Extra facts for the header (task id, agent, model). */
  meta?: Record<string, unknown>;
}

export class RecordTrajectory extends EnvWrapper {
  readonly writer: TrajectoryWriter;
  private resets = 0;
  private humanSeq = 0;
  private poller?: NodeJS.Timeout;
  /** Writes happen one at a time, in order, whoever triggers them (a step or the poller). */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(env: EnvLike, readonly dir: string, private readonly o: RecordOptions = {}) {
    super(env);
    // The header names what the base Env was configured with, before any reset started an
    // environment; `rewarded` says whether its rewards mean anything (a task's grading, a reward
    // function) or are the 0 of an Env that has none.
    const base = env.unwrapped;
    this.writer = new TrajectoryWriter(dir, { ...o.meta, image: base.opts.image ?? null, display: base.opts.display ?? null, rewarded: base.rewarded });
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.queue.then(fn, fn);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Collects the person's input since the last collection and writes it. */
  flushHuman(): Promise<number> {
    return this.serial(async () => {
      // The person's input is the bridge's log (control.events), read on the base's connection: no agent's business, so not on the contract.
      const base = this.env.unwrapped;
      if (!base.id || base.paused || base.client.closed) return 0;
      let written = 0;
      for (;;) {
        const r = await base.client.call('control.events', { since: this.humanSeq, max: 1000 });
        for (const e of r.events) this.writeHuman(e);
        written += r.events.length;
        this.humanSeq = r.next;
        if (r.events.length < 1000) return written;
      }
    }).catch(() => 0);
  }

  private async humanLogEnd(): Promise<number> {
    const base = this.env.unwrapped;
    if (!base.id || base.client.closed) return 0;
    return base.client.call('control.status', {}).then((s) => s.lastEventSeq, () => 0);
  }

  private writeHuman(event: HumanEvent): void {
    this.writer.append({ type: 'human', actor: 'human', event, t: event.t });
  }

  private startPolling(): void {
    clearInterval(this.poller);
    const ms = this.o.humanPollMs ?? 500;
    if (ms > 0) this.poller = setInterval(() => void this.flushHuman(), ms).unref();
  }

  private observationRef(prefix: string, o: Observation): ObservationRef {
    const ext = (f: string) => (f === 'jpeg' ? 'jpg' : 'png');
    const ref: ObservationRef = { timings: o.timings as Record<string, number> };
    if (o.errors) ref.errors = o.errors as Record<string, string>;
    if (o.screenshot) ref.screenshot = this.writer.saveFile(`${prefix}.${ext(o.screenshot.format)}`, o.screenshot.data);
    if (o.delta) {
      ref.delta = { changed: o.delta.changed, box: o.delta.box, image: o.delta.image ? this.writer.saveFile(`${prefix}.delta.${ext(o.delta.image.format)}`, o.delta.image.data) : null };
    }
    if (o.marks) ref.marks = { count: o.marks.marks.length, file: this.writer.saveFile(`${prefix}.marks.json`, JSON.stringify(o.marks)) };
    if (o.marksImage) {
      ref.marksImage = this.writer.saveFile(`${prefix}.marks.${ext(o.marksImage.format)}`, o.marksImage.data);
      const marks = JSON.stringify({ marks: o.marksImage.marks, text: o.marksImage.text });
      ref.marks ??= { count: o.marksImage.marks.length, file: this.writer.saveFile(`${prefix}.marks.json`, marks) };
    }
    if (o.cursor) ref.cursor = o.cursor;
    if (o.focused !== undefined) ref.focused = o.focused;
    if (o.ide) ref.ide = o.ide;
    return ref;
  }

  /** Tool results may carry images (base64): those go to files too. */
  private toolResultRef(prefix: string, result: unknown): unknown {
    const r = result as { content?: { type?: string; data?: string; mimeType?: string }[] } | undefined;
    if (!r || !Array.isArray(r.content)) return result;
    return {
      ...r,
      content: r.content.map((c, i) => (c.type === 'image' && typeof c.data === 'string'
        ? { ...c, data: undefined, file: this.writer.saveFile(`${prefix}.tool-${i}.${c.mimeType === 'image/jpeg' ? 'jpg' : 'png'}`, Buffer.from(c.data, 'base64')) }
        : c)),
    };
  }

  override async reset(args: { seed?: number; options?: ResetOptions } = {}): Promise<ResetResult> {
    clearInterval(this.poller);
    if (this.resets > 0) await this.flushHuman(); // the rest of the episode that ends here
    const t = Date.now();
    this.resets++;
    const r = await super.reset(args);
    // The episode's input starts after what the bridge has logged so far: nothing in a new
    // container; in one begun in place (attached, recycled) the log goes back further.
    this.humanSeq = await this.humanLogEnd();
    return this.serial(async () => {
      // The initial workspace is kept with the trajectory, so a replay starts from the same files.
      const options: Record<string, unknown> = { ...args.options };
      if (args.options?.workspaceDir) options.workspaceDir = this.writer.saveFolder(`episode-${this.resets}/workspace`, args.options.workspaceDir);
      this.writer.append({
        type: 'reset', t, seed: args.seed ?? null, options, info: { ...r.info },
        observation: this.observationRef(`episode-${this.resets}/reset`, r.observation),
      });
      this.startPolling();
      return r;
    });
  }

  override async step(action: Action): Promise<StepResult> {
    await this.flushHuman();
    const t = Date.now();
    let r: StepResult;
    try {
      r = await super.step(action);
    } catch (err) {
      await this.serial(async () => this.writer.append({ type: 'error', t, during: 'step', action, error: { name: (err as Error).name, message: (err as Error).message } }));
      throw err;
    }
    return this.serial(async () => {
      const prefix = `episode-${this.resets}/step-${String(r.info.step).padStart(6, '0')}`;
      const { action: _a, toolResult, ...info } = r.info;
      this.writer.append({
        type: 'step', t, actor: 'agent', step: r.info.step, action: r.info.action, reward: r.reward, terminated: r.terminated, truncated: r.truncated,
        info: { ...info, ...(toolResult !== undefined ? { toolResult: this.toolResultRef(prefix, toolResult) } : {}) },
        observation: this.observationRef(prefix, r.observation),
      });
      return r;
    });
  }

  /** Notes, waits, model turns and the end of a run go into the trajectory in order with the steps. */
  override annotate(a: Annotation): void {
    super.annotate(a);
    void this.serial(async () => this.writer.append(a)).catch(() => undefined);
  }

  /** Waits until everything handed to the trajectory is on disk. */
  flush(): Promise<void> {
    return this.serial(async () => undefined);
  }

  override async checkpoint(name: string, o?: CheckpointOptions) {
    const m = await super.checkpoint(name, o);
    await this.serial(async () => this.writer.append({ type: 'checkpoint', name, result: { createdAt: m.createdAt, bytes: m.bytes, durationMs: m.durationMs } }));
    return m;
  }

  override async restore(name: string, o?: RestoreOptions & { newContainer?: boolean }) {
    await this.flushHuman();
    const r = await super.restore(name, o);
    if (o?.newContainer) this.humanSeq = 0;
    await this.serial(async () => this.writer.append({ type: 'restore', name, result: { ...r } }));
    return r;
  }

  override async pause(): Promise<void> {
    await this.flushHuman();
    await super.pause();
    await this.serial(async () => this.writer.append({ type: 'pause' }));
  }

  override async resume(): Promise<void> {
    await super.resume();
    await this.serial(async () => this.writer.append({ type: 'resume' }));
  }

  /** Closes the Env and ends the trajectory, with `end` after the close record (a run's end) when given. */
  override async close(o: { end?: EndAnnotation } = {}): Promise<void> {
    const last = o.end;
    clearInterval(this.poller);
    await this.flushHuman();
    try {
      await super.close(o);
    } finally {
      await this.serial(async () => {
        this.writer.append({ type: 'close' });
        if (last) this.writer.append(last);
      });
      this.writer.close();
    }
  }
}
