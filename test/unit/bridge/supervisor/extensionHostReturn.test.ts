// The bridge brings the kiosk window's extension host back when VS Code does not restart it
// (bridge/supervisor/extensionHostReturn.ts), with a stand-in link and timers run by hand. For
// real, in a container: test/integration/ideState.test.ts kills the extension host three times in
// five minutes, the third of which VS Code leaves alone.
import { strict as assert } from 'node:assert';
import { EventEmitter } from 'node:events';
import { watchExtensionHostReturn } from '../../../../bridge/supervisor/extensionHostReturn';

class Link extends EventEmitter {
  connected = true;
  set(up: boolean) { this.connected = up; this.emit('change'); }
}

function setUp(canReload = () => true) {
  const link = new Link();
  const timers: { ms: number; fn: () => void; cancelled: boolean }[] = [];
  const reloads: number[] = [];
  const watch = watchExtensionHostReturn({
    link, canReload, reload: () => reloads.push(timers.length), log: () => undefined,
    after: (ms, fn) => { const t = { ms, fn, cancelled: false }; timers.push(t); return () => { t.cancelled = true; }; },
  });
  const fire = () => { const t = timers.filter((x) => !x.cancelled).pop(); assert.ok(t, 'a timer is armed'); t.cancelled = true; t.fn(); };
  const armed = () => timers.filter((x) => !x.cancelled).length;
  const last = () => timers.filter((x) => !x.cancelled).pop()!;
  return { link, timers, reloads, stop: () => watch.stop(), rendered: () => watch.rendered(), fire, armed, last };
}

describe('the extension host brought back by the bridge', () => {
  it('reloads the window once the host has been away 30 s, and again, waiting twice as long each time up to 4 minutes, while none comes back', () => {
    const w = setUp();
    w.link.set(false);
    assert.deepEqual([w.armed(), w.last().ms], [1, 30_000]);
    const waits: number[] = [];
    for (let i = 0; i < 5; i++) { waits.push(w.last().ms); w.fire(); }
    assert.deepEqual(waits, [30_000, 60_000, 120_000, 240_000, 240_000]);
    assert.equal(w.reloads.length, 5);
    assert.equal(w.armed(), 1, 'watching the last reload too');
    w.link.set(true);
    assert.equal(w.armed(), 0);
    w.link.set(false);
    assert.equal(w.last().ms, 30_000, 'a host that came back starts the count again');
  });

  it('counts from the workbench\'s last render: a host starting slowly after a reload is not cut short', () => {
    const w = setUp();
    w.link.set(false);
    const first = w.last();
    w.rendered();
    assert.ok(first.cancelled, 'the wait started at the leaving is replaced');
    assert.deepEqual([w.armed(), w.reloads.length], [1, 0]);
    w.link.set(true);
    w.rendered();
    assert.equal(w.armed(), 0, 'a render with the host there starts no wait');
  });

  it('leaves a host that comes back in time alone, and does nothing before the first connection is lost', () => {
    const w = setUp();
    w.link.emit('change');
    assert.equal(w.armed(), 0);
    w.link.set(false);
    w.link.set(false);
    assert.equal(w.armed(), 1, 'one timer for one absence');
    w.link.set(true);
    assert.deepEqual([w.armed(), w.reloads.length], [0, 0]);
  });

  it('does not reload while it cannot (a restore has the window parked, a process restarts) but looks again, and stops with the bridge', () => {
    let can = false;
    const w = setUp(() => can);
    w.link.set(false);
    w.fire();
    assert.deepEqual([w.reloads.length, w.armed()], [0, 1]);
    can = true;
    w.fire();
    assert.equal(w.reloads.length, 1);
    w.stop();
    assert.equal(w.armed(), 0);
    w.link.set(true);
    w.link.set(false);
    assert.equal(w.armed(), 0);
  });
});
