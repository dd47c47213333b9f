// The warm pool's hand-out rules with environments faked at the start seam: untouched spares,
// spares staged for a key, waiting for a staging in progress, and never handing an IDE
// prepared for one key to a caller of another.
import assert from 'node:assert/strict';
import type { DockerDeployment } from '../../../../host/deployment/dockerDeployment';
import { EnvPool, type Staging } from '../../../../host/env/pool';
import type { RunningEnvironment } from '../../../../host/running/runningEnvironment';

/** A deployment that records removals, and starts that fail with `errors` in turn, then succeed. */
function fakes(errors: string[] = []) {
  let n = 0;
  const removed: string[] = [];
  const deployment = { remove: async (id: string) => { removed.push(id); } } as unknown as DockerDeployment;
  const start = async () => {
    const err = errors[n++];
    if (err) throw new Error(err);
    return { info: { id: `e${n}` }, client: { close() {} } } as unknown as RunningEnvironment;
  };
  return { deployment, start, removed, starts: () => n };
}

type Pending = { id: string; done: boolean; finish: (err?: Error) => void };
const allPending: Pending[] = [];

/** A staging whose preparations finish when the test says so. */
function controlled(key: string) {
  const pending: Pending[] = [];
  const staging: Staging = {
    key,
    prepare: (env) => new Promise<void>((resolve, reject) => {
      const p: Pending = { id: env.info.id, done: false, finish: (err) => { p.done = true; if (err) reject(err); else resolve(); } };
      pending.push(p);
      allPending.push(p);
    }),
  };
  return { staging, pending };
}

/** Closes the pool, finishing preparations still open (close waits for them). */
async function closeAll(pool: EnvPool): Promise<void> {
  let closed = false;
  const closing = pool.close().then(() => { closed = true; });
  while (!closed) {
    for (const p of allPending) if (!p.done) p.finish();
    await tick();
  }
  await closing;
}

const tick = () => new Promise((r) => setTimeout(r, 5));
/** Polls until cond holds; the budget is for a machine under heavy load, not a measure. */
async function until(cond: () => boolean): Promise<void> {
  const end = Date.now() + 60_000;
  while (!cond() && Date.now() < end) await tick();
  assert.ok(cond(), 'condition not reached');
}

describe('EnvPool staging (faked environments)', () => {
  it('hands out untouched environments when nothing is staged', async () => {
    const f = fakes();
    const pool = new EnvPool({ size: 1, ...f });
    await pool.fill();
    const got = await pool.acquire('k');
    assert.equal(got.staged, false);
    assert.equal(got.env.info.id, 'e1');
    await closeAll(pool);
  });

  it('prepares spares for the staged key and hands one over staged', async () => {
    const f = fakes();
    const pool = new EnvPool({ size: 1, ...f });
    const { staging, pending } = controlled('k');
    pool.stage(staging);
    pool.fill().catch(() => undefined);
    await until(() => pending.length === 1);
    pending[0].finish();
    await pool.fill();
    const got = await pool.acquire('k');
    assert.deepEqual([got.env.info.id, got.staged], [pending[0].id, true]);
    await closeAll(pool);
  });

  it('waits for a staging in progress instead of taking an untouched spare', async () => {
    const f = fakes();
    const pool = new EnvPool({ size: 1, ...f }); // a second spare starts meanwhile: it must not be handed over untouched
    const { staging, pending } = controlled('k');
    pool.stage(staging);
    pool.fill().catch(() => undefined);
    await until(() => pending.length === 1);
    const acquiring = pool.acquire('k');
    pending[0].finish();
    const got = await acquiring;
    assert.deepEqual([got.env.info.id, got.staged], [pending[0].id, true]);
    await closeAll(pool);
  });

  it('never hands a spare staged for one key to a caller of another, and removes it when the key changes', async () => {
    const f = fakes();
    const pool = new EnvPool({ size: 1, ...f });
    const a = controlled('a');
    pool.stage(a.staging);
    pool.fill().catch(() => undefined);
    await until(() => a.pending.length === 1);
    a.pending[0].finish();
    await pool.fill();
    const stagedForA = a.pending[0].id;
    const got = await pool.acquire('b');
    assert.notEqual(got.env.info.id, stagedForA);
    assert.equal(got.staged, false);
    pool.stage(controlled('b').staging);
    await until(() => f.removed.includes(stagedForA));
    await closeAll(pool);
  });

  it('removes an environment whose preparation failed, and still serves the next caller', async () => {
    const f = fakes();
    const lines: string[] = [];
    const pool = new EnvPool({ size: 1, ...f, log: (l) => lines.push(l) });
    const { staging, pending } = controlled('k');
    pool.stage(staging);
    pool.fill().catch(() => undefined);
    await until(() => pending.length === 1);
    const failed = pending[0].id;
    pending[0].finish(new Error('disk full'));
    await until(() => f.removed.includes(failed));
    assert.match(lines.join('\n'), /preparing an environment for the next episode failed: disk full/);
    await until(() => pending.length === 2);
    pending[1].finish();
    const got = await pool.acquire('k');
    assert.equal(got.staged, true);
    assert.notEqual(got.env.info.id, failed);
    await closeAll(pool);
  });
});

