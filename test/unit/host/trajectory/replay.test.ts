// The replayer against a scripted Env: a person's recorded input goes in through the Env's
// action table (humanInput, as xdotool actions), not as steps and not straight to the bridge,
// and only the last input of the replay waits for the screen.
import { strict as assert } from 'node:assert';
import type { Action } from '../../../../host/env/actions';
import type { EnvLike, StepResult } from '../../../../host/env/env';
import { replayRecords } from '../../../../host/trajectory/replay';
import type { TrajectoryRecord } from '../../../../host/trajectory/trajectoryFile';

/** Only what replayRecords may use: step and humanInput (anything else throws). */
function scriptedEnv(calls: string[]): EnvLike {
  const env = {
    async step(a: Action): Promise<StepResult> {
      calls.push(`step:${a.type}`);
      return { observation: { timings: {} }, reward: 0, terminated: false, truncated: false, info: { step: 1, action: a, durationMs: 0, actionMs: 0, observeMs: 0, settle: null } };
    },
    async humanInput(a: Action, o: { settle?: boolean } = {}): Promise<void> {
      calls.push(`human:${a.type === 'xdotool' ? a.argv!.join(' ') : a.type}${o.settle ? ' +settle' : ''}`);
    },
  };
  return new Proxy(env, {
    get(target, key) {
      if (key in target) return target[key as keyof typeof target];
      if (key === 'then') return undefined;
      throw new Error(`replay reached env.${String(key)}`);
    },
  }) as unknown as EnvLike;
}

const key = (seq: number, name: string, down: boolean) =>
  ({ type: 'human', seq, t: seq, actor: 'human', event: { seq, t: seq, kind: 'key', name, down } }) as unknown as TrajectoryRecord;
const step = (seq: number) =>
  ({
    type: 'step', seq, t: seq, actor: 'agent', step: 1, action: { type: 'wait', ms: 0 }, reward: 0, terminated: false, truncated: false, info: {}, observation: { timings: {} },
  }) as unknown as TrajectoryRecord;

describe('replay: a person\'s input', () => {
  it('goes through env.humanInput as xdotool actions, not as steps, and the last input waits for the screen', async () => {
    const calls: string[] = [];
    const r = await replayRecords([key(1, 'a', true), step(2), key(3, 'b', true), key(4, 'b', false)], scriptedEnv(calls));
    assert.deepEqual(calls, ['human:keydown a', 'step:wait', 'human:keydown b', 'human:keyup b +settle']);
    assert.deepEqual([r.agentSteps, r.humanEvents], [1, 3]);
  });

  it('does not wait after a person\'s input that an agent step follows (the step settles itself)', async () => {
    const calls: string[] = [];
    await replayRecords([key(1, 'a', true), step(2)], scriptedEnv(calls));
    assert.deepEqual(calls, ['human:keydown a', 'step:wait']);
  });
});
