// DSBench (LiqiangJing/DSBench): data science tasks in two parts of its folder.
// - data_analysis/data.json, JSON Lines of challenges {id, name, url, txt, questions, answers,
//   year}, with data_analysis/data/<id>/ holding introduction.txt, one <question>.txt per
//   question and the challenge's data files. Each question is a task: the workspace is the
//   challenge's folder (its question files and any file named like an answer left out, as
//   DSBench leaves them out of the prompt), graded on the agent's final answer. DSBench asks a
//   model whether the answer is right; pwp compares deterministically (analysisAnswer below).
// - data_modeling/data.json, JSON Lines of competitions {name, url, size, year}, with
//   data/task/<name>.txt (the description), data/data_resplit/<name>/ (train.csv, test.csv and
//   the sample submission), data/answers/<name>/test_answer.csv, evaluation/<name>_eval.py and
//   save_performance/{GT,baseline}/<name>/result.txt (the gold and baseline metric values). Each
//   competition is a task: the agent writes submission.csv, graded by the metric its evaluation
//   script computes (read from the script, computed by pwp) as DSBench's Relative Performance
//   Gap; the oracle fits pwp's plain-Python linear model (graders/dsbench/solve.py) on train.csv.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { METRICS, type MetricName, parseCsv } from '../evaluation/metrics/competitionMetric';
import type { Task } from '../taskEnv/loadTask';
import { graderScript } from './graderScripts';
import { DatasetError, type FileMap, parseJsonLines, requireStrings, taskId, writeFiles, writeTaskFolder } from './taskWriter';

export interface DsAnalysisChallenge { id: string; name: string; url?: string; txt?: string; questions: string[]; answers: unknown[]; year?: number }
export interface DsModelingCompetition { name: string; url?: string; size?: string; year?: number }

export interface DsBenchOptions { outRoot: string; suite?: string; limit?: number; image?: string; threshold?: number; onNote?: (line: string) => void }

/** How a published answer is compared: numbers to the precision they are given in, option letters and text as normalised text. */
export type AnalysisAnswer = { match: 'numeric'; expected: number; tolerance: number } | { match: 'exact'; expected: string };

const NUMERIC = /^([-+]?)\$?\s*(\d{1,3}(?:,\d{3})+|\d*)(\.\d+)?\s*(%|k|m|bn)?$/i;

/**
 * A number (or a numeric text such as "$5753961", "9.424%", "$983.01m", "2,957") is matched
 * numerically within half a unit of its last given digit, in the unit it is given in; any
 * other text exactly, ignoring case and spacing. Answers of other types cannot be compared.
 */
export function analysisAnswer(a: unknown): AnalysisAnswer | undefined {
  const text = typeof a === 'number' && Number.isFinite(a) ? String(a) : typeof a === 'string' ? a.trim() : undefined;
  if (text === undefined || !text) return undefined;
  const m = NUMERIC.exec(text);
  if (m && (m[2] || m[3]) && !/e/i.test(text)) {
    const decimals = m[3] ? m[3].length - 1 : 0;
    return { match: 'numeric', expected: Number(`${m[1]}${m[2].replace(/,/g, '') || '0'}${m[3] ?? ''}`), tolerance: 0.5 * 10 ** -decimals };
  }
  if (typeof a === 'number') return { match: 'numeric', expected: a, tolerance: Math.abs(a) * 1e-9 };
  return { match: 'exact', expected: text };
}

