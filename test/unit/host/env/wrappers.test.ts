import { strict as assert } from 'node:assert';
import { InvalidParamsError } from '../../../../bridge/protocol';
import { actionSpace, parseAction, type Action } from '../../../../host/env/actions';
import { EpisodeOverError, type Env, type EnvLike, type ResetResult, type StepResult } from '../../../../host/env/env';
import { observationSpace } from '../../../../host/env/observation';
import { TimeLimit, WallClockLimit } from '../../../../host/env/wrappers';

/** An EnvLike that records calls and answers at once (the real Env is tested in containers). */
class FakeEnv implements EnvLike {
  calls: string[] = [];
  get unwrapped(): Env { return this as unknown as Env; }
  async reset(): Promise<ResetResult> { this.calls.push('reset'); return { observation: { timings: {} }, info: { envId: 'e', seed: null, durationMs: 0, startMs: 0, pooled: false, staged: false, settle: { settled: true, waitedMs: 0 }, timings: {} } }; }
  async step(action: Action): Promise<StepResult> {
    this.calls.push(`step:${action.type}`);
    return {
      observation: { timings: {} }, reward: 0, terminated: action.type === 'done', truncated: false,
      info: { step: 1, action, durationMs: 0, actionMs: 0, observeMs: 0, settle: null },
    };
  }
  async observe() { return { timings: {} }; }
  async reward() { return 0; }
  async pause() { this.calls.push('pause'); }
  async resume() { this.calls.push('resume'); }
  async render() { return Buffer.alloc(0); }
  async checkpoint(): Promise<never> { throw new Error('not here'); }
  async restore(): Promise<never> { throw new Error('not here'); }
  annotate() { /* nothing recorded */ }
  async close() { this.calls.push('close'); }
}

describe('Env wrappers and actions', () => {
  it('TimeLimit (gymnasium: steps) truncates at the limit, not before, and starts over on reset', async () => {
    const env = new TimeLimit(new FakeEnv(), 2);
    await env.reset();
    assert.equal((await env.step({ type: 'wait', ms: 0 })).truncated, false);
    const second = await env.step({ type: 'wait', ms: 0 });
    assert.equal(second.truncated, true);
    assert.match(second.info.truncatedBy ?? '', /step limit \(2\)/);
    await assert.rejects(env.step({ type: 'wait', ms: 0 }), EpisodeOverError, 'a step after truncation is refused');
    await env.reset();
    assert.equal((await env.step({ type: 'wait', ms: 0 })).truncated, false);
  });

  it('TimeLimit never marks a finished episode as truncated', async () => {
    const env = new TimeLimit(new FakeEnv(), 1);
    await env.reset();
    const r = await env.step({ type: 'done' });
    assert.deepEqual([r.terminated, r.truncated], [true, false]);
  });

  it('WallClockLimit counts wall time since reset but not time spent paused', async () => {
    let now = 1000;
    const env = new WallClockLimit(new FakeEnv(), 100, () => now);
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
    await assert.rejects(env.step({ type: 'wait', ms: 0 }), (e: unknown) => e instanceof EpisodeOverError && /time limit/.test((e as Error).message));
  });

  it('wrappers compose and reach the same base env', async () => {
    const base = new FakeEnv();
    const env = new WallClockLimit(new TimeLimit(base, 5), 10_000);
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
  });

  it('publishes the action space as one object schema a tool definition can take, and the observation space', () => {
    const schema = actionSpace() as { type: string; oneOf?: unknown; anyOf?: unknown; properties: Record<string, { enum?: string[]; description?: string }>; required: string[] };
    assert.equal(schema.type, 'object');
    assert.equal(schema.oneOf ?? schema.anyOf, undefined, 'no top-level oneOf');
    assert.deepEqual(schema.required, ['type']);
    assert.ok(schema.properties.type.enum!.length >= 12 && schema.properties.type.enum!.includes('done'), 'every action kind is listed');
    assert.match(schema.properties.keys.description ?? '', /key \(required\)/);
    assert.match(schema.properties.mark.description ?? '', /click/);
    const obs = observationSpace() as { type: string; properties: Record<string, unknown> };
    assert.equal(obs.type, 'object');
    for (const k of ['screenshot', 'marks', 'ide', 'instruction', 'timings']) assert.ok(k in obs.properties, `observation space has ${k}`);
  });
});
