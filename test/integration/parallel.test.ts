// Several environments in one process, and the warm pool, in real containers.
import type { DockerDeployment } from '../../host/deployment/dockerDeployment';
import { strict as assert } from 'node:assert';
import { Env } from '../../host/env/env';
import { EnvPool } from '../../host/env/pool';
import { testImage } from './environmentFixture';
import { eventually } from './ideDriving';
import { callTool, textOf } from './toolsFixture';

describe('parallel environments and the warm pool', function () {
  this.timeout(10 * 60_000);
  let image: string;
  before(async function () { this.timeout(30 * 60_000); image = await testImage(); });

  it('runs two environments side by side without either seeing the other\'s input or files', async () => {
    const envs = [0, 1].map(() => new Env({ image, labels: { 'pwp.test': '1' }, observe: [] }));
    try {
      await Promise.all(envs.map((e, i) => e.reset({ options: { files: { 'mine.txt': `env ${i}\n` }, open: [{ file: 'mine.txt', line: 2, column: 1 }] } })));
      const [a, b] = envs;
      assert.notEqual(a.info.id, b.info.id);
      assert.notEqual(a.info.bridgeUrl, b.info.bridgeUrl);
      // Both act at once.
      await Promise.all(envs.map(async (e, i) => {
        await e.step({ type: 'type', text: `typed only in ${i}\n` });
        await e.step({ type: 'key', keys: 'ctrl+s' });
      }));
      for (const [i, e] of envs.entries()) {
        const text = await eventually(async () => (await e.deployment.readFile(e.info.id, '/workspace/mine.txt')).toString(),
          (t) => t.includes('typed only'), 60_000, `env ${i} saved`);
        assert.equal(text, `env ${i}\ntyped only in ${i}\n`);
      }
    } finally {
      const ids = envs.map((e) => e.id).filter(Boolean);
      await Promise.all(envs.map((e) => e.close()));
      const left = await (envs[0].deployment as DockerDeployment).docker.listContainers({ all: true, filters: { label: ids.map((id) => `pwp.environment=${id}`) } });
      assert.deepEqual(left.filter((c) => ids.includes(c.Labels['pwp.environment'])), []);
    }
  });

  it('resets from a warm pool by copying the task in: files, settings and editors, without a cold start; closing the pool gives up the replacement it was starting', async () => {
    const mark = `pool-${Date.now()}`;
    const pool = new EnvPool({ size: 1, spec: { image, labels: { 'pwp.test': '1', 'pwp.test.pool': mark } } });
    const env = new Env({ pool, observe: ['ide'] });
    try {
      await pool.fill();
      const r = await env.reset({ options: { files: { 'src/task.py': 'x = 1\n' }, settings: { 'editor.tabSize': 7 }, open: ['src/task.py'] } });
      console.log(`      reset from the warm pool: ${r.info.durationMs} ms ${JSON.stringify(r.info.timings)}`);
      assert.equal(r.info.pooled, true);
      assert.deepEqual(Object.keys(r.info.timings), ['acquire', 'files', 'open', 'prepare', 'settle', 'observe'], 'where the time went (prepare: a task Env runs its set-up steps there)');
      assert.equal(r.info.startMs, 0);
      assert.equal(r.observation.ide?.activeEditor?.path, '/workspace/src/task.py');
      assert.equal((await env.client.call('ide.settings.get', { key: 'editor.tabSize' })).value, 7);
      // The task's files are its initial state, not changes the agent made.
      assert.equal(textOf(await callTool(env.client, 'get_diff_patch', {})), 'No changes since the task started.');
      // The explorer lists the copied files (the IDE noticed them without a reload).
      await eventually(() => env.client.call('dom.marks', {}), (m) => m.marks.some((x) => x.part === 'sidebar' && x.text.includes('src')), 60_000, 'src in the explorer');
    } finally {
      await env.close();
      await pool.close();
    }
    // The replacement started when the reset took the spare was removed, not left behind or waited for.
    const left = await (pool.deployment as DockerDeployment).docker.listContainers({ all: true, filters: { label: [`pwp.test.pool=${mark}`] } });
    assert.deepEqual(left.map((c) => c.Names), []);
  });

  it('with stageNext, the pool prepares the next reset in the background; other options get an untouched IDE', async () => {
    const pool = new EnvPool({ size: 1, spec: { image, labels: { 'pwp.test': '1' } } });
    const env = new Env({ pool, observe: ['ide'], stageNext: true });
    const same = { files: { 'loop.py': 'y = 2\n' }, settings: { 'editor.tabSize': 5 }, open: ['loop.py'] };
    try {
      const first = await env.reset({ options: same });
      assert.equal(first.info.staged, false, 'nothing was staged before the first reset');
      const firstId = first.info.envId;
      await env.step({ type: 'type', text: 'EDITED ' });
      await pool.fill(); // the spare is staged before it counts as ready
      const second = await env.reset({ options: same });
      console.log(`      staged reset: ${second.info.durationMs} ms ${JSON.stringify(second.info.timings)}`);
      assert.equal(second.info.staged, true);
      assert.notEqual(second.info.envId, firstId, 'a new IDE, not the used one');
      assert.deepEqual(Object.keys(second.info.timings), ['acquire', 'prepare', 'settle', 'observe']);
      assert.equal(second.observation.ide?.activeEditor?.path, '/workspace/loop.py');
      assert.equal(second.observation.ide?.activeEditor?.dirty, false, 'the previous episode\'s edit is not here');
      assert.equal((await env.client.call('ide.settings.get', { key: 'editor.tabSize' })).value, 5);
      assert.equal((await env.deployment.readFile(env.info.id, '/workspace/loop.py')).toString('utf8'), 'y = 2\n');

      await pool.fill();
      const other = await env.reset({ options: { files: { 'else.py': 'z = 3\n' } } });
      assert.equal(other.info.staged, false);
      const listing = await env.exec(['ls', '-A', '/workspace']);
      assert.deepEqual(listing.stdout.trim().split('\n'), ['else.py'], 'an IDE staged for the other options was handed out');
    } finally {
      await env.close();
      await pool.close();
    }
  });
});
