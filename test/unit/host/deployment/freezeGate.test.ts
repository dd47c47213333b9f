import { strict as assert } from 'node:assert';
import { NotAvailableError } from '../../../../bridge/protocol';
import { forgetGate, freezeWhenIdle, thaw, whileThawed } from '../../../../host/deployment/freezeGate';

/** A promise and its resolver. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((r) => { open = r; });
  return { open, opened };
}
const tick = () => new Promise((r) => setImmediate(r));

describe('freezeGate: docker exec and the freezer kept apart (an exec started in a frozen cgroup wedges the container)', () => {
  let id = 0;
  let c: string;
  beforeEach(() => { c = `container-${++id}`; });
  afterEach(() => forgetGate(c));

  it('a pause waits for the exec under way to end before it freezes', async () => {
    const events: string[] = [];
    const exec = gate();
    const running = whileThawed(c, async () => { events.push('exec start'); await exec.opened; events.push('exec end'); });
    await tick();
    const frozen = freezeWhenIdle(c, async () => { events.push('pause'); }, { waitMs: 60_000 });
    await tick();
    assert.deepEqual(events, ['exec start'], 'not frozen while the exec runs');
    exec.open();
    await running;
    assert.equal(await frozen, true);
    assert.deepEqual(events, ['exec start', 'exec end', 'pause']);
  });

  it('an exec asked for while frozen starts only after the thaw', async () => {
    const events: string[] = [];
    await freezeWhenIdle(c, async () => { events.push('pause'); }, { waitMs: 1000 });
    const ran = whileThawed(c, async () => { events.push('exec'); });
    await tick();
    assert.deepEqual(events, ['pause']);
    await thaw(c, async () => { events.push('unpause'); });
    await ran;
    assert.deepEqual(events, ['pause', 'unpause', 'exec']);
  });

  it('a pause whose execs do not end in time freezes nothing and lets new execs run', async () => {
    const exec = gate();
    const running = whileThawed(c, () => exec.opened);
    let paused = false;
    assert.equal(await freezeWhenIdle(c, async () => { paused = true; }, { waitMs: 20 }), false);
    assert.equal(paused, false);
    await whileThawed(c, async () => undefined); // not held back
    exec.open();
    await running;
  });

  it('a held pause (a person looking) refuses commands at once, typed', async () => {
    await freezeWhenIdle(c, async () => undefined, { waitMs: 1000, held: true });
    await assert.rejects(whileThawed(c, async () => undefined), (err: Error) => err instanceof NotAvailableError && /paused/.test(err.message));
    await thaw(c, async () => undefined);
    await whileThawed(c, async () => undefined);
  });

  it('a failed unpause keeps commands waiting rather than starting them in a frozen container', async () => {
    await freezeWhenIdle(c, async () => undefined, { waitMs: 1000 });
    await assert.rejects(thaw(c, async () => { throw new Error('engine said no'); }), /engine said no/);
    let ran = false;
    void whileThawed(c, async () => { ran = true; });
    await tick();
    assert.equal(ran, false);
    await thaw(c, async () => undefined);
    await tick();
    assert.equal(ran, true);
  });
});
