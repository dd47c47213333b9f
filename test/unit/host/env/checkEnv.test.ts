// checkEnv on the fake deployment: the real Env and its wrappers pass it, and wrappers that
// break one promise of the contract each fail it with that promise named (a check that cannot
// fail would prove nothing).
import { strict as assert } from 'node:assert';
import { checkEnv } from '../../../../host/env/checkEnv';
import { Env, type ResetResult, type StepResult } from '../../../../host/env/env';
import type { Action } from '../../../../host/env/actions';
import { EnvWrapper, TimeLimit, WallClockLimit } from '../../../../host/env/wrappers';
import { FakeDeployment, SETTLE } from '../../../support/fakeDeployment';

/** Reports done as not terminating (a runner would step on forever). */
class ForgetsDone extends EnvWrapper {
  override async step(a: Action): Promise<StepResult> { const r = await super.step(a); return { ...r, terminated: false }; }
}
/** Pauses nothing: steps go on while the caller believes the IDE frozen. */
class IgnoresPause extends EnvWrapper {
  override async pause(): Promise<void> { /* does not pause */ }
  override async resume(): Promise<void> { /* nothing to resume */ }
}
/** Takes a person's input as one of the agent's steps. */
class HumanInputAsStep extends EnvWrapper {
  override async humanInput(a: Action): Promise<void> { await super.step(a); }
}
/** Forgets the answer the episode ended with. */
class ForgetsAnswer extends EnvWrapper {
  override get episode() { return { ...super.episode, answer: null }; }
}
/** Loses the seed it was given. */
class DropsSeed extends EnvWrapper {
  override async reset(args?: Parameters<EnvWrapper['reset']>[0]): Promise<ResetResult> {
    const r = await super.reset(args);
    return { ...r, info: { ...r.info, seed: null } };
  }
}

describe('checkEnv on the fake deployment', () => {
  let fake: FakeDeployment;
  beforeEach(() => { fake = new FakeDeployment(); });
  afterEach(() => assert.deepEqual(fake.live, [], 'nothing left running'));

  it('passes on the Env, checking every promise, and closes it', async () => {
    const r = await checkEnv(new Env({ deployment: fake, settle: SETTLE }), { files: { 'a.txt': 'a' } });
    // Every promise but the video: the fake bridge has no screen recorder.
    assert.equal(r.checked.length, 14, r.checked.join('; '));
    assert.deepEqual(fake.created, [r.envId]);
    assert.deepEqual(fake.removed, [r.envId]);
  });

  it('passes on the Env inside the limit wrappers', async () => {
    const r = await checkEnv(new WallClockLimit(new TimeLimit(new Env({ deployment: fake, settle: SETTLE }), 100), 3_600_000));
    assert.equal(r.checked.length, 14);
  });

  for (const [Broken, message] of [
    [ForgetsDone, /done must terminate/],
    [IgnoresPause, /step\(\) while paused must fail/],
    [DropsSeed, /seed it was given/],
    [HumanInputAsStep, /humanInput must not count as a step/],
    [ForgetsAnswer, /ended with done and the answer/],
  ] as const) {
    it(`fails on a wrapper that breaks the contract (${Broken.name}), naming the broken promise`, async () => {
      const env = new Broken(new Env({ deployment: fake, settle: SETTLE }));
      try {
        await assert.rejects(checkEnv(env), (e: Error) => /^checkEnv: /.test(e.message) && message.test(e.message));
      } finally { await env.close(); }
    });
  }
});
