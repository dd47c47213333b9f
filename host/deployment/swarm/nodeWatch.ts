// Noticing that a swarm environment is gone: its node went down, its task stopped, or its
// bridge stopped answering on the node's address (a node that vanishes sends no reset, so a
// connection to it would hang until TCP gives up). Whichever comes first ends the episode with
// an EnvironmentLostError naming the node, instead of a call that never returns.
import { Socket } from 'node:net';
import { EnvironmentLostError } from '../../../bridge/protocol';
import type { EnvironmentInfo } from '../deployment';

export interface WatchedPlacement { nodeId: string; node: string; address: string; port: number; state: string; desiredState?: string; error: string }

export interface WatchSources {
  placement(): Promise<WatchedPlacement | undefined>;
  nodeState(nodeId: string): Promise<string>;
  /** Whether a TCP connection to address:port opens within timeoutMs. */
  reachable?(address: string, port: number, timeoutMs: number): Promise<boolean>;
}

export interface WatchOptions {
  intervalMs?: number;
  /** How long the bridge may not answer before the environment counts as lost. */
  unreachableAfterMs?: number;
}

export function tcpReachable(address: string, port: number, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = new Socket();
    const done = (ok: boolean) => { s.destroy(); resolve(ok); };
    s.setTimeout(timeoutMs, () => done(false));
    s.once('error', () => done(false));
    s.connect(port, address, () => done(true));
  });
}

/**
 * One environment's loss detector: each call to the returned function looks once and says why
 * the environment is lost, 'alive' when its bridge answered, or undefined while undecided.
 */
function lossDetector(info: EnvironmentInfo, src: WatchSources, unreachableAfterMs: number): () => Promise<EnvironmentLostError | 'alive' | undefined> {
  const reachable = src.reachable ?? tcpReachable;
  let unreachableSince: number | undefined;
  let last: WatchedPlacement | undefined;
  const lost = (why: string) => {
    const node = last?.node || last?.nodeId || 'unknown';
    return new EnvironmentLostError(`environment ${info.id} was lost with node ${node}: ${why}`, { node, environment: info.id });
  };
  return async () => {
    // The manager may be busy or briefly away; only what it positively says, and the bridge's own silence, count.
    const p = await src.placement().catch(() => last);
    if (!p) return lost('its service is gone');
    last = p;
    if (p.state !== 'running') return lost(`its task is ${p.state}${p.error ? ` (${p.error})` : ''}`);
    const nodeState = await src.nodeState(p.nodeId).catch(() => 'ready');
    if (nodeState !== 'ready') return lost(`the swarm reports the node ${nodeState}`);
    if (await reachable(p.address, p.port, Math.min(3000, unreachableAfterMs))) {
      unreachableSince = undefined;
      return 'alive';
    }
    unreachableSince ??= Date.now();
    const silentMs = Date.now() - unreachableSince;
    if (silentMs >= unreachableAfterMs) return lost(`its bridge at ${p.address}:${p.port} has not answered for ${Math.round(silentMs / 1000)} s`);
    return undefined;
  };
}

/** Watches a running environment in the background; onLost is called once, with why. */
export function watchEnvironment(info: EnvironmentInfo, onLost: (err: Error) => void, src: WatchSources, o: WatchOptions = {}): () => void {
  const intervalMs = o.intervalMs ?? 2000;
  const look = lossDetector(info, src, o.unreachableAfterMs ?? 12_000);
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const loop = () => {
    timer = setTimeout(() => {
      void look().then((r) => {
        if (r instanceof EnvironmentLostError && !stopped) { stopped = true; onLost(r); }
      }, () => undefined).finally(() => { if (!stopped) loop(); });
    }, intervalMs);
    timer.unref();
  };
  loop();
  return () => { stopped = true; clearTimeout(timer); };
}

/**
 * After a connection dropped: whether the environment is gone (its error) or still there
 * (undefined), looking every second until one is clear. A dropped connection to an address
 * that no longer answers decides sooner than the background watch does.
 */
export async function confirmLoss(
  info: EnvironmentInfo,
  src: WatchSources,
  o: { unreachableAfterMs?: number; timeoutMs?: number } = {},
): Promise<EnvironmentLostError | undefined> {
  const look = lossDetector(info, src, o.unreachableAfterMs ?? 5000);
  const deadline = Date.now() + (o.timeoutMs ?? 30_000);
  for (;;) {
    const r = await look().catch(() => undefined);
    if (r instanceof EnvironmentLostError) return r;
    if (r === 'alive' || Date.now() > deadline) return undefined;
    await new Promise((res) => setTimeout(res, 1000));
  }
}
