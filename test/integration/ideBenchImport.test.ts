// `pwp dataset idebench` on a dataset in IDE-Bench's own layout (test/fixtures/idebench/:
// the repository with its Dockerfile and run_tests.sh, tasks/task-N with description, golden
// diff, tests and run-tests.sh), run for real. Graded through the task's own run-tests.sh,
// counting the tests that fail on the base: the oracle (the golden diff) scores 1 and the null
// agent 0, no hidden file reaches the agent.
// The same dataset without run_tests.sh or run-tests.sh: the framework is detected and run on
// the task's tests past the same base run (the null agent scores 0 there too), and a full run
// leaves agent.diff beside reference.diff (task_diff.txt).
import { strict as assert } from 'node:assert';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NullAgent } from '../../host/agents/nullAgent';
import { OracleAgent } from '../../host/agents/oracleAgent';
import { convertDataset } from '../../host/converters/datasets';
import type { TestsEvaluator } from '../../host/evaluation/evaluatorSchema';
import { paths } from '../../host/common/paths';
import type { Task } from '../../host/taskEnv/loadTask';
import { runTask } from '../../host/runs/runTask';
import { testImage, testPool } from './environmentFixture';
import { describeBaselines, taskBaselines } from './taskBaselines';

const FIXTURE = join(__dirname, '../fixtures/idebench/inventory-service');

describe('IDE-Bench datasets imported and run', function () {
  this.timeout(20 * 60_000);
  let image: string;
  const root = mkdtempSync(join(tmpdir(), 'pwp-idebench-run-'));
  let viaScript: Task[];
  let detected: Task;

  before(async function () {
    this.timeout(30 * 60_000);
    image = await testImage();
    viaScript = await convertDataset('idebench', FIXTURE, { outRoot: join(root, 'tasks') });
    const bare = join(root, 'inventory-service');
    cpSync(FIXTURE, bare, { recursive: true });
    for (const f of ['run_tests.sh', 'tasks/task-1/run-tests.sh', 'tasks/task-2/run-tests.sh']) unlinkSync(join(bare, f));
    [detected] = await convertDataset('idebench', bare, { outRoot: join(root, 'tasks'), suite: 'inventory-detected', limit: 1 });
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it('through the task\'s run-tests.sh: the golden diff scores 1, doing nothing 0, over the tests that fail on the base', async () => {
    const task = viaScript.find((t) => t.id === 'task-2')!;
    assert.equal((task.evaluator as TestsEvaluator).command[2], 'tasks/task-2/run-tests.sh');
    const b = await taskBaselines(task, image);
    assert.equal(b.oracleResult.score >= 0.999 && b.oracleResult.passed, true, describeBaselines(b));
    assert.equal(b.nullResult.score, 0, describeBaselines(b));
    // The base tests, passing either way, are not counted; the same tests both ways (the test reading /app found the file).
    const counted = /^(\d+)\/(\d+) tests pass/.exec(b.oracleResult.summary);
    assert.ok(counted && counted[1] === counted[2] && Number(counted[2]) > 0, b.oracleResult.summary);
    assert.match(b.nullResult.summary, new RegExp(`^0/${counted[2]} tests pass`));
    assert.match(b.oracleResult.summary, /; \d+ passing on the base not counted/);
    assert.ok(b.oracleResult.tests?.passingOnBase?.some((t) => t.startsWith('tests/base/')), JSON.stringify(b.oracleResult.tests?.passingOnBase));
    assert.deepEqual(b.hiddenLeaks, []);
  });

  it('without any test script, by the detected framework past the base run; the run folder holds agent.diff beside reference.diff', async () => {
    assert.deepEqual((detected.evaluator as TestsEvaluator).command, ['sh', '.pwp-idebench/run-tests.sh', 'tasks/task-1/pwp-tests.sh', 'task-1', '.']);
    const base = join(paths.state, 'test-runs', 'idebench-import');
    const run = await runTask(detected, { agent: new OracleAgent(), runDir: join(base, 'oracle'), defaultImage: image, pool: await testPool(), video: false, screenshots: false, labels: { 'pwp.test': '1' } });
    assert.equal(run.score, 1, run.error ?? run.evaluation?.summary);
    assert.match(run.evaluation?.summary ?? '', /^3\/3 tests pass/);
    assert.deepEqual(run.evaluation?.tests?.passingOnBase, [], 'none of the 3 tests passes on the base: every one counts');
    const reference = readFileSync(join(FIXTURE, 'tasks/task-1/task_diff.txt'), 'utf8');
    assert.equal(readFileSync(join(run.runDir, 'reference.diff'), 'utf8'), reference);
    const agent = readFileSync(join(run.runDir, 'agent.diff'), 'utf8');
    const changed = (d: string) => [...d.matchAll(/^\+\+\+ b\/(.+)$/gm)].map((m) => m[1]).sort();
    assert.deepEqual(changed(agent), ['inventory/api.py', 'inventory/service.py']);
    const added = (d: string) => d.split('\n').filter((l) => l.startsWith('+') && !l.startsWith('+++')).sort();
    assert.deepEqual(added(agent), added(reference));

    const none = await runTask(detected, { agent: new NullAgent(), runDir: join(base, 'null'), defaultImage: image, pool: await testPool(), video: false, screenshots: false, labels: { 'pwp.test': '1' } });
    assert.deepEqual([none.score, none.status], [0, 'finished'], none.evaluation?.summary);
    assert.equal(readFileSync(join(none.runDir, 'agent.diff'), 'utf8'), '', 'no changes, an empty diff');
    assert.ok(existsSync(join(none.runDir, 'reference.diff')));
  });
});
