// A real Docker Swarm on this machine for tests and the bench: a manager and workers, each a
// Docker engine in its own container on a network of their own, and a registry (Debian's
// docker-registry) the nodes pull from. The manager is drained, so environments land on the
// workers. Each node is set up as docs/scale-out.md asks: its engine with no inter-container
// traffic and no masquerading, and nothing accepted from its own containers; the manager's
// API is a Unix socket in a host folder: nothing listens for it on the network. remove() takes away everything start made,
// except the registry's storage, which is kept for the next cluster (see REGISTRY_CACHE).
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import Docker from 'dockerode';
import lockfile from 'proper-lockfile';
import type { SwarmDeploymentOptions } from '../../host/deployment/swarm/swarmDeployment';
import { BASE_IMAGE } from '../../host/imageBuild/imageInputs';

const NODE_DOCKERFILE = join(__dirname, 'node.Dockerfile');
const REGISTRY_PORT = 5000;
/** How the nodes name the registry (a network alias), so every node pulls the same reference. */
const REGISTRY_NAME = `registry:${REGISTRY_PORT}`;
const LABEL = 'pwp.test-swarm';
/** host:pid of the process that started a cluster: a leftover is one whose process is gone. */
const STARTED_BY = 'pwp.test-swarm.started-by';
/**
 * The registry's storage, kept between clusters the way built images are kept: pushing the IDE
 * image into an empty registry gzips its 3 GB again (about 4 CPU-minutes of this engine's), and a
 * push skips the layers a registry has. Layers are addressed by content, so a kept one is the
 * same bytes. One cluster at a time uses it (a lock); a second one at once starts with an empty
 * registry as before. At each start, tags of images this engine no longer has are dropped and
 * the registry's garbage collection removes what only they used, so it holds about one IDE image.
 * The nodes' engines are not kept: every worker still pulls the image from the registry.
 */
const REGISTRY_CACHE = 'pwp-test-swarm-registry';
const REGISTRY_ROOT = '/var/lib/docker-registry';

export interface SwarmNode { name: string; role: 'manager' | 'worker'; container: Docker.Container; address: string }

export interface SwarmCluster {
  id: string;
  nodes: SwarmNode[];
  workers: SwarmNode[];
  /** The manager's Engine API (through its socket in a host folder). */
  manager: Docker;
  managerSocket: string;
  /** The registry as this host pushes to it (a loopback port) and as the nodes pull from it. */
  pushTo: string;
  registry: string;
  /** What SwarmDeployment needs to use this cluster. */
  deploymentOptions(): SwarmDeploymentOptions;
  /** The same as PWP_SWARM_* variables (for the CLI). */
  env(): Record<string, string>;
  /** Kills a node's container: its engine and every container on it vanish at once, as with a lost machine. */
  killNode(name: string): Promise<void>;
  remove(): Promise<void>;
}

export interface StartOptions { workers?: number; progress?: (line: string) => void; docker?: Docker }

async function exec(c: Docker.Container, cmd: string[]): Promise<string> {
  const e = await c.exec({ Cmd: cmd, AttachStdout: true, AttachStderr: true });
  const stream = await e.start({});
  const out = new PassThrough();
  const err = new PassThrough();
  const chunks: Buffer[] = [];
  const errs: Buffer[] = [];
  out.on('data', (d: Buffer) => chunks.push(d));
  err.on('data', (d: Buffer) => errs.push(d));
  c.modem.demuxStream(stream, out, err);
  await new Promise((r) => stream.on('end', r));
  const { ExitCode } = await e.inspect();
  if (ExitCode !== 0) throw new Error(`${cmd.join(' ')} in ${(await c.inspect()).Name}: exit ${ExitCode}: ${Buffer.concat(errs).toString().trim()}`);
  return Buffer.concat(chunks).toString().trim();
}

