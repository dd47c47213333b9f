// pwp dataset check's bookkeeping without Docker: how a row is judged from its gold and null
// runs and its converter's flags, the summary and exit condition, the table; the bench listing
// left-out tasks (flagged, pending) apart in its summary and reports; and a whole check on the
// fake deployment (which has no verifier, so every run that starts ends in an error): every row
// written to check.jsonl, a pending row never run, and the check not ok.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { flaggedOut, partitionFlagged, pendingOut, runBench } from '../../../../host/runs/benchmark';
import { htmlReport, markdownReport, summaryTable } from '../../../../host/runs/benchmarkReport';
import { summarize, type LeftOutTask } from '../../../../host/runs/benchmarkResults';
import { checkTable, judgeRow, notesOf, runDatasetCheck, summarizeCheck, type DatasetCheck } from '../../../../host/runs/datasetCheck';
import type { Task } from '../../../../host/taskEnv/loadTask';
import { FakeDeployment } from '../../../support/fakeDeployment';
import { resultLine } from '../../../support/resultLine';

const task = (id: string, tags: string[] = []) => ({ suite: 's', id, tags, imageSource: { kind: 'ide' }, evaluator: { kind: 'files', checks: [] } }) as unknown as Task;
const gold = (o: Parameters<typeof resultLine>[0] = {}) => resultLine({ agent: 'oracle', score: 1, passed: true, ...o });
const nul = (o: Parameters<typeof resultLine>[0] = {}) => resultLine({ agent: 'null', ...o });

