// Environments as Docker Swarm services (one replica each), through a manager's Engine API.
// Swarm places them, reserves their resources and runs them on whichever node it picks; pwp
// reaches each one only through its bridge, published on that node's address, so commands,
// files and archives go through the bridge (BridgeRuntime), never through a node's engine.
// The token goes in as a Swarm secret (root's, mode 0400 in the container). Files an
// environment starts with go in through the bridge before its IDE starts (PWP_START=held).
// What each node must provide (no inter-container traffic, no masquerading) is in
// docs/scale-out.md: the manager's API cannot set it per service.
import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import Docker from 'dockerode';
import { NotAvailableError, TimeoutError } from '../../../bridge/protocol';
import { BridgeClient } from '../../client/bridgeClient';
import { ensureImage, type BuildProgress } from '../../imageBuild/buildImage';
import { pushImage } from '../../imageBuild/pushImage';
import { ensureTaskImage, type TaskImageRecipe } from '../../imageBuild/buildTaskImage';
import { BridgeRuntime, BridgeRuntimes } from '../bridgeRuntime';
import type { Deployment, EnvironmentInfo, EnvironmentSpec } from '../deployment';
import { OWNER, OWNER_LABEL, ownerLabels } from '../ownedContainers';
import type { Runtime } from '../runtime';
import { tarOfFolder } from '../tarArchive';
import type { VerifierContainer, VerifierContainerSpec } from '../verifierContainer';
import { confirmLoss, watchEnvironment, type WatchedPlacement } from './nodeWatch';
import { BRIDGE_PORT, LABEL, TOKEN_LABEL } from '../environmentLabels';
import { VERIFIER_LABEL, environmentService, verifierService, type ServiceLimits } from './serviceSpecs';

const WORKSPACE = '/workspace';

export interface SwarmDeploymentOptions {
  /** The Engine API of a manager of the swarm. */
  manager: Docker;
  /** The registry as the nodes name it (images are pulled from there): host:port. */
  registry: string;
  /** The registry as this host pushes to it, when that differs from how the nodes name it. */
  pushTo?: string;
  /** This host's engine, which builds the image before it is pushed. */
  local?: Docker;
  /** Placement constraints for every service (e.g. node.role==worker). */
  constraints?: string[];
  /** Share of its limits Swarm reserves for a service on its node (default 0.25). */
  reserve?: number;
  /** How long a service may take to be running on a node (pulling the image included). */
  placeTimeoutMs?: number;
}

type Placement = WatchedPlacement;

export class SwarmDeployment implements Deployment {
  readonly backend = 'swarm' as const;
  readonly manager: Docker;
  private readonly runtimes = new BridgeRuntimes((id) => this.get(id));
  private readonly nodeNames = new Map<string, { name: string; address: string }>();

  constructor(private readonly o: SwarmDeploymentOptions) {
    this.manager = o.manager;
  }

  private limits(spec: { cpus?: number; memoryMb?: number }, pids: number): ServiceLimits {
    return { cpus: spec.cpus ?? 2, memoryMb: spec.memoryMb ?? 2048, pids, reserve: this.o.reserve ?? 0.25 };
  }

  async create(spec: EnvironmentSpec): Promise<EnvironmentInfo> {
    if (spec.network) {
      throw new NotAvailableError('the swarm backend gives environments no outside network (its nodes do not masquerade, docs/scale-out.md); run a task that needs the network on the docker backend');
    }
    const id = randomBytes(4).toString('hex');
    const token = randomBytes(24).toString('base64url');
    const labels = { ...ownerLabels(), ...spec.labels };
    const secret = await this.createSecret(`pwp-${id}-token`, token, { [LABEL]: id });
    const held = Boolean(spec.workspaceDir || spec.archives?.length);
    try {
      const service = environmentService({
        id, token, labels, secret, held,
        image: spec.image ? await this.nodeImage(spec.image) : await this.ensureImage(),
        display: spec.display ?? { width: 1280, height: 800 },
        limits: this.limits(spec, 2048),
        constraints: this.o.constraints ?? [],
        view: spec.view ?? false,
      });
      const placement = await this.createPlaced(LABEL, id, service);
      const info = this.describe(await this.service(LABEL, id), placement);
      if (held) await this.fill(info, spec);
      return info;
    } catch (err) {
      await this.removeService(LABEL, id);
      await this.manager.getSecret(secret.id).remove().catch(() => undefined);
      throw err;
    }
  }

