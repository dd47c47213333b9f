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
// and nothing of the agent's is in that container. What it found stays in the host's memory.
import type { TestCase } from './testReports';
import type { Sandbox } from './verifier';

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
