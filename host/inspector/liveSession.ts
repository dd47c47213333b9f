// One environment as the inspector watches it, shared by every page open on it: the screen as
// a stream of changed boxes (capture.delta on the inspector's own baseline, sent only when
// something changed), Set-of-Marks after the screen changed, the IDE panels (sent when they
// differ from what was sent), who holds control, and a session timeline: the agent's tool
// calls (tools.log) and trajectory steps, the person's input from the live view
// (control.events) and what the person did through the inspector. Nothing runs while no page
// watches; the bridge connection uses the environment's token, which never leaves this process.
import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { TargetClosedError, type ControlStatus, type Mark } from '../../bridge/protocol';
import { BridgeClient } from '../client/bridgeClient';
import type { Deployment } from '../deployment/deployment';
import type { EnvironmentInfo } from '../deployment/deployment';
import { publicLabels } from '../deployment/ownedContainers';
import type { Action } from '../env/actions';
import { Env } from '../env/env';
import { screenshot } from '../env/observation';
import { HumanInputFolder, type HumanAction } from './humanInput';
import {
  readDebug, readDiagnostics, readEditors, readExtensions, readTerminals, readTimeline, SettingsPanel,
} from './idePanels';
import type { ClientMessage, EnvSummary, FrameHeader, PanelName, Panels, ServerMessage, TimelineEntry } from './messages';
import { actionTitle, listTrajectories } from './trajectoryView';

export interface Viewer {
  send(message: ServerMessage | Buffer): void;
}

const FRAME_MS = 125;
const MAX_TIMELINE = 3000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function envSummary(info: EnvironmentInfo): EnvSummary {
  return { id: info.id, image: info.image, state: info.state, createdAt: info.createdAt, display: info.display, labels: publicLabels(info.labels), liveView: !!info.viewUrl };
}

/** A binary frame message: 4-byte big-endian header length, the JSON header, the image bytes. */
export function frameMessage(header: FrameHeader, image: Buffer): Buffer {
  const h = Buffer.from(JSON.stringify(header));
  const len = Buffer.alloc(4);
  len.writeUInt32BE(h.length);
  return Buffer.concat([len, h, image]);
}

export interface LiveSessionOptions {
  /** Folders searched for a trajectory the environment's agent writes (Env-format, by environment id). */
  trajectoryRoots: readonly string[];
  /** Called once the session has no viewers left and stopped. */
  onClosed?: () => void;
  log?: (line: string) => void;
}

export class LiveSession {
  private client: BridgeClient | null = null;
  private readonly viewers = new Set<Viewer>();
  /** Viewers that still need a whole frame before deltas make sense to them. */
  private readonly needFull = new Set<Viewer>();
  private stopped = false;
  private idleTimer?: NodeJS.Timeout;
  private readonly panels = new Map<PanelName, { json: string; msg: ServerMessage }>();
  private marks: { json: string; msg: ServerMessage } | null = null;
  private control: ControlStatus | null = null;
  private inspectorHolds = false;
  private readonly timeline: TimelineEntry[] = [];
  private toolsSince = 0;
  private toolsEpoch = 0;
  private eventsSince = 0;
  private readonly folder = new HumanInputFolder();
  private readonly humanEntries = new Map<HumanAction, TimelineEntry>();
  private inspectorSeq = 0;
  private screenChangedAt = Date.now();
  private marksReadAt = 0;
  private readonly settings: SettingsPanel;
  private trajectory: { file: string; offset: number; partial: string; n: number } | null = null;
  private trajectorySearchAt = 0;
  private reconnecting: Promise<void> | null = null;
  /** What the person does through the inspector acts through an Env attached to the environment, as every driver does. */
  private actor: Promise<Env> | null = null;

  private constructor(
    private readonly deployment: Deployment,
    private info: EnvironmentInfo,
    private readonly opts: LiveSessionOptions,
  ) {
    this.settings = new SettingsPanel(
      () => this.bridge(),
      // Bounded (the IDE's user can make a settings file any size): a larger one shows as none.
      async (path) => (await (await this.deployment.runtime(this.info.id)).readFile(path, { maxBytes: 16 * 1024 * 1024 }).catch(() => undefined))?.toString('utf8') ?? null,
    );
  }

