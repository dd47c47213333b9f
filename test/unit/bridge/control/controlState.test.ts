import { strict as assert } from 'node:assert';
import { ControlState, MAX_EVENTS } from '../../../../bridge/control/controlState';
import { TimeoutError } from '../../../../bridge/protocol';

describe('control state (hand-off between agent and person)', () => {
  it('lets agent input through while the agent holds control', async () => {
    const c = new ControlState();
    await c.agentTurn('input.key');
    assert.equal(c.status().holder, 'agent');
  });

  it('holds agent input while the person has control and releases it on hand-back', async () => {
    const c = new ControlState();
    c.request('please log in', 0, 60_000);
    assert.equal(c.status().holder, 'human');
    assert.equal(c.status().message, 'please log in');
    let released = false;
    const waiting = c.agentTurn('input.type').then(() => { released = true; });
    // A negative check: nothing may release it before the hand-back (a slow machine only makes it weaker).
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(released, false, 'input went through while the person had control');
    c.handBack();
    await waiting;
    assert.equal(released, true);
    assert.equal(c.status().message, null);
  });

  it('fails agent input with TimeoutError once its wait bound passes', async () => {
    const c = new ControlState();
    c.request('help', 0, 30);
    await assert.rejects(c.agentTurn('input.click'), (e: unknown) => e instanceof TimeoutError && /still has control/.test((e as Error).message));
  });

  it('returns control to the agent by itself after the request timeout', async () => {
    const c = new ControlState();
    const s = c.request('help', 40, 1000);
    assert.ok(s.returnsAt !== null);
    const back = await c.wait('agent', 60_000);
    assert.equal(back.holder, 'agent');
    c.dispose();
  });

  it('numbers human events and pages through them with since/next, reporting dropped ones', () => {
    const c = new ControlState();
    for (let i = 0; i < 5; i++) c.record({ kind: 'key', down: true, keysym: 0x61 + i, name: 'x' });
    const a = c.eventsSince(0, 3);
    assert.deepEqual(a.events.map((e) => e.seq), [1, 2, 3]);
    const b = c.eventsSince(a.next, 10);
    assert.deepEqual(b.events.map((e) => e.seq), [4, 5]);
    assert.equal(c.eventsSince(b.next, 10).events.length, 0);
    assert.equal(c.eventsSince(b.next, 10).next, 5);
    for (let i = 0; i < MAX_EVENTS + 10; i++) c.record({ kind: 'pointer', x: 1, y: 1, buttons: 0, action: 'move' });
    const late = c.eventsSince(5, 1);
    // 10 015 recorded, the latest 10 000 kept: events 6..15 are gone.
    assert.equal(late.dropped, 10);
    assert.equal(late.events[0].seq, 16);
    // A `since` from before a bridge restart (beyond the count) starts over.
    assert.equal(new ControlState().eventsSince(99, 10).next, 0);
  });
});
