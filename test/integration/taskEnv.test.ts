// An Env on a task (makeEnv), in a real container: it keeps the Env contract (checkEnv), its
// reset sets the task up and shows the instruction, its done step grades in the verifier (the
// reward and every check in info.evaluation), it publishes its spaces, and the task's step
// limit truncates the episode, after which steps are refused like after done.
import { strict as assert } from 'node:assert';
import { checkEnv } from '../../host/env/checkEnv';
import { EpisodeOverError } from '../../host/env/env';
import { makeEnv } from '../../host/taskEnv/taskEnv';
import type { EnvPool } from '../../host/env/pool';
import { resolveTasks } from '../../host/taskEnv/loadTask';
import { testImage, testPool } from './environmentFixture';

describe('makeEnv: an Env on a task (real containers)', function () {
  this.timeout(10 * 60_000);
  let image: string;
  let pool: EnvPool;
  // The worker's recycled environment of the plain image: a task Env on it is a pooled one.
  before(async function () { this.timeout(30 * 60_000); image = await testImage(); pool = await testPool(); });

  it('passes checkEnv, with its limits and grading in place', async () => {
    const env = makeEnv('vscode-config/rulers', { image, pool, labels: { 'pwp.test': '1' } });
    try {
      const r = await checkEnv(env);
      assert.ok(r.checked.length >= 8, r.checked.join('\n'));
    } finally {
      await env.close();
    }
  });

  it('sets the task up on reset, shows the instruction, grades on done, and refuses steps past the step limit', async () => {
    const [task] = resolveTasks(['vscode-config/rulers']);
    const env = makeEnv({ ...task, limits: { ...task.limits, steps: 2 } }, { image, pool, labels: { 'pwp.test': '1' }, observe: ['ide'] });
    try {
      const { observation } = await env.reset();
      assert.equal(observation.instruction, task.instruction);
      assert.ok(observation.ide, 'the observation kinds asked for');
      const space = env.unwrapped.actionSpace as { type: string; properties: { type: { enum: string[] } } };
      assert.equal(space.type, 'object');
      assert.ok(space.properties.type.enum.includes('exec'));
      assert.equal((env.unwrapped.observationSpace as { type: string }).type, 'object');

      const first = await env.step({ type: 'wait', ms: 0 });
      assert.deepEqual([first.terminated, first.truncated], [false, false]);
      const second = await env.step({ type: 'wait', ms: 0 });
      assert.deepEqual([second.terminated, second.truncated], [false, true], 'the task\'s step limit truncates');
      await assert.rejects(env.step({ type: 'done' }), EpisodeOverError, 'a step after truncation is refused');
      // The state can still be graded: nothing was done, so it scores 0 with the reason in the checks.
      assert.equal(await env.reward(), 0);
      assert.ok(env.unwrapped.evaluation?.checks?.length, 'per-check detail');

      await env.reset();
      const done = await env.step({ type: 'done' });
      assert.deepEqual([done.terminated, done.reward], [true, 0]);
      assert.equal(done.info.evaluation?.score, 0);
      assert.equal(done.info.evaluation?.passed, false);
    } finally {
      await env.close();
    }
  });
  it('grades a large workspace within its limits as a stream: the host grows by far less than the workspace (400 MiB of random data, 20 000 files)', async function () {
    this.timeout(20 * 60_000);
    const env = makeEnv('code-edit/py-roman', { image, pool, labels: { 'pwp.test': '1' }, observe: [] });
    try {
      await env.reset();
      const made = await env.step({ type: 'exec', timeoutSec: 900, argv: ['sh', '-c', 'mkdir -p /workspace/data /workspace/many'
        + ' && for i in $(seq 1 40); do head -c 10485760 /dev/urandom > /workspace/data/blob$i.bin; done'
        + ' && python3 -c "[open(\'/workspace/many/f%d.txt\' % i, \'w\').write(str(i)) for i in range(20000)]"'
        + ' && cp /workspace/data/blob1.bin /workspace/data/more.py'] });
      assert.equal(made.info.execResult?.exitCode, 0, JSON.stringify(made.info.execResult));
      // The host's resident memory, sampled while it grades.
      const before = process.memoryUsage().rss;
      let peak = before;
      const sampler = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 10);
      const score = await env.reward().finally(() => clearInterval(sampler));
      const e = env.unwrapped.evaluation!;
      assert.equal(score, 0, e.summary);
      assert.doesNotMatch(e.summary, /too large/, 'graded, not refused');
      assert.match(e.tampering?.reason ?? '', /data\/more\.py is 10485760 bytes, more than the code check reads of one file/, `code too large to read is a finding: ${e.summary}`);
      assert.ok(peak - before < 256 * 2 ** 20, `the host grew by ${((peak - before) / 2 ** 20).toFixed(0)} MiB while grading a 400 MiB workspace`);
    } finally {
      await env.close();
    }
  });
  it('grades a workspace past its limits 0 with its size, without reading it (a 20 GiB sparse file; more files than allowed)', async () => {
    const [task] = resolveTasks(['vscode-config/rulers']);
    const env = makeEnv({ ...task, limits: { ...task.limits, workspaceFiles: 50 } }, { image, pool, labels: { 'pwp.test': '1' }, observe: [] });
    try {
      await env.reset();
      const rss = process.memoryUsage().rss;
      // Free for the agent, 20 GiB for anything that reads it whole.
      const big = await env.step({ type: 'exec', argv: ['truncate', '-s', '20G', '/workspace/big.bin'] });
      assert.equal(big.info.execResult?.exitCode, 0, JSON.stringify(big.info.execResult));
      assert.equal(await env.reward(), 0);
      assert.match(env.episode.evaluation?.summary ?? '', /^workspace too large: 2147\d{7} bytes in \d+ files \(the task grades at most 536870912 bytes in 50 files\)$/);
      // Nothing of it was read: the host grew by far less than the file.
      assert.ok(process.memoryUsage().rss - rss < 512 * 2 ** 20, `rss grew by ${process.memoryUsage().rss - rss} bytes`);
      await env.step({ type: 'exec', argv: ['rm', '/workspace/big.bin'] });
      await env.step({ type: 'exec', argv: ['sh', '-c', 'mkdir -p /workspace/many && cd /workspace/many && for i in $(seq 1 60); do : > f$i; done'] });
      assert.equal(await env.reward(), 0);
      assert.match(env.episode.evaluation?.summary ?? '', /^workspace too large: \d+ bytes in 6\d files/);
    } finally {
      await env.close();
    }
  });
});