  static async open(deployment: Deployment, id: string, opts: LiveSessionOptions): Promise<LiveSession> {
    const info = await deployment.get(id);
    const s = new LiveSession(deployment, info, opts);
    s.client = await BridgeClient.connect(info.bridgeUrl, info.token, { defaultTimeoutMs: 30_000 });
    void s.frameLoop();
    void s.stateLoop();
    void s.panelLoop();
    return s;
  }

  get summary(): EnvSummary { return envSummary(this.info); }

  private bridge(): BridgeClient {
    if (!this.client || this.client.closed) throw new TargetClosedError('not connected to the environment');
    return this.client;
  }

  add(v: Viewer): void {
    clearTimeout(this.idleTimer);
    this.viewers.add(v);
    this.needFull.add(v);
    v.send({ type: 'hello', env: this.summary });
    for (const p of this.panels.values()) v.send(p.msg);
    if (this.marks) v.send(this.marks.msg);
    if (this.control) v.send({ type: 'control', status: this.control });
    v.send({ type: 'timeline', entries: [...this.timeline], replace: true });
  }

  remove(v: Viewer): void {
    this.viewers.delete(v);
    this.needFull.delete(v);
    if (this.viewers.size === 0) {
      clearTimeout(this.idleTimer);
      this.idleTimer = setTimeout(() => this.close(), 15_000);
    }
  }

  private broadcast(m: ServerMessage | Buffer, except?: Set<Viewer>): void {
    for (const v of this.viewers) if (!except?.has(v)) v.send(m);
  }

  close(): void {
    if (this.stopped) return;
    this.stopped = true;
    clearTimeout(this.idleTimer);
    this.client?.close();
    void this.actor?.then((env) => env.close(), () => undefined);
    this.opts.onClosed?.();
  }

  /** A failed call: the connection may have dropped (IDE restart, container gone). */
  private async failed(err: unknown): Promise<void> {
    if (!(err instanceof TargetClosedError) || this.stopped) return;
    this.reconnecting ??= (async () => {
      for (let attempt = 0; !this.stopped; attempt++) {
        try {
          this.info = await this.deployment.get(this.info.id);
        } catch {
          this.broadcast({ type: 'gone', reason: `environment ${this.info.id} no longer exists` });
          this.close();
          return;
        }
        try {
          this.client?.close();
          this.client = await BridgeClient.connect(this.info.bridgeUrl, this.info.token, { defaultTimeoutMs: 30_000 });
          for (const v of this.viewers) this.needFull.add(v);
          return;
        } catch {
          await sleep(Math.min(5000, 500 * (attempt + 1)));
        }
      }
    })().finally(() => { this.reconnecting = null; });
    await this.reconnecting;
  }

  private idle(): boolean { return this.viewers.size === 0; }

  // ---- screen --------------------------------------------------------------------------------

  private async frameLoop(): Promise<void> {
    while (!this.stopped) {
      const t0 = Date.now();
      if (this.idle()) { await sleep(200); continue; }
      try {
        const client = this.bridge();
        if (this.needFull.size) {
          // Taken in this loop, so no older delta can arrive after it.
          const newcomers = new Set(this.needFull);
          this.needFull.clear();
          const s = await screenshot(client, { format: 'jpeg', quality: 80 });
          const whole = { x: 0, y: 0, width: s.width, height: s.height };
          const msg = frameMessage({ full: true, screen: { width: s.width, height: s.height }, box: whole, format: 'jpeg', t: Date.now() }, s.data);
          for (const v of newcomers) if (this.viewers.has(v)) v.send(msg);
        }
        const d = await client.call('capture.delta', { format: 'jpeg', quality: 80, baseline: 'inspector' });
        if (d.changed && d.box && d.image) {
          this.screenChangedAt = Date.now();
          const screen = this.info.display;
          const full = d.box.x === 0 && d.box.y === 0 && d.box.width === screen.width && d.box.height === screen.height;
          this.broadcast(frameMessage({ full, screen, box: d.box, format: 'jpeg', t: Date.now() }, Buffer.from(d.image.data, 'base64')), this.needFull);
        }
      } catch (err) {
        await this.failed(err);
        await sleep(500);
      }
      await sleep(Math.max(10, FRAME_MS - (Date.now() - t0)));
    }
  }

  // ---- marks, control, timeline --------------------------------------------------------------

