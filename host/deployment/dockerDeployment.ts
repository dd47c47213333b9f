// Environments as Docker containers (dockerode). All capabilities dropped but the three the
// bridge needs to start and stop the IDE as the IDE user, no-new-privileges, CPU/memory/pid limits. Each environment has a network of
// its own, internal (no outside) unless the spec asks for the network; nothing is published:
// the host reaches the bridge at the container's address on that network, and nothing else
// can (docs/grading-and-security.md). The token lives in a label, so `pwp` can find it again from any process.
import { randomBytes } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import Docker from 'dockerode';
import { requireEngine } from '../imageBuild/engineCheck';
import { NotAvailableError } from '../../bridge/protocol';
import { IMAGE_REPOSITORY } from '../imageBuild/imageInputs';
import type { Deployment, EnvironmentInfo, EnvironmentSpec } from './deployment';
import { ensureImage, type BuildProgress } from '../imageBuild/buildImage';
import { ensureTaskImage, type TaskImageRecipe } from '../imageBuild/buildTaskImage';
import { BridgeRuntimes } from './bridgeRuntime';
import { DockerRuntime } from './dockerRuntime';
import { forgetGate, freezeWhenIdle, thaw } from './freezeGate';
import { BRIDGE_INTERFACE_PREFIX, guardHostServices } from './hostFirewall';
import { BRIDGE_PORT, LABEL, TOKEN_LABEL } from './environmentLabels';
import { collectLeftovers, ownerLabels, removeNetwork, removeOrphanNetworks, removeOwnedContainers, type Leftover } from './ownedContainers';
import { createProcessCheckpoint, criuSupport, restartFromProcessCheckpoint } from './processCheckpoint';
import { ROOT } from './fileEntry';
import type { Runtime } from './runtime';
import { tarOfFiles, tarOfFolder } from './tarArchive';
import { startVerifierContainer, type VerifierContainer, type VerifierContainerSpec } from './verifierContainer';

/**
 * Where the bridge finds its token at start: it reads the file and deletes it. An environment
 * variable would stay readable to every process of the container user in /proc/1/environ.
 */
const TOKEN_FILE = '/tmp/.pwp-bridge-token';
const WORKSPACE = '/workspace';
/** Set on environments created with the outside network. */
const NETWORK_LABEL = 'pwp.network';
/**
 * What the bridge (root in the container, and nothing more) may do: start the IDE as the IDE
 * user (SETUID, SETGID) and stop or restart it (KILL). Without DAC_OVERRIDE it reads and writes
 * only what its mode bits allow, like any user.
 */
const BRIDGE_CAPABILITIES = ['SETUID', 'SETGID', 'KILL'];
/** Networks of environments whose process died before removing them: collected after this long. */
const STALE_NETWORK_AGE = '30m';

const networkName = (id: string) => `pwp-${id}`;
/** How long a pause waits for the commands under way in the container to end (freezeGate.ts). */
const PAUSE_WAIT_MS = 10_000;

export interface DockerDeploymentOptions {
  docker?: Docker;
  defaultImage?: string;
  /**
   * How the host runs commands and moves files in a running environment: through the engine's
   * API ('docker', the default) or through the environment's bridge ('bridge': the runtime.*
   * methods, all a host on another machine has). PWP_RUNTIME sets the default.
   */
  runtime?: RuntimeRoute;
}
export type RuntimeRoute = 'docker' | 'bridge';

function runtimeRoute(value: string | undefined): RuntimeRoute {
  if (value === undefined || value === '' || value === 'docker') return 'docker';
  if (value === 'bridge') return 'bridge';
  throw new Error(`PWP_RUNTIME must be 'docker' or 'bridge', not '${value}'`);
}

/**
 * This process's environment creations under way, and whether it has stopped making new ones: a
 * signal's clean-up (removeOwned) lists what to remove only once each has ended, as a network or
 * container made after the listing would outlive the process.
 */
const creating = new Set<Promise<unknown>>();
let stopping = false;

function refuseWhenStopping(): void {
  if (stopping) throw new NotAvailableError('pwp is stopping: it starts no new environment');
}