describe('EnvPool start failures (faked environments)', () => {
  it('starts another when a start fails (a timeout under load), and the caller gets that one', async () => {
    const f = fakes(['IDE not ready after 113027 ms; waiting for extension: starting']);
    const lines: string[] = [];
    const pool = new EnvPool({ size: 1, startConcurrency: 1, deployment: f.deployment, start: f.start, log: (l) => lines.push(l) });
    const got = await pool.acquire();
    assert.equal(got.env.info.id, 'e2');
    assert.match(lines.join('\n'), /failed to start \(1 of 3 tries\): IDE not ready .*; starting another/);
    await closeAll(pool);
  });

  it('tells a waiting caller the error after three starts failed in a row, and tries again on the next acquire', async () => {
    const f = fakes(['no such image: pwp-task-x', 'no such image: pwp-task-x', 'no such image: pwp-task-x']);
    const pool = new EnvPool({ size: 1, startConcurrency: 1, deployment: f.deployment, start: f.start });
    await assert.rejects(pool.acquire(), /no such image: pwp-task-x/);
    assert.equal(f.starts(), 3);
    const got = await pool.acquire();
    assert.equal(got.env.info.id, 'e4');
    await closeAll(pool);
  });

  it('tells every waiting caller the error when starts keep failing, two at a time', async () => {
    const f = fakes(Array(12).fill('no such image: pwp-task-x'));
    const pool = new EnvPool({ size: 1, startConcurrency: 2, deployment: f.deployment, start: f.start });
    const settled: PromiseSettledResult<unknown>[] = [];
    for (const p of [pool.acquire(), pool.acquire()]) p.then((v) => settled.push({ status: 'fulfilled', value: v }), (reason) => settled.push({ status: 'rejected', reason }));
    await until(() => settled.length === 2);
    assert.deepEqual(settled.map((s) => s.status), ['rejected', 'rejected']);
    await closeAll(pool);
  });
});

describe('EnvPool close (faked environments)', () => {
  it('gives up starts under way at once (nobody will take them), and tells waiting callers the pool is closed', async () => {
    const removed: string[] = [];
    const deployment = { remove: async (id: string) => { removed.push(id); } } as unknown as DockerDeployment;
    const aborted: string[] = [];
    // A start that only ends when it is given up: a cold start that would take minutes.
    const start = (_spec: unknown, signal: AbortSignal) => new Promise<RunningEnvironment>((_resolve, reject) => {
      signal.addEventListener('abort', () => { aborted.push(String((signal.reason as Error).message)); reject(signal.reason as Error); });
    });
    const lines: string[] = [];
    const pool = new EnvPool({ size: 2, startConcurrency: 2, deployment, start, log: (l) => lines.push(l) });
    const waiting = pool.acquire().then(() => 'handed out', (err: Error) => err.message);
    await tick();
    await pool.close();
    assert.deepEqual(aborted, ['the pool is closed', 'the pool is closed'], 'both starts were given up');
    assert.equal(await waiting, 'the pool is closed');
    assert.deepEqual(removed, [], 'nothing was made, so nothing is removed');
    assert.deepEqual(lines, [], 'a start given up by close() is not reported as a failure');
  });
});