  /** Puts the spec's files in through the bridge, then lets the IDE start on them. */
  private async fill(info: EnvironmentInfo, spec: EnvironmentSpec): Promise<void> {
    const client = await BridgeClient.connect(info.bridgeUrl, info.token, { retryForMs: 60_000 });
    try {
      const runtime = new BridgeRuntime(client);
      if (spec.workspaceDir) await runtime.archiveIn(WORKSPACE, tarOfFolder(spec.workspaceDir));
      for (const a of spec.archives ?? []) await runtime.archiveIn(a.path, a.tar());
      await client.call('proc.start', {});
    } finally {
      client.close();
    }
  }

  async get(id: string): Promise<EnvironmentInfo> {
    const service = await this.service(LABEL, id);
    return this.describe(service, await this.placement(LABEL, id));
  }

  async list(): Promise<EnvironmentInfo[]> {
    const services = await this.manager.listServices({ filters: { label: [LABEL] } });
    return Promise.all(services.map(async (s) => this.describe(s, await this.placement(LABEL, s.Spec!.Labels![LABEL]))));
  }

  async remove(id: string): Promise<void> {
    this.runtimes.close(id);
    await this.service(LABEL, id);
    await this.removeService(LABEL, id);
    await this.removeSecrets(LABEL, id);
  }

  runtime(id: string): Promise<Runtime> {
    return this.runtimes.runtime(id);
  }

  closeRuntimes(): void {
    this.runtimes.closeAll();
  }

  /** Removes the services and secrets this process made. */
  async removeOwned(): Promise<number> {
    const owned = { label: [`${OWNER_LABEL}=${OWNER}`] };
    const services = await this.manager.listServices({ filters: owned });
    await Promise.all(services.map((s) => this.manager.getService(s.ID!).remove().catch(() => undefined)));
    const secrets = await this.manager.listSecrets({ filters: owned }).catch(() => []);
    for (const s of secrets) await this.removeSecret(s.ID);
    return services.length;
  }

  async readFile(id: string, path: string): Promise<Buffer> {
    const content = await (await this.runtime(id)).readFile(path);
    if (!content) throw new NotAvailableError(`${path} is not a regular file of environment '${id}'`);
    return content;
  }

  async pause(): Promise<void> {
    throw new NotAvailableError('the swarm backend cannot freeze an environment (a manager has no pause for a service\'s container)');
  }

  async unpause(): Promise<void> {
    throw new NotAvailableError('the swarm backend cannot freeze an environment, so there is nothing to unpause');
  }

  async processCheckpointSupport(): Promise<{ supported: boolean; reason: string }> {
    return { supported: false, reason: 'process checkpoints (CRIU) need the node\'s engine, which the swarm backend does not reach' };
  }

  async checkpointProcesses(): Promise<void> {
    throw new NotAvailableError((await this.processCheckpointSupport()).reason);
  }

  async restoreProcesses(): Promise<void> {
    throw new NotAvailableError((await this.processCheckpointSupport()).reason);
  }

  /** Builds the image on this host when its inputs changed, pushes it, and names it as the nodes pull it. */
  async ensureImage(o: { force?: boolean; progress?: BuildProgress } = {}): Promise<string> {
    const local = this.o.local ?? new Docker();
    const tag = await ensureImage({ docker: local, ...o });
    return pushImage(local, tag, { pushTo: this.o.pushTo ?? this.o.registry, pullFrom: this.o.registry, progress: o.progress });
  }