export class DockerDeployment implements Deployment {
  readonly docker: Docker;
  private readonly defaultImage: string;
  readonly runtimeRoute: RuntimeRoute;
  readonly backend = 'docker' as const;
  /** Bridge connections for BridgeRuntimes (closed when the environment is removed). */
  private readonly bridgeRuntimes = new BridgeRuntimes((id) => this.get(id));

  constructor(opts: DockerDeploymentOptions = {}) {
    this.docker = opts.docker ?? new Docker();
    this.defaultImage = opts.defaultImage ?? `${IMAGE_REPOSITORY}:latest`;
    this.runtimeRoute = opts.runtime ?? runtimeRoute(process.env.PWP_RUNTIME);
  }

  create(spec: EnvironmentSpec): Promise<EnvironmentInfo> {
    const made = this.make(spec);
    creating.add(made);
    void made.catch(() => undefined).finally(() => creating.delete(made));
    return made;
  }

  private async make(spec: EnvironmentSpec): Promise<EnvironmentInfo> {
    refuseWhenStopping();
    await requireEngine(this.docker);
    const id = randomBytes(4).toString('hex');
    const token = randomBytes(24).toString('base64url');
    const display = spec.display ?? { width: 1280, height: 800 };
    const memory = (spec.memoryMb ?? 2048) * 1024 * 1024;
    const firewall = await guardHostServices();
    if (firewall) warnOnce(firewall);
    void this.collectStaleNetworks();
    refuseWhenStopping();
    const network = await this.docker.createNetwork({
      Name: networkName(id),
      Driver: 'bridge',
      Internal: !spec.network,
      CheckDuplicate: true,
      Labels: { [LABEL]: id, ...ownerLabels() },
      Options: { 'com.docker.network.bridge.name': `${BRIDGE_INTERFACE_PREFIX}${id}` },
    });
    let container: Docker.Container;
    try {
      refuseWhenStopping();
      container = await this.docker.createContainer({
        name: `pwp-${id}`,
        Image: spec.image ?? this.defaultImage,
        // The bridge runs as root (with the capabilities below only); it starts the IDE as pwp.
        User: 'root',
        Env: [`PWP_TOKEN_FILE=${TOKEN_FILE}`, `PWP_DISPLAY_SIZE=${display.width}x${display.height}`, ...(spec.view ? ['PWP_VIEW=1'] : [])],
        // The token for hosts that find the environment later (pwp ls, attach): labels are not visible inside the container.
        Labels: { [LABEL]: id, ...ownerLabels(), ...spec.labels, [TOKEN_LABEL]: token, ...(spec.network ? { [NETWORK_LABEL]: 'outside' } : {}) },
        HostConfig: {
          NetworkMode: networkName(id),
          NanoCpus: Math.round((spec.cpus ?? 2) * 1e9),
          Memory: memory,
          MemorySwap: memory,
          PidsLimit: 2048,
          ShmSize: 256 * 1024 * 1024,
          CapDrop: ['ALL'],
          CapAdd: BRIDGE_CAPABILITIES,
          SecurityOpt: ['no-new-privileges'],
          Privileged: false,
          Init: false,
        },
      });
    } catch (err) {
      await removeNetwork(this.docker, network.id).catch(() => undefined);
      throw err;
    }
    try {
      // Files go in before it starts (the engine unpacks archives into a created container).
      const runtime = new DockerRuntime(this.docker, container);
      if (spec.workspaceDir) await copyWorkspace(runtime, spec.workspaceDir);
      for (const a of spec.archives ?? []) await runtime.archiveIn(a.path, a.tar());
      // Root's, like the bridge that reads and deletes it before the IDE user has a process.
      await runtime.archiveIn(dirname(TOKEN_FILE), tarOfFiles({ [basename(TOKEN_FILE)]: token }, ROOT, 0o400));
      await container.start();
    } catch (err) {
      await container.remove({ force: true }).catch(() => undefined);
      await removeNetwork(this.docker, network.id).catch(() => undefined);
      throw err;
    }
    return this.get(id);
  }

  async get(id: string): Promise<EnvironmentInfo> {
    await requireEngine(this.docker);
    const found = await this.docker.listContainers({ all: true, filters: { label: [`${LABEL}=${id}`] } });
    if (found.length === 0) throw new NotAvailableError(`no environment '${id}' (see 'pwp ls')`);
    return this.describe(found[0].Id);
  }

