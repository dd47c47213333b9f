// Waiting on state, not on time: task steps, task set-up and replays poll a read until it
// says what they wait for, within a bound, and say what they saw when it never came.

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `read` until `ok`, returning the last value; throws with it when time runs out. */
export async function eventually<T>(read: () => Promise<T>, ok: (v: T) => boolean, timeoutMs: number, what: string): Promise<T> {
  const end = Date.now() + timeoutMs;
  let last: T | undefined;
  let lastError: Error | undefined;
  for (;;) {
    try {
      last = await read();
      if (ok(last)) return last;
    } catch (err) { lastError = err as Error; }
    if (Date.now() > end) {
      // JSON.stringify(undefined) is undefined: a target that never appeared says so, not a TypeError.
      throw new Error(`${what} not reached within ${timeoutMs} ms; last: ${lastError ? lastError.message : (JSON.stringify(last) ?? 'nothing').slice(0, 500)}`);
    }
    await sleep(100);
  }
}
