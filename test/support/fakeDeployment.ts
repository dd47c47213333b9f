// A Deployment without Docker, for unit tests of the Env core (Env, wrappers, the action
// table, the pool, checkEnv): each environment is a FakeBridge (fakeBridge.ts: the real RPC
// server and dispatcher on 127.0.0.1, its own token) over a temporary folder that is its file
// system (fakeRuntime.ts). Create, remove, pause and files behave as the contract says;
// what only a container can do (verifiers, task images, process checkpoints) is refused with
// NotAvailableError rather than pretended. The real-container tests stay the judge of the real thing.
import { randomBytes } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NotAvailableError } from '../../bridge/protocol';
import type { Deployment, EnvironmentInfo, EnvironmentSpec } from '../../host/deployment/deployment';
import type { Runtime } from '../../host/deployment/runtime';
import type { VerifierContainer } from '../../host/deployment/verifierContainer';
import { FakeBridge, type FakeTool } from './fakeBridge';
import { FolderRuntime } from './fakeRuntime';

export const FAKE_IMAGE = 'pwp-fake:latest';

/** Settle options for Envs on the fake: its screen goes quiet after a few frames, not after an IDE's repaint. */
export const SETTLE = { quietMs: 20, pollMs: 5 };

export interface FakeEnvironment { info: EnvironmentInfo; bridge: FakeBridge; runtime: FolderRuntime; paused: boolean }

export interface FakeDeploymentOptions {
  display?: { width: number; height: number };
  /** Tools tools.call serves in every environment. */
  tools?: Record<string, FakeTool>;
  /** Errors create() fails with, in turn, before it succeeds (a missing image, a full disk). */
  failCreates?: string[];
}

export class FakeDeployment implements Deployment {
  /** The contract knows two backends; this one stands in for the engine on this host. */
  readonly backend = 'docker' as const;
  private readonly envs = new Map<string, FakeEnvironment>();
  /** Ids in the order they were created and removed (removing twice is recorded once). */
  readonly created: string[] = [];
  readonly removed: string[] = [];
  private n = 0;
  private readonly failCreates: string[];

  constructor(private readonly o: FakeDeploymentOptions = {}) {
    this.failCreates = [...(o.failCreates ?? [])];
  }

  /** An environment this deployment holds now (its bridge, folder and state). */
  environment(id: string): FakeEnvironment {
    const e = this.envs.get(id);
    if (!e) throw new NotAvailableError(`no environment ${id}`);
    return e;
  }

  /** Environments still there (not removed). */
  get live(): string[] { return [...this.envs.keys()]; }

  async create(spec: EnvironmentSpec): Promise<EnvironmentInfo> {
    const err = this.failCreates.shift();
    if (err) throw new Error(err);
    const id = `fake${++this.n}-${randomBytes(3).toString('hex')}`;
    const root = mkdtempSync(join(tmpdir(), `pwp-${id}-`));
    for (const d of ['workspace', 'home/pwp/ide/user-data/User', 'home/pwp/ide/extensions', 'tmp']) mkdirSync(join(root, d), { recursive: true });
    const runtime = new FolderRuntime(root);
    if (spec.workspaceDir) cpSync(spec.workspaceDir, join(root, 'workspace'), { recursive: true });
    for (const a of spec.archives ?? []) {
      mkdirSync(runtime.hostPath(a.path), { recursive: true });
      await runtime.archiveIn(a.path, a.tar());
    }
    const display = spec.display ?? this.o.display ?? { width: 320, height: 200 };
    const token = randomBytes(16).toString('hex');
    const bridge = new FakeBridge({ token, display, runtime, tools: this.o.tools });
    const bridgeUrl = await bridge.listen();
    const info: EnvironmentInfo = {
      id, image: spec.image ?? FAKE_IMAGE, createdAt: new Date().toISOString(), state: 'running', display, bridgeUrl,
      ideUrl: `http://127.0.0.1:${bridge.port}/`, token, labels: { ...spec.labels }, viewUrl: null,
    };
    this.envs.set(id, { info, bridge, runtime, paused: false });
    this.created.push(id);
    return info;
  }

  async get(id: string): Promise<EnvironmentInfo> {
    const e = this.environment(id);
    return { ...e.info, state: e.paused ? 'paused' : 'running' };
  }

  async list(): Promise<EnvironmentInfo[]> { return Promise.all(this.live.map((id) => this.get(id))); }

  /** Stops its bridge (connections close, as when a container goes) and deletes its folder. */
  async remove(id: string): Promise<void> {
    const e = this.envs.get(id);
    if (!e) return;
    this.envs.delete(id);
    this.removed.push(id);
    await e.bridge.close();
    rmSync(e.runtime.root, { recursive: true, force: true });
  }

  async runtime(id: string): Promise<Runtime> { return this.environment(id).runtime; }

  async readFile(id: string, path: string): Promise<Buffer> {
    const content = await this.environment(id).runtime.readFile(path);
    if (!content) throw new NotAvailableError(`${path} is not a file of environment ${id}`);
    return content;
  }

  async pause(id: string): Promise<void> {
    const e = this.environment(id);
    e.paused = true;
    e.bridge.freeze();
  }

  async unpause(id: string): Promise<void> {
    const e = this.environment(id);
    e.paused = false;
    e.bridge.thaw();
  }

  async startVerifier(): Promise<VerifierContainer> { throw new NotAvailableError('the fake deployment has no verifier containers'); }
  async processCheckpointSupport() { return { supported: false, reason: 'the fake deployment has no processes to checkpoint (no CRIU)' }; }
  async checkpointProcesses(): Promise<void> { throw new NotAvailableError('the fake deployment has no process checkpoints'); }
  async restoreProcesses(): Promise<void> { throw new NotAvailableError('the fake deployment has no process checkpoints'); }
  async ensureImage(): Promise<string> { return FAKE_IMAGE; }
  async ensureTaskImage(): Promise<string> { throw new NotAvailableError('the fake deployment builds no task images'); }

  async removeOwned(): Promise<number> {
    const ids = this.live;
    await Promise.all(ids.map((id) => this.remove(id)));
    return ids.length;
  }

  closeRuntimes(): void { /* its runtimes hold no connections */ }
}
