// What every Runtime must do the same way, whichever way it reaches the container (the
// engine's API, the bridge): checked by runtime.test.ts and bridgeRuntime.test.ts.
import { strict as assert } from 'node:assert';
import type { Runtime } from '../../host/deployment/runtime';

/** argv as the IDE user in /workspace by default, as another user and folder when asked, never through a shell. */
export async function checkExecUsers(rt: Runtime): Promise<void> {
  const r = await rt.exec(['sh', '-c', 'id -un; pwd']);
  assert.deepEqual(r.stdout.trim().split('\n'), ['pwp', '/workspace']);
  const root = await rt.exec(['sh', '-c', 'id -un; pwd; echo oops >&2; exit 3'], { user: 'root', cwd: '/tmp', env: { X: '1' } });
  assert.deepEqual(root.stdout.trim().split('\n'), ['root', '/tmp']);
  assert.equal(root.stderr.trim(), 'oops');
  assert.equal(root.exitCode, 3);
  assert.equal((await rt.exec(['echo', '$(id -un); rm -rf /'])).stdout, '$(id -un); rm -rf /\n');
}

/** A deadline ends a command with exit code 124; output is kept up to maxOutputBytes. */
export async function checkTimeoutAndCap(rt: Runtime): Promise<void> {
  const slow = await rt.exec(['sleep', '30'], { timeoutSec: 1 });
  assert.deepEqual([slow.exitCode, slow.timedOut], [124, true]);
  const big = await rt.exec(['head', '-c', '100000', '/dev/zero'], { maxOutputBytes: 1000 });
  assert.deepEqual([big.exitCode, big.stdout.length], [0, 1000]);
}
