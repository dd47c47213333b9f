// The figures the bench scripts compute from samples, in one place.

/** The p-th percentile (nearest rank, rounded to 0.1). pct(xs, 50) is the median. */
export function pct(samples: number[], p: number): number {
  const s = [...samples].sort((a, b) => a - b);
  return +s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))].toFixed(1);
}

/** How many times faster ours is than the naive way, to 0.1. */
export const ratio = (naive: number, ours: number): number => +(naive / ours).toFixed(1);

/** ms of each of n runs of fn, one after another. */
export async function timeIt(n: number, fn: () => Promise<unknown>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn();
    out.push(performance.now() - t0);
  }
  return out;
}
