// Bench parts for the Env layer (scripts/performance/performance.ts runs them): checkpoint and restore against
// `docker commit` + a new container from the committed image, reset from a warm pool against
// a cold reset, and how many environments this machine runs at once.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CheckpointStore } from '../../host/checkpoint/checkpointStore';
import type { Deployment } from '../../host/deployment/deployment';
import type { DockerDeployment } from '../../host/deployment/dockerDeployment';
import { Env } from '../../host/env/env';
import { EnvPool } from '../../host/env/pool';
import { screenshot } from '../../host/env/observation';
import { startEnvironment, type RunningEnvironment } from '../../host/running/runningEnvironment';
import { pct, ratio } from './stats';

type Figures = Record<string, number | string | null>;
type Row = [string, string, string, string];
const FILES = { 'app.py': 'def main():\n    return 1\n' + '# line\n'.repeat(200), 'README.md': '# bench\n' };

/** Checkpoint/restore (same container and a new one) vs docker commit + a container from the commit. */
export async function benchCheckpoints(deployment: DockerDeployment, image: string, say: (l: string) => void): Promise<{ figures: Figures; rows: Row[] }> {
  say('checkpoint / restore: pwp (files + IDE state) vs docker commit + new container');
  const stateDir = mkdtempSync(join(tmpdir(), 'pwp-bench-ckpt-'));
  const store = new CheckpointStore(join(stateDir, 'checkpoints'));
  const env = new Env({ deployment, image, checkpoints: store, observe: [] });
  const figures: Figures = {};
  let committed: string | undefined;
  try {
    await env.reset({ options: { files: FILES, settings: { 'editor.fontSize': 15 }, open: ['README.md', { file: 'app.py', line: 2, column: 5 }] } });
    await env.step({ type: 'type', text: 'x = ' });
    await env.step({ type: 'key', keys: 'ctrl+s' });
    const ckpt: number[] = [];
    for (let i = 0; i < 5; i++) ckpt.push((await env.checkpoint('bench')).durationMs);
    const restores = [];
    for (let i = 0; i < 5; i++) {
      await env.step({ type: 'type', text: 'y' }); // something for each restore to undo
      restores.push(await env.restore('bench'));
    }
    const mid = restores.sort((a, b) => a.durationMs - b.durationMs)[2];
    const fresh = await env.restore('bench', { newContainer: true });
    Object.assign(figures, {
      checkpoint_p50_ms: pct(ckpt, 50),
      checkpoint_bytes: store.list()[0]?.bytes ?? null,
      restore_p50_ms: mid.durationMs,
      restore_phases_ms: JSON.stringify(mid.phases),
      restore_how: mid.how,
      restore_new_container_ms: fresh.durationMs,
    });

    // The naive way, on the same environment: commit the container, start a new one from it.
    const container = await deployment.container(env.info.id);
    let t0 = Date.now();
    let c: { Id: string } | undefined;
    for (let i = 1; !c; i++) {
      t0 = Date.now();
      // docker commit freezes the container too; on a busy host the freezer may need a retry.
      c = await (container.commit({ repo: 'pwp-bench-commit', tag: env.info.id, pause: true }) as Promise<{ Id: string }>).catch((err: Error) => {
        if (i >= 5 || !/unable to freeze/.test(err.message)) throw err;
        return undefined;
      });
    }
    figures.checkpoint_naive_ms = Date.now() - t0;
    committed = c.Id;
    const t1 = Date.now();
    const restored = await startEnvironment(deployment, { image: `pwp-bench-commit:${env.info.id}` });
    figures.restore_naive_ms = Date.now() - t1;
    restored.client.close();
    await deployment.remove(restored.info.id);
    figures.checkpoint_ratio = ratio(figures.checkpoint_naive_ms as number, figures.checkpoint_p50_ms as number);
    figures.restore_ratio = ratio(figures.restore_naive_ms as number, figures.restore_p50_ms as number);
  } finally {
    await env.close();
    if (committed) await deployment.docker.getImage(committed).remove({ force: true }).catch(() => undefined);
    rmSync(stateDir, { recursive: true, force: true });
  }
  return {
    figures,
    rows: [
      ['checkpoint p50 (files + IDE state)', `${figures.checkpoint_p50_ms} ms`, `${figures.checkpoint_naive_ms} ms (docker commit)`, `${figures.checkpoint_ratio}x`],
      ['restore p50, same container', `${figures.restore_p50_ms} ms (${figures.restore_how})`, `${figures.restore_naive_ms} ms (new container from the commit, to ready)`, `${figures.restore_ratio}x`],
      ['  of which, ms (the p50 run)', Object.entries(JSON.parse(String(figures.restore_phases_ms ?? '{}')) as Record<string, number>).map(([k, v]) => `${k} ${v}`).join(', '), '', ''],
      ['restore into a new container', `${figures.restore_new_container_ms} ms`, '', ''],
    ],
  };
}

