// The Env contract, checked: any Env or wrapper must pass this (the integration tests run it
// on a real environment). It throws at the first broken promise, naming it; on success it
// returns what it checked and which environment it ran. It resets, steps, pauses and closes
// the env it is given, and records a short video in it where the bridge has a screen recorder
// (a fake bridge may not). handOff needs a person and detach leaves the environment behind:
// those two are not exercised.
import { InvalidParamsError, MethodNotFoundError, NotAvailableError } from '../../bridge/protocol';
import type { EnvLike, ResetOptions, StepResult } from './env';

function check(cond: unknown, what: string): asserts cond {
  if (!cond) throw new Error(`checkEnv: ${what}`);
}

function checkStep(r: StepResult, label: string): void {
  check(r && typeof r === 'object', `${label}: step() must return an object`);
  check(typeof r.reward === 'number' && Number.isFinite(r.reward), `${label}: reward must be a finite number`);
  check(typeof r.terminated === 'boolean' && typeof r.truncated === 'boolean', `${label}: terminated and truncated must be booleans`);
  check(r.observation && typeof r.observation.timings === 'object', `${label}: observation must carry its timings`);
  check(typeof r.info.step === 'number' && typeof r.info.durationMs === 'number', `${label}: info must say the step number and its duration`);
}

async function rejectsWith(p: Promise<unknown>, type: typeof NotAvailableError | typeof InvalidParamsError, what: string): Promise<void> {
  try { await p; } catch (err) {
    check(err instanceof type, `${what} must fail with ${type.name}, got ${(err as Error).name}: ${(err as Error).message}`);
    return;
  }
  throw new Error(`checkEnv: ${what} must fail, but it succeeded`);
}

const rejectsNotAvailable = (p: Promise<unknown>, what: string) => rejectsWith(p, NotAvailableError, what);

