// A `tests` evaluator's base run (`countFailingOnBase`): the same command, with the same report,
// run first on the task's base, the workspace as the agent received it with the task's test
// infrastructure and hidden files as the agent's run gets them, so that only the tests the task's
// change makes pass, and those it breaks, are counted in the agent's run. The null agent then
// scores 0 and tests that already pass count for nothing, whichever runner reports them (pytest's
// JUnit XML, jest's and mocha's JSON, go test -json, a build's JUnit XML, a script's exit status).
//
// The base runs in a verifier of its own (the sandbox's `base`: gradeState.ts loads the initial
// workspace into a second verifier as it loads the agent's into the first), so it is /workspace
// there, as it will be for the agent's run: a command, configuration or test that names
// /workspace (ctest's --output-junit, a CMake cache, a fixture read by its path) runs the same,
// and nothing of the agent's is in that container. What it found stays in the host's memory:
// the gradings of one base in this process (a bench's attempts at a task, a dataset check's gold
// and null side by side) share one base run (sharedBaseRun).
import { createHash } from 'node:crypto';
import type { TestCase } from './testReports';
import type { Sandbox } from './verifier';

/** What a base run found: its cases, and why it found none where it says so. */
export interface BaseOutcome { cases: TestCase[]; exitCode: number; problem?: string }

/** Base outcomes kept, the oldest forgotten first: each is a list of cases, a bench runs its tasks in turn. */
const BASE_RUNS_KEPT = 256;
type BaseRun = BaseOutcome | { failed: string };
const baseRuns = new Map<string, Promise<BaseRun>>();

/**
 * The base's outcome for the sandbox's base and `evaluator`, run once per process: a grading of
 * the same base (Sandbox.baseKey: the task, its image, its hidden files, the initial workspace's
 * content) with the same evaluator takes what the first found, also while that one still runs.
 * A run that failed (`{ failed }`, or thrown) is not taken: the next grading runs the base again.
 * Only what the task and its image hold goes into a base run, nothing of an agent's, so what
 * one grading found there is what the next would.
 */
export async function sharedBaseRun(sandbox: Sandbox, evaluator: unknown, run: () => Promise<BaseRun>): Promise<{ outcome: BaseRun; reused: boolean }> {
  const base = await sandbox.baseKey?.();
  if (!base) return { outcome: await run(), reused: false };
  const key = createHash('sha256').update(base).update('\n').update(JSON.stringify(evaluator)).digest('hex');
  const known = baseRuns.get(key);
  if (known) {
    baseRuns.delete(key);
    baseRuns.set(key, known); // the most recently used is the last forgotten
    const outcome = await known.catch(() => undefined);
    if (outcome && !('failed' in outcome)) return { outcome, reused: true };
    // That run failed: this grading runs the base itself.
    if (baseRuns.get(key) === known) baseRuns.delete(key);
  }
  const running = run();
  baseRuns.set(key, running);
  while (baseRuns.size > BASE_RUNS_KEPT) baseRuns.delete(baseRuns.keys().next().value!);
  return { outcome: await running, reused: false };
}

/** Runs `fn` in a sandbox holding the task's base, removed after. */
export async function onBase<T>(sandbox: Sandbox, fn: (base: Sandbox) => Promise<T>): Promise<T> {
  if (!sandbox.base) throw new Error('this grading has no initial workspace to run the base from (countFailingOnBase)');
  const base = await sandbox.base();
  try {
    return await fn(base);
  } finally {
    await base.remove();
  }
}

/** Ids of the cases that passed on the base: every case of that id passed. */
export function passingOnBase(cases: readonly TestCase[]): Set<string> {
  const failed = new Set(cases.filter((c) => c.status !== 'passed').map((c) => c.id));
  return new Set(cases.filter((c) => c.status === 'passed' && !failed.has(c.id)).map((c) => c.id));
}

/**
 * A go package that failed with no failing test of its own (it did not build) as a failed case
 * of its own: without it, tests that vanish with their package's build would not count at all.
 */
export function goPackageFailures(failedPackages: readonly string[], cases: readonly TestCase[]): TestCase[] {
  return [...new Set(failedPackages)].filter((p) => !cases.some((c) => c.status === 'failed' && c.id.startsWith(`${p}::`)))
    .map((p) => ({ id: `${p}::(package)`, aliases: [], status: 'failed', message: `package ${p} failed without a failing test (its tests did not build or did not run)` }));
}

/**
 * Tests that did not pass on the base and are not in the agent's run at all, as failed cases: a
 * change that makes a failing test vanish (deleted, renamed, never collected) has not made it
 * pass. A go package's own failure on the base (goPackageFailures) is left out: it vanishes
 * when the package builds, as the task's change should make it.
 */
export function vanishedSinceBase(base: readonly TestCase[], now: readonly TestCase[]): TestCase[] {
  const passed = passingOnBase(base);
  const ran = new Set(now.flatMap((c) => [c.id, ...c.aliases]));
  const gone = [...new Set(base.map((c) => c.id))].filter((id) => !passed.has(id) && !id.endsWith('::(package)') && !ran.has(id));
  return gone.map((id) => ({ id, aliases: [], status: 'failed', message: 'failed on the base and did not run in the agent\'s run' }));
}

/**
 * The cases that count past the base: every case that did not pass there, and one that did and
 * fails now (the change broke it); a case passing on both sides counts neither way. `extra` (a
 * go package's failure) counts as it is.
 */
export function pastBase(cases: readonly TestCase[], basePassed: ReadonlySet<string>, extra: readonly TestCase[] = []): { counted: TestCase[]; leftOut: number; broken: number } {
  const counted = cases.filter((c) => !basePassed.has(c.id) || c.status === 'failed');
  const broken = counted.filter((c) => basePassed.has(c.id)).length;
  return { counted: [...counted, ...extra], leftOut: cases.length - counted.length, broken };
}