/**
 * Env.reset() from a warm pool vs a cold reset: the pool's spare prepared ahead with the
 * episode's files, settings and editors (stageNext: a loop resetting the same task), and an
 * untouched spare the reset copies them into.
 */
export async function benchPool(deployment: Deployment, image: string, say: (l: string) => void): Promise<{ figures: Figures; rows: Row[] }> {
  say('reset: from a warm pool (staged, and untouched) vs a cold start');
  const options = { files: FILES, settings: { 'editor.tabSize': 2 }, open: ['app.py'] };
  const cold = new Env({ deployment, image, observe: ['screenshot'] });
  let coldMs: number;
  try { coldMs = (await cold.reset({ options })).info.durationMs; } finally { await cold.close(); }
  const measure = async (stageNext: boolean) => {
    const pool = new EnvPool({ size: 1, spec: { image }, deployment, startConcurrency: 1 });
    const warm = new Env({ pool, observe: ['screenshot'], stageNext });
    const times: number[] = [];
    const phases: Record<string, number[]> = {};
    try {
      // Staged: the first reset tells the pool what to prepare; the next ones are measured.
      for (let i = 0; i < (stageNext ? 6 : 5); i++) {
        await pool.fill(); // measure a warm reset, not a wait for the refill
        const { info } = await warm.reset({ options });
        if (stageNext && i === 0) continue;
        if (stageNext && !info.staged) throw new Error('a staged reset found no staged IDE');
        times.push(info.durationMs);
        for (const [k, v] of Object.entries(info.timings)) (phases[k] ??= []).push(v);
      }
    } finally {
      await warm.close();
      await pool.close();
    }
    return { p50: pct(times, 50), breakdown: Object.entries(phases).map(([k, v]) => `${k} ${pct(v, 50)}`).join(', ') };
  };
  const staged = await measure(true);
  const untouched = await measure(false);
  const figures: Figures = {
    reset_pool_p50_ms: staged.p50, reset_pool_untouched_p50_ms: untouched.p50, reset_cold_ms: coldMs,
    reset_pool_ratio: ratio(coldMs, staged.p50), reset_pool_untouched_ratio: ratio(coldMs, untouched.p50),
  };
  return { figures, rows: [
    ['reset from a warm pool p50, staged', `${staged.p50} ms`, `${coldMs} ms (cold reset)`, `${figures.reset_pool_ratio}x`],
    ['  of which, ms p50', staged.breakdown, '', ''],
    ['reset from a warm pool p50, untouched spare', `${untouched.p50} ms`, `${coldMs} ms (cold reset)`, `${figures.reset_pool_untouched_ratio}x`],
    ['  of which, ms p50', untouched.breakdown, '', ''],
  ] };
}

