// Every container this process starts (environments and verifiers) carries one label naming
// the process, so that an interrupted `pwp run` or `pwp bench` removes exactly what it
// started, and nothing another process owns. A second label names the host user, so that
// `pwp ls`, `pwp down --all` and the inspector show and touch only the caller's own
// environments unless asked for everyone's.
import { randomBytes } from 'node:crypto';
import { hostname, userInfo } from 'node:os';
import type Docker from 'dockerode';
import { TOKEN_LABEL } from './environmentLabels';

export const OWNER_LABEL = 'pwp.owner';
/** host:pid:nonce; the nonce keeps a recycled pid from naming an older process's containers. */
export const OWNER = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;

export const USER_LABEL = 'pwp.user';
/** The host user that started an environment: name, uid and machine. */
export const HOST_USER = (() => {
  const u = userInfo();
  return `${u.username}:${u.uid}@${hostname()}`;
})();

export const ownerLabels = (): Record<string, string> => ({ [OWNER_LABEL]: OWNER, [USER_LABEL]: HOST_USER });

/** On an environment meant to outlive the process that started it (`pwp up`, `--keep`): `pwp gc` leaves it. */
export const KEPT_LABEL = 'pwp.kept';
export const keptLabels = (): Record<string, string> => ({ [KEPT_LABEL]: '1' });

/**
 * Whether the process an owner label names is gone: it ran on this machine and no process has
 * its pid now. A pid taken by another process since counts as alive (nothing is removed that
 * may still be someone's); an owner on another machine is never judged from here.
 */
export function ownerGone(owner: string | undefined, alive: (pid: number) => boolean = pidAlive): boolean {
  const m = /^(.*):(\d+):[0-9a-f]+$/.exec(owner ?? '');
  if (!m || m[1] !== hostname()) return false;
  return !alive(Number(m[2]));
}

function pidAlive(pid: number): boolean {
  try { process.kill(pid, 0); return true; } catch (e) { return (e as NodeJS.ErrnoException).code === 'EPERM'; }
}

export interface Leftover { kind: 'container' | 'network'; id: string; name: string; owner: string }

/**
 * What killed pwp processes of the calling user left on this engine: containers (environments
 * and verifiers) and networks whose owner process is gone, except environments kept on purpose.
 * With `remove`, they are removed (containers first, with their anonymous volumes).
 */
