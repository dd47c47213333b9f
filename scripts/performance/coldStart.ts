// `node --import tsx scripts/performance/coldStart.ts [--runs N] [--image tag ...]`: container create →
// ready, N times per image (images interleaved, so load drifts hit each alike), with the
// bridge's start-up milestones, and the CPU time the container used to get there and in the
// 30 s after (its cgroup's account, which includes exited processes; a local engine only).
// Prints p50 per image and one JSON line per run.
import { existsSync, readFileSync } from 'node:fs';
import { DockerDeployment } from '../../host/deployment/dockerDeployment';
import { startEnvironment } from '../../host/running/runningEnvironment';
import { ensureImage } from '../../host/imageBuild/buildImage';
import { pct } from './stats';

/** CPU seconds the container has used so far, from its cgroup (v1 or v2), if this host has it. */
function cpuSeconds(containerId: string): number {
  const v1 = `/sys/fs/cgroup/cpuacct/docker/${containerId}/cpuacct.usage`;
  if (existsSync(v1)) return Number(readFileSync(v1, 'utf8')) / 1e9;
  const v2 = [`/sys/fs/cgroup/system.slice/docker-${containerId}.scope/cpu.stat`, `/sys/fs/cgroup/docker/${containerId}/cpu.stat`].find(existsSync);
  const usec = v2 ? /usage_usec (\d+)/.exec(readFileSync(v2, 'utf8'))?.[1] : undefined;
  return usec ? Number(usec) / 1e6 : NaN;
}

const say = (line: string) => process.stderr.write(`${line}\n`);
const arg = (name: string) => { const i = process.argv.indexOf(name); return i >= 0 ? process.argv[i + 1] : undefined; };

async function main(): Promise<void> {
  const deployment = new DockerDeployment();
  const runs = Number(arg('--runs') ?? 5);
  const images = process.argv.flatMap((a, i) => (process.argv[i - 1] === '--image' ? [a] : []));
  if (images.length === 0) images.push(await ensureImage({ docker: deployment.docker, progress: say }));
  const results: Record<string, { startMs: number; cpuToReady: number; cpuAfter30s: number; startup: Record<string, number> }[]> = {};
  for (let r = 0; r < runs; r++) {
    for (const image of images) {
      const env = await startEnvironment(deployment, { image });
      try {
        const id = (await deployment.docker.getContainer(`pwp-${env.info.id}`).inspect()).Id;
        const cpuToReady = +cpuSeconds(id).toFixed(1);
        await new Promise((r) => setTimeout(r, 30_000));
        const row = { startMs: env.startMs, cpuToReady, cpuAfter30s: +(cpuSeconds(id) - cpuToReady).toFixed(1), startup: env.health.startup };
        (results[image] ??= []).push(row);
        say(JSON.stringify({ image, run: r, ...row }));
      } finally {
        env.client.close();
        await deployment.remove(env.info.id);
      }
    }
  }
  for (const [image, rows] of Object.entries(results)) {
    const keys = Object.keys(rows[0].startup);
    const med = Object.fromEntries(keys.map((k) => [k, pct(rows.map((x) => x.startup[k] ?? NaN), 50)]));
    say(`${image}: n=${rows.length} startMs p50 ${pct(rows.map((x) => x.startMs), 50)} (all ${rows.map((x) => x.startMs).join(', ')}); `
      + `CPU-s to ready p50 ${pct(rows.map((x) => x.cpuToReady), 50)}, in the 30 s after ${pct(rows.map((x) => x.cpuAfter30s), 50)}; milestones p50 ${JSON.stringify(med)}`);
  }
}

main().then(() => process.exit(0), (e) => { say(String(e?.stack ?? e)); process.exit(1); });
