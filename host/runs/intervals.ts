// 95% intervals for bench figures: Wilson's score interval for rates (sound with few runs and
// at 0 or 1, unlike the normal approximation), a seeded percentile bootstrap for mean scores.
import { seededRandom } from '../common/seededRandom';

const Z95 = 1.959964;

/** Wilson score interval for `successes` out of `n`; [0, 0] without runs. */
export function wilsonInterval(successes: number, n: number): [number, number] {
  if (n <= 0) return [0, 0];
  const p = successes / n;
  const z2 = Z95 * Z95;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (Z95 * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / (1 + z2 / n);
  // At 0 and n the bound is exactly 0 or 1 (floating point lands a hair inside).
  return [successes === 0 ? 0 : Math.max(0, centre - half), successes === n ? 1 : Math.min(1, centre + half)];
}

/** Percentile bootstrap interval of the mean (2000 resamples, seeded); a single value is its own interval. */
export function bootstrapMeanInterval(values: readonly number[], seed = 1, resamples = 2000): [number, number] {
  if (!values.length) return [0, 0];
  if (values.length === 1) return [values[0], values[0]];
  const random = seededRandom(seed);
  const means: number[] = [];
  for (let i = 0; i < resamples; i++) {
    let sum = 0;
    for (let j = 0; j < values.length; j++) sum += values[Math.floor(random() * values.length)];
    means.push(sum / values.length);
  }
  means.sort((a, b) => a - b);
  return [means[Math.floor(0.025 * (resamples - 1))], means[Math.ceil(0.975 * (resamples - 1))]];
}
