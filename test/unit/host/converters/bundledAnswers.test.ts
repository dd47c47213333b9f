// What each bundled family's converter keeps from the agent: the answer (canonical solution,
// `after` program, gold patch, solution patch, gold query) is only in the hidden folder or the
// oracle, never in the workspace the agent starts from.
import { strict as assert } from 'node:assert';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadTask, TASKS_ROOT, type Task } from '../../../../host/taskEnv/loadTask';

const task = (name: string): Task => loadTask(join(TASKS_ROOT, name));
const read = (dir: string | undefined, rel: string) => readFileSync(join(dir!, rel), 'utf8');

describe('bundled dataset families keep the answer from the agent', () => {
  it('humaneval: solution.py is the prompt with a body to write; check() is hidden', () => {
    const t = task('humaneval/humaneval-pwp-3');
    assert.match(read(t.workspaceDir, 'solution.py'), /def is_balanced[\s\S]*raise NotImplementedError\n$/);
    assert.match(read(t.hiddenDir, 'workspace/tests/test_hidden.py'), /def check\(candidate\)/);
  });

  it('canitedit: main.py is the program before the edit; the tests are hidden', () => {
    const t = task('canitedit/1_stack_peek');
    assert.doesNotMatch(read(t.workspaceDir, 'main.py'), /def peek/);
    assert.match(read(t.hiddenDir, 'workspace/.canitedit/canitedit_tests.py'), /^### START TESTS ###/);
  });

  it('swe-bench: the workspace is the base commit without the fix; the new tests and the gold patch are hidden', () => {
    const t = task('swe-bench/pwp-samples__tally-2');
    assert.match(read(t.workspaceDir, 'tally/stats.py'), /return ordered\[len\(ordered\) \/\/ 2\]/, 'the bug is there');
    assert.doesNotMatch(read(t.workspaceDir, 'tests/test_stats.py'), /median_even/);
    assert.match(read(t.hiddenDir, 'workspace/tests/test_stats.py'), /def test_median_even/);
    assert.match(read(t.dir, 'oracle/gold.patch'), /\+ {4}return \(ordered\[mid - 1\] \+ ordered\[mid\]\) \/ 2/);
    assert.ok(!existsSync(join(t.hiddenDir!, 'workspace', 'tally')), 'the fix is not among the hidden files');
  });

  it('swe-bench-mm: the workspace is the base commit with the issue\'s screenshot; the new test and the gold patch are hidden', () => {
    const t = task('swe-bench-mm/pwp-samples__swatch-3');
    assert.match(read(t.workspaceDir, 'src/barChart.js'), /y: 0, width/, 'the bug is there');
    assert.ok(readFileSync(join(t.workspaceDir!, '.issue/bar-chart-upside-down.png')).subarray(1, 4).equals(Buffer.from('PNG')));
    assert.doesNotMatch(read(t.workspaceDir, 'test/barChart.test.js'), /stand on the baseline/);
    assert.match(read(t.hiddenDir, 'workspace/test/barChart.test.js'), /test\('bars stand on the baseline'/);
    assert.match(read(t.dir, 'oracle/gold.patch'), /\+ +return \{ x: .*y: height - h,/);
    assert.ok(!existsSync(join(t.hiddenDir!, 'workspace', 'src')), 'the fix is not among the hidden files');
  });

  it('swt-bench: the workspace is the base commit with neither the fix nor the gold tests; the agent keeps its test files', () => {
    const t = task('swt-bench/pwp-samples__textkit-1');
    assert.match(read(t.workspaceDir, 'textkit/slug.py'), /"\[\^a-z0-9\]"/, 'the bug is there');
    assert.doesNotMatch(read(t.workspaceDir, 'tests/test_slug.py'), /runs_of_separators/);
    assert.match(read(t.hiddenDir, 'swt/gold/textkit/slug.py'), /"\[\^a-z0-9\]\+"/, 'the fix is hidden');
    assert.ok(!existsSync(join(t.hiddenDir!, 'workspace/.swt/gold')), 'and never copied into the workspace, where the tests\' user could read it');
    assert.deepEqual(t.grading?.agentFiles, ['**/test_*.py', '**/*_test.py']);
    assert.ok(!existsSync(join(t.workspaceDir!, 'tests/test_median_even.py')));
  });

  it('res-q: the workspace is the base commit; the test script is hidden with its end marked', () => {
    const t = task('res-q/0_0');
    assert.doesNotMatch(read(t.workspaceDir, 'todo/items.py'), /def remove/);
    assert.ok(!existsSync(join(t.workspaceDir!, 'resq_test_script.py')));
    assert.match(read(t.hiddenDir, 'workspace/resq_test_script.py'), /\n {8}_pwp_reached_end\(\)\n {8}sys\.exit\(0\)/);
    // The mark is drawn by the verifier for each run: nothing of the task holds one.
    assert.doesNotMatch(read(t.hiddenDir, 'workspace/.resq/resq.json'), /mark/);
  });

  it('bird: the workspace holds the database and no answer; the gold query is the evaluator\'s', () => {
    const t = task('bird/library-0');
    assert.deepEqual(existsSync(join(t.workspaceDir!, 'library.sqlite')), true);
    assert.ok(!existsSync(join(t.workspaceDir!, 'answer.sql')));
    assert.equal(t.evaluator.kind, 'sql');
  });
});