async function nodeImage(docker: Docker, progress: (l: string) => void): Promise<string> {
  const text = readFileSync(NODE_DOCKERFILE);
  const tag = `pwp-swarm-node:${createHash('sha256').update(text).update(BASE_IMAGE).digest('hex').slice(0, 16)}`;
  if (await docker.getImage(tag).inspect().then(() => true, () => false)) return tag;
  progress(`building ${tag} (Debian's docker.io and docker-registry)`);
  const stream = await docker.buildImage(
    { context: __dirname, src: ['node.Dockerfile'] },
    { t: tag, dockerfile: 'node.Dockerfile', buildargs: { BASE: BASE_IMAGE }, rm: true, forcerm: true },
  );
  await new Promise<void>((resolve, reject) => docker.modem.followProgress(stream, (err: Error | null, out: { error?: string }[]) => {
    const failed = err?.message ?? out.find((o) => o.error)?.error;
    if (failed) reject(new Error(`building ${tag} failed: ${failed}`)); else resolve();
  }));
  return tag;
}

export async function startSwarmCluster(o: StartOptions = {}): Promise<SwarmCluster> {
  const docker = o.docker ?? new Docker();
  const progress = o.progress ?? (() => undefined);
  const id = randomBytes(3).toString('hex');
  const prefix = `pwp-swarm-${id}`;
  const labels = { [LABEL]: id, [STARTED_BY]: `${hostname()}:${process.pid}` };
  const socketDir = mkdtempSync(join(tmpdir(), `${prefix}-`));
  const made: { containers: Docker.Container[]; volumes: string[] } = { containers: [], volumes: [] };
  const releaseCache = await lockRegistryCache();
  const network = await docker.createNetwork({ Name: prefix, Driver: 'bridge', Labels: labels }).catch(async (e: Error) => { await releaseCache?.(); throw e; });
  const remove = async () => {
    await Promise.all(made.containers.map((c) => c.remove({ force: true, v: true }).catch(() => undefined)));
    await Promise.all(made.volumes.map((v) => docker.getVolume(v).remove({ force: true }).catch(() => undefined)));
    await network.remove().catch(() => undefined);
    rmSync(socketDir, { recursive: true, force: true });
    await releaseCache?.().catch(() => undefined);
  };

  try {
    const image = await nodeImage(docker, progress);
    const run = async (name: string, spec: Partial<Docker.ContainerCreateOptions>, volume: { name: string; target: string; kept?: boolean }): Promise<Docker.Container> => {
      if (volume.kept) await docker.createVolume({ Name: volume.name, Labels: { 'pwp.test-swarm-cache': 'registry' } });
      else {
        await docker.createVolume({ Name: volume.name, Labels: labels });
        made.volumes.push(volume.name);
      }
      const c = await docker.createContainer({
        name, Hostname: name, Image: image, Labels: labels, ...spec,
        HostConfig: {
          NetworkMode: prefix,
          ...spec.HostConfig,
          // An engine on a real file system (overlay2 cannot sit on the container's own overlay).
          Binds: [`${volume.name}:${volume.target}`, ...(spec.HostConfig?.Binds ?? [])],
        },
      });
      made.containers.push(c);
      await c.start();
      return c;
    };

    progress(`starting the registry and ${1 + (o.workers ?? 2)} swarm nodes (${prefix})`);
    if (releaseCache) progress(`the registry keeps its storage in volume ${REGISTRY_CACHE} (layers it has are not pushed again)`);
    const registry = await run(`${prefix}-registry`, {
      Entrypoint: ['sh', '-c', `printf 'version: 0.1\\nstorage:\\n  filesystem:\\n    rootdirectory: ${REGISTRY_ROOT}\\nhttp:\\n  addr: :${REGISTRY_PORT}\\n' > /tmp/registry.yml || exit 1; ${releaseCache ? DROP_UNKEPT_TAGS : ''} exec docker-registry serve /tmp/registry.yml`],
      // The tags to keep in a kept registry: the images this engine has, by repository and tag.
      Env: releaseCache ? [`PWP_KEEP_TAGS=${(await docker.listImages()).flatMap((i) => i.RepoTags ?? []).join('\n')}`] : [],
      ExposedPorts: { [`${REGISTRY_PORT}/tcp`]: {} },
      NetworkingConfig: { EndpointsConfig: { [prefix]: { Aliases: ['registry'] } } },
      HostConfig: { PortBindings: { [`${REGISTRY_PORT}/tcp`]: [{ HostIp: '127.0.0.1', HostPort: '' }] } },
    }, releaseCache ? { name: REGISTRY_CACHE, target: REGISTRY_ROOT, kept: true } : { name: `${prefix}-registry`, target: REGISTRY_ROOT });

    const engine = (name: string, extra: string[], binds: string[] = []) => run(name, {
      Entrypoint: ['dockerd', '--icc=false', '--ip-masq=false', `--insecure-registry=${REGISTRY_NAME}`, ...extra],
      HostConfig: {
        // RECIPES.md: privileged containers cannot start here; these flags run an engine inside.
        CapAdd: ['ALL'], CapDrop: ['SYS_RESOURCE'], SecurityOpt: ['seccomp=unconfined', 'apparmor=unconfined'],
        ...({ CgroupnsMode: 'host' } as Docker.HostConfig), Binds: ['/sys/fs/cgroup:/sys/fs/cgroup:rw', ...binds],
      },
    }, { name, target: '/var/lib/docker' });

    const managerName = `${prefix}-manager`;
    const containers = [
      { name: managerName, role: 'manager' as const, c: await engine(managerName, ['-H', 'unix:///var/run/docker.sock', '-H', 'unix:///run/pwp-swarm/docker.sock'], [`${socketDir}:/run/pwp-swarm`]) },
      ...await Promise.all(Array.from({ length: o.workers ?? 2 }, async (_, i) => {
        const name = `${prefix}-worker${i + 1}`;
        return { name, role: 'worker' as const, c: await engine(name, []) };
      })),
    ];
    const nodes: SwarmNode[] = await Promise.all(containers.map(async (n) => ({
      name: n.name, role: n.role, container: n.c,
      address: (await n.c.inspect()).NetworkSettings.Networks[prefix].IPAddress,
    })));
    for (const n of nodes) await waitForEngine(n.container);
    // A node takes nothing from its own containers: an environment cannot reach its node's
    // swarm ports, nor another environment's published bridge through the node's address.
    for (const n of nodes) await exec(n.container, ['iptables', '-I', 'INPUT', '-i', 'docker0', '-j', 'DROP']);
    const [manager, ...workers] = nodes;
    await exec(manager.container, ['docker', 'swarm', 'init', '--advertise-addr', manager.address]);
    const token = await exec(manager.container, ['docker', 'swarm', 'join-token', '-q', 'worker']);
    await Promise.all(workers.map((w) => exec(w.container, ['docker', 'swarm', 'join', '--token', token, `${manager.address}:2377`])));
    await exec(manager.container, ['docker', 'node', 'update', '--availability', 'drain', manager.name]);
    const managerSocket = join(socketDir, 'docker.sock');
    const port = (await registry.inspect()).NetworkSettings.Ports[`${REGISTRY_PORT}/tcp`]?.[0]?.HostPort;
    if (!port) throw new Error('the registry\'s port was not published');
    const pushTo = `127.0.0.1:${port}`;
    const api = new Docker({ socketPath: managerSocket });
    await waitForWorkers(api, workers.length);
    progress(`swarm ${prefix} ready: manager ${manager.address}, workers ${workers.map((w) => `${w.name} ${w.address}`).join(', ')}`);
    return {
      id, nodes, workers, manager: api, managerSocket, pushTo, registry: REGISTRY_NAME,
      deploymentOptions: () => ({ manager: api, registry: REGISTRY_NAME, pushTo }),
      env: () => ({ PWP_BACKEND: 'swarm', PWP_SWARM_MANAGER: `unix://${managerSocket}`, PWP_SWARM_REGISTRY: REGISTRY_NAME, PWP_SWARM_PUSH: pushTo }),
      killNode: async (name) => { await docker.getContainer(name).kill(); },
      remove,
    };
  } catch (err) {
    await remove();
    throw err;
  }
}

