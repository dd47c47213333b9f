// What grading returns: a score in [0,1], whether the task counts as solved, and why.
import type { TamperFinding } from './tamperCheck';
import type { InfrastructureChange } from './testInfrastructure';
import type { TestCase, TestTally } from './testReports';

export interface MetricComponent { name: string; value: number | null; absent?: string }

/** "block-match 0.95, text 0.98, …, CLIP absent": a component list for a summary line. */
export function componentList(components: readonly MetricComponent[]): string {
  return components.map((c) => (c.value === null ? `${c.name} absent` : `${c.name} ${c.value.toFixed(3)}`)).join(', ');
}

/**
 * A published metric's components as a grading step left them (a `tests` evaluator's
 * `prepare.components`): `{ metric, components: [{ name, value, absent? }] }`, each value in
 * [0,1] or null with why; the reason when the text is not that.
 */
export function parseComponents(text: string): { metric: string; components: MetricComponent[] } | { invalid: string } {
  let data: unknown;
  try { data = JSON.parse(text); } catch (err) { return { invalid: `not JSON: ${(err as Error).message}` }; }
  const d = data as { metric?: unknown; components?: unknown };
  if (!d || typeof d !== 'object' || typeof d.metric !== 'string' || !Array.isArray(d.components)) return { invalid: 'not { metric, components: [...] }' };
  const out: MetricComponent[] = [];
  for (const c of d.components as { name?: unknown; value?: unknown; absent?: unknown }[]) {
    const ok = c && typeof c.name === 'string' && (c.value === null || (typeof c.value === 'number' && c.value >= 0 && c.value <= 1))
      && (c.absent === undefined || typeof c.absent === 'string');
    if (!ok) return { invalid: `a component is not { name, value: 0-1 | null, absent? }: ${JSON.stringify(c).slice(0, 200)}` };
    out.push({ name: c.name as string, value: c.value as number | null, ...(typeof c.absent === 'string' ? { absent: c.absent } : {}) });
  }
  return { metric: d.metric, components: out };
}

/** The metric components of a result, or of its first part that has them (an `all` around a metric). */
export function metricComponents(r: EvaluationResult): MetricComponent[] | undefined {
  if (r.components) return r.components;
  for (const p of r.parts ?? []) { const c = metricComponents(p); if (c) return c; }
  return undefined;
}

export interface CheckResult { name: string; ok: boolean; why: string }

export interface EvaluationResult {
  kind: string;
  score: number;
  passed: boolean;
  /** One line for people. */
  summary: string;
  checks?: CheckResult[];
  tests?: TestTally & {
    cases: TestCase[]; exitCode: number; timedOut: boolean; stdoutTail: string; stderrTail: string;
    /** The ids that passed on the base, left out of the count (a `tests` evaluator's countFailingOnBase). */
    passingOnBase?: string[];
    /** The base's outcome was an earlier grading's of the same base in this process (baseRun.ts, sharedBaseRun), not run again. */
    baseReused?: boolean;
  };
  /** A command's outcome, where one ran (image rendering, `command` evaluators). */
  output?: { exitCode: number; timedOut: boolean; stdoutTail: string; stderrTail: string };
  similarity?: number;
  /**
   * The components of a published metric (Design2Code, ChartMimic; SWT-Bench's applicability,
   * fail-to-pass and change coverage, reported beside the score), in the order the paper lists
   * them; a component that cannot be computed here has value null and says why.
   */
  components?: MetricComponent[];
  /** Why the run was not believed (score 0): the runner's output disagreed with the report, or the deliverable patches the runner. */
  tampering?: { reason: string; findings: TamperFinding[]; disagreement?: string };
  /** The agent's changes to the test infrastructure, which the verifier replaced with the task's copy. */
  infrastructure?: InfrastructureChange[];
  /** The parts of an `all` evaluator. */
  parts?: EvaluationResult[];
  /**
   * Why no deliverable can pass this grading, the reference included (a published metric that
   * cannot score the task's own original to its threshold): the row is invalid as published, and
   * benches and dataset checks list it apart instead of counting it.
   */
  unreachable?: string;
  /**
   * Why the code under test could pass this grading without solving the task (unguardedGrading.ts:
   * a test script's exit status alone, a report the run writes itself, hidden tests run unsealed).
   * The score stands as graded; benches leave such tasks out of their figures unless asked.
   */
  unguarded?: string;
  durationMs: number;
}

/** Why a result (or one of its parts) could be passed without solving the task, if it says so. */
export function unguardedOf(r: EvaluationResult): string | undefined {
  return r.unguarded ?? r.parts?.map(unguardedOf).find((u) => u !== undefined);
}

/** Why a result (or one of its parts) cannot be passed by any deliverable, if it says so. */
export function unreachableOf(r: EvaluationResult): string | undefined {
  return r.unreachable ?? r.parts?.map(unreachableOf).find((u) => u !== undefined);
}

export function fromChecks(kind: string, checks: CheckResult[], scoring: 'all' | 'fraction', t0: number): EvaluationResult {
  const ok = checks.filter((c) => c.ok).length;
  const all = ok === checks.length && checks.length > 0;
  const score = scoring === 'all' ? (all ? 1 : 0) : checks.length ? ok / checks.length : 0;
  const firstFailure = checks.find((c) => !c.ok);
  return {
    kind, score, passed: all, checks,
    summary: all ? `${ok}/${checks.length} checks pass` : `${ok}/${checks.length} checks pass; ${firstFailure ? `${firstFailure.name}: ${firstFailure.why}` : 'no checks'}`,
    durationMs: Date.now() - t0,
  };
}

/**
 * An `any` check: alternatives, each a list of checks that must all pass, of which one
 * passing is enough. A failure gives every alternative's reason, numbered as in the name.
 */
export function anyOf(alternatives: CheckResult[][]): CheckResult {
  const alts = alternatives.map((checks) => ({
    name: checks.map((c) => c.name).join(' and ') || 'nothing checked',
    ok: checks.length > 0 && checks.every((c) => c.ok),
    // An alternative of one check needs no name beside its reason; one of several names the failing ones.
    why: checks.length === 1 ? checks[0].why : checks.filter((c) => !c.ok).map((c) => `${c.name}: ${c.why}`).join(', ') || 'nothing checked',
    okWhy: checks.map((c) => c.why).join(', '),
  }));
  const name = `any of (1) ${alts.map((a, i) => (i ? `(${i + 1}) ${a.name}` : a.name)).join(' | ')}`;
  const winner = alts.findIndex((a) => a.ok);
  if (winner >= 0) return { name, ok: true, why: `(${winner + 1}) passes: ${alts[winner].okWhy}` };
  return { name, ok: false, why: `none passes: ${alts.map((a, i) => `(${i + 1}) ${a.why}`).join('; ')}` };
}

/** Test counts of a result and its parts, summed (undefined when no tests ran). */
export function testCounts(r: EvaluationResult): { passed: number; total: number } | undefined {
  const own = r.tests ? { passed: r.tests.passed, total: r.tests.total } : undefined;
  const parts = (r.parts ?? []).map(testCounts).filter((x): x is { passed: number; total: number } => !!x);
  const all = own ? [own, ...parts] : parts;
  if (!all.length) return undefined;
  return all.reduce((a, b) => ({ passed: a.passed + b.passed, total: a.total + b.total }));
}

export const tail = (s: string, n = 4000): string => (s.length > n ? `…${s.slice(-n)}` : s);
