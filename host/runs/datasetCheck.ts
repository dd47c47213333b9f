// pwp dataset check: what a researcher runs before trusting a number from a converted dataset.
// The dataset is converted (converters/datasets.ts) into <out>/tasks, then every row (or a
// seeded sample) is run with the gold agent (oracle) and the null agent as a bench does
// (benchmark.ts: warm pools, results.jsonl appended as each run ends, a re-run resumes), and each
// row is judged: a valid row must score 1 with gold and 0 with null. Rows the converter flagged
// (invalid:<why>, needs:live-server) run too but are listed apart; rows pending a toolchain do
// not run. Each row is appended to <out>/check.jsonl as soon as both its runs have ended, and the
// whole report is written to <out>/check.json at the end.
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Deployment } from '../deployment/deployment';
import { convertDataset, type DatasetKind, type DatasetOptions } from '../converters/datasets';
import { taskName, type Task } from '../taskEnv/loadTask';
import { componentList, type EvaluationResult, type MetricComponent } from '../evaluation/evaluationResult';
import { INVALID_TAG, LIVE_SERVER_TAG, PENDING_TAG } from '../taskEnv/taskFlags';
import { runBench, flaggedOut } from './benchmark';
import { componentMeans, type ComponentMean, type LeftOutKind, type LeftOutTask, type ResultLine } from './benchmarkResults';
import { seededSample } from './families';
import type { RunResult } from './runTask';

export const GOLD_AGENT = 'oracle';
export const NULL_AGENT = 'null';

export interface DatasetCheckOptions {
  kind: DatasetKind;
  input: string;
  /** The check's folder: tasks/ (the converted rows), results.jsonl, check.jsonl, check.json, runs/. */
  outDir: string;
  /** The converter's options (--repos, --limit, …), as for pwp dataset. */
  dataset?: Omit<DatasetOptions, 'outRoot' | 'onNote'>;
  /** Check a seeded sample of this many rows instead of every row. */
  sample?: number;
  seed?: number;
  parallel: number;
  deployment?: Deployment;
  /** The IDE image (default: built from this tree). */
  defaultImage?: string;
  video?: boolean;
  signal?: AbortSignal;
  progress?: (line: string) => void;
  /** Each converter note, as it comes. */
  onNote?: (line: string) => void;
  /** Each row, once it is judged (both runs ended, or pending). */
  onRow?: (row: CheckRow) => void;
}

/**
 * One agent's run of a row: its score, the grade's summary, and the first line of the first
 * failing check's message (why gold failed, or what null's run shows).
 */
export interface CheckRun {
  score: number; passed: boolean; status: RunResult['status']; error?: string; summary?: string; firstFailure?: string; runDir: string;
  /** The components of the benchmark's published metric, where its grade reports them (SWT-Bench's change coverage…). */
  components?: MetricComponent[];
}

/**
 * ok: a valid row with gold 1 and null 0; violation: a valid row without; error: a run could not
 * be completed; left-out: flagged by its converter (run, not judged); pending: not run (its
 * toolchain is missing); not-run: the check was stopped first.
 */
export type CheckVerdict = 'ok' | 'violation' | 'error' | 'left-out' | 'pending' | 'not-run';

export interface CheckRow {
  task: string;
  /** Counted in the summary's rates and the exit code: neither flagged nor pending. */
  valid: boolean;
  verdict: CheckVerdict;
  gold: CheckRun | null;
  null: CheckRun | null;
  /**
   * Short flags: the converter's tags (invalid:<why>, needs:live-server), pending,
   * verifier-network (its grading reaches the outside network), and what the runs showed
   * (gold-fails, null-passes, null-scores:<x>, gold-error, null-error).
   */
  quirks: string[];
  /** Why the row is flagged or pending. */
  leftOut?: { kind: LeftOutKind; reason: string };
  /** The converter's notes that name this row. */
  notes: string[];
}

export interface RateCount { passed: number; of: number; rate: number | null }

export interface CheckSummary {
  /** Rows converted, and rows checked (all of them, or the sample). */
  converted: number;
  rows: number;
  /** Rows neither flagged nor pending. */
  valid: number;
  /** Over valid rows whose runs ended: gold passes, null passes (passed, not merely scored). */
  gold: RateCount;
  null: RateCount;
  /** Valid rows whose gold did not score 1 or whose null did not score 0. */
  violations: string[];
  /** Rows with a run that could not be completed. */
  errors: string[];
  /** Rows listed apart: flagged (invalid, needs-live-server) and pending, with why. */
  leftOut: LeftOutTask[];
  notRun: string[];
  /** Over valid rows, the gold runs' published-metric components, each averaged where computed (SWT-Bench: the gold tests' change coverage). */
  goldComponents?: ComponentMean[];
  /** Every valid row has gold 1 and null 0, and at least one valid row was checked: exit code 0. */
  ok: boolean;
}

