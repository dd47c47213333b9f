// Waits until the screen stops changing (no change for a quiet window, with a cap)
// instead of sleeping a fixed time after an action.
import type { BridgeClient } from '../../client/bridgeClient';

export interface SettleOptions { quietMs?: number; capMs?: number; pollMs?: number }
export interface Settled { settled: boolean; waitedMs: number }

export async function waitForSettle(client: BridgeClient, opts: SettleOptions = {}): Promise<Settled> {
  const quietMs = opts.quietMs ?? 150;
  const capMs = opts.capMs ?? 3000;
  const pollMs = opts.pollMs ?? 30;
  const t0 = Date.now();
  await client.call('capture.delta', { includeImage: false, baseline: 'settle' });
  let lastChange = Date.now();
  while (Date.now() - t0 < capMs) {
    await new Promise((r) => setTimeout(r, pollMs));
    const d = await client.call('capture.delta', { includeImage: false, baseline: 'settle' });
    if (d.changed) lastChange = Date.now();
    else if (Date.now() - lastChange >= quietMs) return { settled: true, waitedMs: Date.now() - t0 };
  }
  return { settled: false, waitedMs: Date.now() - t0 };
}