/** Starts environments one by one until `max` run at once or one fails to become ready; memory of each. */
export async function benchCapacity(deployment: DockerDeployment, image: string, say: (l: string) => void, max = 10): Promise<{ figures: Figures; rows: Row[] }> {
  say(`concurrent environments: starting up to ${max}, one at a time, until one fails to become ready`);
  const running: RunningEnvironment[] = [];
  let failure: string | null = null;
  try {
    while (running.length < max) {
      try {
        running.push(await startEnvironment(deployment, { image, labels: { 'pwp.bench': 'capacity' } }, 120_000));
        say(`  ${running.length} running`);
      } catch (err) {
        failure = (err as Error).message;
        break;
      }
    }
    // All of them still answer: a screenshot and an ide.* call each.
    const answering = await Promise.all(running.map(async (e) => {
      try { await screenshot(e.client); await e.client.call('ide.status', {}, { timeoutMs: 30_000 }); return true; } catch { return false; }
    }));
    const mem = await Promise.all(running.map(async (e) => {
      const s = await (await deployment.container(e.info.id)).stats({ stream: false });
      return s.memory_stats.usage / 2 ** 20;
    }));
    const figures: Figures = {
      concurrent_envs: answering.filter(Boolean).length,
      concurrent_limit_reason: failure ?? `stopped at ${max}`,
      env_memory_mean_mib: mem.length ? Math.round(mem.reduce((a, b) => a + b, 0) / mem.length) : null,
      env_memory_max_mib: mem.length ? Math.round(Math.max(...mem)) : null,
    };
    return {
      figures,
      rows: [['environments at once (all answering)', `${figures.concurrent_envs} (${figures.concurrent_limit_reason})`, '', ''],
        ['memory per environment, mean / max', `${figures.env_memory_mean_mib} / ${figures.env_memory_max_mib} MiB`, '', '']],
    };
  } finally {
    await Promise.all(running.map(async (e) => { e.client.close(); await deployment.remove(e.info.id).catch(() => undefined); }));
  }
}

/**
 * Synthetic episodes per hour, one at a time, the simplest honest way (benchTaskEpisodes has
 * the real tasks' figure): an episode is a reset with the bench's files, settings and open
 * editor, two actions (type, save) and a check of the saved file (what an oracle and its
 * grader do, without a task's own steps), timed end to end, back to back. Ours resets from a
 * warm pool of one that refills while the episode runs (no waiting for it between episodes);
 * the naive way starts a new container per episode and removes it.
 */
export async function benchEpisodes(deployment: DockerDeployment, image: string, say: (l: string) => void, episodes = 5): Promise<{ figures: Figures; rows: Row[] }> {
  say(`episodes: ${episodes} back to back from a warm pool vs ${Math.min(episodes, 2)} with a new container each`);
  const options = { files: FILES, settings: { 'editor.tabSize': 2 }, open: [{ file: 'README.md', line: 2, column: 1 }] };
  const episode = async (env: Env): Promise<void> => {
    await env.reset({ options });
    await env.step({ type: 'type', text: 'done\n' });
    await env.step({ type: 'key', keys: 'ctrl+s' });
    const saved = await env.client.call('tools.call', { name: 'read_file', args: { target_file: 'README.md' } });
    if (!JSON.stringify(saved).includes('done')) throw new Error(`episode: the typed text was not saved: ${JSON.stringify(saved).slice(0, 300)}`);
  };
  const pool = new EnvPool({ size: 1, spec: { image }, deployment, startConcurrency: 1 });
  const warm = new Env({ pool, observe: [] });
  const warmMs: number[] = [];
  try {
    await pool.fill();
    for (let i = 0; i < episodes; i++) { const t0 = Date.now(); await episode(warm); warmMs.push(Date.now() - t0); }
  } finally {
    await warm.close();
    await pool.close();
  }
  const coldMs: number[] = [];
  for (let i = 0; i < Math.min(episodes, 2); i++) {
    const cold = new Env({ deployment, image, observe: [] });
    const t0 = Date.now();
    try { await episode(cold); } finally { await cold.close(); }
    coldMs.push(Date.now() - t0);
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const perHour = (xs: number[]) => Math.round(3_600_000 / mean(xs));
  const figures: Figures = {
    synthetic_episodes_per_hour: perHour(warmMs), synthetic_episodes_per_hour_naive: perHour(coldMs),
    synthetic_episode_p50_ms: pct(warmMs, 50), synthetic_episode_naive_p50_ms: pct(coldMs, 50),
    synthetic_episodes_per_hour_ratio: ratio(mean(coldMs), mean(warmMs)),
    synthetic_episodes_per_hour_method: 'one at a time; episode = reset (files, settings, open editor) + type + save + read back; warm pool of 1 vs a new container per episode',
  };
  return { figures, rows: [['synthetic episodes per hour, one at a time', `${figures.synthetic_episodes_per_hour} (p50 ${figures.synthetic_episode_p50_ms} ms each)`,
    `${figures.synthetic_episodes_per_hour_naive} (new container each)`, `${figures.synthetic_episodes_per_hour_ratio}x`]] };
}
