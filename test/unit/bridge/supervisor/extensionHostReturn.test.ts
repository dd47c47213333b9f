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
  const stop = watchExtensionHostReturn({
    link, canReload, reload: () => reloads.push(timers.length), log: () => undefined,
    after: (ms, fn) => { const t = { ms, fn, cancelled: false }; timers.push(t); return () => { t.cancelled = true; }; },
  });
  const fire = () => { const t = timers.filter((x) => !x.cancelled).pop(); assert.ok(t, 'a timer is armed'); t.cancelled = true; t.fn(); };
  const armed = () => timers.filter((x) => !x.cancelled).length;
  return { link, timers, reloads, stop, fire, armed };
}

describe('the extension host brought back by the bridge', () => {
  it('reloads the window once the host has been away 30 s, and again while none comes back', () => {
    const w = setUp();
    w.link.set(false);
    assert.deepEqual([w.armed(), w.timers[0].ms], [1, 30_000]);
    w.fire();
    assert.equal(w.reloads.length, 1);
    assert.equal(w.armed(), 1, 'watching the reload too');
    w.fire();
    assert.equal(w.reloads.length, 2);
    w.link.set(true);
    assert.equal(w.armed(), 0);
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
