import { strict as assert } from 'node:assert';
import { SupervisedProcess } from '../../../../bridge/supervisor/supervisedProcess';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const alive = (pid: number) => { try { process.kill(pid, 0); return true; } catch { return false; } };

describe('a supervised process', () => {
  it('restarted by a dependency while its own crash restart is pending runs once, not twice', async () => {
    const spawned: number[] = [];
    const p = new SupervisedProcess({
      name: 'sleeper', command: 'sleep', args: ['600'], probe: async () => true, startTimeoutMs: 60_000,
      onSpawn: (child) => spawned.push(child.pid!),
    }, () => undefined);
    try {
      await p.start();
      const crashed = new Promise((r) => p.once('state', r));
      process.kill(spawned[0], 'SIGKILL');
      await crashed; // 'restarting': its own restart is scheduled now
      await p.restart(); // what the display's restart does to the browser
      const restarted = spawned.length;
      // The crash restart's timer (200 ms) was set before this one, so it has fired (and done
      // nothing, or spawned) by the time this one does, however slow the machine: timers fire in
      // the order they fall due. A slow machine cannot make this check fail falsely.
      await sleep(600);
      assert.equal(spawned.length, restarted, 'the pending crash restart started another process');
      assert.equal(p.state, 'ready');
      assert.equal(p.status().pid, spawned.at(-1));
      assert.deepEqual(spawned.filter(alive), [spawned.at(-1)]);
    } finally {
      await p.stop();
    }
  });
});
