// `node --import tsx scripts/coldStart.ts [--runs N] [--image tag ...]`: container create →
// ready, N times per image (images interleaved, so load drifts hit each alike), with the
// bridge's start-up milestones. Prints p50 per image and one JSON line per run.
import { DockerDeployment } from '../host/deployment/dockerDeployment';
import { startEnvironment } from '../host/env/running/runningEnvironment';
import { ensureImage } from '../host/image/buildImage';
import { pct } from './benchStats';

const say = (line: string) => process.stderr.write(`${line}\n`);
const arg = (name: string) => { const i = process.argv.indexOf(name); return i >= 0 ? process.argv[i + 1] : undefined; };

async function main(): Promise<void> {
  const deployment = new DockerDeployment();
  const runs = Number(arg('--runs') ?? 5);
  const images = process.argv.flatMap((a, i) => (process.argv[i - 1] === '--image' ? [a] : []));
  if (images.length === 0) images.push(await ensureImage({ docker: deployment.docker, progress: say }));
  const results: Record<string, { startMs: number; startup: Record<string, number> }[]> = {};
  for (let r = 0; r < runs; r++) {
    for (const image of images) {
      const env = await startEnvironment(deployment, { image });
      try {
        const row = { startMs: env.startMs, startup: env.health.startup };
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
    say(`${image}: n=${rows.length} startMs p50 ${pct(rows.map((x) => x.startMs), 50)} (all ${rows.map((x) => x.startMs).join(', ')}); milestones p50 ${JSON.stringify(med)}`);
  }
}

main().then(() => process.exit(0), (e) => { say(String(e?.stack ?? e)); process.exit(1); });
