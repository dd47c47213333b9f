// DSBench's published layout read by its converter: analysis questions graded on the answer,
// modelling competitions by the metric of their evaluation script, and clear errors on bad input
// (nothing written).
import { strict as assert } from 'node:assert';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DATASETS_ROOT } from '../../../../host/converters/bundledDatasets';
import { convertDataset } from '../../../../host/converters/datasets';
import { analysisAnswer, metricOfScript, targetOfScript } from '../../../../host/converters/dsBench';
import { loadTask, TASKS_ROOT } from '../../../../host/taskEnv/loadTask';

describe('dsbench converter', () => {
  let root: string;
  let src: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'pwp-dsbench-'));
    src = join(root, 'DSBench');
    cpSync(join(DATASETS_ROOT, 'dsbench'), src, { recursive: true });
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));
  const out = () => join(root, 'out');
  const convert = (extra: Record<string, unknown> = {}) => convertDataset('dsbench', src, { outRoot: out(), ...extra });
  const edit = (rel: string, f: (s: string) => string) => writeFileSync(join(src, rel), f(readFileSync(join(src, rel), 'utf8')));
  const refused = async (re: RegExp) => {
    await assert.rejects(convert(), re);
    assert.ok(!existsSync(out()), 'nothing written');
  };

  it('compares published answers numerically to their precision, else as text', () => {
    assert.deepEqual(analysisAnswer(372.7), { match: 'numeric', expected: 372.7, tolerance: 0.05 });
    assert.deepEqual(analysisAnswer(1661626), { match: 'numeric', expected: 1661626, tolerance: 0.5 });
    assert.deepEqual(analysisAnswer('$5753961'), { match: 'numeric', expected: 5753961, tolerance: 0.5 });
    assert.deepEqual(analysisAnswer('9.424%'), { match: 'numeric', expected: 9.424, tolerance: 0.0005 });
    assert.deepEqual(analysisAnswer('$983.01m'), { match: 'numeric', expected: 983.01, tolerance: 0.005 });
    assert.deepEqual(analysisAnswer('640,121'), { match: 'numeric', expected: 640121, tolerance: 0.5 });
    assert.deepEqual(analysisAnswer('D'), { match: 'exact', expected: 'D' });
    assert.deepEqual(analysisAnswer('31 Dec 2029'), { match: 'exact', expected: '31 Dec 2029' });
    assert.deepEqual(analysisAnswer('OS 4, 17236 k'), { match: 'exact', expected: 'OS 4, 17236 k' });
    assert.equal(analysisAnswer({ Q: 1, 'Xth word': 'ALIBI' }), undefined);
    assert.equal(analysisAnswer(''), undefined);
  });

  it('reads the metric and the scored column from DSBench evaluation scripts', () => {
    const forms: [string, string][] = [
      ['performance = accuracy_score(actual[args.value], submission[args.value])', 'accuracy'],
      ['performance = np.sqrt(mean_squared_error(actual[args.value], submission[args.value]))', 'rmse'],
      ['performance = mean_squared_error(a, b, squared=False)', 'rmse'],
      ['performance = mean_squared_error(a, b)', 'mse'],
      ['performance = rmsle(predictions[args.value], answers[args.value])', 'rmsle'],
      ['    performance = mean_absolute_error(answers[\'Age\'], predictions[args.value])', 'mae'],
      ['performance = smape(answers[args.value], predictions[args.value])', 'smape'],
      ['performance = roc_auc_score(answers[args.value], predictions[args.value])', 'auc'],
      ['performance = r2_score(a, b)', 'r2'],
    ];
    for (const [line, metric] of forms) assert.equal(metricOfScript(`import numpy as np\n${line}\n`, 'x_eval.py'), metric, line);
    assert.throws(() => metricOfScript('performance = log_loss(a, b)\n', 'x_eval.py'), /x_eval\.py: the metric of "performance = log_loss\(a, b\)" is not one pwp computes/);
    assert.throws(() => metricOfScript('print(1)\n', 'x_eval.py'), /no "performance = …" line/);
    assert.equal(targetOfScript('parser.add_argument(\'--value\', type=str, default="Survived")', 'x'), 'Survived');
    assert.throws(() => targetOfScript('parser.add_argument("--path")', 'x_eval.py'), /x_eval\.py: no --value argument/);
  });

  it('turns the bundled folder into analysis tasks and a modelling task whose answers stay hidden', () => {
    const question = loadTask(join(TASKS_ROOT, 'dsbench', '00000001-question2'));
    assert.deepEqual(readdirSync(question.workspaceDir!).sort(), ['introduction.txt', 'sales.csv'], 'no question files in the workspace');
    assert.deepEqual(question.evaluator, { kind: 'answer', match: 'exact', expected: 'C', tolerance: 0, caseSensitive: false });
    const model = loadTask(join(TASKS_ROOT, 'dsbench', 'pwp-delivery-time'));
    assert.deepEqual(readdirSync(model.workspaceDir!).sort(), ['sample_submission.csv', 'test.csv', 'train.csv']);
    assert.doesNotMatch(readFileSync(join(model.workspaceDir!, 'test.csv'), 'utf8'), /minutes/, 'test.csv has no labels');
    assert.deepEqual(readdirSync(model.hiddenDir!), ['test_answer.csv']);
    assert.deepEqual(model.evaluator, {
      kind: 'metric',
      predictions: 'submission.csv',
      answers: 'test_answer.csv',
      id: 'id',
      target: 'minutes',
      metric: 'rmse',
      baseline: 15.502838449780738,
      gold: 2.5,
      threshold: 1,
    });
  });

  it('leaves out files named like answers, answers it cannot compare (with a note), and honours --limit and --threshold', async () => {
    writeFileSync(join(src, 'data_analysis/data/00000001/ledger_answers.csv'), 'q,a\n1,372.7\n');
    edit('data_analysis/data.json', (s) => s.replace('"answers": [372.7, "C"]', '"answers": [{"Q": 1}, "C"]'));
    const notes: string[] = [];
    const tasks = await convert({ onNote: (l: string) => notes.push(l), threshold: 0.5 });
    assert.deepEqual(tasks.map((t) => t.id), ['00000001-question2', 'pwp-delivery-time']);
    assert.match(notes.join('\n'), /challenge 00000001, question1: its answer \{"Q":1\} cannot be compared without a model judge; left out/);
    assert.deepEqual(readdirSync(join(out(), 'dsbench', '_analysis', '00000001')).sort(), ['introduction.txt', 'sales.csv']);
    assert.equal((tasks[1].evaluator as { threshold: number }).threshold, 0.5);
    rmSync(out(), { recursive: true });
    assert.deepEqual((await convert({ limit: 1 })).map((t) => t.id), ['00000001-question2']);
    assert.ok(!existsSync(join(out(), 'dsbench', 'pwp-delivery-time')), '--limit writes only the tasks it keeps');
  });

  it('finds the split where DSBench\'s notebook reads it too (data_resplit/<name>/)', async () => {
    cpSync(join(src, 'data_modeling/data/data_resplit'), join(src, 'data_modeling/data_resplit'), { recursive: true });
    rmSync(join(src, 'data_modeling/data/data_resplit'), { recursive: true });
    const t = (await convert()).find((x) => x.id === 'pwp-delivery-time')!;
    assert.deepEqual(readdirSync(t.workspaceDir!).sort(), ['sample_submission.csv', 'test.csv', 'train.csv']);
  });

  it('refuses a folder that is not DSBench\'s', async () => {
    mkdirSync(join(root, 'empty'));
    await assert.rejects(convertDataset('dsbench', join(root, 'empty'), { outRoot: out() }), /not a DSBench folder \(expected data_analysis\/data\.json or data_modeling\/data\.json\)/);
  });

  it('refuses a challenge whose answers do not match its questions, or whose files are missing', async () => {
    edit('data_analysis/data.json', (s) => s.replace('"answers": [372.7, "C"]', '"answers": [372.7]'));
    await refused(/data\.json: challenge 00000001: 2 questions but 1 answers/);
    edit('data_analysis/data.json', (s) => s.replace('"answers": [372.7]', '"answers": [372.7, "C"]'));
    rmSync(join(src, 'data_analysis/data/00000001/question2.txt'));
    await refused(/challenge 00000001, question2: .*question2\.txt does not exist/);
  });

  it('refuses a competition without its gold result, answers or a metric pwp computes', async () => {
    edit('data_modeling/data.json', (s) => s.replace('"name": "pwp-delivery-time", ', ''));
    await refused(/data\.json: competition 1: missing field "name"/);
    edit('data_modeling/data.json', (s) => s.replace('{', '{"name": "pwp-delivery-time", '));
    edit('data_modeling/evaluation/pwp-delivery-time_eval.py', (s) => s.replace('default="minutes"', 'default="eta"'));
    await refused(/test_answer\.csv has no column "eta" \(its columns: id, minutes\)/);
    edit('data_modeling/evaluation/pwp-delivery-time_eval.py', (s) => s.replace('default="eta"', 'default="minutes"').replace(/performance = .*/, 'performance = log_loss(a, b)'));
    await refused(/pwp-delivery-time_eval\.py: the metric of "performance = log_loss\(a, b\)" is not one pwp computes/);
    cpSync(join(DATASETS_ROOT, 'dsbench/data_modeling/evaluation'), join(src, 'data_modeling/evaluation'), { recursive: true });
    rmSync(join(src, 'data_modeling/save_performance/GT'), { recursive: true });
    await refused(/competition pwp-delivery-time: .*save_performance\/GT\/pwp-delivery-time\/result\.txt does not exist/);
  });
});