  private async readMarks(force = false): Promise<Mark[]> {
    const stale = this.screenChangedAt > this.marksReadAt && Date.now() - this.marksReadAt > 400;
    if (!force && !stale && Date.now() - this.marksReadAt < 3000 && this.marks) return (this.marks.msg as { marks: Mark[] }).marks;
    this.marksReadAt = Date.now();
    const m = await this.bridge().call('dom.marks', {});
    const json = JSON.stringify(m.marks);
    if (json !== this.marks?.json) {
      this.marks = { json, msg: { type: 'marks', marks: m.marks, screen: m.screen, t: Date.now() } };
      this.broadcast(this.marks.msg);
    }
    return m.marks;
  }

  private async stateLoop(): Promise<void> {
    while (!this.stopped) {
      if (this.idle()) { await sleep(200); continue; }
      try {
        await Promise.all([
          this.readMarks().catch((err) => { if (err instanceof TargetClosedError) throw err; }),
          this.readControl(),
          this.readToolLog(),
          this.readHumanEvents(),
        ]);
        this.followTrajectory();
      } catch (err) {
        await this.failed(err);
      }
      await sleep(300);
    }
  }

  private async readControl(): Promise<void> {
    const s = await this.bridge().call('control.status', {});
    const prev = this.control;
    this.control = s;
    if (prev && prev.holder !== s.holder) {
      if (s.holder === 'human') {
        this.addTimeline(this.inspectorHolds
          ? { actor: 'human', source: 'inspector', text: 'took control' }
          : { actor: 'agent', source: 'live view', text: `asked the person to take over: ${JSON.stringify(s.message ?? '')}` });
      } else {
        this.addTimeline({ actor: 'human', source: this.inspectorHolds ? 'inspector' : 'live view', text: `handed control back to the agent${s.answer ? ` with the answer ${JSON.stringify(s.answer)}` : ''}` });
        this.inspectorHolds = false;
      }
    }
    if (!prev || JSON.stringify(prev) !== JSON.stringify(s)) this.broadcast({ type: 'control', status: s });
  }

  private async readToolLog(): Promise<void> {
    const r = await this.bridge().call('tools.log', { sinceId: this.toolsSince, limit: 500 }).catch((err) => {
      if (err instanceof TargetClosedError) throw err;
      return null; // the extension is restarting
    });
    if (!r) return;
    // A reloaded extension keeps its log; ids below what we have seen mean a new log (a restore).
    if (r.nextId - 1 < this.toolsSince) { this.toolsSince = 0; this.toolsEpoch++; return; }
    for (const e of r.entries) {
      this.addTimeline({
        id: `tools-${this.toolsEpoch}-${e.id}`, t: Date.parse(e.startedAt), actor: 'agent', source: 'tools',
        text: `${e.name}(${JSON.stringify(e.args).slice(0, 160)}) ${e.durationMs.toFixed(0)} ms`,
        error: e.isError ? (e.error ?? 'failed') : undefined,
      });
      this.toolsSince = Math.max(this.toolsSince, e.id);
    }
  }

  private async readHumanEvents(): Promise<void> {
    const r = await this.bridge().call('control.events', { since: this.eventsSince, max: 1000 });
    if (!r.events.length) { this.eventsSince = r.next; return; }
    const before = this.folder.actions.length;
    const grownBefore = this.folder.actions[before - 1];
    const grownText = grownBefore?.text;
    this.folder.push(r.events);
    this.eventsSince = r.next;
    const acts = this.folder.actions;
    const changed: TimelineEntry[] = [];
    if (grownBefore && grownBefore.text !== grownText) {
      const e = this.humanEntries.get(grownBefore);
      if (e) { e.text = grownBefore.text; changed.push(e); }
    }
    for (let i = before; i < acts.length; i++) {
      const e = this.addTimeline({ id: `human-${acts[i].firstSeq}`, t: acts[i].t, actor: 'human', source: 'live view', text: acts[i].text }, false);
      this.humanEntries.set(acts[i], e);
      changed.push(e);
    }
    if (changed.length) this.broadcast({ type: 'timeline', entries: changed, replace: false });
  }