/**
 * Before a kept registry serves: removes each tag whose repository:tag is not in PWP_KEEP_TAGS,
 * then collects the garbage (manifests no tag names, layers no manifest uses).
 */
const DROP_UNKEPT_TAGS = [
  `r=${REGISTRY_ROOT}/docker/registry/v2/repositories`,
  `if [ -d "$r" ]; then find "$r" -mindepth 4 -type d -path '*/_manifests/tags/*' -prune | while read -r d; do rel="\${d#$r/}"; printf '%s\\n' "$PWP_KEEP_TAGS" | grep -qxF "\${rel%%/_manifests/tags/*}:\${rel##*/}" || rm -rf "$d"; done; docker-registry garbage-collect -m /tmp/registry.yml >/dev/null || echo 'garbage collection failed; serving as it is' >&2; fi;`,
].join('; ');

/** Takes the kept registry's lock, or gives undefined when another cluster holds it (that cluster's registry starts empty). */
async function lockRegistryCache(): Promise<(() => Promise<void>) | undefined> {
  const dir = join(tmpdir(), 'pwp-swarm');
  mkdirSync(dir, { recursive: true });
  try {
    return await lockfile.lock(join(dir, REGISTRY_CACHE), { realpath: false, stale: 30_000, onCompromised: () => undefined });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ELOCKED') return undefined;
    throw e;
  }
}

