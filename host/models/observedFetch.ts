// The SDKs retry transient failures (429, 408, 409, 5xx, dropped connections) with exponential
// backoff and honour retry-after headers. This fetch sits under them so every attempt is
// seen: the agent records attempts per request, and a retry is never invisible.
import type { HttpAttempt } from './conversation';
import type { ModelSpec } from './modelConfig';

export interface AttemptLog {
  attempts: HttpAttempt[];
}

/** A fetch that appends each attempt to `log.attempts` (the caller resets it per request). */
export function observedFetch(log: AttemptLog, inner: typeof fetch = fetch): typeof fetch {
  return async (input, init) => {
    const t0 = performance.now();
    try {
      const res = await inner(input, init);
      log.attempts.push({ status: res.status, ms: Math.round(performance.now() - t0) });
      return res;
    } catch (err) {
      log.attempts.push({ status: null, ms: Math.round(performance.now() - t0), error: (err as Error).message });
      throw err;
    }
  };
}

/** The options both SDK clients take from a model spec, with the observed fetch under them. */
export function sdkOptions(
  spec: ModelSpec,
  log: AttemptLog,
): { apiKey: string | undefined; baseURL: string | undefined; maxRetries: number; timeout: number; fetch: typeof fetch } {
  return { apiKey: spec.apiKey, baseURL: spec.baseURL, maxRetries: spec.maxRetries, timeout: spec.timeoutMs, fetch: observedFetch(log) };
}
