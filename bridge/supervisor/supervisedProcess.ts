// One child process kept alive: started, probed for readiness, restarted with backoff
// when it exits unexpectedly. The bridge owns three of these (display, IDE, browser).
import { spawn, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';

export type ComponentState = 'starting' | 'ready' | 'restarting' | 'failed' | 'stopped';

export interface ProcessSpec {
  name: string;
  command: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  /** Resolves true once the process serves; polled until it does or startTimeoutMs passes. */
  probe: () => Promise<boolean>;
  startTimeoutMs: number;
  /** Called before each (re)start, e.g. to clear a stale profile. */
  prepare?: () => void;
  /** Run as this user (the bridge runs as root and starts the IDE as the IDE user). */
  user?: { uid: number; gid: number };
  /** Opens fds 3 (to the child) and 4 (from it) as pipes, e.g. Chromium's DevTools pipe. */
  pipes?: boolean;
  /** Called with each new child before its probe runs. */
  onSpawn?: (child: ChildProcess) => void;
}

export interface ComponentStatus { state: ComponentState; restarts: number; pid: number | null; lastError: string | null }

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class SupervisedProcess extends EventEmitter {
  private child?: ChildProcess;
  private _state: ComponentState = 'stopped';
  private restarts = 0;
  private lastError: string | null = null;
  private stopping = false;
  private output = '';
  /** Bumped by every start and stop: a restart timer from an older generation does nothing. */
  private generation = 0;

  constructor(readonly spec: ProcessSpec, private readonly log: (line: string) => void) { super(); }

  get state(): ComponentState { return this._state; }
  status(): ComponentStatus {
    return { state: this._state, restarts: this.restarts, pid: this.child?.pid ?? null, lastError: this.lastError };
  }

  /** Starts the process and waits for its probe; throws if it never becomes ready. */
  async start(): Promise<void> {
    this.stopping = false;
    const generation = ++this.generation;
    this.setState(this.restarts > 0 ? 'restarting' : 'starting');
    this.spec.prepare?.();
    const child = spawn(this.spec.command, this.spec.args, {
      env: this.spec.env ?? process.env,
      stdio: this.spec.pipes ? ['ignore', 'pipe', 'pipe', 'pipe', 'pipe'] : ['ignore', 'pipe', 'pipe'],
      ...(this.spec.user ? { uid: this.spec.user.uid, gid: this.spec.user.gid } : {}),
    });
    this.child = child;
    this.output = '';
    const keep = (d: Buffer) => { this.output = (this.output + d.toString()).slice(-4000); };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    child.once('error', (err) => { this.lastError = err.message; });
    child.once('exit', (code, signal) => this.onExit(child, code, signal));
    this.spec.onSpawn?.(child);
    const deadline = Date.now() + this.spec.startTimeoutMs;
    while (Date.now() < deadline) {
      if (this.child !== child || child.exitCode !== null || child.signalCode !== null) break;
      if ((await this.spec.probe().catch(() => false)) && generation === this.generation) {
        this.setState('ready');
        return;
      }
      await sleep(50);
    }
    // Stopped or started again meanwhile: the state is that newer call's to report.
    if (generation !== this.generation) throw new Error(`${this.spec.name}: this start was superseded`);
    const why = child.exitCode !== null || child.signalCode !== null ? `exited (${child.exitCode ?? child.signalCode})` : `not ready after ${this.spec.startTimeoutMs} ms`;
    this.lastError = `${this.spec.name} ${why}: ${this.output.trim().split('\n').slice(-5).join(' | ')}`;
    this.setState('failed');
    throw new Error(this.lastError);
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.generation++;
    const child = this.child;
    this.child = undefined;
    this.setState('stopped');
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    const t = setTimeout(() => child.kill('SIGKILL'), 3000);
    await exited;
    clearTimeout(t);
  }

  /** Kills and starts again; used when a dependency restarted. */
  async restart(): Promise<void> {
    await this.stop();
    this.restarts++;
    await this.start();
  }

  private onExit(child: ChildProcess, code: number | null, signal: NodeJS.Signals | null): void {
    if (this.child !== child || this.stopping) return;
    this.lastError = `${this.spec.name} exited unexpectedly (${code ?? signal}): ${this.output.trim().split('\n').slice(-3).join(' | ')}`;
    this.log(this.lastError);
    this.child = undefined;
    this.restarts++;
    this.setState('restarting');
    // Back off a little more after each crash so a crash loop does not eat the CPU.
    const delay = Math.min(5000, 200 * 2 ** Math.min(this.restarts - 1, 5));
    this.scheduleRestart(delay);
  }

  private scheduleRestart(delay: number): void {
    const generation = this.generation;
    setTimeout(() => {
      // A stop, or a start from elsewhere (a dependency's restart), since: that one owns the process now.
      if (this.stopping || generation !== this.generation) return;
      const started = this.start();
      const mine = this.generation;
      started.then(() => { if (mine === this.generation) this.emit('restarted'); }, (err: Error) => {
        if (mine !== this.generation) return;
        this.log(err.message);
        this.restarts++;
        void this.stopQuietly().then(() => this.scheduleRestart(Math.min(10_000, delay * 2)));
      });
    }, delay);
  }

  /** Kills a child that failed its probe without marking the component stopped. */
  private async stopQuietly(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }

  private setState(s: ComponentState): void {
    this._state = s;
    this.emit('state', s);
  }
}