  private addTimeline(e: Omit<TimelineEntry, 'id' | 't'> & { id?: string; t?: number }, send = true): TimelineEntry {
    const entry: TimelineEntry = { id: e.id ?? `inspector-${++this.inspectorSeq}`, t: e.t ?? Date.now(), actor: e.actor, source: e.source, text: e.text, error: e.error };
    if (entry.actor === 'agent') this.folder.interrupt();
    this.timeline.push(entry);
    if (this.timeline.length > MAX_TIMELINE) this.timeline.splice(0, this.timeline.length - MAX_TIMELINE);
    if (send) this.broadcast({ type: 'timeline', entries: [entry], replace: false });
    return entry;
  }

  /** The agent's trajectory, when one is being written for this environment: its steps join the timeline. */
  private followTrajectory(): void {
    if (!this.trajectory) {
      const labelled = this.info.labels['pwp.trajectory'] ?? (this.info.labels['pwp.run'] ? join(this.info.labels['pwp.run'], 'trajectory.jsonl') : undefined);
      let file: string | undefined = labelled && existsSync(labelled) ? labelled : undefined;
      if (!file && this.opts.trajectoryRoots.length && Date.now() - this.trajectorySearchAt > 5000) {
        this.trajectorySearchAt = Date.now();
        const created = Date.parse(this.info.createdAt);
        file = listTrajectories(this.opts.trajectoryRoots).find((t) => t.envId === this.info.id && Date.parse(t.modified) >= created - 60_000)?.file;
      }
      if (!file) return;
      this.trajectory = { file, offset: 0, partial: '', n: 0 };
    }
    const tr = this.trajectory;
    let size: number;
    try { size = statSync(tr.file).size; } catch { return; }
    if (size <= tr.offset) return;
    const fd = openSync(tr.file, 'r');
    const buf = Buffer.alloc(Math.min(size - tr.offset, 8 * 1024 * 1024));
    try { readSync(fd, buf, 0, buf.length, tr.offset); } finally { closeSync(fd); }
    tr.offset += buf.length;
    const lines = (tr.partial + buf.toString('utf8')).split('\n');
    tr.partial = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.trim()) continue;
      let r: Record<string, unknown>;
      try { r = JSON.parse(line) as Record<string, unknown>; } catch { continue; }
      const entry = trajectoryTimelineEntry(r, tr.n++);
      if (entry) this.addTimeline(entry);
    }
  }

  // ---- panels --------------------------------------------------------------------------------

  private sendPanel<N extends PanelName>(name: N, data: Panels[N] | null, error: string | null): void {
    const json = JSON.stringify([data, error]);
    if (this.panels.get(name)?.json === json) return;
    const msg: ServerMessage = { type: 'panel', name, data, error, t: Date.now() };
    this.panels.set(name, { json, msg });
    this.broadcast(msg);
  }

  private async panel<N extends PanelName>(name: N, read: () => Promise<Panels[N]>): Promise<Panels[N] | null> {
    try {
      const data = await read();
      this.sendPanel(name, data, null);
      return data;
    } catch (err) {
      if (err instanceof TargetClosedError) throw err;
      this.sendPanel(name, null, `${(err as Error).name}: ${(err as Error).message}`);
      return null;
    }
  }

  private async panelLoop(): Promise<void> {
    let tick = 0;
    let activePath: string | null | undefined;
    while (!this.stopped) {
      if (this.idle()) { await sleep(200); continue; }
      const t0 = Date.now();
      try {
        const c = () => this.bridge();
        const slow = tick % 3 === 0;
        const [editors] = await Promise.all([
          this.panel('editors', () => readEditors(c())),
          this.panel('diagnostics', () => readDiagnostics(c())),
          this.panel('debug', () => readDebug(c())),
          this.panel('terminals', () => readTerminals(c())),
          slow ? this.panel('extensions', () => readExtensions(c())) : null,
          slow ? this.panel('settings', () => this.settings.read()) : null,
        ]);
        const path = editors ? editors.active?.path ?? null : activePath ?? null;
        if (slow || path !== activePath) await this.panel('timeline', () => readTimeline(c(), path));
        activePath = path;
        tick++;
      } catch (err) {
        await this.failed(err);
      }
      // Next round after a second, or sooner once the screen has changed (the IDE probably did).
      while (!this.stopped && Date.now() - t0 < 1000 && !(this.screenChangedAt > t0 && Date.now() - t0 >= 300)) await sleep(50);
    }
  }

  // ---- requests from a page ------------------------------------------------------------------

  /** A person's action from a page, as a step of the inspector's attached Env (it waits for the screen to settle). */
  private async act(action: Action): Promise<{ x: number; y: number } | undefined> {
    // reset() begins the attached Env's episode in place: nothing in the environment changes.
    this.actor ??= Env.attach(this.info.id, { deployment: this.deployment, observe: [] }).then(async (env) => { await env.reset(); return env; });
    let env: Env;
    try { env = await this.actor; } catch (err) { this.actor = null; throw err; }
    const { info } = await env.step(action).catch((err: unknown) => {
      if (err instanceof TargetClosedError) this.actor = null; // reconnect on the next action
      throw err;
    });
    this.screenChangedAt = Date.now();
    if (info.error) throw new Error(info.error.message);
    return info.at;
  }

  async handle(m: ClientMessage): Promise<unknown> {
    const client = this.bridge();
    switch (m.op) {
      case 'refreshMarks': return { marks: (await this.readMarks(true)).length };
      case 'clickMark': {
        const marks = await this.readMarks(false);
        const mark = marks.find((x) => x.id === m.mark);
        if (!mark) throw new Error(`mark ${m.mark} is no longer on screen`);
        // By point: the marks this connection read last may be newer than the page's list.
        const r = await this.act({ type: 'click', x: mark.point.x, y: mark.point.y });
        this.addTimeline({ actor: 'human', source: 'inspector', text: `clicked mark [${mark.id}] ${mark.role} ${JSON.stringify(mark.text.slice(0, 60))}` });
        return r;
      }
      case 'click': {
        const r = await this.act({ type: 'click', x: m.x, y: m.y });
        this.addTimeline({ actor: 'human', source: 'inspector', text: `clicked at (${m.x}, ${m.y})` });
        return r;
      }
      case 'takeControl': {
        if (!this.info.viewUrl) throw new Error('this environment does not serve the live view: start it with `pwp up --view` (or Env {view: true}) to take control');
        this.inspectorHolds = true;
        const s = await client.call('control.request', { message: 'A person took control in the inspector', timeoutMs: 0 });
        await this.readControl();
        return s;
      }
      case 'handBack': {
        const s = await client.call('control.handBack', m.answer ? { answer: String(m.answer).slice(0, 10_000) } : {});
        await this.readControl();
        return s;
      }
    }
  }
}

