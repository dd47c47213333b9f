// The swarm part of the bench (`npm run bench -- --backend swarm`): step latency, cold start
// and reset on a Swarm cluster, beside the local Docker figures of the same run. The cluster
// is PWP_SWARM_*'s when set (docs/scale-out.md), else a manager and two workers started on
// this machine (test/swarm/swarmCluster.ts) and removed afterwards.
import { swarmOptionsFromEnv } from '../../host/deployment/backends';
import { SwarmDeployment } from '../../host/deployment/swarm/swarmDeployment';
import { startEnvironment } from '../../host/running/runningEnvironment';
import { screenshot } from '../../host/env/observation';
import { startSwarmCluster, type SwarmCluster } from '../../test/swarm/swarmCluster';
import { benchPool } from './envFigures';
import { pct, timeIt } from './stats';

type Figures = Record<string, number | string | null>;
type Row = [string, string, string, string];

export async function benchSwarm(local: Figures, say: (l: string) => void, samples: number): Promise<{ figures: Figures; rows: Row[] }> {
  let cluster: SwarmCluster | undefined;
  const options = process.env.PWP_SWARM_MANAGER ? swarmOptionsFromEnv() : (cluster = await startSwarmCluster({ progress: say })).deploymentOptions();
  const deployment = new SwarmDeployment(options);
  const figures: Figures = { swarm_cluster: cluster ? 'one machine: a manager and two workers in containers' : 'PWP_SWARM_MANAGER' };
  try {
    const image = await deployment.ensureImage({ progress: say });
    say('swarm: first environments (each worker pulls the image; not timed)');
    const first = await Promise.all([0, 1].map(() => startEnvironment(deployment, { image }, 600_000)));
    for (const e of first) { e.client.close(); await deployment.remove(e.info.id); }

    say('swarm: cold start (a new service to ready), 3 runs');
    const cold: number[] = [];
    for (let i = 0; i < 3; i++) {
      const e = await startEnvironment(deployment, { image }, 300_000);
      cold.push(e.startMs);
      e.client.close();
      await deployment.remove(e.info.id);
    }
    say('swarm: step latency through the published bridge port');
    const env = await startEnvironment(deployment, { image }, 300_000);
    try {
      const c = env.client;
      await screenshot(c);
      const shot = await timeIt(samples, () => screenshot(c, { format: 'png' }));
      const key = await timeIt(samples, () => c.call('input.key', { keys: 'shift' }));
      const ide = await timeIt(samples, () => c.call('ide.status', {}));
      Object.assign(figures, {
        swarm_screenshot_p50_ms: pct(shot, 50), swarm_key_p50_ms: pct(key, 50), swarm_ide_roundtrip_p50_ms: pct(ide, 50),
      });
    } finally {
      env.client.close();
      await deployment.remove(env.info.id);
    }
    const pool = await benchPool(deployment, image, (l) => say(`swarm: ${l}`));
    Object.assign(figures, {
      swarm_cold_start_ms: pct(cold, 50),
      swarm_reset_pool_p50_ms: pool.figures.reset_pool_p50_ms, swarm_reset_cold_ms: pool.figures.reset_cold_ms,
    });
  } finally {
    deployment.closeRuntimes();
    await cluster?.remove();
  }
  const beside = (k: string) => (local[k] === undefined || local[k] === null ? '(not measured)' : `${local[k]} ms (local docker)`);
  return {
    figures,
    rows: [
      ['swarm: cold start to ready p50 of 3', `${figures.swarm_cold_start_ms} ms`, beside('cold_start_ms'), ''],
      ['swarm: screenshot p50', `${figures.swarm_screenshot_p50_ms} ms`, beside('screenshot_p50_ms'), ''],
      ['swarm: key action p50', `${figures.swarm_key_p50_ms} ms`, beside('key_p50_ms'), ''],
      ['swarm: ide.* round trip p50', `${figures.swarm_ide_roundtrip_p50_ms} ms`, beside('ide_roundtrip_p50_ms'), ''],
      ['swarm: reset from a warm pool p50, staged', `${figures.swarm_reset_pool_p50_ms} ms`, beside('reset_pool_p50_ms'), ''],
      ['swarm: cold reset', `${figures.swarm_reset_cold_ms} ms`, beside('reset_cold_ms'), ''],
    ],
  };
}
