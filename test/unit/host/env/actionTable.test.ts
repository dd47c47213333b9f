// Every kind of action, stepped through the real Env on the fake deployment, makes the bridge
// call (or the command, or the file write) the action table says, with the params the bridge
// receives after the protocol's defaults; bad actions come back as typed errors in info.error
// naming the field, whether the Env's own check or the bridge's refuses them.
import { strict as assert } from 'node:assert';
import { Env, stepError, type StepResult } from '../../../../host/env/env';
import { Action, type ActionType } from '../../../../host/env/actions';
import type { FakeBridge } from '../../../support/fakeBridge';
import { FakeDeployment, SETTLE } from '../../../support/fakeDeployment';
import { InvalidParamsError, MethodNotFoundError } from '../../../../bridge/protocol';

/** What settling and observing call after every step; the rest is what the action did. */
const AROUND_A_STEP = new Set(['capture.delta', 'capture.screenshot', 'input.sync']);

describe('the action table, through the Env on the fake deployment', () => {
  let fake: FakeDeployment;
  let env: Env;
  let bridge: FakeBridge;
  before(async () => {
    fake = new FakeDeployment({ tools: { echo: (args) => ({ content: [{ type: 'text', text: JSON.stringify(args) }] }) } });
    env = new Env({ deployment: fake, settle: SETTLE });
    const { info } = await env.reset({ options: { files: { 'f.txt': 'x' } } });
    bridge = fake.environment(info.envId).bridge;
    await env.observe(['marks']);
  });
  after(async () => {
    await env.close();
    assert.deepEqual(fake.live, []);
  });

  /** Steps `action` and returns the bridge calls it made, apart from settling and observing. */
  async function callsOf(action: Action): Promise<{ r: StepResult; calls: { method: string; params: unknown }[] }> {
    const from = bridge.calls.length;
    const r = await env.step(action);
    return { r, calls: bridge.calls.slice(from).filter((c) => !AROUND_A_STEP.has(c.method)) };
  }

  const cases: { action: Action; method: string; params: Record<string, unknown> }[] = [
    { action: { type: 'key', keys: 'ctrl+shift+p', repeat: 2 }, method: 'input.key', params: { keys: 'ctrl+shift+p', repeat: 2 } },
    { action: { type: 'type', text: 'héllo' }, method: 'input.type', params: { text: 'héllo' } },
    { action: { type: 'click', x: 10, y: 20 }, method: 'input.click', params: { x: 10, y: 20, button: 'left', count: 1, modifiers: [] } },
    { action: { type: 'click', mark: 2, modifiers: ['ctrl'] }, method: 'input.click', params: { mark: 2, button: 'left', count: 1, modifiers: ['ctrl'] } },
    { action: { type: 'double_click', x: 5, y: 6 }, method: 'input.click', params: { x: 5, y: 6, button: 'left', count: 2, modifiers: [] } },
    { action: { type: 'right_click', mark: 1 }, method: 'input.click', params: { mark: 1, button: 'right', count: 1, modifiers: [] } },
    { action: { type: 'move', x: 30, y: 40 }, method: 'input.move', params: { x: 30, y: 40 } },
    { action: { type: 'drag', from: { x: 1, y: 2 }, to: { x: 3, y: 4 } }, method: 'input.drag', params: { from: { x: 1, y: 2 }, to: { x: 3, y: 4 }, button: 'left', steps: 10 } },
    { action: { type: 'scroll', direction: 'down', x: 7, y: 8 }, method: 'input.scroll', params: { x: 7, y: 8, direction: 'down', amount: 3 } },
    { action: { type: 'xdotool', command: 'xdotool mousemove 10 20 click 1' }, method: 'input.xdotool', params: { command: 'xdotool mousemove 10 20 click 1' } },
    { action: { type: 'xdotool', argv: ['key', 'ctrl+s'] }, method: 'input.xdotool', params: { argv: ['key', 'ctrl+s'] } },
    { action: { type: 'tool', name: 'echo', args: { a: 1 } }, method: 'tools.call', params: { name: 'echo', args: { a: 1 } } },
    {
      action: { type: 'ide', method: 'ide.settings.update', params: { key: 'editor.tabSize', value: 2 } },
      method: 'ide.settings.update', params: { key: 'editor.tabSize', value: 2, target: 'user' },
    },
  ];
  for (const c of cases) {
    it(`${JSON.stringify(c.action)} is one ${c.method} call`, async () => {
      const { r, calls } = await callsOf(c.action);
      assert.equal(r.info.error, undefined, r.info.error?.message);
      assert.equal(calls.length, 1, JSON.stringify(calls));
      assert.equal(calls[0].method, c.method);
      assert.deepEqual(calls[0].params, c.params);
      assert.equal(r.info.settle?.settled, true);
      assert.equal(r.info.settle?.inputHandled !== undefined, c.method.startsWith('input.'), 'input waits for input.sync; other calls do not');
    });
  }

  it('a click says where it landed, at the mark\'s point for a mark', async () => {
    const { r } = await callsOf({ type: 'click', mark: 3 });
    assert.deepEqual(r.info.at, bridge.marks.find((m) => m.id === 3)!.point);
    assert.deepEqual(bridge.cursor, r.info.at);
  });

  it('tool and ide actions return what was answered', async () => {
    assert.deepEqual((await env.step({ type: 'tool', name: 'echo', args: { b: 2 } })).info.toolResult, { content: [{ type: 'text', text: '{"b":2}' }] });
    assert.equal(((await env.step({ type: 'ide', method: 'ide.status' })).info.toolResult as { appName: string }).appName, 'fake IDE');
  });

  it('exec runs in /workspace (or cwd under it) and returns its output; write_file writes there', async () => {
    const { r, calls } = await callsOf({ type: 'exec', argv: ['cat', 'f.txt'] });
    assert.deepEqual(calls, [], 'a command is the runtime\'s, not a bridge call');
    assert.deepEqual([r.info.execResult?.exitCode, r.info.execResult?.stdout], [0, 'x']);
    assert.equal((await env.step({ type: 'write_file', path: 'sub/new.txt', content: 'n' })).info.error, undefined);
    assert.equal((await env.readFile('sub/new.txt'))?.toString(), 'n');
    assert.equal((await env.step({ type: 'write_file', path: '/workspace/b.bin', contentBase64: Buffer.from([1, 2]).toString('base64') })).info.error, undefined);
    assert.deepEqual([...(await env.readFile('b.bin'))!], [1, 2]);
    const inSub = await env.step({ type: 'exec', argv: ['pwd'], cwd: 'sub' });
    assert.match(inSub.info.execResult!.stdout, /\/workspace\/sub\n$/);
  });

  it('wait makes no bridge call but settles', async () => {
    const w = await callsOf({ type: 'wait', ms: 1, quietMs: 5 });
    assert.deepEqual(w.calls, []);
    assert.equal(w.r.info.settle?.settled, true);
    assert.equal(w.r.info.settle?.inputHandled, undefined);
  });

  it('an action the Env cannot parse is refused before any call, with InvalidParamsError naming the field', async () => {
    for (const [bad, field] of [
      [{ type: 'scroll', direction: 'sideways' }, /action\.direction/],
      [{ type: 'click', x: -1, y: 0 }, /action\.x/],
      [{ type: 'key', keys: 'a', extra: true }, /extra/],
      [{ type: 'ide', method: 'ide.nonexistent' }, /action\.method/],
      [{ type: 'launch_missiles' }, /action\.type/],
    ] as const) {
      const { r, calls } = await callsOf(bad as unknown as Action);
      assert.deepEqual(calls, [], `${JSON.stringify(bad)} made no call`);
      assert.ok(stepError(r.info) instanceof InvalidParamsError, JSON.stringify(r.info.error));
      assert.match(r.info.error!.message, field);
      assert.equal(r.terminated, false);
    }
  });

  it('what the bridge refuses comes back typed in info.error, naming the field: a mark that is not on screen, ide params, an xdotool subcommand', async () => {
    const mark = await env.step({ type: 'click', mark: 99 });
    assert.ok(stepError(mark.info) instanceof InvalidParamsError);
    assert.match(mark.info.error!.message, /params\.mark: no mark 99/);
    const ide = await env.step({ type: 'ide', method: 'ide.editors.open', params: { editors: [] } });
    assert.ok(stepError(ide.info) instanceof InvalidParamsError);
    assert.match(ide.info.error!.message, /params\.editors/);
    const xdo = await env.step({ type: 'xdotool', command: 'xdotool exec rm -rf /' });
    assert.ok(stepError(xdo.info) instanceof InvalidParamsError);
    assert.match(xdo.info.error!.message, /'exec' is not allowed/);
    const tool = await env.step({ type: 'tool', name: 'nope' });
    assert.ok(stepError(tool.info) instanceof MethodNotFoundError);
    const notServed = await env.step({ type: 'ide', method: 'ide.debug' });
    assert.ok(stepError(notServed.info) instanceof MethodNotFoundError, 'a method nobody serves is MethodNotFoundError');
  });

  it('covers every kind of action (a new kind needs a case here)', () => {
    const kinds = new Set<ActionType>(Action.options.map((o) => o.shape.type.value));
    const covered = new Set<string>([...cases.map((c) => c.action.type), 'exec', 'write_file', 'wait', 'done']);
    assert.deepEqual([...kinds].filter((k) => !covered.has(k)), []);
  });

  it('done makes no call, does not settle, and ends the episode (the last case: later steps are refused)', async () => {
    const d = await callsOf({ type: 'done', answer: 'a' });
    assert.deepEqual(d.calls, []);
    assert.deepEqual([d.r.terminated, d.r.info.settle, d.r.info.answer], [true, null, 'a']);
    await assert.rejects(env.step({ type: 'key', keys: 'a' }), /the episode is over/);
  });
});