  async list(): Promise<EnvironmentInfo[]> {
    await requireEngine(this.docker);
    const found = await this.docker.listContainers({ all: true, filters: { label: [LABEL] } });
    // An environment removed between the listing and its inspection (by its owner, another
    // process) is simply no longer there: not an error of the listing.
    const described = await Promise.all(found.map((c) => this.describe(c.Id).catch((err: unknown) => {
      if ((err as { statusCode?: number }).statusCode === 404) return undefined;
      throw err;
    })));
    return described.filter((e): e is EnvironmentInfo => e !== undefined);
  }

  async remove(id: string): Promise<void> {
    await requireEngine(this.docker);
    this.bridgeRuntimes.close(id);
    const info = await this.docker.listContainers({ all: true, filters: { label: [`${LABEL}=${id}`] } });
    if (info.length === 0) throw new NotAvailableError(`no environment '${id}' (see 'pwp ls')`);
    await this.docker.getContainer(info[0].Id).remove({ force: true, v: true });
    forgetGate(info[0].Id);
    await this.removeNetworks(id);
  }

  async collectLeftovers(o: { dryRun: boolean }): Promise<Leftover[]> {
    await requireEngine(this.docker);
    return collectLeftovers(this.docker, { remove: !o.dryRun });
  }

  /** Removes environment `id`'s network (it goes with the environment). */
  async removeNetworks(id: string): Promise<void> {
    const nets = await this.docker.listNetworks({ filters: { label: [`${LABEL}=${id}`] } });
    await Promise.all(nets.map((n) => removeNetwork(this.docker, n.Id)));
  }

  /**
   * Removes networks left behind by a process that died before removing its environment: at
   * once those whose owner process is gone, and pwp networks no container uses that are older
   * than STALE_NETWORK_AGE (an owner on another machine cannot be judged from here; younger
   * ones may be about to get their container).
   */
  async collectStaleNetworks(): Promise<void> {
    await removeOrphanNetworks(this.docker).catch(() => undefined);
    await this.docker.pruneNetworks({ filters: { label: [LABEL], until: [STALE_NETWORK_AGE] } }).catch(() => undefined);
  }

  /** The container running environment `id`, for deployment-specific work (archives, exec). */
  async container(id: string): Promise<Docker.Container> {
    await requireEngine(this.docker);
    const info = await this.docker.listContainers({ all: true, filters: { label: [`${LABEL}=${id}`] } });
    if (info.length === 0) throw new NotAvailableError(`no environment '${id}' (see 'pwp ls')`);
    return this.docker.getContainer(info[0].Id);
  }

  /**
   * Freezes every process of the environment (cgroup freezer); nothing runs until unpause.
   * On a busy machine the freezer can give up before every thread stopped ("unable to
   * freeze"); runc leaves the retry to its caller, so this retries, for up to ~8 s in all
   * (seen failing five tries in 1.5 s on a machine with a load average of 50).
   */
  async pause(id: string, o: { held?: boolean } = {}): Promise<void> {
    const attempts = 8;
    const container = await this.container(id);
    const frozen = await freezeWhenIdle(container.id, async () => {
      for (let i = 1; ; i++) {
        try {
          await container.pause();
          return;
        } catch (err) {
          if (i >= attempts || !/unable to freeze/.test((err as Error).message)) throw err;
          await new Promise((r) => setTimeout(r, 300 * i));
        }
      }
    }, { waitMs: PAUSE_WAIT_MS, held: o.held });
    if (!frozen) throw new NotAvailableError(`environment '${id}' was not paused: commands run in it did not end within ${PAUSE_WAIT_MS / 1000} s`);
  }

  async unpause(id: string): Promise<void> {
    const container = await this.container(id);
    await thaw(container.id, () => container.unpause());
  }

  /** What runs inside environment `id`: exec, files, archives (through the engine or the bridge, see runtimeRoute). */
  async runtime(id: string): Promise<Runtime> {
    if (this.runtimeRoute === 'bridge') return this.bridgeRuntimes.runtime(id);
    return new DockerRuntime(this.docker, await this.container(id));
  }

