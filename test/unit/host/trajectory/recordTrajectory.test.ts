// RecordTrajectory on the fake deployment (no Docker): the person's input is recorded once,
// from the episode's reset on, also when the session attaches to an environment a person has
// used already (pwp mcp --env), and the header says whether the Env's rewards mean anything.
import { strict as assert } from 'node:assert';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Env } from '../../../../host/env/env';
import { RecordTrajectory } from '../../../../host/trajectory/recordTrajectory';
import { readTrajectory } from '../../../../host/trajectory/trajectoryFile';
import { FakeDeployment, SETTLE } from '../../../support/fakeDeployment';

const key = (name: string) => ({ kind: 'key' as const, down: true, keysym: name.charCodeAt(0), name });
const humanKeys = (dir: string) => readTrajectory(dir).records.flatMap((r) => (r.type === 'human' && r.event.kind === 'key' ? [r.event.name] : []));

describe('RecordTrajectory: the person\'s input, once', () => {
  let fake: FakeDeployment;
  const opened: Env[] = [];
  beforeEach(() => { fake = new FakeDeployment(); });
  afterEach(async () => {
    for (const e of opened.splice(0)) await e.close().catch(() => undefined);
    for (const id of fake.live) await fake.remove(id);
  });

  it('attached to an environment a person has typed in, records only what they type after the session began, each key once', async () => {
    const owner = new Env({ deployment: fake, settle: SETTLE, observe: [] });
    opened.push(owner);
    const { info } = await owner.reset();
    const control = fake.environment(info.envId).bridge.control;
    control.record(key('a'));
    control.record(key('b'));

    const dir = mkdtempSync(join(tmpdir(), 'pwp-record-'));
    const session = new RecordTrajectory(await Env.attach(info.envId, { deployment: fake, settle: SETTLE, observe: [] }), dir, { humanPollMs: 20 });
    await session.reset(); // begins in place: the environment is the same, its log goes back before the session
    await session.flushHuman();
    control.record(key('c'));
    await session.step({ type: 'key', keys: 'x' });
    control.record(key('d'));
    await session.reset(); // again in place: what was recorded is not recorded again
    control.record(key('e'));
    await session.flushHuman();
    await session.close();
    assert.deepEqual(humanKeys(dir), ['c', 'd', 'e']);
    assert.equal(readTrajectory(dir).header?.meta.rewarded, false, 'an Env without a reward function says so');
  });

  it('in a new environment, records the person\'s input of each episode, the last one\'s too', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pwp-record-'));
    const env = new RecordTrajectory(new Env({ deployment: fake, settle: SETTLE, observe: [], reward: async () => 1 }), dir, { humanPollMs: 0 });
    const first = await env.reset();
    fake.environment(first.info.envId).bridge.control.record(key('p'));
    const second = await env.reset(); // a new container: the first episode's input is collected before it goes
    fake.environment(second.info.envId).bridge.control.record(key('q'));
    await env.close();
    assert.deepEqual(humanKeys(dir), ['p', 'q']);
    assert.equal(readTrajectory(dir).header?.meta.rewarded, true);
  });
});
