// PwP-Bench's families in their five categories, so a bench summary can average per category
// and over families as the paper reports, and PwP-Bench-Lite, a seeded sample of each family.
// A suite is a family; a suite not listed here (your own) is in the category `other`.
import type { Task } from '../taskEnv/loadTask';
import { seededRandom } from '../common/seededRandom';

export const CATEGORIES = ['code generation', 'multimodal', 'domain-specific', 'ide', 'other'] as const;
export type Category = (typeof CATEGORIES)[number];

const FAMILY_CATEGORY: Record<string, Category> = {
  humaneval: 'code generation', 'swe-bench': 'code generation', 'swe-bench-multilingual': 'code generation',
  'res-q': 'code generation', canitedit: 'code generation', 'swt-bench': 'code generation', 'code-edit': 'code generation',
  design2code: 'multimodal', chartmimic: 'multimodal', dsbench: 'multimodal', 'swe-bench-mm': 'multimodal',
  'intercode-ctf': 'domain-specific', bird: 'domain-specific', minictx: 'domain-specific',
  'vscode-config': 'ide', vscode: 'ide', 'general-swe': 'ide', 'idebench-inventory': 'ide',
};

export function categoryOf(suite: string): Category {
  return FAMILY_CATEGORY[suite.toLowerCase()] ?? 'other';
}

/** PwP-Bench-Lite's size: tasks per family. */
export const LITE_PER_FAMILY = 20;

/** PwP-Bench-Lite: a seeded sample of LITE_PER_FAMILY tasks from each suite; the same seed gives the same tasks. */
export function liteSample(tasks: readonly Task[], seed: number): Task[] {
  const bySuite = new Map<string, Task[]>();
  for (const t of tasks) bySuite.set(t.suite, [...(bySuite.get(t.suite) ?? []), t]);
  return [...bySuite.values()].flatMap((ts) => seededSample(ts, LITE_PER_FAMILY, seed));
}

/** A seeded sample of `k` items (all of them when there are k or fewer), in their original order. */
export function seededSample<T>(items: readonly T[], k: number, seed: number): T[] {
  if (items.length <= k) return [...items];
  const random = seededRandom(seed);
  const idx = items.map((_, i) => i);
  for (let i = idx.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [idx[i], idx[j]] = [idx[j], idx[i]];
  }
  return idx.slice(0, k).sort((a, b) => a - b).map((i) => items[i]);
}