  /** Closes the bridge connections of BridgeRuntimes (the process can then exit). */
  closeRuntimes(): void {
    this.bridgeRuntimes.closeAll();
  }

  /** Stops this process from creating environments, lets those under way end, then removes every one it made. */
  async removeOwned(): Promise<number> {
    stopping = true;
    await Promise.allSettled([...creating]);
    return removeOwnedContainers(this.docker);
  }

  /** The IDE image built from this tree on this host's engine. */
  async ensureImage(o: { force?: boolean; progress?: BuildProgress } = {}): Promise<string> {
    await requireEngine(this.docker);
    return ensureImage({ docker: this.docker, ...o });
  }

  /** A task image built on this host's engine, on the IDE image given or built from this tree. */
  async ensureTaskImage(recipe: TaskImageRecipe, o: { ide?: string; force?: boolean; progress?: BuildProgress } = {}): Promise<string> {
    await requireEngine(this.docker);
    const ide = o.ide ?? await this.ensureImage({ progress: o.progress });
    return ensureTaskImage(this.docker, recipe, { ide, force: o.force, progress: o.progress });
  }

  /** Reads one regular file of environment `id` (running or stopped); fails when there is none. */
  async readFile(id: string, path: string): Promise<Buffer> {
    const content = await (await this.runtime(id)).readFile(path);
    if (!content) throw new NotAvailableError(`${path} is not a regular file of environment '${id}'`);
    return content;
  }

  /** A verifier container of `spec.image` (no IDE, no network), with its runtime. */
  async startVerifier(spec: VerifierContainerSpec): Promise<VerifierContainer> {
    await requireEngine(this.docker);
    return startVerifierContainer(this.docker, spec);
  }

  /** Whether process checkpoints (CRIU) can run on this host, and if not, why. */
  processCheckpointSupport(): Promise<{ supported: boolean; reason: string }> {
    return criuSupport(this.docker);
  }

  /** Checkpoints environment `id`'s processes under `name` (see processCheckpointSupport). */
  async checkpointProcesses(id: string, name: string): Promise<void> {
    await createProcessCheckpoint(await this.container(id), name);
  }

  /** Restarts environment `id` from its process checkpoint `name`. */
  async restoreProcesses(id: string, name: string): Promise<void> {
    await restartFromProcessCheckpoint(await this.container(id), name);
  }

  private async describe(containerId: string): Promise<EnvironmentInfo> {
    const c = await this.docker.getContainer(containerId).inspect();
    const env = Object.fromEntries((c.Config.Env ?? []).map((e) => [e.slice(0, e.indexOf('=')), e.slice(e.indexOf('=') + 1)]));
    const [w, h] = (env.PWP_DISPLAY_SIZE ?? '1280x800').split('x').map(Number);
    const ip = c.NetworkSettings.Networks?.[networkName(c.Config.Labels[LABEL])]?.IPAddress;
    const bridge = ip ? `${ip}:${BRIDGE_PORT}` : '';
    const token = c.Config.Labels[TOKEN_LABEL] ?? env.PWP_TOKEN ?? '';
    const viewUrl = bridge && env.PWP_VIEW === '1' ? `http://${bridge}/view/?token=${encodeURIComponent(token)}` : null;
    return {
      id: c.Config.Labels[LABEL],
      image: c.Config.Image,
      createdAt: c.Created,
      state: c.State.Status,
      display: { width: w, height: h },
      bridgeUrl: bridge ? `ws://${bridge}/rpc` : '',
      // code-server through the bridge's token check (bridge/view/ideProxy.ts).
      ideUrl: bridge ? `http://${bridge}/ide/?folder=${WORKSPACE}&token=${encodeURIComponent(token)}` : '',
      token,
      labels: c.Config.Labels,
      viewUrl,
    };
  }
}

async function copyWorkspace(runtime: DockerRuntime, dir: string): Promise<void> {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new Error(`workspace folder not found: ${dir}`);
  // Files belong to the container's unprivileged user (uid 1000).
  await runtime.archiveIn(WORKSPACE, tarOfFolder(dir));
}

const warned = new Set<string>();
function warnOnce(message: string): void {
  if (warned.has(message)) return;
  warned.add(message);
  process.stderr.write(`pwp: warning: ${message}\n`);
}
