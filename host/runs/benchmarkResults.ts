// A bench's results: one JSON line per run in results.jsonl, appended as each run ends, so a
// re-run reads what is done and skips it. The summary groups runs by suite and agent:
// success rate, mean score, pass@k (the unbiased estimator of the Codex paper), per-test
// pass rate, 95% intervals, and the null and oracle baselines from the same results; then
// macro averages over families (with stratified bootstrap intervals), per PwP-Bench category,
// over all families and over the categories; and the tasks left out of the scores (invalid rows,
// rows that need a live server, tasks pending a toolchain), listed apart.
import { appendFileSync, closeSync, existsSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { summarizeAgentStats, type AgentMetrics } from '../models/runStatistics';
import { summarizeWork, type WorkSummary } from '../trajectory/workMetrics';
import { metricComponents, unreachableOf, type MetricComponent } from '../evaluation/evaluationResult';
import type { RunResult } from './runTask';
import { CATEGORIES, categoryOf, type Category } from './families';
import { bootstrapMeanInterval, stratifiedBootstrapInterval, wilsonInterval, type Stratum } from './intervals';

/**
 * What results.jsonl keeps of a run (the full evaluation stays in the run's folder): its
 * summary, and the components of a published metric (Design2Code, ChartMimic, SWT-Bench) where it has one.
 */
export type ResultLine = Omit<RunResult, 'evaluation'> & { summary?: string; components?: MetricComponent[]; unreachable?: string };

export function runKey(r: Pick<ResultLine, 'task' | 'agent' | 'attempt' | 'model'>): string {
  return `${r.task}|${r.agent}${r.model ? `@${r.model}` : ''}|${r.attempt}`;
}

export function toLine(r: RunResult): ResultLine {
  const { evaluation, ...rest } = r;
  const components = evaluation && metricComponents(evaluation);
  const unreachable = evaluation && unreachableOf(evaluation);
  return { ...rest, summary: evaluation?.summary, ...(components ? { components } : {}), ...(unreachable ? { unreachable } : {}) };
}

/** Whether a non-empty file's last byte is not a newline (a line cut by a crash, or a hand edit). */
function endsMidLine(file: string): boolean {
  if (!existsSync(file)) return false;
  const size = statSync(file).size;
  if (size === 0) return false;
  const fd = openSync(file, 'r');
  try {
    const last = Buffer.alloc(1);
    readSync(fd, last, 0, 1, size - 1);
    return last[0] !== 0x0a;
  } finally { closeSync(fd); }
}

export function appendResult(file: string, r: RunResult): ResultLine {
  const line = toLine(r);
  // Appended to an unterminated last line, this result would be glued to it and both lost.
  appendFileSync(file, `${endsMidLine(file) ? '\n' : ''}${JSON.stringify(line)}\n`);
  return line;
}

/** The results of a file, the last line of each run winning; unreadable lines are skipped. */
export function readResults(file: string): ResultLine[] {
  if (!existsSync(file)) return [];
  const byKey = new Map<string, ResultLine>();
  for (const l of readFileSync(file, 'utf8').split('\n')) {
    if (!l.trim()) continue;
    try {
      const r = JSON.parse(l) as ResultLine;
      if (r.task && r.agent && r.attempt) byKey.set(runKey(r), r);
    } catch { /* a line cut by a crash */ }
  }
  return [...byKey.values()];
}

/** A run is done unless it failed to complete (an infrastructure error is tried again). */
export function isDone(r: ResultLine | undefined): boolean {
  return !!r && r.status !== 'error';
}

function choose(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  let c = 1;
  for (let i = 1; i <= k; i++) c = (c * (n - k + i)) / i;
  return c;
}

/** pass@k for one task with n attempts of which c passed: 1 - C(n-c, k) / C(n, k). */
export function passAtK(n: number, c: number, k: number): number {
  if (n === 0 || k > n) return Number.NaN;
  if (n - c < k) return 1;
  return 1 - choose(n - c, k) / choose(n, k);
}

export interface GroupSummary {
  suite: string;
  agent: string;
  /** Model-driven agents: the model (groups are per agent and model). */
  model?: string;
  tasks: number;
  runs: number;
  /** PwP-Bench's category of the suite (its family). */
  category: Category;
  /** Fraction of runs that solved their task, with its 95% Wilson interval. */
  successRate: number;
  successInterval: [number, number];
  /** Mean score over the runs, with its 95% bootstrap interval. */
  meanScore: number;
  meanScoreInterval: [number, number];
  /** pass@k by k (1 and the attempts per task), averaged over the tasks with at least k attempts. */
  passAtK: Record<number, number>;
  /** How many tasks each pass@k covers (fewer than `tasks` when some ran fewer attempts, e.g. after errors). */
  passAtKTasks: Record<number, number>;
  /** Tests passed over tests run, over every run whose evaluator ran tests; null when none did. */
  testPassRate: number | null;
  errors: number;
  truncated: number;
  /** Model-driven agents: iterations, tool usage and transitions, tokens, tokens per success, stop reasons. */
  agentMetrics?: AgentMetrics;
  /** How the agents worked on the code (IDE-Bench's metrics), from the runs' trajectories. */
  work?: WorkSummary;
  /** A published metric's components (SWT-Bench's change coverage…), each averaged over the runs that have it. */
  components?: ComponentMean[];
}

/** A component's mean over the runs where it was computed (`runs`), and how many runs had it absent. */
export interface ComponentMean { name: string; mean: number | null; runs: number; absent: number }

/** Each component named by the runs, in the order they first name them, averaged as SWT-Bench does (absent ones left out). */
export function componentMeans(runs: readonly { components?: MetricComponent[] }[]): ComponentMean[] | undefined {
  const by = new Map<string, { sum: number; runs: number; absent: number }>();
  for (const r of runs) {
    for (const c of r.components ?? []) {
      const m = by.get(c.name) ?? { sum: 0, runs: 0, absent: 0 };
      if (c.value === null) m.absent++;
      else { m.sum += c.value; m.runs++; }
      by.set(c.name, m);
    }
  }
  if (!by.size) return undefined;
  return [...by].map(([name, m]) => ({ name, mean: m.runs ? m.sum / m.runs : null, runs: m.runs, absent: m.absent }));
}

/**
 * Averages over families (suites): per category with each of its families weighing the same;
 * 'all', each family weighing the same; 'categories', each category weighing the same (its
 * families' average). Intervals are 95%, a bootstrap resampling each family's runs on its own.
 */
export interface MacroSummary {
  category: Category | 'all' | 'categories';
  agent: string;
  model?: string;
  families: string[];
  successRate: number;
  successInterval: [number, number];
  meanScore: number;
  meanScoreInterval: [number, number];
}

/**
 * Why a task is listed apart and not counted: its row is invalid (tag invalid:<why>), it needs the
 * benchmark's live server (needs:live-server), its image needs a toolchain not supplied (pending),
 * or the code under test could pass its grading without solving it (unguarded).
 */
export type LeftOutKind = 'invalid' | 'needs-live-server' | 'pending' | 'unguarded';
export interface LeftOutTask { task: string; suite: string; kind: LeftOutKind; reason: string }

export interface Summary {
  groups: GroupSummary[];
  /** Per category and over all families, for each agent (and model): macro averages as PwP-Bench reports them. */
  macro: MacroSummary[];
  /** Success rates of the null and oracle agents by suite, where those runs exist. */
  baselines: Record<string, { null?: number; oracle?: number }>;
  /** Tasks of the bench not counted in any figure above, with why. */
  leftOut: LeftOutTask[];
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

/** `leftOut`: the tasks not run or not counted, listed apart (their results, if any, are not in `results`). */
export function summarize(all: readonly ResultLine[], flagged: readonly LeftOutTask[] = []): Summary {
  // A task whose grading says no deliverable can pass it (its own original cannot) is invalid as
  // published: listed apart with why, its runs not counted.
  const unpassable = new Map(all.filter((r) => r.unreachable).map((r) => [r.task, { task: r.task, suite: r.suite, kind: 'invalid' as const, reason: `no deliverable can pass its grading: ${r.unreachable}` }]));
  const results = all.filter((r) => !unpassable.has(r.task));
  const leftOut = [...flagged, ...[...unpassable.values()].filter((u) => !flagged.some((f) => f.task === u.task))];
  const groups = new Map<string, ResultLine[]>();
  for (const r of results) {
    const k = `${r.suite}\u0000${r.agent}\u0000${r.model ?? ''}`;
    groups.set(k, [...(groups.get(k) ?? []), r]);
  }
  const out: GroupSummary[] = [];
  const runsOf = new Map<GroupSummary, ResultLine[]>();
  for (const [k, runs] of [...groups].sort(([a], [b]) => a.localeCompare(b))) {
    const [suite, agent, model] = k.split('\u0000');
    const byTask = new Map<string, ResultLine[]>();
    for (const r of runs) byTask.set(r.task, [...(byTask.get(r.task) ?? []), r]);
    const maxAttempts = Math.max(...[...byTask.values()].map((rs) => rs.length));
    const ks = [...new Set([1, maxAttempts])];
    const passAt: Record<number, number> = {};
    const passAtTasks: Record<number, number> = {};
    for (const kk of ks) {
      const vals = [...byTask.values()].map((rs) => passAtK(rs.length, rs.filter((r) => r.passed).length, kk)).filter((v) => !Number.isNaN(v));
      passAt[kk] = mean(vals);
      passAtTasks[kk] = vals.length;
    }
    const withTests = runs.filter((r) => r.tests && r.tests.total > 0);
    const agentMetrics = summarizeAgentStats(runs);
    const work = summarizeWork(runs);
    const components = componentMeans(runs);
    const solved = runs.filter((r) => r.passed).length;
    const group: GroupSummary = {
      suite, agent, ...(model ? { model } : {}), category: categoryOf(suite), tasks: byTask.size, runs: runs.length,
      successRate: solved / runs.length,
      successInterval: wilsonInterval(solved, runs.length),
      meanScore: mean(runs.map((r) => r.score)),
      meanScoreInterval: bootstrapMeanInterval(runs.map((r) => r.score)),
      passAtK: passAt,
      passAtKTasks: passAtTasks,
      testPassRate: withTests.length ? withTests.reduce((a, r) => a + r.tests!.passed, 0) / withTests.reduce((a, r) => a + r.tests!.total, 0) : null,
      errors: runs.filter((r) => r.status === 'error').length,
      truncated: runs.filter((r) => r.status === 'truncated').length,
      ...(agentMetrics ? { agentMetrics } : {}),
      ...(work ? { work } : {}),
      ...(components ? { components } : {}),
    };
    out.push(group);
    runsOf.set(group, runs);
  }
  const baselines: Summary['baselines'] = {};
  for (const g of out) {
    if (g.agent !== 'null' && g.agent !== 'oracle') continue;
    baselines[g.suite] = { ...baselines[g.suite], [g.agent]: g.successRate };
  }
  const sorted = [...leftOut].sort((a, b) => a.kind.localeCompare(b.kind) || a.task.localeCompare(b.task));
  return { groups: out, macro: macroAverages(out, runsOf), baselines, leftOut: sorted };
}

/** A weighted average of family figures with its interval: `weights` gives each family's weight. */
function weighted(
  of: readonly GroupSummary[], weights: readonly number[], runsOf: Map<GroupSummary, ResultLine[]>, value: (r: ResultLine) => number,
): { value: number; interval: [number, number] } {
  const strata: Stratum[] = of.map((g, i) => ({ values: runsOf.get(g)!.map(value), weight: weights[i] }));
  const v = strata.reduce((a, s) => a + s.weight * mean([...s.values]), 0);
  return { value: v, interval: stratifiedBootstrapInterval(strata) };
}

/** Family means averaged per category, over all families and over the categories, per agent and model (baselines left out). */
function macroAverages(groups: readonly GroupSummary[], runsOf: Map<GroupSummary, ResultLine[]>): MacroSummary[] {
  const out: MacroSummary[] = [];
  const agents = new Map<string, GroupSummary[]>();
  for (const g of groups) {
    if (g.agent === 'null' || g.agent === 'oracle') continue;
    const k = `${g.agent}\u0000${g.model ?? ''}`;
    agents.set(k, [...(agents.get(k) ?? []), g]);
  }
  for (const gs of agents.values()) {
    const { agent, model } = gs[0];
    const average = (category: MacroSummary['category'], of: GroupSummary[], weights: number[]): MacroSummary => {
      const success = weighted(of, weights, runsOf, (r) => (r.passed ? 1 : 0));
      const score = weighted(of, weights, runsOf, (r) => r.score);
      return {
        category, agent, ...(model ? { model } : {}), families: of.map((g) => g.suite),
        successRate: success.value, successInterval: success.interval, meanScore: score.value, meanScoreInterval: score.interval,
      };
    };
    const present = CATEGORIES.filter((c) => gs.some((g) => g.category === c));
    for (const c of present) {
      const of = gs.filter((g) => g.category === c);
      out.push(average(c, of, of.map(() => 1 / of.length)));
    }
    out.push(average('all', gs, gs.map(() => 1 / gs.length)));
    // Each category weighs the same, and within it each of its families.
    const inCategory = (g: GroupSummary) => gs.filter((x) => x.category === g.category).length;
    if (present.length > 1) out.push(average('categories', gs, gs.map((g) => 1 / (present.length * inCategory(g)))));
  }
  return out;
}