export async function collectLeftovers(docker: Docker, o: { remove: boolean }): Promise<Leftover[]> {
  const mine = { label: [`${USER_LABEL}=${HOST_USER}`] };
  const all = await docker.listContainers({ all: true, filters: mine });
  const containers = all.filter((c) => ownerGone(c.Labels[OWNER_LABEL]) && c.Labels[KEPT_LABEL] !== '1');
  const found: Leftover[] = containers.map((c) => ({ kind: 'container', id: c.Id, name: (c.Names[0] ?? c.Id).replace(/^\//, ''), owner: c.Labels[OWNER_LABEL] }));
  if (o.remove) await Promise.all(containers.map((c) => docker.getContainer(c.Id).remove({ force: true, v: true }).catch(() => undefined)));
  // A network goes once no container is on it (a kept environment's stays with it).
  const going = new Set(containers.map((c) => c.Id));
  const staying = all.filter((c) => !going.has(c.Id));
  const inUse = new Set(staying.flatMap((c) => Object.keys(c.NetworkSettings?.Networks ?? {})));
  const networks = (await docker.listNetworks({ filters: mine })).filter((n) => ownerGone(n.Labels?.[OWNER_LABEL]) && !inUse.has(n.Name));
  found.push(...networks.map((n): Leftover => ({ kind: 'network', id: n.Id, name: n.Name, owner: n.Labels?.[OWNER_LABEL] ?? '' })));
  if (o.remove) await Promise.all(networks.map((n) => removeNetwork(docker, n.Id).catch(() => undefined)));
  return found;
}

/**
 * Removes the calling user's networks whose owner process is gone and that no container is on:
 * what a process that ended between making an environment's network and its container left
 * (a test worker stopped mid-start, say). Every new environment calls it, so such a network goes
 * at the next start rather than at the 30-minute prune. Containers stay `pwp gc`'s to judge.
 */
export async function removeOrphanNetworks(docker: Docker): Promise<void> {
  const orphans = (await docker.listNetworks({ filters: { label: [`${USER_LABEL}=${HOST_USER}`] } })).filter((n) => ownerGone(n.Labels?.[OWNER_LABEL]));
  if (orphans.length === 0) return;
  // Anyone's container counts: a network with one on it is not free to go.
  const inUse = new Set((await docker.listContainers({ all: true })).flatMap((c) => Object.keys(c.NetworkSettings?.Networks ?? {})));
  await Promise.all(orphans.filter((n) => !inUse.has(n.Name)).map((n) => removeNetwork(docker, n.Id).catch(() => undefined)));
}

/**
 * Removes a network, one already gone included. Right after its container was force-removed the
 * engine can still count that container's endpoint ("has active endpoints"): the removal is
 * tried again while the endpoints left are of containers that no longer exist (force-
 * disconnected), up to a few times; any other refusal is thrown, not swallowed.
 */
export async function removeNetwork(docker: Docker, id: string): Promise<void> {
  const network = docker.getNetwork(id);
  for (let attempt = 1; ; attempt++) {
    try {
      await network.remove();
      return;
    } catch (err) {
      const e = err as { statusCode?: number; message?: string };
      if (e.statusCode === 404) return;
      if (attempt >= 5 || !/active endpoints/i.test(e.message ?? '')) throw err;
    }
    const info = (await network.inspect().catch(() => undefined)) as { Containers?: Record<string, unknown> } | undefined;
    if (!info) return;
    const live = [];
    for (const container of Object.keys(info.Containers ?? {})) {
      const exists = await docker.getContainer(container).inspect().then(() => true, () => false);
      if (exists) live.push(container);
      else await network.disconnect({ Container: container, Force: true }).catch(() => undefined);
    }
    if (live.length) throw new Error(`network ${id} is still used by container${live.length === 1 ? '' : 's'} ${live.join(', ')}`);
    // The engine's own release of a removed container's endpoint is asynchronous: give it a moment.
    await new Promise((r) => setTimeout(r, 250 * attempt));
  }
}

/** Whether the calling host user started this environment (environments from before the label count as someone else's). */
export function ownedByCaller(env: { labels: Record<string, string> }): boolean {
  return env.labels[USER_LABEL] === HOST_USER;
}

/** Labels holding secrets (the bridge's token), never printed or sent to a page. */
const SECRET_LABELS = new Set([TOKEN_LABEL]);

/** An environment's labels without its secrets, for output and pages. */
export function publicLabels(labels: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(labels).filter(([k]) => !SECRET_LABELS.has(k) && !/token|secret/i.test(k)));
}

/** Force-removes this process's containers, then their networks; returns how many containers there were. */
export async function removeOwnedContainers(docker: Docker): Promise<number> {
  const owned = { label: [`${OWNER_LABEL}=${OWNER}`] };
  const list = await docker.listContainers({ all: true, filters: owned });
  await Promise.all(list.map((c) => docker.getContainer(c.Id).remove({ force: true, v: true }).catch(() => undefined)));
  const nets = await docker.listNetworks({ filters: owned }).catch(() => []);
  await Promise.all(nets.map((n) => removeNetwork(docker, n.Id).catch(() => undefined)));
  return list.length;
}

let installed = false;

/**
 * On SIGINT/SIGTERM/SIGHUP: calls onSignal and waits for what it returns (at most 30 s: a run
 * writes its result there), removes this process's environments and verifiers, then exits (130
 * for Ctrl-C). Results already written stay (bench appends each as it ends, so a re-run resumes).
 * A second signal exits at once.
 */
export function removeOwnedOnInterrupt(
  removeOwned: () => Promise<number>,
  o: { note?: (line: string) => void; onSignal?: (signal: NodeJS.Signals) => void | Promise<unknown> } = {},
): void {
  if (installed) return;
  installed = true;
  const note = o.note ?? ((l: string) => console.error(l));
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    const code = signal === 'SIGINT' ? 130 : signal === 'SIGTERM' ? 143 : 129;
    if (stopping) process.exit(code);
    stopping = true;
    // First, so that work cut short by the removal is not reported as finished or failed.
    const settled = Promise.race([
      Promise.resolve().then(() => o.onSignal?.(signal)).catch(() => undefined),
      new Promise((r) => setTimeout(r, 30_000).unref()),
    ]);
    void settled.then(() => {
      note(`pwp: ${signal}: removing the environments this run started…`);
      const hardStop = setTimeout(() => process.exit(code), 30_000);
      return removeOwned()
        .then((n) => note(`pwp: removed ${n} environment${n === 1 ? '' : 's'}`))
        .catch((err: Error) => note(`pwp: could not remove environments: ${err.message}`))
        .finally(() => { clearTimeout(hardStop); process.exit(code); });
    });
  };
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(sig, stop);
}