export interface DatasetCheck {
  kind: DatasetKind;
  input: string;
  outDir: string;
  sample: { n: number; seed: number } | null;
  rows: CheckRow[];
  summary: CheckSummary;
  /** Converter notes that name no checked row. */
  notes: string[];
  files: { tasks: string; results: string; rows: string; report: string };
}

const runOf = (r: ResultLine | undefined): CheckRun | null => {
  if (!r) return null;
  const failure = firstFailure(r.runDir);
  return {
    score: r.score, passed: r.passed, status: r.status, ...(r.error ? { error: r.error } : {}), ...(r.summary ? { summary: r.summary } : {}),
    ...(failure ? { firstFailure: failure } : {}), runDir: r.runDir, ...(r.components ? { components: r.components } : {}),
  };
};

/** The first line of the first failing test's message in a run's evaluation.json (at most 400 characters). */
function firstFailure(runDir: string): string | undefined {
  const file = join(runDir, 'evaluation.json');
  if (!existsSync(file)) return undefined;
  try {
    const e = JSON.parse(readFileSync(file, 'utf8')) as EvaluationResult;
    const c = e.tests?.cases.find((x) => x.status === 'failed' && x.message);
    return c ? `${c.id}: ${c.message!.split('\n')[0].replace(/^AssertionError: /, '')}`.slice(0, 400) : undefined;
  } catch {
    return undefined;
  }
}

/** The notes naming this task: `suite/id` followed by a non-name character or the end, or `id: ` at the start. */
export function notesOf(task: string, notes: readonly string[]): string[] {
  const escaped = task.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const named = new RegExp(`(^|[^A-Za-z0-9._/-])${escaped}($|[^A-Za-z0-9._/-])`);
  // Converters that name a row by its dataset id (SWE-bench's instance_id) start the note with it.
  const id = `${task.slice(task.indexOf('/') + 1)}: `;
  return notes.filter((n) => named.test(n) || n.startsWith(id));
}

/** Judges one row from its task, its two runs (null when not run) and the converter's notes. */
export function judgeRow(task: Task, gold: ResultLine | undefined, nul: ResultLine | undefined, o: { pending?: LeftOutTask; notes: readonly string[] }): CheckRow {
  const name = taskName(task);
  // A grading that says no deliverable can pass it (the gold run's own) makes the row invalid as published.
  const unreachable = gold?.unreachable;
  // An unguarded grading (benches leave it out of their figures) still checks the conversion: gold 1, null 0.
  const out = flaggedOut(task);
  const unguarded = out?.kind === 'unguarded';
  const flagged = (unguarded ? undefined : out) ?? (unreachable ? { task: name, suite: task.suite, kind: 'invalid' as const, reason: `no deliverable can pass its grading: ${unreachable}` } : undefined);
  const leftOut = o.pending ?? flagged;
  const quirks = task.tags.filter((t) => t.startsWith(`${INVALID_TAG}:`) || t.startsWith(`${PENDING_TAG}:`) || t === LIVE_SERVER_TAG);
  if (unguarded) quirks.push('unguarded');
  if (unreachable) quirks.push(`${INVALID_TAG}:unreachable`);
  if (o.pending) quirks.push('pending');
  if (task.verifierNetwork) quirks.push('verifier-network');
  const g = runOf(gold);
  const n = runOf(nul);
  if (g?.status === 'error') quirks.push('gold-error');
  else if (g && !(g.score === 1 && g.passed)) quirks.push('gold-fails');
  if (n?.status === 'error') quirks.push('null-error');
  else if (n?.passed) quirks.push('null-passes');
  else if (n && n.score !== 0) quirks.push(`null-scores:${Number(n.score.toFixed(3))}`);
  // A flagged row is judged apart whatever its runs did (a pending row's oracle fails by design).
  const verdict: CheckVerdict = o.pending ? 'pending'
    : !g || !n ? 'not-run'
    : flagged ? 'left-out'
    : g.status === 'error' || n.status === 'error' ? 'error'
    : g.score === 1 && g.passed && n.score === 0 && !n.passed ? 'ok' : 'violation';
  return {
    task: name, valid: !leftOut, verdict, gold: g, null: n, quirks,
    ...(leftOut ? { leftOut: { kind: leftOut.kind, reason: leftOut.reason } } : {}),
    notes: notesOf(name, o.notes),
  };
}