export async function checkEnv(env: EnvLike, options: ResetOptions = {}): Promise<{ checked: string[]; envId: string }> {
  const checked: string[] = [];
  const ok = (s: string) => checked.push(s);

  check((env.actionSpace as { type?: string }).type === 'object' && (env.observationSpace as { type?: string }).type === 'object',
    'actionSpace and observationSpace must be object JSON Schemas');
  ok('publishes its action and observation spaces');

  await rejectsNotAvailable(env.step({ type: 'key', keys: 'shift' }), 'step() before reset()');
  ok('step before reset is refused');

  const reset = await env.reset({ seed: 7, options });
  check(reset.info && typeof reset.info.envId === 'string' && reset.info.envId.length > 0, 'reset() must say which environment it started');
  check(reset.info.seed === 7, 'reset() must report the seed it was given');
  check(reset.observation && typeof reset.observation.timings === 'object', 'reset() must return an observation');
  ok('reset returns an observation and info');

  const begun = env.episode;
  check(begun.environment?.id === reset.info.envId && typeof begun.environment.bridgeUrl === 'string' && typeof begun.environment.ideUrl === 'string',
    `episode.environment must be the environment reset() started (${JSON.stringify(begun.environment)})`);
  check(begun.steps === 0 && begun.over === null && begun.answer === null && !begun.paused, `a new episode has taken no steps and is not over (${JSON.stringify(begun)})`);
  check(env.signal instanceof AbortSignal && !env.signal.aborted, 'signal must be an AbortSignal, not aborted while the episode has time left');
  check(await env.lost() === undefined, 'lost() must be undefined while the environment runs');
  ok('episode says which environment runs, and that nothing happened yet');

  const s1 = await env.step({ type: 'key', keys: 'shift' });
  checkStep(s1, 'key step');
  check(!s1.terminated && !s1.info.error, `a valid key step must neither terminate nor fail (${s1.info.error?.message ?? ''})`);
  check(s1.info.settle && typeof s1.info.settle.waitedMs === 'number', 'an input step must say how long it waited for the screen to settle');
  check(env.episode.steps === 1, `episode.steps must count the step (${env.episode.steps})`);
  ok('an input step settles, says how long it waited, and is counted');

  await env.humanInput({ type: 'key', keys: 'shift' }, { settle: true });
  check(env.episode.steps === 1, 'humanInput must not count as a step');
  await rejectsWith(env.humanInput({ type: 'done' }), InvalidParamsError, 'humanInput() of an action that is not input');
  ok("a person's input goes through the action table without being a step");

  const cursor = await env.query('capture.cursor', {});
  check(typeof cursor.x === 'number', 'query(capture.cursor) must answer the pointer position');
  await rejectsWith(env.query('input.key', { keys: 'shift' }), InvalidParamsError, 'query() of a method that changes the environment');
  ok('query answers read methods and refuses the others');

  const written = await env.step({ type: 'write_file', path: 'pwp-check-env.txt', content: 'checked\n' });
  check(!written.info.error, `write_file must succeed (${written.info.error?.message ?? ''})`);
  check((await env.readFile('pwp-check-env.txt'))?.toString() === 'checked\n', 'readFile must return what write_file wrote');
  check(await env.readFile('pwp-check-env-missing.txt') === undefined, 'readFile of a missing file must be undefined');
  ok('readFile reads the environment\'s files');

  check(Array.isArray(env.listCheckpoints()), 'listCheckpoints() must return a list');
  const recording = await env.startVideo({ fps: 5 }).then(() => true, (err: unknown) => {
    if (err instanceof MethodNotFoundError) return false;
    throw err;
  });
  if (recording) {
    await env.step({ type: 'wait', ms: 0 });
    const video = await env.stopVideo();
    check(Buffer.isBuffer(video) && video.length > 0, 'stopVideo() must return the recorded video');
    ok('records a video');
  }

  const bad = await env.step({ type: 'click' } as never);
  checkStep(bad, 'invalid step');
  check(bad.info.error?.name === 'InvalidParamsError', `an invalid action must come back as info.error InvalidParamsError, got ${JSON.stringify(bad.info.error)}`);
  ok('an invalid action is reported in info.error, not thrown');

  const only = await env.observe(['cursor']);
  check(only.cursor && typeof only.cursor.x === 'number', 'observe([cursor]) must return the cursor');
  check(only.screenshot === undefined && only.marks === undefined && only.ide === undefined, 'observe([cursor]) must not return parts nobody asked for');
  ok('observe returns exactly the kinds asked for');

  const frame = await env.render();
  check(Buffer.isBuffer(frame) && frame.subarray(1, 4).toString() === 'PNG', 'render() must return a PNG');
  ok('render returns the frame');

  await env.pause();
  await rejectsNotAvailable(env.step({ type: 'key', keys: 'shift' }), 'step() while paused');
  check(env.episode.paused, 'episode.paused must say the Env is paused');
  await env.resume();
  checkStep(await env.step({ type: 'wait', ms: 0 }), 'step after resume');
  ok('a paused env refuses steps and works again after resume');

  const done = await env.step({ type: 'done', answer: '42' });
  checkStep(done, 'done step');
  check(done.terminated && !done.truncated, 'done must terminate (not truncate) the episode');
  check(done.info.answer === '42', 'done must carry the answer into info');
  await rejectsNotAvailable(env.step({ type: 'key', keys: 'shift' }), 'step() after done');
  check(env.episode.over === 'done' && env.episode.answer === '42', `episode must say it ended with done and the answer (${JSON.stringify(env.episode)})`);
  ok('done terminates the episode; later steps are refused until reset; episode says how it ended');

  await env.close();
  await rejectsNotAvailable(env.step({ type: 'key', keys: 'shift' }), 'step() after close()');
  check(env.episode.environment === null, 'episode.environment must be null after close()');
  ok('close ends it');
  return { checked, envId: reset.info.envId };
}
