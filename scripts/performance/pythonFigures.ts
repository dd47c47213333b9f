// Bench part: one step from Python over the Env server (`pwp serve`, the python/ package) next
// to the same step from TypeScript in-process, measured in the same run. The step is a key
// press and the screenshot after it; Python gets the screenshot as a numpy array (its default),
// TypeScript as the PNG buffer the Env returns (and decoded to raw pixels, the like-for-like figure).
import { execFile, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import type { DockerDeployment } from '../../host/deployment/dockerDeployment';
import { Env } from '../../host/env/env';
import { REPO_ROOT } from '../../host/common/paths';
import { pct } from './stats';

type Figures = Record<string, number | string | null>;
type Row = [string, string, string, string];
/** Debian's Python: its numpy and Pillow are what the package's tests use too. */
const PYTHON = '/usr/bin/python3';

const PY_STEPS = `
import json, sys, time
sys.path.insert(0, ${JSON.stringify(join(REPO_ROOT, 'python'))})
import pwp
n = int(sys.argv[1])
env = pwp.make(files={'bench.txt': 'bench\\n'}, image_format='numpy', url=sys.argv[2], token=sys.argv[3])
try:
    env.reset()
    ms = []
    for _ in range(n):
        t0 = time.perf_counter()
        obs, *_ = env.step({'type': 'key', 'keys': 'shift'})
        assert obs['screenshot'].ndim == 3
        ms.append((time.perf_counter() - t0) * 1000)
    print(json.dumps(ms))
finally:
    env.close()
`;

export async function benchPythonStep(deployment: DockerDeployment, image: string, say: (l: string) => void, samples: number): Promise<{ figures: Figures; rows: Row[] }> {
  say('a step (key + screenshot) from Python over the Env server vs TypeScript in-process');
  const ts: number[] = [];
  const tsDecoded: number[] = [];
  const env = new Env({ deployment, image, observe: ['screenshot'] });
  try {
    await env.reset({ options: { files: { 'bench.txt': 'bench\n' } } });
    for (let i = 0; i < samples; i++) {
      const t0 = performance.now();
      const r = await env.step({ type: 'key', keys: 'shift' });
      ts.push(performance.now() - t0);
      await sharp(r.observation.screenshot!.data).raw().toBuffer();
      tsDecoded.push(performance.now() - t0);
    }
  } finally {
    await env.close();
  }

  // The server the Python package talks to, started as a user would start it.
  const server = spawn(join(REPO_ROOT, 'bin', 'pwp'), ['serve', '--json', '--max-envs', '2'], { stdio: ['ignore', 'pipe', 'inherit'] });
  let py: number[];
  try {
    const first = await new Promise<string>((resolve, reject) => {
      createInterface({ input: server.stdout! }).once('line', resolve);
      server.once('exit', (code) => reject(new Error(`pwp serve exited (${code}) before serving`)));
    });
    const { envServer, token } = JSON.parse(first) as { envServer: string; token: string };
    const out = await promisify(execFile)(PYTHON, ['-c', PY_STEPS, String(samples), envServer, token], { timeout: 600_000, maxBuffer: 1 << 20 });
    py = JSON.parse(out.stdout.trim().split('\n').at(-1)!) as number[];
  } finally {
    server.kill('SIGTERM'); // it removes the environments it opened
    await new Promise((r) => server.once('exit', r));
  }
  const round = (v: number) => +v.toFixed(1);
  const figures: Figures = {
    python_step_p50_ms: round(pct(py, 50)), python_step_p95_ms: round(pct(py, 95)),
    ts_step_p50_ms: round(pct(ts, 50)), ts_step_decoded_p50_ms: round(pct(tsDecoded, 50)),
    python_step_overhead_p50_ms: round(pct(py, 50) - pct(tsDecoded, 50)),
    python_step_method: 'key shift + screenshot; Python: env.step over the Env server, screenshot as numpy; TypeScript: Env.step in-process, PNG decoded to raw pixels with sharp',
  };
  return {
    figures,
    rows: [['step from Python (numpy) p50', `${figures.python_step_p50_ms} ms`, `${figures.ts_step_decoded_p50_ms} ms (TypeScript in-process, decoded; ${figures.ts_step_p50_ms} ms undecoded)`,
      `+${figures.python_step_overhead_p50_ms} ms`]],
  };
}