describe('pwp dataset check: bookkeeping', () => {
  it('judges a row: gold 1 and null 0 is ok; gold failing, null passing or scoring, or an error is not', () => {
    const notes = { notes: [] };
    assert.equal(judgeRow(task('a'), gold(), nul(), notes).verdict, 'ok');
    const nullPasses = judgeRow(task('b'), gold(), nul({ score: 1, passed: true }), notes);
    assert.deepEqual([nullPasses.verdict, nullPasses.quirks, nullPasses.valid], ['violation', ['null-passes'], true]);
    // IDE-Bench's null scored 0.14 by counting tests already passing: not passed, but not 0 either.
    assert.deepEqual(judgeRow(task('c'), gold(), nul({ score: 0.14 }), notes).quirks, ['null-scores:0.14']);
    assert.equal(judgeRow(task('c'), gold(), nul({ score: 0.14 }), notes).verdict, 'violation');
    assert.deepEqual(judgeRow(task('d'), gold({ score: 0.5, passed: false }), nul(), notes).quirks, ['gold-fails']);
    const err = judgeRow(task('e'), gold({ status: 'error', score: 0, passed: false, error: 'no image' }), nul(), notes);
    assert.deepEqual([err.verdict, err.quirks, err.gold?.error], ['error', ['gold-error'], 'no image']);
    assert.equal(judgeRow(task('f'), undefined, nul(), notes).verdict, 'not-run');
    // An unguarded grading (a script's exit status alone) is still checked, gold 1 and null 0, and says so.
    const script = { ...task('g'), evaluator: { kind: 'tests', framework: 'exitCode', command: ['sh', 'run-tests.sh'] } } as Task;
    const g = judgeRow(script, gold(), nul(), notes);
    assert.deepEqual([g.verdict, g.valid, g.quirks], ['ok', true, ['unguarded']]);
  });

  it('shows a published metric\'s components beside the gold score, and their means over the valid rows', () => {
    const comps = (c: number) => ({ components: [{ name: 'applicability', value: 1 }, { name: 'change coverage', value: c }] });
    const rows = [judgeRow(task('a'), gold(comps(0.5)), nul(), { notes: [] }), judgeRow(task('b'), gold(comps(1)), nul(), { notes: [] })];
    assert.deepEqual(rows[0].gold?.components, comps(0.5).components);
    const summary = summarizeCheck(rows, 2);
    assert.deepEqual(summary.goldComponents, [{ name: 'applicability', mean: 1, runs: 2, absent: 0 }, { name: 'change coverage', mean: 0.75, runs: 2, absent: 0 }]);
    const table = checkTable({ kind: 'swt-bench', input: 'x', outDir: '/o', sample: null, rows, summary, notes: [], files: { tasks: '', results: '', rows: '', report: '' } });
    assert.match(table, /gold metrics/);
    assert.match(table, /s\/a .*applicability 1\.000, change coverage 0\.500/);
    assert.match(table, /gold metrics: applicability 1\.000 \(2 rows\), change coverage 0\.750 \(2 rows\)/);
    // No component anywhere: no column.
    assert.doesNotMatch(checkTable({ kind: 'swt-bench', input: 'x', outDir: '/o', sample: null, rows: [judgeRow(task('a'), gold(), nul(), { notes: [] })], summary: summarizeCheck([], 1), notes: [], files: { tasks: '', results: '', rows: '', report: '' } }), /gold metrics/);
  });

  it('lists flagged and pending rows apart with why, and keeps them out of the rates and the exit condition', () => {
    const note = 's/inv: invalid row: its program already passes';
    const invalid = judgeRow(task('inv', ['dataset:x', 'invalid:before-passes']), gold(), nul({ score: 1, passed: true }), { notes: [note] });
    assert.deepEqual([invalid.valid, invalid.verdict, invalid.quirks, invalid.leftOut?.kind], [false, 'left-out', ['invalid:before-passes', 'null-passes'], 'invalid']);
    assert.deepEqual(invalid.notes, [note]);
    const live = judgeRow(task('net', ['needs:live-server']), gold(), nul(), { notes: [] });
    assert.deepEqual([live.valid, live.verdict, live.quirks, live.leftOut?.kind], [false, 'left-out', ['needs:live-server'], 'needs-live-server']);
    // A row its converter could not grade as published (PwP-Bench VSCode's marketplace extension): its oracle fails by design.
    const failsByDesign = gold({ status: 'error', score: 0, passed: false, error: 'pending: needs the marketplace' });
    const tagged = judgeRow(task('ext', ['pending:needs the marketplace']), failsByDesign, nul(), { notes: [] });
    assert.deepEqual([tagged.valid, tagged.verdict, tagged.quirks, tagged.leftOut?.kind],
      [false, 'left-out', ['pending:needs the marketplace', 'gold-error'], 'pending']);
    // A row whose gold grading says no deliverable can pass it (ChartMimic's untraced Venn diagram) is invalid as published.
    const unpassable = judgeRow(task('venn'), gold({ score: 0.6, passed: false, unreachable: 'the original draws nothing traced' }), nul(), { notes: [] });
    assert.deepEqual([unpassable.valid, unpassable.verdict, unpassable.quirks, unpassable.leftOut],
      [false, 'left-out', ['invalid:unreachable', 'gold-fails'], { kind: 'invalid', reason: 'no deliverable can pass its grading: the original draws nothing traced' }]);
    const pending: LeftOutTask = { task: 's/p', suite: 's', kind: 'pending', reason: 'toolchain missing: Python library autograd' };
    const p = judgeRow(task('p'), undefined, undefined, { pending, notes: [] });
    assert.deepEqual([p.valid, p.verdict, p.quirks, p.leftOut], [false, 'pending', ['pending'], { kind: 'pending', reason: pending.reason }]);

    const ok = judgeRow(task('a'), gold(), nul(), { notes: [] });
    const s = summarizeCheck([ok, invalid, live, p, unpassable], 10);
    assert.deepEqual({ valid: s.valid, gold: s.gold, null: s.null, ok: s.ok, left: s.leftOut.map((l) => [l.task, l.kind]) },
      {
        valid: 1, gold: { passed: 1, of: 1, rate: 1 }, null: { passed: 0, of: 1, rate: 0 }, ok: true,
        left: [['s/inv', 'invalid'], ['s/net', 'needs-live-server'], ['s/p', 'pending'], ['s/venn', 'invalid']],
      });
    // A planted violation among the valid rows fails the check; with no valid row nothing is proved.
    const bad = summarizeCheck([ok, judgeRow(task('b'), gold({ score: 0, passed: false }), nul(), { notes: [] })], 2);
    assert.deepEqual([bad.ok, bad.violations, bad.gold.rate], [false, ['s/b'], 0.5]);
    assert.equal(summarizeCheck([p], 1).ok, false);
  });

  it('finds the notes naming a row, not those naming a row whose name it begins', () => {
    const notes = ['s/a: before passes', 's/ab: something', 'general note', 'see s/a, tagged', 'a: named by its dataset id', 'ab: another', 'not a: at the start'];
    assert.deepEqual(notesOf('s/a', notes), ['s/a: before passes', 'see s/a, tagged', 'a: named by its dataset id']);
  });

  it('prints a fixed-width table with the verdicts, the left-out rows and the summary', () => {
    const rows = [
      judgeRow(task('a'), gold(), nul(), { notes: [] }),
      judgeRow(task('b'), gold(), nul({ score: 1, passed: true }), { notes: [] }),
      judgeRow(task('p'), undefined, undefined, { pending: { task: 's/p', suite: 's', kind: 'pending', reason: 'toolchain missing: x' }, notes: ['s/p: needs x'] }),
    ];
    const check: DatasetCheck = {
      kind: 'humaneval', input: '/in', outDir: '/out', sample: { n: 3, seed: 1 }, rows, summary: summarizeCheck(rows, 5), notes: [],
      files: { tasks: '/out/tasks', results: '/out/results.jsonl', rows: '/out/check.jsonl', report: '/out/check.json' },
    };
    const t = checkTable(check);
    assert.match(t, /^row\s+gold\s+null\s+verdict\s+quirks\n/);
    assert.match(t, /\ns\/a\s+1\.00 pass\s+0\.00 fail\s+ok\n/);
    assert.match(t, /\ns\/b\s+1\.00 pass\s+1\.00 pass\s+violation\s+null-passes\n/);
    assert.match(t, /\ns\/p\s+–\s+–\s+pending\s+pending\n/);
    assert.match(t, /converter notes:\n {2}s\/p: needs x/);
    assert.match(t, /rows: +3 \(a sample of 3 of 5, seed 1\), valid 2/);
    assert.match(t, /gold passes: 2\/2 \(100\.0%\)/);
    assert.match(t, /null passes: 1\/2 \(50\.0%\)/);
    assert.match(t, /violations: +1 \(s\/b\)/);
    assert.match(t, /left out: +0 invalid, 0 needs-live-server, 1 pending\n {2}s\/p: pending: toolchain missing: x/);
    assert.match(t, /result: +FAILED/);
  });
});