/** A timeline entry for one trajectory record (either format); null for records that are not actions. */
export function trajectoryTimelineEntry(r: Record<string, unknown>, n: number): Omit<TimelineEntry, 'id'> & { id: string } | null {
  const t = typeof r.t === 'number' && r.t > 1e12 ? r.t : Date.now();
  const id = `trajectory-${n}`;
  // Tool calls reach the timeline from the tool log, with more detail.
  if (r.type === 'step') {
    const a = r.action as Record<string, unknown>;
    if (a.type === 'tool') return null;
    const err = (r.info as { error?: { message?: string } } | undefined)?.error?.message;
    return { id, t, actor: 'agent', source: 'trajectory', text: actionTitle(a), error: err };
  }
  if (r.type === 'error') return { id, t, actor: 'agent', source: 'trajectory', text: `error during ${r.during}`, error: (r.error as { message?: string }).message };
  if (r.type === 'reset' || r.type === 'checkpoint' || r.type === 'restore') return { id, t, actor: 'agent', source: 'trajectory', text: `${r.type}${r.name ? ` ${r.name}` : ''}` };
  // The task runner's format.
  if (r.type === 'call' && r.method !== 'tools.call') {
    return { id, t: Date.now(), actor: 'agent', source: 'trajectory', text: `${r.method} ${JSON.stringify(r.params).slice(0, 160)}`, error: typeof r.error === 'string' ? r.error : undefined };
  }
  if (r.type === 'exec') return { id, t: Date.now(), actor: 'agent', source: 'trajectory', text: `exec ${(r.argv as string[]).join(' ').slice(0, 160)}` };
  if (r.type === 'writeFile') return { id, t: Date.now(), actor: 'agent', source: 'trajectory', text: `wrote ${r.path}` };
  if (r.type === 'answer') return { id, t: Date.now(), actor: 'agent', source: 'trajectory', text: `answered ${JSON.stringify(String(r.text).slice(0, 160))}` };
  return null;
}