  /**
   * A task image built on this host's engine (on the local IDE image: a name under the registry,
   * as ensureImage returns it, is the local image pushed) and pushed like the IDE image.
   */
  async ensureTaskImage(recipe: TaskImageRecipe, o: { ide?: string; force?: boolean; progress?: BuildProgress } = {}): Promise<string> {
    const local = this.o.local ?? new Docker();
    const ide = o.ide ? localName(o.ide, this.o.registry) : await ensureImage({ docker: local, progress: o.progress });
    const tag = await ensureTaskImage(local, recipe, { ide, force: o.force, progress: o.progress });
    return pushImage(local, tag, { pushTo: this.o.pushTo ?? this.o.registry, pullFrom: this.o.registry, progress: o.progress });
  }

  /** The verifier as a job service of the task's image, filled and read through its runtime-only bridge. */
  async startVerifier(spec: VerifierContainerSpec): Promise<VerifierContainer> {
    // Its network is the swarm's overlay to reach its bridge: a task's verifierNetwork would be granted silently otherwise.
    if (spec.network) throw new NotAvailableError('a verifier with the outside network (a task\'s verifierNetwork) runs on a Docker deployment only, not on a swarm');
    const id = randomBytes(4).toString('hex');
    const token = randomBytes(24).toString('base64url');
    const secret = await this.createSecret(`pwp-verifier-${id}-token`, token, { [VERIFIER_LABEL]: id });
    const remove = async () => {
      await this.removeService(VERIFIER_LABEL, id);
      await this.removeSecrets(VERIFIER_LABEL, id);
    };
    try {
      const p = await this.createPlaced(VERIFIER_LABEL, id, verifierService({
        id, secret,
        image: await this.nodeImage(spec.image),
        labels: { ...ownerLabels(), ...spec.labels },
        limits: this.limits({ cpus: spec.cpus ?? 1, memoryMb: spec.memoryMb ?? 1536 }, 512),
        constraints: this.o.constraints ?? [],
      }));
      const client = await BridgeClient.connect(bridgeUrl(p), token, { retryForMs: 60_000 });
      client.unref();
      return { id, runtime: new BridgeRuntime(client), remove: async () => { client.close(); await remove(); } };
    } catch (err) {
      await remove();
      throw err;
    }
  }

  /** A local image name as the nodes pull it (pushed first); names with a registry are the nodes' already. */
  private async nodeImage(image: string): Promise<string> {
    if (image.startsWith(`${this.o.registry}/`)) return image;
    return pushImage(this.o.local ?? new Docker(), image, { pushTo: this.o.pushTo ?? this.o.registry, pullFrom: this.o.registry });
  }

  watch(info: EnvironmentInfo, onLost: (err: Error) => void): () => void {
    return watchEnvironment(info, onLost, this.watchSources(info));
  }

  confirmLost(info: EnvironmentInfo): Promise<Error | undefined> {
    return confirmLoss(info, this.watchSources(info));
  }

  private watchSources(info: EnvironmentInfo) {
    return {
      placement: () => this.placement(LABEL, info.id),
      nodeState: (nodeId: string) => this.nodeState(nodeId),
    };
  }

  /** Where the service's task runs; undefined while it has none (being scheduled, or gone). */
  async placement(label: string, id: string): Promise<Placement | undefined> {
    const service = await this.service(label, id);
    const tasks = await this.manager.listTasks({ filters: { service: [service.ID] } });
    const task = tasks.sort((a, b) => String(b.CreatedAt).localeCompare(String(a.CreatedAt)))[0];
    if (!task) return undefined;
    const nodeId: string = task.NodeID ?? '';
    const node = nodeId ? await this.node(nodeId) : { name: '', address: '' };
    const port = task.Status?.PortStatus?.Ports?.find((p: { TargetPort?: number }) => p.TargetPort === BRIDGE_PORT)?.PublishedPort ?? 0;
    return { nodeId, node: node.name, address: node.address, port, state: task.Status?.State ?? 'unknown', desiredState: task.DesiredState ?? '', error: task.Status?.Err ?? '' };
  }

