// The limit wrappers around the real Env on the fake deployment (wrappers.test.ts has them on a
// stub): a cut episode is over for the Env itself, whoever steps it next, a new reset starts
// counting again, and paused time is not the agent's.
import { strict as assert } from 'node:assert';
import { Env, EpisodeOverError } from '../../../../host/env/env';
import { TimeLimit, WallClockLimit } from '../../../../host/env/wrappers';
import { FakeDeployment, SETTLE } from '../../../support/fakeDeployment';

describe('limit wrappers around the Env on the fake deployment', () => {
  let fake: FakeDeployment;
  beforeEach(() => { fake = new FakeDeployment(); });
  afterEach(() => assert.deepEqual(fake.live, [], 'nothing left running'));

  it('TimeLimit truncates at the step limit; the Env underneath then refuses steps too, until reset', async () => {
    const base = new Env({ deployment: fake, settle: SETTLE });
    const env = new TimeLimit(base, 2);
    try {
      await env.reset();
      assert.equal((await env.step({ type: 'key', keys: 'a' })).truncated, false);
      const cut = await env.step({ type: 'key', keys: 'b' });
      assert.deepEqual([cut.truncated, cut.terminated], [true, false]);
      assert.match(cut.info.truncatedBy!, /step limit \(2\)/);
      await assert.rejects(env.step({ type: 'key', keys: 'c' }), EpisodeOverError);
      await assert.rejects(base.step({ type: 'key', keys: 'c' }), (e: unknown) => e instanceof EpisodeOverError && /step limit/.test((e as Error).message), 'the base Env knows its episode was cut');
      await env.reset();
      assert.equal((await env.step({ type: 'key', keys: 'a' })).truncated, false, 'a new episode counts from zero');
      assert.equal(base.stepCount, 1);
    } finally { await env.close(); }
  });

  it('done within the limit terminates and is not truncated', async () => {
    const env = new TimeLimit(new Env({ deployment: fake, settle: SETTLE }), 1);
    try {
      await env.reset();
      const r = await env.step({ type: 'done' });
      assert.deepEqual([r.terminated, r.truncated], [true, false]);
    } finally { await env.close(); }
  });

  it('WallClockLimit does not count time the real Env spent paused, and cuts the episode once its time is up', async () => {
    let now = 0;
    const base = new Env({ deployment: fake, settle: SETTLE });
    const env = new WallClockLimit(base, 1000, () => now);
    try {
      const { info } = await env.reset();
      now = 400;
      await env.pause();
      assert.equal(fake.environment(info.envId).paused, true, 'pause reaches the deployment');
      now = 10_000; // paused: not the agent's time
      await env.resume();
      assert.equal(env.elapsedMs, 400);
      assert.equal((await env.step({ type: 'key', keys: 'a' })).truncated, false);
      now = 10_600 + 1;
      const cut = await env.step({ type: 'key', keys: 'a' });
      assert.equal(cut.truncated, true);
      assert.match(cut.info.truncatedBy!, /time limit \(1000 ms\)/);
      await assert.rejects(base.step({ type: 'wait', ms: 0 }), EpisodeOverError);
    } finally { await env.close(); }
  });

  it('limits compose: the tighter one cuts, and close goes through both to remove the environment', async () => {
    const env = new WallClockLimit(new TimeLimit(new Env({ deployment: fake, settle: SETTLE }), 3), 3_600_000);
    await env.reset();
    for (let i = 1; i < 3; i++) assert.equal((await env.step({ type: 'wait', ms: 0 })).truncated, false);
    assert.match((await env.step({ type: 'wait', ms: 0 })).info.truncatedBy!, /step limit \(3\)/);
    await env.close();
    assert.equal(fake.removed.length, 1);
  });
});