const withMeans = (m: ComponentMean[] | undefined) => (m ? { goldComponents: m } : {});

const rate = (passed: number, of: number): RateCount => ({ passed, of, rate: of ? passed / of : null });

/** The summary of judged rows (`converted`: how many rows the converter wrote). */
export function summarizeCheck(rows: readonly CheckRow[], converted: number): CheckSummary {
  const valid = rows.filter((r) => r.valid);
  const ran = valid.filter((r) => r.gold && r.null && r.verdict !== 'error');
  return {
    converted,
    rows: rows.length,
    valid: valid.length,
    gold: rate(ran.filter((r) => r.gold!.passed).length, ran.length),
    null: rate(ran.filter((r) => r.null!.passed).length, ran.length),
    violations: valid.filter((r) => r.verdict === 'violation').map((r) => r.task),
    errors: rows.filter((r) => r.verdict === 'error').map((r) => r.task),
    leftOut: rows.flatMap((r) => (r.leftOut ? [{ task: r.task, suite: r.task.split('/')[0], kind: r.leftOut.kind, reason: r.leftOut.reason }] : [])),
    notRun: rows.filter((r) => r.verdict === 'not-run').map((r) => r.task),
    ...withMeans(componentMeans(valid.flatMap((r) => (r.gold ? [r.gold] : [])))),
    ok: valid.length > 0 && valid.every((r) => r.verdict === 'ok'),
  };
}

export async function runDatasetCheck(o: DatasetCheckOptions): Promise<DatasetCheck> {
  mkdirSync(o.outDir, { recursive: true });
  const tasksDir = join(o.outDir, 'tasks');
  const rowsFile = join(o.outDir, 'check.jsonl');
  const report = join(o.outDir, 'check.json');
  const notes: string[] = [];
  const converted = await convertDataset(o.kind, o.input, {
    ...o.dataset, outRoot: tasksDir, onNote: (line) => { notes.push(line); o.onNote?.(line); },
  });
  const seed = o.seed ?? 1;
  const tasks = o.sample !== undefined ? seededSample(converted, o.sample, seed) : converted;
  const byName = new Map(tasks.map((t) => [taskName(t), t]));
  const written = new Set<string>();
  const write = (row: CheckRow) => {
    appendFileSync(rowsFile, `${JSON.stringify(row)}\n`);
    written.add(row.task);
    o.onRow?.(row);
  };

  // Gold and null on every row through the bench: its warm pools, results.jsonl and resuming.
  // Flagged rows run too (their runs are the evidence); the bench lists pending ones apart.
  const ended = new Map<string, Map<string, ResultLine>>();
  const outcome = await runBench({
    tasks, agent: GOLD_AGENT, attempts: 1, parallel: o.parallel, outDir: o.outDir, baselines: true, defaultImage: o.defaultImage,
    deployment: o.deployment, video: o.video ?? false, signal: o.signal, progress: o.progress,
    onEnd: (job, result) => {
      const name = taskName(job.task);
      const runs = ended.get(name) ?? new Map<string, ResultLine>();
      runs.set(job.agent, result);
      ended.set(name, runs);
      if (runs.has(GOLD_AGENT) && runs.has(NULL_AGENT)) write(judgeRow(job.task, runs.get(GOLD_AGENT), runs.get(NULL_AGENT), { notes }));
    },
  });
  const pending = new Map(outcome.summary.leftOut.filter((l) => l.kind === 'pending').map((l) => [l.task, l]));
  const results = new Map(outcome.results.map((r) => [`${r.task}|${r.agent}`, r]));
  const rows = [...byName].map(([name, t]) =>
    judgeRow(t, results.get(`${name}|${GOLD_AGENT}`), results.get(`${name}|${NULL_AGENT}`), { pending: pending.get(name), notes }));
  // Rows judged in an earlier session (a resumed check), pending rows and rows not run are written now.
  for (const row of rows) if (!written.has(row.task)) write(row);
  const check: DatasetCheck = {
    kind: o.kind, input: o.input, outDir: o.outDir, sample: o.sample !== undefined ? { n: o.sample, seed } : null,
    rows, summary: summarizeCheck(rows, converted.length),
    notes: notes.filter((n) => !converted.some((t) => notesOf(taskName(t), [n]).length)),
    files: { tasks: tasksDir, results: outcome.files.results, rows: rowsFile, report },
  };
  writeFileSync(report, `${JSON.stringify(check, null, 1)}\n`);
  return check;
}