describe('pwp dataset check: why a row failed', () => {
  let root: string;
  beforeEach(() => { root = mkdtempSync(join(tmpdir(), 'pwp-why-')); });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('shows, under the table, the failing run\'s summary and first failure, and flags rows graded with the verifier\'s network', () => {
    const runDir = join(root, 'gold');
    mkdirSync(runDir);
    writeFileSync(join(runDir, 'evaluation.json'), JSON.stringify({
      kind: 'tests', score: 0, passed: false, summary: '1/2 tests pass',
      tests: { cases: [{ id: 't::ok', status: 'passed' }, { id: 't::data', status: 'failed', message: 'the tests download data from github.com, which this verifier could not reach; t::data: failed\nassert …' }] },
    }));
    const networked = { ...task('net'), verifierNetwork: true } as Task;
    const row = judgeRow(networked, gold({ score: 0, passed: false, runDir, summary: '1/2 tests pass' }), nul(), { notes: [] });
    assert.deepEqual([row.verdict, row.quirks], ['violation', ['verifier-network', 'gold-fails']]);
    assert.equal(row.gold?.firstFailure, 't::data: the tests download data from github.com, which this verifier could not reach; t::data: failed');
    const rows = [row, judgeRow(task('ok'), gold(), nul(), { notes: [] })];
    const t = checkTable({
      kind: 'swe-bench', input: '/in', outDir: '/out', sample: null, rows, summary: summarizeCheck(rows, 2), notes: [],
      files: { tasks: '/out/tasks', results: '/out/results.jsonl', rows: '/out/check.jsonl', report: '/out/check.json' },
    });
    assert.match(t, /\nwhy:\n {2}s\/net: gold: 1\/2 tests pass; first failure: t::data: the tests download data from github\.com, which this verifier could not reach; t::data: failed\n\n/);
    assert.doesNotMatch(t, /s\/ok: gold/);
  });
});

