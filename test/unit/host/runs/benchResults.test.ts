// A bench's bookkeeping without containers: pass@k (the Codex paper's estimator), the summary
// per suite and agent with the null/oracle baselines and the per-test pass rate, which runs a
// re-run still has to do, and results.jsonl surviving a cut or hand-edited last line.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchJobs } from '../../../../host/runs/benchmark';
import { markdownReport, summaryTable } from '../../../../host/runs/benchmarkReport';
import { appendResult, isDone, passAtK, readResults, summarize } from '../../../../host/runs/benchmarkResults';
import type { Task } from '../../../../host/taskEnv/loadTask';
import type { RunResult } from '../../../../host/runs/runTask';
import { resultLine } from '../../../support/resultLine';

const line = resultLine;

describe('bench results', () => {
  it('pass@k is 1 - C(n-c, k) / C(n, k), undefined beyond n attempts', () => {
    assert.equal(passAtK(2, 1, 1), 0.5);
    assert.equal(passAtK(2, 1, 2), 1);
    assert.equal(passAtK(2, 0, 2), 0);
    assert.ok(Math.abs(passAtK(5, 2, 2) - 0.7) < 1e-12, 'C(3,2)/C(5,2) = 3/10');
    assert.ok(Number.isNaN(passAtK(1, 1, 2)));
  });

  it('summarizes per suite and agent: success, mean score, pass@1 and pass@k over tasks, tests, baselines', () => {
    const s = summarize([
      // agent x: task a solved once in two attempts, task b never; partial test credit.
      line({ agent: 'x', task: 's/a', attempt: 1, passed: true, score: 1, tests: { passed: 4, total: 4 } }),
      line({ agent: 'x', task: 's/a', attempt: 2, score: 0.5, tests: { passed: 2, total: 4 } }),
      line({ agent: 'x', task: 's/b', id: 'b', attempt: 1, score: 0, tests: { passed: 0, total: 2 } }),
      line({ agent: 'x', task: 's/b', id: 'b', attempt: 2, score: 0, status: 'truncated', tests: { passed: 1, total: 2 } }),
      line({ agent: 'null', task: 's/a' }),
      line({ agent: 'oracle', task: 's/a', passed: true, score: 1 }),
      line({ agent: 'oracle', task: 't/c', suite: 't', id: 'c', passed: true, score: 1 }),
    ]);
    const x = s.groups.find((g) => g.agent === 'x')!;
    assert.deepEqual(
      { tasks: x.tasks, runs: x.runs, success: x.successRate, mean: x.meanScore, passAtK: x.passAtK, tests: x.testPassRate, truncated: x.truncated },
      { tasks: 2, runs: 4, success: 0.25, mean: 0.375, passAtK: { 1: 0.25, 2: 0.5 }, tests: 7 / 12, truncated: 1 },
    );
    assert.deepEqual(x.passAtKTasks, { 1: 2, 2: 2 });
    assert.equal(s.groups.find((g) => g.agent === 'oracle' && g.suite === 's')!.testPassRate, null, 'no tests ran: no rate');
    assert.deepEqual(s.baselines, { s: { null: 0, oracle: 1 }, t: { oracle: 1 } });
  });

  it('averages a published metric\'s components per suite and agent over the runs that have each, and shows them', () => {
    const swt = (coverage: number | null, f2p: number) => ({ components: [{ name: 'fail-to-pass', value: f2p }, { name: 'change coverage', value: coverage, ...(coverage === null ? { absent: 'no line' } : {}) }] });
    const s = summarize([
      line({ agent: 'x', suite: 'swt', task: 'swt/a', ...swt(0.5, 1) }),
      line({ agent: 'x', suite: 'swt', task: 'swt/b', id: 'b', ...swt(1, 0) }),
      line({ agent: 'x', suite: 'swt', task: 'swt/c', id: 'c', ...swt(null, 0) }),
      line({ agent: 'x', suite: 's', task: 's/a' }),
    ]);
    assert.deepEqual(s.groups.find((g) => g.suite === 'swt')!.components, [
      { name: 'fail-to-pass', mean: 1 / 3, runs: 3, absent: 0 },
      // SWT-Bench's mean leaves out the instances whose gold patch has no executable line.
      { name: 'change coverage', mean: 0.75, runs: 2, absent: 1 },
    ]);
    assert.equal(s.groups.find((g) => g.suite === 's')!.components, undefined);
    assert.match(summaryTable(s), /published metrics' components:[\s\S]*swt +x +fail-to-pass 33\.3% \(3 runs\), change coverage 75\.0% \(2 runs; 1 absent\)/);
    assert.match(markdownReport(s, [], '/x', 't'), /## Published metrics' components[\s\S]*\| swt \| x \| fail-to-pass 33\.3%/);
  });

  it('says how many tasks pass@k covers when some tasks have fewer attempts', () => {
    const s = summarize([
      line({ agent: 'x', task: 's/a', attempt: 1, passed: true, score: 1 }),
      line({ agent: 'x', task: 's/a', attempt: 2 }),
      line({ agent: 'x', task: 's/b', id: 'b', attempt: 1 }), // its second attempt errored and was not recorded
    ]);
    const x = s.groups[0];
    assert.deepEqual({ passAtK: x.passAtK, covered: x.passAtKTasks }, { passAtK: { 1: 0.25, 2: 1 }, covered: { 1: 2, 2: 1 } });
    const table = summaryTable(s);
    assert.match(table, /100\.0% \(1\/2 tasks\)/, table);
    assert.match(table, /\b25\.0%(?! \()/, 'pass@1 covers every task: no note');
  });

  it('a re-run skips finished and truncated runs and tries errors again; the last line of a run wins', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pwp-bench-unit-'));
    const file = join(dir, 'results.jsonl');
    writeFileSync(file, [
      JSON.stringify(line({ attempt: 1, status: 'error' })),
      JSON.stringify(line({ attempt: 1 })),
      JSON.stringify(line({ attempt: 2, status: 'error' })),
      JSON.stringify(line({ attempt: 3, status: 'truncated' })),
      '{"task": "s/a", "agent": "nu', // cut by a crash
      '',
    ].join('\n'));
    const byAttempt = new Map(readResults(file).map((r) => [r.attempt, r]));
    assert.deepEqual([...byAttempt.keys()].sort(), [1, 2, 3]);
    assert.deepEqual([1, 2, 3].map((a) => isDone(byAttempt.get(a))), [true, false, true]);
    assert.equal(isDone(undefined), false);
  });

  it('appends after a last line that lacks its newline without gluing the two together', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pwp-bench-unit-'));
    const file = join(dir, 'results.jsonl');
    writeFileSync(file, JSON.stringify(line({ attempt: 1 }))); // e.g. a hand edit that dropped the final newline
    appendResult(file, line({ attempt: 2 }) as RunResult);
    writeFileSync(file, `${readFileSync(file, 'utf8')}{"task": "s/a", "ag`); // a line cut by a crash
    appendResult(file, line({ attempt: 3 }) as RunResult);
    assert.deepEqual(readResults(file).map((r) => r.attempt), [1, 2, 3]);
    assert.ok(readFileSync(file, 'utf8').endsWith('}\n'));
  });

  it('plans attempts per task plus one null and one oracle run, never the agent twice', () => {
    const task = { suite: 's', id: 'a' } as Task;
    const plan = (agent: string) => benchJobs({ tasks: [task], agent, attempts: 2, baselines: true }).map((j) => `${j.agent}#${j.attempt}`);
    assert.deepEqual(plan('cua'), ['cua#1', 'cua#2', 'null#1', 'oracle#1']);
    assert.deepEqual(plan('null'), ['null#1', 'null#2', 'oracle#1']);
    assert.deepEqual(plan('oracle'), ['oracle#1', 'oracle#2', 'null#1']);
  });
});