  /**
   * Creates the service and waits until it runs. A node lost before the service started there
   * (the manager had not yet noticed it was down when it placed it; restarts are off, so no
   * other task would follow) costs a new service, which Swarm places on a live node.
   */
  private async createPlaced(label: string, id: string, spec: Docker.CreateServiceOptions, attempts = 3): Promise<Placement> {
    for (let attempt = 1; ; attempt++) {
      await this.manager.createService(spec);
      try {
        return await this.placed(label, id);
      } catch (err) {
        if (!(err instanceof PlacedOnLostNode) || attempt >= attempts) throw err;
        await this.removeService(label, id);
      }
    }
  }

  /** Waits until the service's task runs on a node with its port published. */
  private async placed(label: string, id: string): Promise<Placement> {
    const deadline = Date.now() + (this.o.placeTimeoutMs ?? 600_000);
    for (let wait = 100; ; wait = Math.min(wait * 2, 1000)) {
      const p = await this.placement(label, id);
      if (p?.state === 'running' && p.port && p.address) return p;
      if (p?.nodeId && (p.desiredState === 'shutdown' || await this.nodeState(p.nodeId) === 'down')) {
        throw new PlacedOnLostNode(`service ${label}=${id} was placed on node ${p.node}, which is down`);
      }
      if (p && ['failed', 'rejected', 'shutdown', 'complete', 'orphaned'].includes(p.state)) {
        const logs = await this.lastLogLines(label, id);
        throw new NotAvailableError(`service ${label}=${id} ${p.state}${p.node ? ` on node ${p.node}` : ''}: ${p.error || 'no reason given'}${logs ? `; its last output:\n${logs}` : ''}`);
      }
      if (Date.now() > deadline) throw new TimeoutError(`service ${label}=${id} not running within ${this.o.placeTimeoutMs ?? 600_000} ms (task state: ${p?.state ?? 'none'}${p?.error ? `, ${p.error}` : ''})`);
      await new Promise((r) => setTimeout(r, wait));
    }
  }

  /** The service's last lines of output (the bridge says why it stopped), or '' when the manager has none. */
  private async lastLogLines(label: string, id: string): Promise<string> {
    try {
      const service = await this.service(label, id);
      const raw = await this.manager.getService(service.ID).logs({ stdout: true, stderr: true, tail: 10, follow: false } as never) as unknown as Buffer;
      // Multiplexed frames: an 8-byte header before each chunk.
      const lines: string[] = [];
      for (let i = 0; i + 8 <= raw.length;) {
        const n = raw.readUInt32BE(i + 4);
        lines.push(raw.subarray(i + 8, i + 8 + n).toString('utf8'));
        i += 8 + n;
      }
      return lines.join('').trim();
    } catch {
      return '';
    }
  }

  private async nodeState(nodeId: string): Promise<string> {
    return (await this.manager.getNode(nodeId).inspect().catch(() => undefined))?.Status?.State ?? 'unknown';
  }

  private async node(nodeId: string): Promise<{ name: string; address: string }> {
    let n = this.nodeNames.get(nodeId);
    if (!n) {
      const info = await this.manager.getNode(nodeId).inspect();
      n = { name: info.Description?.Hostname ?? nodeId, address: info.Status?.Addr ?? '' };
      // A manager's own address may read 0.0.0.0; its advertised address is the one to use.
      if (!n.address || n.address === '0.0.0.0') n.address = (info.ManagerStatus?.Addr ?? '').replace(/:\d+$/, '');
      this.nodeNames.set(nodeId, n);
    }
    return n;
  }

