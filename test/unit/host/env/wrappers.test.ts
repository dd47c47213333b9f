import { strict as assert } from 'node:assert';
import { InvalidParamsError, NotAvailableError } from '../../../../bridge/protocol';
import { actionSpace, parseAction, type Action } from '../../../../host/env/actions';
import { EpisodeOverError, LimitReachedError, type Env, type EnvLike, type EpisodeInfo, type ResetResult, type StepResult } from '../../../../host/env/env';
import { observationSpace } from '../../../../host/env/observation';
import { RewardAtEnd, TimeLimit, WallClockLimit } from '../../../../host/env/wrappers';
import type { Annotation } from '../../../../host/env/env';

/** An EnvLike that records calls and answers at once (the real Env is tested in containers). */
class FakeEnv implements EnvLike {
  calls: string[] = [];
  get unwrapped(): Env { return this as unknown as Env; }
  readonly actionSpace = actionSpace();
  readonly observationSpace = observationSpace();
  readonly signal = new AbortController().signal;
  get episode(): EpisodeInfo { return { environment: null, steps: 0, paused: false, over: null, answer: null, evaluation: null, setupMs: 0, gradeMs: 0 }; }
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
  async query(): Promise<never> { throw new Error('not here'); }
  async readFile() { return undefined; }
  async humanInput(a: Action) { this.calls.push(`human:${a.type}`); }
  listCheckpoints() { return []; }
  async handOff(): Promise<never> { throw new Error('not here'); }
  async startVideo() { /* no screen */ }
  async stopVideo() { return undefined; }
  async lost() { return undefined; }
  annotate(_a: Annotation): void { /* nothing recorded */ }
  async detach() { return undefined; }
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

  it("WallClockLimit's signal aborts with a LimitReachedError once the limit passes, with no step to notice it", async () => {
    const env = new WallClockLimit(new FakeEnv(), 20);
    await env.reset();
    const signal = env.signal;
    const reason = await new Promise((resolve) => signal.addEventListener('abort', () => resolve(signal.reason), { once: true }));
    assert.ok(reason instanceof LimitReachedError);
    assert.match((reason as Error).message, /time limit of 0\.02 s reached/);
    await env.close();
  });

  it('WallClockLimit stops its clock while paused and starts a new one on reset', async () => {
    let now = 1000;
    const env = new WallClockLimit(new FakeEnv(), 60_000, () => now);
    await env.reset();
    await env.pause();
    now += 120_000; // twice the limit, all of it paused
    await env.resume();
    assert.equal(env.remainingMs, 60_000);
    assert.equal(env.signal.aborted, false);
    now += 60_000;
    assert.equal((await env.step({ type: 'wait', ms: 0 })).truncated, true);
    await env.reset();
    assert.equal(env.remainingMs, 60_000);
    await env.close();
  });

  it('wrappers forward the whole contract to the Env inside', async () => {
    const base = new FakeEnv();
    const env = new TimeLimit(new WallClockLimit(base, 10_000), 5);
    await env.reset();
    await env.humanInput({ type: 'key', keys: 'a' });
    assert.deepEqual(env.episode, base.episode);
    assert.deepEqual(env.actionSpace, actionSpace());
    assert.equal(await env.readFile('x'), undefined);
    await env.close();
    assert.deepEqual(base.calls, ['reset', 'human:key', 'close']);
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
  describe('RewardAtEnd: the grade of an episode run for scoring is its runner\'s', () => {
    /** An episode graded with hidden tests' output in its evaluation, ended or not. */
    class GradedEnv extends FakeEnv {
      over: string | null = null;
      graded = 0;
      asked: Annotation[] = [];
      private evaluation: EpisodeInfo['evaluation'] = null;
      override get episode(): EpisodeInfo { return { ...super.episode, steps: 3, over: this.over, evaluation: this.evaluation }; }
      override async reward() {
        this.graded++;
        this.evaluation = { kind: 'tests', score: 0.5, passed: false, summary: "1/2 tests pass: assert candidate('') == []", durationMs: 1 };
        return 0.5;
      }
      override annotate(a: Annotation) { this.asked.push(a); }
    }

    it('refuses reward() before the end, grades nothing, hides the evaluation, and records the call as the agent\'s', async () => {
      const base = new GradedEnv();
      const agentView = new RewardAtEnd(base);
      await assert.rejects(agentView.reward(), (err: unknown) => err instanceof NotAvailableError && /run for scoring/.test((err as Error).message));
      assert.equal(base.graded, 0, 'no grading ran');
      await base.reward(); // the runner grades on its own Env
      assert.equal(agentView.episode.evaluation, null, 'the evaluation stays hidden from the agent while the episode runs');
      assert.deepEqual(base.asked, [{ type: 'rewardAsked', actor: 'agent', step: 3, outcome: 'refused', reason: 'the grade is the run\'s, given at the end' }]);
      assert.equal(agentView.asked, 1);
    });

    it('gives the score alone where the task allows intermediate rewards, never the tests\' output', async () => {
      const base = new GradedEnv();
      const agentView = new RewardAtEnd(base, { intermediate: true });
      assert.equal(await agentView.reward(), 0.5);
      assert.equal(agentView.episode.evaluation, null);
      assert.deepEqual(base.asked, [{ type: 'rewardAsked', actor: 'agent', step: 3, outcome: 'score', score: 0.5, reason: 'the task allows intermediate rewards: the score alone' }]);
    });

    it('after the end, gives the end\'s grade without grading again; a cut episode is left to its runner', async () => {
      const base = new GradedEnv();
      await base.reward();
      base.over = 'done';
      const agentView = new RewardAtEnd(base);
      assert.equal(await agentView.reward(), 0.5);
      assert.equal(base.graded, 1, 'not graded again');
      assert.ok(agentView.episode.evaluation, 'the grade is shown once the episode is over');
      const cut = new GradedEnv();
      cut.over = 'truncated by the time limit';
      await assert.rejects(new RewardAtEnd(cut).reward(), NotAvailableError);
      assert.equal(cut.graded, 0);
      assert.deepEqual(cut.asked.map((a) => a.type === 'rewardAsked' && a.outcome), ['refused']);
      assert.deepEqual(base.asked, [], 'the end\'s grade, asked after the end, is not a probe');
    });
  });
});