describe('EnvPool recycling (faked environments and recycler)', () => {
  /** A recycler whose checks pass unless the test lists the environment among `dirty`. */
  function recycler(dirty: Set<string> = new Set()) {
    const recycled: string[] = [];
    return {
      recycled,
      recycler: {
        baseline: async () => ({ checkpoint: 'c', store: { delete() {} }, fingerprint: {}, pointer: { x: 0, y: 0 }, roots: [], ms: 0 }) as never,
        recycle: async (env: RunningEnvironment) => {
          recycled.push(env.info.id);
          const pristine = !dirty.has(env.info.id);
          return { pristine, how: 'in-place' as const, differences: pristine ? [] : ['files: /tmp/x: absent -> f'], killed: [], filesRemoved: [], filesRestored: [], ms: 1, phases: {} };
        },
      },
    };
  }

  it('hands a released environment out again once recycled, starting no other (total 1)', async () => {
    const f = fakes();
    const r = recycler();
    const pool = new EnvPool({ size: 1, total: 1, ...f, recycler: r.recycler, recycle: {} });
    const first = await pool.acquire();
    pool.release(first.env);
    const second = await pool.acquire();
    assert.equal(second.env, first.env);
    assert.deepEqual(r.recycled, ['e1']);
    assert.equal(pool.recycledInfo(second.env)?.episodes, 1);
    assert.deepEqual([f.starts(), f.removed], [1, []]);
    assert.deepEqual([pool.stats.started, pool.stats.recycled], [1, 1]);
    await closeAll(pool);
  });

  it('starts no spare that an environment coming back covers (a bench\'s last runs on an image), but one for each run at a time', async () => {
    // A dataset check's row at one run at a time: gold, then null, on one image.
    const f = fakes();
    const r = recycler();
    const pool = new EnvPool({ size: 1, total: 2, episodes: 2, ...f, recycler: r.recycler, recycle: {} });
    await pool.fill();
    const first = await pool.acquire();
    await tick();
    assert.equal(f.starts(), 1, 'no spare while the only other run can have this one back');
    pool.release(first.env);
    assert.equal((await pool.acquire()).env, first.env);
    assert.deepEqual([f.starts(), pool.stats.recycled], [1, 1]);
    await closeAll(pool);
    // Two at a time: both start, neither waits for the other's recycle.
    const g = fakes();
    const two = new EnvPool({ size: 2, total: 2, episodes: 2, ...g, recycler: recycler().recycler, recycle: {} });
    const both = await Promise.all([two.acquire(), two.acquire()]);
    assert.notEqual(both[0].env, both[1].env);
    assert.equal(g.starts(), 2);
    await closeAll(two);
  });

  it('starts a fresh one for a waiting run when the environment it counted on fails the pristine check', async () => {
    const f = fakes();
    const pool = new EnvPool({ size: 1, total: 2, episodes: 2, ...f, recycler: recycler(new Set(['e1'])).recycler, recycle: {} });
    const first = await pool.acquire();
    const next = pool.acquire();
    pool.release(first.env);
    assert.equal((await next).env.info.id, 'e2');
    assert.deepEqual([f.starts(), f.removed], [2, ['e1']]);
    await closeAll(pool);
  });

  it('with size 0 starts only for callers, and keeps at most `idle` of those given back (an Env server\'s pool)', async () => {
    const f = fakes();
    const r = recycler();
    const pool = new EnvPool({ size: 0, idle: 1, ...f, recycler: r.recycler, recycle: {} });
    await pool.fill();
    assert.equal(f.starts(), 0);
    const [a, b] = await Promise.all([pool.acquire(), pool.acquire()]);
    assert.equal(f.starts(), 2);
    pool.release(a.env);
    pool.release(b.env);
    await until(() => r.recycled.length === 2 && f.removed.length === 1);
    assert.equal(pool.readyCount, 1);
    const c = await pool.acquire();
    assert.equal(c.env, a.env);
    assert.deepEqual([f.starts(), f.removed], [2, ['e2']]);
    await closeAll(pool);
  });

  it('replaces an environment that fails the pristine check with a fresh one, and never hands it out', async () => {
    const f = fakes();
    const r = recycler(new Set(['e1']));
    const pool = new EnvPool({ size: 1, total: 2, ...f, recycler: r.recycler, recycle: {} });
    const first = await pool.acquire();
    pool.release(first.env);
    const second = await pool.acquire();
    assert.equal(second.env.info.id, 'e2');
    await until(() => f.removed.includes('e1'));
    assert.deepEqual(pool.stats.replaced, { cap: 0, notPristine: 1, failed: 0 });
    assert.deepEqual(pool.stats.replacements.map((x) => [x.env, x.why, x.differences]), [['e1', 'notPristine', ['files: /tmp/x: absent -> f']]]);
    await closeAll(pool);
  });

  it('replaces a container that served maxEpisodes episodes instead of recycling it', async () => {
    const f = fakes();
    const r = recycler();
    const pool = new EnvPool({ size: 1, total: 1, ...f, recycler: r.recycler, recycle: { maxEpisodes: 2 } });
    let got = await pool.acquire();
    pool.release(got.env); // episode 1 served: recycled
    got = await pool.acquire();
    assert.equal(got.env.info.id, 'e1');
    pool.release(got.env); // episode 2 served: the cap
    got = await pool.acquire();
    assert.equal(got.env.info.id, 'e2');
    assert.ok(f.removed.includes('e1'));
    assert.equal(pool.stats.replaced.cap, 1);
    assert.deepEqual(r.recycled, ['e1']);
    await closeAll(pool);
  });

  it('recycles by default', async () => {
    const f = fakes();
    const r = recycler();
    const pool = new EnvPool({ size: 1, total: 1, ...f, recycler: r.recycler });
    assert.equal(pool.recycles, true);
    pool.release((await pool.acquire()).env);
    assert.equal((await pool.acquire()).env.info.id, 'e1');
    assert.deepEqual(r.recycled, ['e1']);
    await closeAll(pool);
  });

  it('removes an environment given back once all its episodes were handed out, recycling it for nobody', async () => {
    const f = fakes();
    const r = recycler();
    const pool = new EnvPool({ size: 1, total: 1, episodes: 2, ...f, recycler: r.recycler });
    pool.release((await pool.acquire()).env); // one more episode to come: recycled
    const last = await pool.acquire();
    assert.equal(last.env.info.id, 'e1');
    pool.release(last.env);
    await until(() => f.removed.includes('e1'));
    assert.deepEqual(r.recycled, ['e1']);
    await closeAll(pool);
  });

  it('forgets an environment that is detached (left running): it is not removed, and a replacement may start', async () => {
    const f = fakes();
    const r = recycler();
    const pool = new EnvPool({ size: 1, total: 2, ...f, recycler: r.recycler });
    const got = await pool.acquire();
    pool.forget(got.env);
    const next = await pool.acquire();
    assert.equal(next.env.info.id, 'e2');
    await closeAll(pool);
    assert.ok(!f.removed.includes('e1'), 'the detached environment is left running');
  });

  it('close() waits until an environment whose recycle ends after it is removed (nothing left behind)', async () => {
    const f = fakes();
    // A removal that takes a while, as docker rm of an IDE container does.
    const deployment = { remove: async (id: string) => { await new Promise((r) => setTimeout(r, 400)); f.removed.push(id); } } as unknown as DockerDeployment;
    let recycled!: () => void;
    const recycleEnds = new Promise<void>((r) => { recycled = r; });
    const pool = new EnvPool({
      size: 1, total: 1, start: f.start, deployment, recycle: {},
      recycler: {
        baseline: async () => ({}) as never,
        recycle: async () => {
          await recycleEnds;
          return { pristine: true, how: 'in-place' as const, differences: [], killed: [], filesRemoved: [], filesRestored: [], ms: 1, phases: {} };
        },
      },
    });
    pool.release((await pool.acquire()).env);
    const closing = pool.close();
    recycled();
    await closing;
    assert.deepEqual(f.removed, ['e1'], 'close() returned before the recycled environment was removed');
  });

  it('with recycle: false removes a released environment', async () => {
    const f = fakes();
    const r = recycler();
    const pool = new EnvPool({ size: 1, ...f, recycler: r.recycler, recycle: false });
    const got = await pool.acquire();
    pool.release(got.env);
    await until(() => f.removed.includes('e1'));
    assert.deepEqual(r.recycled, []);
    await closeAll(pool);
  });
});
