// The warm pool under a real Env, on the fake deployment (pool.test.ts has its hand-out rules
// with environments faked at the start seam): environments started through the real
// startEnvironment, handed to reset warm, refilled, staged for the next reset, and all removed
// when the pool and the Env close.
import { strict as assert } from 'node:assert';
import { eventually } from '../../../../host/common/eventually';
import { Env } from '../../../../host/env/env';
import { EnvPool } from '../../../../host/env/pool';
import { FakeDeployment, SETTLE } from '../../../support/fakeDeployment';

const waitFor = (what: string, cond: () => boolean) => eventually(async () => cond(), (ok) => ok, 60_000, what);

describe('EnvPool under the Env, on the fake deployment', () => {
  let fake: FakeDeployment;
  beforeEach(() => { fake = new FakeDeployment(); });
  afterEach(() => assert.deepEqual(fake.live, [], 'the pool and the Env removed everything they started'));

  it('hands a ready environment to reset, puts the reset\'s files and settings into it warm, and starts a replacement', async () => {
    const pool = new EnvPool({ size: 1, deployment: fake });
    await pool.fill();
    const [spare] = fake.created;
    const env = new Env({ pool, settle: SETTLE, observe: ['ide'] });
    try {
      const { info, observation } = await env.reset({ options: { files: { 'w.txt': 'warm' }, settings: { 'editor.tabSize': 3 }, open: ['w.txt'] } });
      assert.deepEqual([info.envId, info.pooled, info.staged, info.startMs], [spare, true, false, 0]);
      assert.deepEqual(fake.environment(spare).info.labels, { 'pwp.pool': '1' });
      const { runtime, bridge } = fake.environment(spare);
      assert.equal((await runtime.readFile('/workspace/w.txt'))?.toString(), 'warm');
      assert.deepEqual(bridge.callsOf('ide.settings.update').map((p) => [p.key, p.value]), [['editor.tabSize', 3]], 'a warm IDE gets settings through the IDE');
      assert.equal(observation.ide?.activeEditor?.path, '/workspace/w.txt');
      await waitFor('the pool refilled', () => pool.readyCount === 1);
      assert.equal(fake.created.length, 2);
    } finally {
      await env.close();
      assert.deepEqual(fake.removed, [spare], 'the Env removes the environment it took; the spare stays the pool\'s');
      await pool.close();
    }
  });

  it('an Env that asks for another image, display, memory, network or live view than the pool\'s starts its own', async () => {
    const pool = new EnvPool({ size: 0, deployment: fake, spec: { image: 'pwp-ide:pooled' } });
    const others = [{ image: 'pwp-task:other' }, { display: { width: 800, height: 600 } }, { memoryMb: 3000 }, { network: true }, { view: true }];
    try {
      for (const o of others) {
        const env = new Env({ pool, settle: SETTLE, observe: [], ...o });
        try {
          const { info } = await env.reset();
          assert.equal(info.pooled, false, JSON.stringify(o));
        } finally { await env.close(); }
      }
      const env = new Env({ pool, settle: SETTLE, observe: [], image: 'pwp-ide:pooled' });
      try { assert.equal((await env.reset()).info.pooled, true); } finally { await env.close(); }
    } finally {
      await pool.close();
    }
  });

  it('with stageNext, the next reset with the same options is a hand-over of a spare prepared in the background', async () => {
    const pool = new EnvPool({ size: 1, deployment: fake });
    const env = new Env({ pool, stageNext: true, settle: SETTLE });
    const options = { files: { 's.txt': 'staged' }, open: ['s.txt'] };
    try {
      const first = await env.reset({ options });
      assert.equal(first.info.staged, false, 'nothing was staged for the first');
      const second = await env.reset({ options });
      assert.deepEqual([second.info.pooled, second.info.staged], [true, true]);
      assert.notEqual(second.info.envId, first.info.envId);
      const staged = fake.environment(second.info.envId);
      assert.equal((await staged.runtime.readFile('/workspace/s.txt'))?.toString(), 'staged');
      assert.equal(staged.bridge.editors.at(-1)?.path, '/workspace/s.txt', 'the editors were opened while staging');
      const other = await env.reset({ options: { files: { 'o.txt': 'other' } } });
      assert.equal(other.info.staged, false, 'other options get an untouched spare prepared now');
    } finally {
      await env.close();
      await pool.close();
    }
  });

  it('starts another when a start fails, and the caller gets that one', async () => {
    fake = new FakeDeployment({ failCreates: ['no such image: pwp-task-x'] });
    const lines: string[] = [];
    const pool = new EnvPool({ size: 1, startConcurrency: 1, deployment: fake, log: (l) => lines.push(l) });
    try {
      const got = await pool.acquire();
      assert.deepEqual(fake.created, [got.env.info.id]);
      assert.match(lines.join('\n'), /failed to start \(1 of 3 tries\): no such image: pwp-task-x; starting another/);
      assert.equal((await got.env.client.call('proc.health', {})).ready, true, 'what the caller gets is ready');
      got.env.client.close();
      await fake.remove(got.env.info.id);
    } finally { await pool.close(); }
  });

  it('an Env that needs the network starts its own instead of taking a pooled IDE without it', async () => {
    const pool = new EnvPool({ size: 1, deployment: fake });
    await pool.fill();
    const env = new Env({ pool, network: true, settle: SETTLE });
    try {
      const { info } = await env.reset();
      assert.equal(info.pooled, false);
      assert.equal(pool.readyCount, 1, 'the spare is left for another');
    } finally {
      await env.close();
      await pool.close();
    }
  });
});
