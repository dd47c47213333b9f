// Waits until the screen stops changing (no change for a quiet window, with a cap)
// instead of sleeping a fixed time after an action. After input, it first waits until the IDE
// window has taken the input in (input.sync): a screen that has not changed yet only proves
// that, on a loaded machine, the browser has not got to the keys.
import type { BridgeClient } from '../client/bridgeClient';

export interface SettleOptions { quietMs?: number; capMs?: number; pollMs?: number }

/** How long a step waits for the IDE window to take its input in before relying on the screen alone. */
const INPUT_SYNC_MS = 30_000;
export interface Settled {
  settled: boolean;
  waitedMs: number;
  /** After input: whether the IDE window was seen to take it in (input.sync), and why not. */
  inputHandled?: boolean;
  inputNotHandled?: string;
}

export async function waitForSettle(client: BridgeClient, opts: SettleOptions = {}, afterInput = false): Promise<Settled> {
  const quietMs = opts.quietMs ?? 150;
  const capMs = opts.capMs ?? 3000;
  const pollMs = opts.pollMs ?? 30;
  const t0 = Date.now();
  const input = afterInput ? await client.call('input.sync', { timeoutMs: INPUT_SYNC_MS }) : undefined;
  const synced = input ? { inputHandled: input.handled, ...(input.reason ? { inputNotHandled: input.reason } : {}) } : {};
  const t1 = Date.now();
  const result = await quiet(client, quietMs, capMs, pollMs);
  return { ...result, waitedMs: result.waitedMs + (t1 - t0), ...synced };
}

async function quiet(client: BridgeClient, quietMs: number, capMs: number, pollMs: number): Promise<Settled> {
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