/** How long a node's engine or the swarm's workers may take to come up on a loaded machine. */
const CLUSTER_READY_MS = 5 * 60_000;

async function waitForEngine(c: Docker.Container): Promise<void> {
  const deadline = Date.now() + CLUSTER_READY_MS;
  for (;;) {
    try { await exec(c, ['docker', 'version', '--format', '{{.Server.Version}}']); return; } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

async function waitForWorkers(api: Docker, count: number): Promise<void> {
  const deadline = Date.now() + CLUSTER_READY_MS;
  for (;;) {
    const nodes = await api.listNodes();
    if (nodes.filter((n) => n.Spec?.Role === 'worker' && n.Status?.State === 'ready').length >= count) return;
    if (Date.now() > deadline) throw new Error(`the swarm has not ${count} ready workers after ${CLUSTER_READY_MS / 1000} s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const alive = (pid: number) => { try { process.kill(pid, 0); return true; } catch (err) { return (err as NodeJS.ErrnoException).code === 'EPERM'; } };

/** Whether the process that started a cluster is gone (a cluster of another machine's process is never touched). */
function leftover(labels: Record<string, string> | undefined): boolean {
  const [host, pid] = (labels?.[STARTED_BY] ?? '').split(':');
  return host === hostname() && Number(pid) > 0 && !alive(Number(pid));
}

/** Removes clusters left by test runs that died; those of live processes (a parallel run) stay. */
export async function removeLeftoverClusters(docker = new Docker()): Promise<void> {
  const containers = (await docker.listContainers({ all: true, filters: { label: [LABEL] } })).filter((c) => leftover(c.Labels));
  await Promise.all(containers.map((c) => docker.getContainer(c.Id).remove({ force: true, v: true }).catch(() => undefined)));
  const { Volumes } = await docker.listVolumes({ filters: { label: [LABEL] } });
  await Promise.all((Volumes ?? []).filter((v) => leftover(v.Labels)).map((v) => docker.getVolume(v.Name).remove({ force: true }).catch(() => undefined)));
  const nets = (await docker.listNetworks({ filters: { label: [LABEL] } })).filter((n) => leftover(n.Labels));
  await Promise.all(nets.map((n) => docker.getNetwork(n.Id).remove().catch(() => undefined)));
}
