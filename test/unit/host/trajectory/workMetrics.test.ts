// IDE-Bench's agent metrics from a recorded trajectory (records as the recorder writes them).
import { strict as assert } from 'node:assert';
import type { Trajectory, TrajectoryRecord } from '../../../../host/trajectory/trajectoryFile';
import { htmlReport, markdownReport, summaryTable } from '../../../../host/runs/benchmarkReport';
import { summarize } from '../../../../host/runs/benchmarkResults';
import { diffFileCount, workMetrics } from '../../../../host/trajectory/workMetrics';
import { resultLine } from '../../../support/resultLine';

let seq = 0;
const T0 = 1_000_000;
const step = (n: number, t: number, action: Record<string, unknown>, toolResult?: { isError: boolean; text: string }): TrajectoryRecord => ({
  type: 'step', seq: ++seq, t: T0 + t, actor: 'agent', step: n, action: action as never, reward: 0, terminated: false, truncated: false,
  info: toolResult ? { toolResult: { isError: toolResult.isError, content: [{ type: 'text', text: toolResult.text }] } } : {}, observation: { timings: {} },
} as TrajectoryRecord);
const trajectory = (steps: TrajectoryRecord[]): Trajectory => ({
  dir: '/tmp', header: null, tornTail: null,
  records: [{ type: 'reset', seq: 0, t: T0, seed: null, options: {}, info: {}, observation: { timings: {} } } as TrajectoryRecord, ...steps],
});
const tool = (name: string, args: Record<string, unknown>) => ({ type: 'tool', name, args });

describe('work metrics from a trajectory (IDE-Bench\'s agent metrics)', () => {
  const t = trajectory([
    step(1, 1000, tool('list_dir', {}), { isError: false, text: '...' }),
    step(2, 2000, tool('read_file', { target_file: 'app/users.py', explanation: 'look first' }), { isError: false, text: '1 import' }),
    step(3, 3000, tool('read_file', { target_file: 'app/missing.py' }), { isError: true, text: 'file not found' }),
    step(4, 4000, tool('edit_file', { target_file: 'app/users.py', operation: 'replace' }), { isError: true, text: 'edit rejected: SyntaxError: invalid syntax (line 4)' }),
    step(5, 5500, tool('edit_file', { target_file: '/workspace/app/users.py', operation: 'replace' }), { isError: false, text: 'ok' }),
    step(6, 6000, tool('search_replace', { file_path: 'app/other.py', old_string: 'a', new_string: 'b' }), { isError: false, text: 'ok' }),
    step(7, 7000, { type: 'write_file', path: '/workspace/notes.txt', content: 'x' }),
    step(8, 8000, { type: 'key', keys: 'ctrl+s' }),
    step(9, 9000, { type: 'write_file', path: '/tmp/scratch.diff', content: 'x' }),
  ]);

  it('counts files visited and edited, edits of unseen files, the first edit and syntax errors', () => {
    const m = workMetrics(t, { passed: false, finished: true, changedFiles: 3 });
    assert.equal(m.filesVisited, 1); // the failed read does not count
    assert.equal(m.filesEdited, 3); // app/users.py (either spelling), app/other.py, notes.txt
    assert.equal(m.editedUnseen, 2);
    assert.equal(m.successfulEdits, 3);
    assert.equal(m.timeToFirstEditMs, 5500);
    assert.equal(m.stepsToFirstEdit, 5);
    assert.equal(m.syntaxErrors, 1);
    assert.equal(m.failure, 'syntax-errors');
  });

  it('names the first IDE-Bench condition that failed', () => {
    assert.equal(workMetrics(t, { passed: true, finished: true, changedFiles: 3 }).failure, 'none');
    assert.equal(workMetrics(t, { passed: false, finished: false, changedFiles: 3 }).failure, 'agent-did-not-finish');
    const readOnly = trajectory([step(1, 100, tool('read_file', { target_file: 'a.py' }), { isError: false, text: 'x' })]);
    assert.equal(workMetrics(readOnly, { passed: false, finished: true, changedFiles: 0 }).failure, 'no-code-changes');
    // Changes through the shell (agent.diff) are code changes too: the tests failed.
    const m = workMetrics(readOnly, { passed: false, finished: true, changedFiles: 2 });
    assert.deepEqual([m.failure, m.timeToFirstEditMs, m.successfulEdits], ['tests-failed', null, 0]);
  });

  it('counts the files of an agent.diff', () => {
    assert.equal(diffFileCount('diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\nBinary files a/i.png and b/i.png differ\n'), 2);
    assert.equal(diffFileCount(''), 0);
  });
});

describe('work metrics in the bench summary and reports', () => {
  it('averages per suite and agent, counts failure categories, and shows them in the terminal, Markdown and HTML reports', () => {
    const w = (filesVisited: number, filesEdited: number, timeToFirstEditMs: number | null, failure: 'none' | 'tests-failed' | 'no-code-changes') => ({
      filesVisited,
      filesEdited,
      editedUnseen: 0,
      successfulEdits: filesEdited,
      timeToFirstEditMs,
      stepsToFirstEdit: null,
      syntaxErrors: failure === 'tests-failed' ? 1 : 0,
      changedFiles: filesEdited,
      failure,
    });
    const s = summarize([
      resultLine({ agent: 'm', task: 's/a', passed: true, score: 1, work: w(4, 2, 10_000, 'none') }),
      resultLine({ agent: 'm', task: 's/b', id: 'b', work: w(2, 1, 20_000, 'tests-failed') }),
      resultLine({ agent: 'm', task: 's/c', id: 'c', work: w(3, 0, null, 'no-code-changes') }),
    ]);
    const g = s.groups.find((x) => x.agent === 'm')!;
    assert.deepEqual(g.work, {
      runs: 3, meanFilesVisited: 3, meanFilesEdited: 1, meanEditedUnseen: 0, meanTimeToFirstEditMs: 15_000, syntaxErrors: 1,
      failures: { none: 1, 'tests-failed': 1, 'no-code-changes': 1 },
    });
    assert.match(summaryTable(s), /how the agents worked on the code[\s\S]*s\s+m\s+3\.0\s+1\.0\s+0\.0\s+15\.0 s\s+1\s+(none|tests-failed|no-code-changes) 1/);
    assert.match(markdownReport(s, [], '/tmp', 't'), /## How the agents worked on the code[\s\S]*\| s \| m \| 3\.0 \| 1\.0 \| 0\.0 \| 15\.0 s \| 1 \|/);
    assert.match(htmlReport(s, [], '/tmp', 't'), /<h2>How the agents worked on the code<\/h2>/);
  });
});
