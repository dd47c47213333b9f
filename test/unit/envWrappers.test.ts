import { strict as assert } from 'node:assert';
import { InvalidParamsError } from '../../bridge/protocol';
import { actionJsonSchema, parseAction, type Action } from '../../host/env/actions';
import type { Env, EnvLike, ResetResult, StepResult } from '../../host/env/env';
import { StepLimit, TimeLimit } from '../../host/env/wrappers';

/** An EnvLike that records calls and answers at once (the real Env is tested in containers). */
class FakeEnv implements EnvLike {
  calls: string[] = [];
  get unwrapped(): Env { return this as unknown as Env; }
  async reset(): Promise<ResetResult> { this.calls.push('reset'); return { observation: { timings: {} }, info: { envId: 'e', seed: null, durationMs: 0, startMs: 0, pooled: false, settle: { settled: true, waitedMs: 0 }, timings: {} } }; }
  async step(action: Action): Promise<StepResult> {
    this.calls.push(`step:${action.type}`);
    return { observation: { timings: {} }, reward: 0, terminated: action.type === 'done', truncated: false, info: { step: 1, action, durationMs: 0, actionMs: 0, observeMs: 0, settle: null } };
  }
  async observe() { return { timings: {} }; }
  async reward() { return 0; }
  async pause() { this.calls.push('pause'); }
  async resume() { this.calls.push('resume'); }
  async render() { return Buffer.alloc(0); }
  async checkpoint(): Promise<never> { throw new Error('not here'); }
  async restore(): Promise<never> { throw new Error('not here'); }
  async close() { this.calls.push('close'); }
}

describe('Env wrappers and actions', () => {
  it('StepLimit truncates at the limit, not before, and starts over on reset', async () => {
    const env = new StepLimit(new FakeEnv(), 2);
    await env.reset();
    assert.equal((await env.step({ type: 'wait', ms: 0 })).truncated, false);
    const second = await env.step({ type: 'wait', ms: 0 });
    assert.equal(second.truncated, true);
    assert.match(second.info.truncatedBy ?? '', /step limit \(2\)/);
    await env.reset();
    assert.equal((await env.step({ type: 'wait', ms: 0 })).truncated, false);
  });

  it('StepLimit never marks a finished episode as truncated', async () => {
    const env = new StepLimit(new FakeEnv(), 1);
    await env.reset();
    const r = await env.step({ type: 'done' });
    assert.deepEqual([r.terminated, r.truncated], [true, false]);
  });

  it('TimeLimit counts wall time since reset but not time spent paused', async () => {
    let now = 1000;
    const env = new TimeLimit(new FakeEnv(), 100, () => now);
    await env.reset();
    now += 60;
    await env.pause();
    now += 500; // paused: does not count
    await env.resume();
    assert.equal(env.elapsedMs, 60);
    assert.equal((await env.step({ type: 'wait', ms: 0 })).truncated, false);
    now += 40;
    const r = await env.step({ type: 'wait', ms: 0 });
    assert.equal(r.truncated, true);
    assert.match(r.info.truncatedBy ?? '', /time limit/);
  });

  it('wrappers compose and reach the same base env', async () => {
    const base = new FakeEnv();
    const env = new TimeLimit(new StepLimit(base, 5), 10_000);
    assert.equal(env.unwrapped, base as unknown as Env);
    await env.reset();
    await env.step({ type: 'key', keys: 'a' });
    await env.close();
    assert.deepEqual(base.calls, ['reset', 'step:key', 'close']);
  });

  it('validates actions from untrusted input, naming the bad field', () => {
    assert.deepEqual(parseAction({ type: 'click', mark: 12 }), { type: 'click', mark: 12 });
    assert.throws(() => parseAction({ type: 'scroll', direction: 'sideways' }), (e: unknown) => e instanceof InvalidParamsError && /action\.direction/.test((e as Error).message));
    assert.throws(() => parseAction({ type: 'launch_missiles' }), InvalidParamsError);
    assert.throws(() => parseAction({ type: 'key', keys: 'a', extra: 1 }), InvalidParamsError);
    const schema = actionJsonSchema() as { oneOf?: unknown[]; anyOf?: unknown[] };
    assert.ok((schema.oneOf ?? schema.anyOf)!.length >= 12, 'the JSON Schema lists every action type');
  });
});