describe('pwp bench: tasks left out of the scores', () => {
  let root: string;
  beforeEach(() => { root = mkdtempSync(join(tmpdir(), 'pwp-leftout-')); });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  /** A task whose image's Dockerfile requires wheels nobody supplied. */
  function pendingTask(): Task {
    mkdirSync(join(root, 'img'), { recursive: true });
    writeFileSync(join(root, 'img', 'Dockerfile'), 'ARG PWP_IDE_IMAGE\nFROM ${PWP_IDE_IMAGE}\n');
    return {
      ...task('p'),
      imageSource: {
        kind: 'build', name: 's-p', dockerfile: join(root, 'img', 'Dockerfile'),
        requires: [{ toolchain: 'Python library autograd', path: 'wheels/autograd', how: 'put its wheels in wheels/autograd' }],
      },
    } as Task;
  }

  it('partitions flagged tasks and finds pending ones, naming why', () => {
    const script = { ...task('sh'), evaluator: { kind: 'tests', framework: 'exitCode', command: ['sh', 'run-tests.sh'] } } as Task;
    const { counted, leftOut } = partitionFlagged([task('a'), task('inv', ['invalid:before-passes']), task('net', ['needs:live-server']), script]);
    assert.deepEqual(counted.map((t) => t.id), ['a']);
    assert.deepEqual(leftOut.map((l) => [l.task, l.kind]), [['s/inv', 'invalid'], ['s/net', 'needs-live-server'], ['s/sh', 'unguarded']]);
    assert.match(leftOut[2].reason, /^its grading is unguarded: graded by the exit status of `sh run-tests\.sh` alone/);
    assert.equal(flaggedOut(task('a')), undefined);
    assert.equal(pendingOut(task('a')), undefined);
    const p = pendingOut(pendingTask())!;
    assert.deepEqual([p.task, p.kind], ['s/p', 'pending']);
    assert.match(p.reason, /toolchain missing: Python library autograd .*wheels\/autograd/);
  });

  it('lists them apart in the summary, its JSON, the table, report.md and report.html, counted in no figure', () => {
    const leftOut: LeftOutTask[] = [
      { task: 's/p', suite: 's', kind: 'pending', reason: 'toolchain missing: Python library autograd' },
      { task: 's/inv', suite: 's', kind: 'invalid', reason: "the dataset's row is invalid (before-passes)" },
    ];
    const s = summarize([resultLine({ agent: 'cua', task: 's/a', passed: true, score: 1 })], leftOut);
    assert.deepEqual(s.leftOut.map((l) => l.task), ['s/inv', 's/p'], 'sorted by kind, then task');
    assert.deepEqual(JSON.parse(JSON.stringify(s)).leftOut[1], leftOut[0]);
    assert.equal(s.groups[0].tasks, 1);
    const table = summaryTable(s);
    assert.match(table, /left out of the scores \(2\):\ntask\s+left out as\s+why\n[-\s]+\ns\/inv\s+invalid row\s+the dataset's row is invalid \(before-passes\)\ns\/p\s+pending\s+toolchain missing/);
    assert.match(markdownReport(s, [], '/o', 't'), /## Left out of the scores[\s\S]*\| s\/p \| pending \| toolchain missing: Python library autograd \|/);
    assert.match(htmlReport(s, [], '/o', 't'), /<h2>Left out of the scores<\/h2>[\s\S]*<td>s\/inv<\/td><td>invalid row<\/td>/);
    assert.doesNotMatch(summaryTable(summarize([])), /left out/);
    // A task whose runs say no deliverable can pass its grading: its runs counted in no figure, the task listed apart with why.
    const withVenn = summarize([resultLine({ agent: 'cua', task: 's/a', passed: true, score: 1 }), resultLine({ agent: 'cua', task: 's/venn', score: 0.6, unreachable: 'untraced' })]);
    assert.deepEqual([withVenn.groups[0].tasks, withVenn.groups[0].meanScore], [1, 1]);
    assert.deepEqual(withVenn.leftOut, [{ task: 's/venn', suite: 's', kind: 'invalid', reason: 'no deliverable can pass its grading: untraced' }]);
  });

  it('a bench on the fake deployment runs no pending task and lists it apart', async function () {
    this.timeout(60_000);
    const out = join(root, 'bench');
    const outcome = await runBench({ tasks: [pendingTask()], agent: 'oracle', attempts: 1, parallel: 1, outDir: out, deployment: new FakeDeployment(), video: false });
    assert.deepEqual([outcome.ran, outcome.results.length], [0, 0]);
    assert.deepEqual(outcome.summary.leftOut.map((l) => [l.task, l.kind]), [['s/p', 'pending']]);
    assert.deepEqual(JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')).leftOut.map((l: LeftOutTask) => l.task), ['s/p']);
    assert.match(readFileSync(join(out, 'report.md'), 'utf8'), /## Left out of the scores/);
  });
});

describe('pwp dataset check on the fake deployment', () => {
  let root: string;
  beforeEach(() => { root = mkdtempSync(join(tmpdir(), 'pwp-dscheck-')); });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('writes every row to check.jsonl and check.json: the pending row never runs, a row whose runs fail is an error, and the check is not ok', async function () {
    this.timeout(120_000);
    const row = (id: number, name: string, libraries: string[] = []) => ({
      id, name, full_name: `${id}_${name}`, before: 'def f():\n    return 1\n', after: 'def f():\n    return 2\n', tests: 'assert f() == 2\n',
      instruction_descriptive: 'Make f return 2.', instruction_lazy: 'f returns 2', taxonomy: { change_kind: 'adaptive', libraries, topic: 'misc' },
    });
    const input = join(root, 'rows.jsonl');
    writeFileSync(input, `${[row(1, 'plain'), row(2, 'needs_autograd', ['autograd'])].map((r) => JSON.stringify(r)).join('\n')}\n`);
    const out = join(root, 'check');
    const deployment = new FakeDeployment();
    const seen: string[] = [];
    const check = await runDatasetCheck({ kind: 'canitedit', input, outDir: out, parallel: 1, deployment, onRow: (r) => seen.push(`${r.task} ${r.verdict}`) });
    assert.deepEqual(check.rows.map((r) => [r.task, r.verdict]), [['canitedit/1_plain', 'error'], ['canitedit/2_needs_autograd', 'pending']]);
    assert.deepEqual(seen.sort(), ['canitedit/1_plain error', 'canitedit/2_needs_autograd pending']);
    assert.match(check.rows[0].gold?.error ?? '', /verifier/);
    assert.equal(check.rows[1].gold, null);
    assert.ok(!existsSync(join(out, 'runs', 'canitedit', '2_needs_autograd')), 'the pending row never ran');
    assert.deepEqual([check.summary.ok, check.summary.errors, check.summary.leftOut.map((l) => l.kind)], [false, ['canitedit/1_plain'], ['pending']]);
    const lines = readFileSync(join(out, 'check.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { task: string; verdict: string });
    assert.deepEqual(lines.map((l) => l.task).sort(), ['canitedit/1_plain', 'canitedit/2_needs_autograd']);
    assert.deepEqual(JSON.parse(readFileSync(join(out, 'check.json'), 'utf8')).summary, check.summary);
    assert.equal(readFileSync(join(out, 'results.jsonl'), 'utf8').trim().split('\n').length, 2, 'gold and null of the one row that ran');
    assert.deepEqual(deployment.live, [], 'every environment removed');
  });
});
