import { strict as assert } from 'node:assert';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { convertDataset } from '../../../../host/converters/datasets';
import { convertIdeBench, dockerBase, fromApp, parseTaskDescription, pythonTestIds, WRAPPER } from '../../../../host/converters/ideBench';
import { DatasetError } from '../../../../host/converters/taskWriter';
import type { TestsEvaluator } from '../../../../host/evaluation/evaluatorSchema';
import { taskName } from '../../../../host/taskEnv/loadTask';

const FIXTURE = join(__dirname, '../../../fixtures/idebench/inventory-service');

describe('the IDE-Bench importer', () => {
  const dirs: string[] = [];
  const tmp = () => { const d = mkdtempSync(join(tmpdir(), 'pwp-idebench-')); dirs.push(d); return d; };
  after(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }); });
  /** A copy of the fixture dataset to change. */
  const copy = () => { const d = join(tmp(), 'inventory-service'); cpSync(FIXTURE, d, { recursive: true }); return d; };

  it('reads task_description.txt: the request from its block, the rest as metadata; plain text as it is', () => {
    const d = parseTaskDescription('task_description: |\n\n  Task: fix-it\n\n  Instructions:\n    - step one\n\ndifficulty: medium\ncategory: Bug Fix\ntags: [cpp, math]\nparser_name: <pytest>\n');
    assert.equal(d.instruction, 'Task: fix-it\n\nInstructions:\n  - step one');
    assert.deepEqual(d.meta, { difficulty: 'medium', category: 'Bug Fix', tags: '[cpp, math]', parser_name: 'pytest' });
    assert.deepEqual(parseTaskDescription('  Make add() handle negative numbers.\n'), { instruction: 'Make add() handle negative numbers.', meta: {} });
  });

  it('reads /app (where IDE-Bench mounts the repository) as /workspace, and nothing that merely starts like it', () => {
    assert.equal(fromApp('cd /app\nPROJECT_DIR = "/app/project"\nx=/app;'), 'cd /workspace\nPROJECT_DIR = "/workspace/project"\nx=/workspace;');
    assert.equal(fromApp('/application /apps /tmp/app /app.py app/x'), '/application /apps /tmp/app /app.py app/x');
  });

  it('names a Python test file\'s tests as pytest does, and gives up on parametrised ones', () => {
    assert.deepEqual(pythonTestIds('t/task_tests.py', 'import os\n\ndef test_a():\n    pass\n\nclass TestB:\n    def test_c(self):\n        pass\n    def helper(self):\n        pass\n\ndef helper():\n    pass\n'),
      ['t/task_tests.py::test_a', 't/task_tests.py::TestB::test_c']);
    assert.equal(pythonTestIds('t.py', 'import pytest\n@pytest.mark.parametrize("x", [1, 2])\ndef test_a(x):\n    pass\n'), undefined);
    assert.equal(dockerBase('# build\nFROM --platform=linux/amd64 node:20-slim AS base\nRUN true\n'), 'node:20-slim');
  });

  it('turns the fixture dataset into a suite: the repository as workspace, tests and run_tests.sh hidden, task_diff.txt as the oracle\'s patch', () => {
    const before = JSON.stringify(readdirSync(FIXTURE, { recursive: true }));
    const out = tmp();
    const notes: string[] = [];
    const c = convertIdeBench(FIXTURE, { outRoot: out });
    notes.push(...c.notes);
    const tasks = c.tasks;
    assert.deepEqual(tasks.map(taskName), ['inventory-service/task-1', 'inventory-service/task-2']);
    const [t1, t2] = tasks;
    // The workspace: the repository without the tasks and the grader.
    assert.equal(t1.workspaceDir, t2.workspaceDir);
    const ws = readdirSync(t1.workspaceDir!).sort();
    assert.deepEqual(ws, ['Dockerfile', 'README.md', 'conftest.py', 'docker-compose.yaml', 'inventory', 'requirements.txt', 'tests']);
    // Hidden: the task's tests and scripts at the paths run_tests.sh uses, /app read as /workspace.
    const hidden = (t: typeof t1, p: string) => readFileSync(join(t.hiddenDir!, 'workspace', p), 'utf8');
    assert.match(hidden(t2, 'tasks/task-2/task_tests.py'), /PROJECT_DIR = "\/workspace"/);
    assert.match(hidden(t1, 'run_tests.sh'), /^cd \/workspace$/m);
    assert.match(hidden(t1, 'tasks/task-1/run-tests.sh'), /^cd \/workspace$/m);
    assert.ok(!existsSync(join(t1.hiddenDir!, 'workspace/tasks/task-1/task_diff.txt')), 'the golden patch is not a test file');
    assert.ok(!existsSync(join(t1.hiddenDir!, 'workspace/tasks/task-2')), 'one task\'s tests only');
    // The oracle applies task_diff.txt, kept where runs find the reference patch.
    assert.equal(readFileSync(join(t1.dir, 'oracle/task.diff'), 'utf8'), readFileSync(join(FIXTURE, 'tasks/task-1/task_diff.txt'), 'utf8'));
    assert.deepEqual(t1.oracle.steps.map((s) => Object.keys(s)[0]), ['writeFile', 'exec']);
    // Graded per test of the task, through run_tests.sh with the task id.
    const e = t2.evaluator as TestsEvaluator;
    assert.deepEqual([e.framework, e.command, e.scoring], ['pytest', ['sh', WRAPPER, 'run_tests.sh', 'task-2'], 'passRate']);
    assert.equal(e.expected?.length, 6);
    assert.ok(e.expected?.every((id) => id.startsWith('tasks/task-2/task_tests.py::test_')));
    assert.match(hidden(t2, WRAPPER), /PYTEST_ADDOPTS="\$\*"/);
    assert.match(t1.instruction, /^Task: pagination\n\nListing items should be paginated\./);
    assert.deepEqual(t1.tags, [
      'idebench',
      'source:inventory-service/task-1',
      'difficulty:easy',
      'category:Feature',
      'parser_name:pytest',
      'python',
      'api',
      'pagination',
      'dockerfile:../_idebench/Dockerfile',
    ]);
    // The Dockerfile is not built: kept, and the user told why.
    assert.equal(readFileSync(join(out, 'inventory-service/_idebench/Dockerfile'), 'utf8'), readFileSync(join(FIXTURE, 'Dockerfile'), 'utf8'));
    assert.equal(notes.length, 1);
    assert.match(notes[0], /FROM python:3\.11-slim, not pwp's IDE image: it is not built/);
    assert.equal(JSON.stringify(readdirSync(FIXTURE, { recursive: true })), before, 'the dataset is only read');
  });

  it('uses the task\'s run-tests.sh without run_tests.sh, and detects the framework without either', async () => {
    const d = copy();
    unlinkSync(join(d, 'run_tests.sh'));
    const notes: string[] = [];
    const [own] = await convertDataset('idebench', d, { outRoot: tmp(), limit: 1, onNote: (n) => notes.push(n) });
    assert.deepEqual((own.evaluator as TestsEvaluator).command, ['sh', WRAPPER, 'tasks/task-1/run-tests.sh', 'task-1']);
    for (const t of ['task-1', 'task-2']) unlinkSync(join(d, 'tasks', t, 'run-tests.sh'));
    const [detected] = await convertDataset('idebench', d, { outRoot: tmp(), limit: 1, onNote: (n) => notes.push(n) });
    const e = detected.evaluator as TestsEvaluator;
    assert.deepEqual([e.framework, e.command, e.scoring, e.expected?.length], ['pytest', ['python3', '-m', 'pytest', '-q', 'tasks/task-1/task_tests.py'], 'passRate', 3]);
    assert.ok(!existsSync(join(detected.hiddenDir!, 'workspace', WRAPPER)));
    assert.match(notes.find((n) => n.startsWith('task-1:')) ?? notes.join('\n'), /^task-1: no run_tests\.sh; pytest found \(conftest\.py\): python3 -m pytest -q tasks\/task-1\/task_tests\.py$/);
  });

  it('grades tests of other languages behind run_tests.sh by its exit status', () => {
    const d = copy();
    rmSync(join(d, 'tasks/task-2'), { recursive: true });
    unlinkSync(join(d, 'tasks/task-1/task_tests.py'));
    writeFileSync(join(d, 'tasks/task-1/task_tests.js'), 'test("x", () => {});\n');
    const [t] = convertIdeBench(d, { outRoot: tmp() }).tasks;
    assert.deepEqual([(t.evaluator as TestsEvaluator).framework, (t.evaluator as TestsEvaluator).command], ['exitCode', ['bash', 'run_tests.sh', 'task-1']]);
  });

  it('takes a folder of datasets as one suite each, and refuses what is not one, writing nothing', () => {
    const out = tmp();
    const c = convertIdeBench(join(FIXTURE, '..'), { outRoot: out });
    assert.deepEqual(c.tasks.map(taskName), ['inventory-service/task-1', 'inventory-service/task-2']);
    assert.match(c.notes[0], /^inventory-service: the repository's Dockerfile/);

    const empty = tmp();
    const nothing = tmp();
    assert.throws(() => convertIdeBench(empty, { outRoot: nothing }), (e: Error) => e instanceof DatasetError && /not an IDE-Bench dataset/.test(e.message));
    const d = copy();
    unlinkSync(join(d, 'tasks/task-2/task_diff.txt'));
    assert.throws(() => convertIdeBench(d, { outRoot: nothing }), (e: Error) => e instanceof DatasetError && /task-2\/task_diff\.txt: missing or empty/.test(e.message));
    assert.deepEqual(readdirSync(nothing), [], 'nothing written');
  });
});