const score = (r: CheckRun | null) => (!r ? '–' : r.status === 'error' ? 'error' : `${r.score.toFixed(2)} ${r.passed ? 'pass' : 'fail'}`);
const pct = (c: RateCount) => `${c.passed}/${c.of}${c.rate === null ? '' : ` (${(c.rate * 100).toFixed(1)}%)`}`;

/** The check as a person reads it: a fixed-width row table, the notes, the left-out rows with why, and the summary. */
export function checkTable(c: DatasetCheck): string {
  // A published metric's components beside the gold score, where the grades report them.
  const metrics = c.rows.some((r) => r.gold?.components);
  const head = ['row', 'gold', 'null', 'verdict', 'quirks', ...(metrics ? ['gold metrics'] : [])];
  const rows = c.rows.map((r) => [r.task, score(r.gold), score(r.null), r.verdict, r.quirks.join(' '), ...(metrics ? [r.gold?.components ? componentList(r.gold.components) : '–'] : [])]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((x, i) => x.padEnd(widths[i])).join('  ').trimEnd();
  const s = c.summary;
  const out = [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line), ''];
  // Why a row failed its check, from its runs: the grade's summary and its first failure.
  const failed = c.rows.filter((r) => r.verdict === 'violation' || r.verdict === 'error' || (r.verdict === 'left-out' && r.quirks.includes('gold-fails')));
  if (failed.length) {
    out.push('why:');
    for (const r of failed) {
      for (const [agent, run, bad] of [['gold', r.gold, !(r.gold?.passed && r.gold.score === 1)], ['null', r.null, !!r.null && r.null.score !== 0]] as const) {
        if (!run || !bad) continue;
        const what = run.status === 'error' ? run.error ?? 'error' : [run.summary, run.firstFailure].filter(Boolean).join('; first failure: ');
        out.push(`  ${r.task}: ${agent}: ${what.replace(/\s+/g, ' ').slice(0, 600)}`);
      }
    }
    out.push('');
  }
  const noted = c.rows.filter((r) => r.notes.length);
  if (noted.length || c.notes.length) {
    out.push('converter notes:', ...noted.flatMap((r) => r.notes.map((n) => `  ${n}`)), ...c.notes.map((n) => `  ${n}`), '');
  }
  out.push(`rows:        ${s.rows}${c.sample ? ` (a sample of ${s.rows} of ${s.converted}, seed ${c.sample.seed})` : ''}, valid ${s.valid}`);
  out.push(`gold passes: ${pct(s.gold)} of the valid rows`);
  out.push(`null passes: ${pct(s.null)} of the valid rows`);
  if (s.goldComponents) {
    out.push(`gold metrics: ${s.goldComponents.map((m) => `${m.name} ${m.mean === null ? '–' : m.mean.toFixed(3)} (${m.runs} rows${m.absent ? `; ${m.absent} absent` : ''})`).join(', ')}`);
  }
  out.push(`violations:  ${s.violations.length}${s.violations.length ? ` (${s.violations.join(', ')})` : ''}`);
  if (s.errors.length) out.push(`errors:      ${s.errors.length} (${s.errors.join(', ')}: run again with the same --out to retry them)`);
  if (s.notRun.length) out.push(`not run:     ${s.notRun.length} (${s.notRun.join(', ')})`);
  const kinds: LeftOutKind[] = ['invalid', 'needs-live-server', 'pending'];
  out.push(`left out:    ${kinds.map((k) => `${s.leftOut.filter((l) => l.kind === k).length} ${k}`).join(', ')}`);
  for (const l of s.leftOut) out.push(`  ${l.task}: ${l.kind}: ${l.reason.replace(/\s+/g, ' ')}`);
  out.push(s.ok ? 'result:      ok: every valid row scores 1 with gold and 0 with null'
    : `result:      FAILED: ${s.valid ? 'not every valid row scores 1 with gold and 0 with null' : 'no valid row was checked'}`);
  return out.join('\n');
}