  private async service(label: string, id: string): Promise<Docker.Service & { ID: string; Spec?: { Labels?: Record<string, string> } }> {
    const found = await this.manager.listServices({ filters: { label: [`${label}=${id}`] } });
    if (found.length === 0) throw new NotAvailableError(`no environment '${id}' on the swarm (see 'pwp ls --backend swarm')`);
    return found[0] as never;
  }

  private async removeService(label: string, id: string): Promise<void> {
    const found = await this.manager.listServices({ filters: { label: [`${label}=${id}`] } }).catch(() => []);
    await Promise.all(found.map((s) => this.manager.getService(s.ID!).remove().catch(() => undefined)));
  }

  private async createSecret(name: string, value: string, labels: Record<string, string>): Promise<{ id: string; name: string }> {
    const r = await this.manager.createSecret({ Name: name, Data: Buffer.from(value).toString('base64'), Labels: { ...ownerLabels(), ...labels } });
    return { id: (r as { id?: string; ID?: string }).id ?? (r as { ID: string }).ID, name };
  }

  /** A secret in use by a task being shut down cannot be removed yet: retried for a while. */
  private async removeSecrets(label: string, id: string): Promise<void> {
    const secrets = await this.manager.listSecrets({ filters: { label: [`${label}=${id}`] } }).catch(() => []);
    for (const s of secrets) await this.removeSecret(s.ID);
  }

  private async removeSecret(secretId: string): Promise<void> {
    for (let i = 0; i < 60; i++) {
      const done = await this.manager.getSecret(secretId).remove().then(() => true, (err: Error) => !/in use/.test(err.message));
      if (done) return;
      await new Promise((r) => setTimeout(r, 500));
    }
  }

  private describe(service: { ID: string; CreatedAt?: string; Spec?: Docker.ServiceSpec & { Labels?: Record<string, string> } }, p: Placement | undefined): EnvironmentInfo {
    const spec = service.Spec!;
    const labels = spec.Labels ?? {};
    const container = spec.TaskTemplate && 'ContainerSpec' in spec.TaskTemplate ? spec.TaskTemplate.ContainerSpec : undefined;
    const env = Object.fromEntries((container?.Env ?? []).map((e) => [e.slice(0, e.indexOf('=')), e.slice(e.indexOf('=') + 1)]));
    const [w, h] = (env.PWP_DISPLAY_SIZE ?? '1280x800').split('x').map(Number);
    const token = labels[TOKEN_LABEL] ?? '';
    const bridge = p?.state === 'running' && p.port && p.address ? hostPort(p) : '';
    return {
      id: labels[LABEL],
      image: container?.Image ?? '',
      createdAt: service.CreatedAt ?? '',
      state: p?.state ?? 'pending',
      display: { width: w, height: h },
      bridgeUrl: bridge ? `ws://${bridge}/rpc` : '',
      ideUrl: bridge ? `http://${bridge}/ide/?folder=${WORKSPACE}&token=${encodeURIComponent(token)}` : '',
      token,
      labels: { ...labels, ...(p?.node ? { 'pwp.node': p.node } : {}) },
      viewUrl: bridge && env.PWP_VIEW === '1' ? `http://${bridge}/view/?token=${encodeURIComponent(token)}` : null,
    };
  }
}

/** The manager placed the service on a node that is down before it started (create tries again). */
class PlacedOnLostNode extends NotAvailableError {}

const hostPort = (p: Placement) => `${isIP(p.address) === 6 ? `[${p.address}]` : p.address}:${p.port}`;
const bridgeUrl = (p: Placement) => `ws://${hostPort(p)}/rpc`;

/** The local name of an image the nodes pull from `registry` (pushImage keeps the image under it). */
export function localName(image: string, registry: string): string {
  const prefix = `${registry.replace(/\/+$/, '')}/`;
  return image.startsWith(prefix) ? image.slice(prefix.length) : image;
}