/** The metric a DSBench evaluation script computes, from the expression it assigns to `performance`. */
export function metricOfScript(script: string, where: string): MetricName {
  const lines = [...script.matchAll(/^\s*performance\s*=\s*(.+)$/gm)].map((m) => m[1]);
  const expr = lines[lines.length - 1];
  if (!expr) throw new DatasetError(`${where}: no "performance = …" line, so the metric is unknown`);
  const sqrt = /sqrt\s*\(/.test(expr) || /squared\s*=\s*False/.test(expr);
  const rules: [RegExp, MetricName | undefined][] = [
    [/accuracy_score\s*\(/, 'accuracy'], [/roc_auc_score\s*\(/, 'auc'], [/r2_score\s*\(/, 'r2'],
    [/\brmsle\s*\(|root_mean_squared_log_error\s*\(/, 'rmsle'], [/\brmse\s*\(|root_mean_squared_error\s*\(/, 'rmse'],
    [/mean_squared_log_error\s*\(/, sqrt ? 'rmsle' : undefined], [/mean_squared_error\s*\(/, sqrt ? 'rmse' : 'mse'],
    [/mean_absolute_error\s*\(|\bmae\s*\(/, 'mae'], [/\bsmape\s*\(/, 'smape'],
  ];
  const metric = rules.find(([re]) => re.test(expr))?.[1];
  if (!metric) throw new DatasetError(`${where}: the metric of "performance = ${expr.trim()}" is not one pwp computes (${METRICS.join(', ')})`);
  return metric;
}

/** The column a DSBench evaluation script scores: the default of its --value argument. */
export function targetOfScript(script: string, where: string): string {
  const m = /add_argument\(\s*['"]--value['"][^)]*default\s*=\s*['"]([^'"]+)['"]/.exec(script);
  if (!m) throw new DatasetError(`${where}: no --value argument with a default, so the scored column is unknown`);
  return m[1];
}

const readText = (p: string) => readFileSync(p, 'utf8');
const need = (p: string, what: string) => { if (!existsSync(p)) throw new DatasetError(`${what}: ${p} does not exist`); return p; };

function readChallenges(dir: string): DsAnalysisChallenge[] {
  const file = join(dir, 'data.json');
  return parseJsonLines<DsAnalysisChallenge>(readText(file), file).map((c, i) => {
    const where = `${file}: challenge ${(c as { id?: unknown })?.id ?? i + 1}`;
    requireStrings(c, ['id', 'name'], where, ['url', 'txt']);
    if (!Array.isArray(c.questions) || !c.questions.every((q) => typeof q === 'string')) throw new DatasetError(`${where}: field "questions" must be a list of question names`);
    if (!Array.isArray(c.answers)) throw new DatasetError(`${where}: missing field "answers" (a list)`);
    if (c.answers.length !== c.questions.length) throw new DatasetError(`${where}: ${c.questions.length} questions but ${c.answers.length} answers`);
    const folder = join(dir, 'data', c.id);
    need(join(folder, 'introduction.txt'), where);
    for (const q of c.questions) need(join(folder, `${q}.txt`), `${where}, ${q}`);
    return c;
  });
}

/** The challenge's files the agent gets: its data, not its question files nor files named like answers. */
function challengeFiles(folder: string, questions: readonly string[]): FileMap {
  const skip = new Set(questions.map((q) => `${q}.txt`));
  const out: FileMap = {};
  for (const f of readdirSync(folder).sort()) {
    if (skip.has(f) || /answer/i.test(f) || !statSync(join(folder, f)).isFile()) continue;
    out[f] = readFileSync(join(folder, f));
  }
  return out;
}

const ANSWER_FORM = 'Give only the answer as your final answer: the letter of the option for a multiple-choice question, otherwise the number (in the unit the question uses, without thousands words) or the text asked for.';

/** A task to write: made lazily, so --limit writes only the tasks it keeps. */
type TaskMaker = () => Task;

function analysisTasks(challenges: DsAnalysisChallenge[], dir: string, o: DsBenchOptions, suite: string): TaskMaker[] {
  const makers: TaskMaker[] = [];
  for (const c of challenges) {
    const folder = join(dir, 'data', c.id);
    const files = challengeFiles(folder, c.questions);
    // The challenge's folder is the workspace its questions share, written with the first of them.
    let written = false;
    const shared = () => { if (!written) writeFiles(join(o.outRoot, suite, '_analysis', c.id), files); written = true; };
    const data = Object.keys(files).filter((f) => f !== 'introduction.txt');
    c.questions.forEach((q, i) => {
      const answer = analysisAnswer(c.answers[i]);
      if (!answer) { o.onNote?.(`challenge ${c.id}, ${q}: its answer ${JSON.stringify(c.answers[i]).slice(0, 80)} cannot be compared without a model judge; left out`); return; }
      makers.push(() => { shared(); return writeTaskFolder(o.outRoot, {
        task: {
          id: taskId(`${c.id}-${q}`),
          suite,
          instruction: `You are a data analyst. introduction.txt in the workspace describes the case${data.length ? `; its data: ${data.join(', ')}` : ''}. Answer this question:\n\n${readText(join(folder, `${q}.txt`)).trim()}\n\n${ANSWER_FORM}`,
          ...(o.image ? { image: o.image } : {}),
          workspace: `../_analysis/${c.id}`,
          evaluator: { kind: 'answer', ...answer },
          oracle: { steps: [{ answer: String(c.answers[i]).trim(), note: 'the published answer' }] },
          limits: { steps: 100, seconds: 1200 },
          tags: ['dataset:dsbench', 'dsbench:data-analysis', `source:${c.id}/${q}`, ...(c.year ? [`year:${c.year}`] : [])],
        },
      }); });
    });
  }
  return makers;
}

/** A metric value DSBench saved (save_performance/<who>/<name>/result.txt). */
function savedValue(p: string, what: string): number {
  const v = Number(readText(need(p, what)).trim());
  if (!Number.isFinite(v)) throw new DatasetError(`${what}: ${p} does not hold a number`);
  return v;
}

interface Competition { c: DsModelingCompetition; metric: MetricName; target: string; id: string; sample: string; baseline: number; gold: number; description: string; split: string; answers: string }

function readCompetitions(dir: string): Competition[] {
  const file = join(dir, 'data.json');
  return parseJsonLines<DsModelingCompetition>(readText(file), file).map((c, i) => {
    const where = `${file}: competition ${(c as { name?: unknown })?.name ?? i + 1}`;
    requireStrings(c, ['name'], where, ['url', 'size']);
    // data/data_resplit/<name>/ as unpacked; DSBench's own notebook reads data_resplit/<name>/.
    const split = [join(dir, 'data', 'data_resplit', c.name), join(dir, 'data_resplit', c.name)].find((p) => existsSync(p))
      ?? need(join(dir, 'data', 'data_resplit', c.name), where);
    for (const f of ['train.csv', 'test.csv']) need(join(split, f), where);
    // DSBench hands over the one other file of the split as the sample submission.
    const sample = readdirSync(split).filter((f) => f !== 'train.csv' && f !== 'test.csv').sort()[0];
    if (!sample) throw new DatasetError(`${where}: ${split} has no sample submission besides train.csv and test.csv`);
    const script = need(join(dir, 'evaluation', `${c.name}_eval.py`), where);
    const code = readText(script);
    const metric = metricOfScript(code, script);
    const target = targetOfScript(code, script);
    const id = (parseCsv(readText(join(split, sample)))[0] ?? [])[0]?.trim();
    if (!id) throw new DatasetError(`${where}: ${sample} has no header`);
    const answers = need(join(dir, 'data', 'answers', c.name, 'test_answer.csv'), where);
    const header = (parseCsv(readText(answers))[0] ?? []).map((h) => h.trim());
    for (const col of [id, target]) if (!header.includes(col)) throw new DatasetError(`${where}: ${answers} has no column "${col}" (its columns: ${header.join(', ')})`);
    const gold = savedValue(join(dir, 'save_performance', 'GT', c.name, 'result.txt'), where);
    const baseline = savedValue(join(dir, 'save_performance', 'baseline', c.name, 'result.txt'), where);
    if (gold === baseline) throw new DatasetError(`${where}: the GT and baseline results are equal (${gold}), so no gap can be measured`);
    const description = readText(need(join(dir, 'data', 'task', `${c.name}.txt`), where)).trim();
    return { c, metric, target, id, sample, baseline, gold, description, split, answers };
  });
}

/** The kind of prediction pwp's reference model makes for a metric. */
const predictionKind = (m: MetricName) => (m === 'accuracy' ? 'label' : m === 'auc' ? 'probability' : 'value');

function modelingTasks(competitions: Competition[], o: DsBenchOptions, suite: string): TaskMaker[] {
  const threshold = o.threshold ?? 1;
  return competitions.map(({ c, metric, target, id, sample, baseline, gold, description, split, answers }) => () => {
    // A long Kaggle description stays in a file, so the instruction keeps within its limit.
    const long = description.length > 12_000;
    const workspace: FileMap = {};
    for (const f of readdirSync(split).sort()) if (statSync(join(split, f)).isFile()) workspace[f] = readFileSync(join(split, f));
    if (long) workspace['description.txt'] = `${description}\n`;
    return writeTaskFolder(o.outRoot, {
      task: {
        id: taskId(c.name),
        suite,
        instruction: `You are a data scientist. ${long ? 'description.txt describes a data modelling task' : `The data modelling task:\n\n${description}\n\n`}The workspace holds train.csv, test.csv and ${sample}. Predict every row of test.csv and write the predictions to submission.csv, in the format of ${sample} (columns ${id} and ${target}). It is scored by ${metric} on ${target}; it counts as solved when it reaches ${threshold === 1 ? 'the gold solution\'s score' : `${threshold} of the way from the baseline's score to the gold solution's`}.`,
        ...(o.image ? { image: o.image } : {}),
        evaluator: { kind: 'metric', predictions: 'submission.csv', answers: 'test_answer.csv', id, target, metric, baseline, gold, threshold },
        oracle: { steps: [
          { writeFile: '/tmp/pwp_dsbench_solve.py', from: 'oracle/solve.py', note: 'pwp\'s reference model: least squares on the shared columns' },
          { exec: ['python3', '/tmp/pwp_dsbench_solve.py', 'train.csv', 'test.csv', 'submission.csv', id, target, predictionKind(metric)], timeoutSec: 300 },
        ] },
        limits: { steps: 200, seconds: 1800 },
        tags: ['dataset:dsbench', 'dsbench:data-modeling', `source:${c.name}`, `metric:${metric}`, ...(c.year ? [`year:${c.year}`] : [])],
      },
      workspace,
      hidden: { 'test_answer.csv': readFileSync(answers) },
      oracle: { 'solve.py': graderScript('dsBenchSolve') },
    });
  });
}

/** Converts a DSBench folder (its data_analysis/ and data_modeling/ parts, whichever it has). */
export function convertDsBench(root: string, o: DsBenchOptions): Task[] {
  const analysis = join(root, 'data_analysis');
  const modeling = join(root, 'data_modeling');
  const hasA = existsSync(join(analysis, 'data.json'));
  const hasM = existsSync(join(modeling, 'data.json'));
  if (!hasA && !hasM) throw new DatasetError(`${root}: not a DSBench folder (expected data_analysis/data.json or data_modeling/data.json)`);
  const suite = o.suite ?? 'dsbench';
  // Both parts are read and checked before anything is written, so bad input changes nothing.
  const challenges = hasA ? readChallenges(analysis) : [];
  const competitions = hasM ? readCompetitions(modeling) : [];
  const makers = [...analysisTasks(challenges, analysis, o, suite), ...modelingTasks(competitions, o, suite)];
  return makers.slice(0, o.limit ?? makers.length).map((make) => make());
}
