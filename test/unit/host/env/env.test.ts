// The Env itself (reset, step, observe, reward, pause, render, checkpoint, close) on the fake
// deployment (test/support/fakeDeployment.ts): the real Env, bridge client, RPC server and
// dispatcher with its protocol checks, over a pretend IDE in a temporary folder, so these run
// in seconds without Docker. test/integration/envCheckpoint.test.ts runs the same contract in a real container.
import { strict as assert } from 'node:assert';
import { createReadStream, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InvalidParamsError, NotAvailableError, TargetClosedError } from '../../../../bridge/protocol';
import { CheckpointStore } from '../../../../host/checkpoint/checkpointStore';
import { startFromCheckpoint } from '../../../../host/checkpoint/restore';
import { BridgeClient } from '../../../../host/client/bridgeClient';
import { eventually } from '../../../../host/common/eventually';
import { readTar } from '../../../../host/deployment/tarArchive';
import { Env, EpisodeOverError, type RewardContext } from '../../../../host/env/env';
import { ANIMATION_FRAMES } from '../../../support/fakeBridge';
import { FakeDeployment, SETTLE } from '../../../support/fakeDeployment';

describe('Env on the fake deployment (no Docker)', () => {
  let fake: FakeDeployment;
  let env: Env | undefined;
  beforeEach(() => { fake = new FakeDeployment(); });
  afterEach(async () => {
    await env?.close();
    env = undefined;
    assert.deepEqual(fake.live, [], 'every environment the test made is removed');
  });

  it('reset starts an environment, waits for it, and returns a PNG observation and info', async () => {
    env = new Env({ deployment: fake, settle: SETTLE });
    const { observation, info } = await env.reset({ seed: 3 });
    assert.deepEqual(fake.live, [info.envId]);
    assert.equal(info.seed, 3);
    assert.deepEqual([info.pooled, info.staged], [false, false]);
    assert.equal(info.settle.settled, true);
    const shot = observation.screenshot!;
    assert.equal(shot.format, 'png');
    assert.deepEqual([shot.width, shot.height], [320, 200]);
    assert.equal(shot.data.subarray(1, 4).toString(), 'PNG');
    assert.ok(fake.environment(info.envId).bridge.callsOf('proc.waitReady').length === 1, 'reset waited for readiness');
  });

  it('puts reset options in place: files and settings before the IDE starts, editors opened', async () => {
    env = new Env({ deployment: fake, settle: SETTLE, observe: ['ide'] });
    const { observation, info } = await env.reset({ options: { files: { 'src/a.txt': 'alpha\n' }, settings: { 'editor.fontSize': 19 }, open: ['src/a.txt'] } });
    const { runtime } = fake.environment(info.envId);
    assert.equal((await runtime.readFile('/workspace/src/a.txt'))?.toString(), 'alpha\n');
    const settings = JSON.parse((await runtime.readFile('/home/pwp/ide/user-data/User/settings.json'))!.toString()) as Record<string, unknown>;
    assert.equal(settings['editor.fontSize'], 19, 'the reset\'s setting, merged into the image defaults');
    assert.ok(Object.keys(settings).length > 1, 'the image defaults are kept beside it');
    assert.equal(observation.ide?.activeEditor?.path, '/workspace/src/a.txt');
  });

  it('steps: input settles (the screen stops changing) before the observation, which is the screen as it then is', async () => {
    env = new Env({ deployment: fake, settle: SETTLE });
    const { info } = await env.reset();
    const bridge = fake.environment(info.envId).bridge;
    const before = bridge.frame;
    const r = await env.step({ type: 'key', keys: 'ctrl+p' });
    assert.deepEqual([r.terminated, r.truncated, r.reward, r.info.step, r.info.error], [false, false, 0, 1, undefined]);
    assert.equal(r.info.settle?.settled, true);
    assert.equal(r.info.settle?.inputHandled, true, 'the step waited for input.sync');
    assert.equal(bridge.frame, before + 1 + ANIMATION_FRAMES, 'the animation after the key ran to its end');
    assert.deepEqual(await env.render(), r.observation.screenshot!.data, 'the observation is the settled screen');
    assert.notDeepEqual(r.observation.screenshot!.data, (await env.reset()).observation.screenshot!.data, 'another episode, another screen');
  });

  it('observes exactly the kinds asked for, with the wire\'s shapes', async () => {
    env = new Env({ deployment: fake, settle: SETTLE, observe: [] });
    const { observation } = await env.reset({ options: { files: { 'x.py': 'print(1)\n' }, open: ['x.py'] } });
    assert.deepEqual(Object.keys(observation), ['timings']);
    const o = await env.observe(['marks', 'cursor', 'focused', 'delta', 'ide', 'marksImage']);
    assert.equal(o.screenshot, undefined);
    assert.match(o.marks!.text, /^\[1\] \[tab\] \[Explorer\]$/m);
    assert.deepEqual(o.cursor, { x: 0, y: 0 });
    assert.equal(o.focused?.part, 'editor');
    assert.equal(o.delta?.changed, true, 'the first delta of a connection is the whole screen');
    assert.equal(o.ide?.openEditors[0], '/workspace/x.py');
    assert.equal(o.marksImage?.marks.length, 3);
    assert.equal(o.errors, undefined);
    assert.equal((await env.observe(['delta'])).delta?.changed, false, 'nothing moved since');
  });

  it('typing goes into the active editor and ctrl+s saves it; reward reads the file as it is now', async () => {
    const seen: Pick<RewardContext, 'step' | 'answer'>[] = [];
    env = new Env({
      deployment: fake, settle: SETTLE, observe: ['ide'],
      reward: async (ctx) => { seen.push({ step: ctx.step, answer: ctx.answer }); return (await ctx.readFile('notes.txt')).includes('hello') ? 1 : 0; },
    });
    await env.reset({ options: { files: { 'notes.txt': '' }, open: ['notes.txt'] } });
    const typed = await env.step({ type: 'type', text: 'hello' });
    assert.deepEqual(typed.observation.ide?.dirtyFiles, ['/workspace/notes.txt']);
    assert.equal(typed.reward, 0, 'the reward function runs on done only (by default)');
    assert.equal(await env.reward(), 0, 'not saved yet');
    await env.step({ type: 'key', keys: 'ctrl+s' });
    const done = await env.step({ type: 'done', answer: 'saved' });
    assert.deepEqual([done.terminated, done.reward, done.info.answer, done.info.settle], [true, 1, 'saved', null]);
    assert.deepEqual(seen.at(-1), { step: 3, answer: 'saved' });
    assert.equal(env.answerGiven, 'saved');
    await assert.rejects(env.step({ type: 'wait', ms: 0 }), EpisodeOverError);
  });

  it('pause freezes the environment: steps are refused, the bridge answers nothing, and resume brings both back', async () => {
    env = new Env({ deployment: fake, settle: SETTLE });
    const { info } = await env.reset();
    const e = fake.environment(info.envId);
    await env.pause();
    assert.equal(e.paused, true);
    assert.equal((await fake.get(info.envId)).state, 'paused');
    await assert.rejects(env.step({ type: 'key', keys: 'a' }), (err: unknown) => err instanceof NotAvailableError && /paused/.test((err as Error).message));
    // A client of its own: the frozen bridge leaves the call unanswered until the thaw.
    const where = await fake.get(info.envId);
    const other = await BridgeClient.connect(where.bridgeUrl, where.token);
    let answered = false;
    const status = other.call('ide.status', {}).then((s) => { answered = true; return s; });
    await eventually(async () => e.bridge.held, (n) => n === 1, 60_000, 'the call is held by the frozen bridge');
    assert.equal(answered, false);
    await env.resume();
    assert.equal((await status).appName, 'fake IDE');
    other.close();
    assert.equal((await env.step({ type: 'key', keys: 'a' })).info.error, undefined);
  });

  it('a step before reset and a step after close are refused with NotAvailableError', async () => {
    env = new Env({ deployment: fake, settle: SETTLE });
    await assert.rejects(env.step({ type: 'key', keys: 'a' }), NotAvailableError);
    await env.reset();
    await env.close();
    await assert.rejects(env.step({ type: 'key', keys: 'a' }), NotAvailableError);
  });

  it('close removes the environment: its bridge is gone and its folder deleted; a second reset removes the first', async () => {
    env = new Env({ deployment: fake, settle: SETTLE });
    const first = (await env.reset()).info;
    const firstRoot = fake.environment(first.envId).runtime.root;
    const second = (await env.reset()).info;
    assert.notEqual(second.envId, first.envId);
    const secondRoot = fake.environment(second.envId).runtime.root;
    const secondInfo = await fake.get(second.envId);
    await env.close();
    assert.deepEqual(fake.live, []);
    assert.deepEqual(fake.removed.sort(), [first.envId, second.envId].sort());
    assert.deepEqual([existsSync(firstRoot), existsSync(secondRoot)], [false, false]);
    await assert.rejects(BridgeClient.connect(secondInfo.bridgeUrl, secondInfo.token), TargetClosedError);
  });

  it('hands off to a person: agent input waits while the person holds control, and the answer comes back', async () => {
    env = new Env({ deployment: fake, settle: SETTLE });
    const { info } = await env.reset();
    const where = await fake.get(info.envId);
    const person = await BridgeClient.connect(where.bridgeUrl, where.token);
    try {
      const handOff = env.handOff('please log in', { timeoutMs: 60_000 });
      await eventually(() => person.call('control.status', {}), (s) => s.holder === 'human', 60_000, 'the person holds control');
      // The agent's input is held by the real control gate until the person hands back.
      const bridge = fake.environment(info.envId).bridge;
      let typed = false;
      const agentInput = env.client.call('input.type', { text: 'x' }).then(() => { typed = true; });
      // A call sent after it on the same connection has come back: the input reached the bridge and is held there.
      await env.client.call('ide.status', {});
      assert.deepEqual([typed, bridge.callsOf('input.type').length], [false, 0]);
      await person.call('control.handBack', { answer: 'done, logged in' });
      const status = await handOff;
      await agentInput;
      assert.deepEqual([status.holder, status.answer, typed], ['agent', 'done, logged in', true]);
    } finally { person.close(); }
  });

  it('query answers read-only methods and refuses those that change the environment', async () => {
    env = new Env({ deployment: fake, settle: SETTLE });
    await env.reset();
    assert.equal((await env.query('ide.status', {})).appName, 'fake IDE');
    await assert.rejects(env.query('input.key', { keys: 'a' }), (e: unknown) => e instanceof InvalidParamsError && /send it as an action/.test((e as Error).message));
  });

  it('attach puts an Env on a running environment; reset begins in place and close leaves it running', async () => {
    const owner = new Env({ deployment: fake, settle: SETTLE });
    env = owner;
    const { info } = await owner.reset();
    const attached = await Env.attach(info.envId, { deployment: fake, settle: SETTLE });
    const r = await attached.reset({ options: { files: { 'in-place.txt': 'here' } } });
    assert.deepEqual([r.info.envId, r.info.attached, r.info.startMs], [info.envId, true, 0]);
    assert.equal((await attached.readFile('in-place.txt'))?.toString(), 'here');
    await attached.close();
    assert.deepEqual(fake.live, [info.envId], 'an attached Env does not remove what it did not start');
    assert.equal((await owner.step({ type: 'key', keys: 'a' })).info.error, undefined, 'the owner still drives it');
  });

  it('takes a checkpoint: the workspace, unsaved editors and the editor layout, read while frozen', async () => {
    const store = new CheckpointStore(mkdtempSync(join(tmpdir(), 'pwp-fake-checkpoints-')));
    try {
      env = new Env({ deployment: fake, settle: SETTLE, checkpoints: store });
      await env.reset({ options: { files: { 'a.txt': 'A', 'b.txt': 'B' }, open: ['a.txt', 'b.txt'] } });
      await env.step({ type: 'type', text: '+typed' });
      const m = await env.checkpoint('c1');
      assert.equal(m.frozen, true, 'a runtime that works from outside reads the archives frozen');
      assert.deepEqual(m.editors.tabs.map((t) => [t.path, t.active, t.dirty]), [['/workspace/a.txt', false, false], ['/workspace/b.txt', true, true]]);
      assert.deepEqual(m.unsaved, [{ path: '/workspace/b.txt', text: 'B+typed' }]);
      const dir = store.list().find((c) => c.name === 'c1')!.dir;
      const files = await readTar(createReadStream(join(dir, m.files.workspace)));
      assert.equal(files.get('workspace/a.txt')?.toString(), 'A');
      await assert.rejects(env.checkpoint('c2', { criu: true }), (e: unknown) => e instanceof NotAvailableError && /CRIU/.test((e as Error).message));
    } finally { rmSync(store.root, { recursive: true, force: true }); }
  });

  it('a restore into a new container that fails after the start removes that container and says why', async () => {
    const store = new CheckpointStore(mkdtempSync(join(tmpdir(), 'pwp-fake-checkpoints-')));
    try {
      env = new Env({ deployment: fake, settle: SETTLE, checkpoints: store });
      await env.reset({ options: { files: { 'a.txt': 'A', 'b.txt': 'B' }, open: ['a.txt', 'b.txt'] } });
      // The checkpoint keeps a.txt's editor but not the file: reopening it fails in the new IDE.
      await env.exec(['rm', '/workspace/a.txt']);
      await env.checkpoint('gone');
      const live = [...fake.live];
      await assert.rejects(startFromCheckpoint(fake, 'gone', {}, store), (e: unknown) => e instanceof InvalidParamsError && /a\.txt does not exist/.test((e as Error).message));
      assert.equal(fake.created.length, live.length + 1, 'the restore started an environment');
      assert.deepEqual(fake.live, live, 'and removed it again');
    } finally { rmSync(store.root, { recursive: true, force: true }); }
  });
});
