import { strict as assert } from 'node:assert';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { convertDataset } from '../../../../host/converters/datasets';
import {
  buildToolchain, composeFolder, convertIdeBench, dockerBase, fromApp, missingInclude, parseTaskDescription, WRAPPER,
} from '../../../../host/converters/ideBench';
import { DatasetError } from '../../../../host/converters/taskWriter';
import type { TestsEvaluator } from '../../../../host/evaluation/evaluatorSchema';
import { taskName } from '../../../../host/taskEnv/loadTask';
import { partitionFlagged } from '../../../../host/runs/benchmark';

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

  it('reads a Dockerfile\'s base image', () => {
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
    // Graded per test by the task's own run-tests.sh, from its compose file's working_dir, counting the tests that fail on the base (decided when graded).
    const e = t2.evaluator as TestsEvaluator;
    assert.deepEqual([e.framework, e.command, e.scoring, e.countFailingOnBase, e.expected],
      ['pytest', ['sh', WRAPPER, 'tasks/task-2/run-tests.sh', 'task-2', '.'], 'passRate', true, undefined]);
    assert.match(hidden(t2, WRAPPER), /PYTEST_ADDOPTS="\$\*"/);
    assert.ok(!existsSync(join(t2.hiddenDir!, 'workspace/tasks/task-2/conftest.py')), 'the task\'s folder as the dataset has it');
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
    assert.deepEqual(notes.slice(0, 2), ['task-1: graded by its own tasks/task-1/run-tests.sh, with TASK_ID=task-1', 'task-2: graded by its own tasks/task-2/run-tests.sh, with TASK_ID=task-2']);
    assert.match(notes[2], /FROM python:3\.11-slim, not pwp's IDE image: it is not built/);
    assert.equal(JSON.stringify(readdirSync(FIXTURE, { recursive: true })), before, 'the dataset is only read');
  });

  it('reads the folder a compose file runs in, and the toolchain a test script builds with', () => {
    assert.equal(composeFolder('services:\n  client:\n    working_dir: /app/project\n'), 'project');
    assert.equal(composeFolder('    working_dir: "/app"\n'), '.');
    assert.equal(composeFolder('    working_dir: /srv/app\n'), '.', 'outside the repository: its root');
    assert.equal(composeFolder('services: {}\n'), '.');
    assert.deepEqual(buildToolchain('mkdir -p build\ncd build\ncmake .. >/dev/null\n'), { name: 'cpp', why: 'cmake/make' });
    assert.equal(buildToolchain('# cmake is not used\npytest -q\n'), undefined);
    assert.equal(buildToolchain('mvn -q test\n')?.name, 'java');
  });

  it('runs the task\'s own run-tests.sh, not run_tests.sh, as IDE-Arena\'s datasets have them (synthetic quirks)', async () => {
    // A task in the shape of a real one: its script builds with cmake from the compose file's
    // working_dir (project/), names its tests by TASK_ID (the compose file says a name that is
    // no folder) and runs pytest through `uv run --no-project`.
    const d = copy();
    writeFileSync(join(d, 'tasks/task-1/run-tests.sh'), '#!/usr/bin/env bash\nset -euo pipefail\nTASK_ID="${TASK_ID:-$(basename $(pwd))}"\nmkdir -p build\ncd build\ncmake .. >/dev/null\ncd /app\n'
      + 'uv run --no-project pytest -q tests/base "tasks/${TASK_ID}/task_tests.py"\n');
    writeFileSync(join(d, 'tasks/task-1/docker-compose.yaml'), 'services:\n  client:\n    environment:\n      - TASK_ID=${TASK_ID:-paginate-items}\n    working_dir: /app/project\n');
    writeFileSync(join(d, 'tasks/task-1/conftest.py'), 'import os\n');
    const notes: string[] = [];
    const [t] = await convertDataset('idebench', d, { outRoot: tmp(), limit: 1, onNote: (n) => notes.push(n) });
    assert.deepEqual((t.evaluator as TestsEvaluator).command, ['sh', WRAPPER, 'tasks/task-1/run-tests.sh', 'task-1', 'project']);
    assert.deepEqual(t.image, { toolchain: 'cpp' });
    assert.equal(notes[0], 'task-1: graded by its own tasks/task-1/run-tests.sh, run from project/ (its compose file\'s working_dir), with TASK_ID=task-1 '
      + '(its compose file says paginate-items, which names no task folder); `uv run` runs the command itself (no uv in the image); it builds with cmake/make: the cpp toolchain image');
    assert.equal(readFileSync(join(t.hiddenDir!, 'workspace/tasks/task-1/conftest.py'), 'utf8'), 'import os\n', 'the dataset\'s own conftest.py as it is');
    assert.match(readFileSync(join(t.hiddenDir!, 'workspace/tasks/task-1/run-tests.sh'), 'utf8'), /^cd \/workspace$/m);
    const [given] = await convertDataset('idebench', d, { outRoot: tmp(), limit: 1, image: 'my-image' });
    assert.equal(given.image, 'my-image', '--image wins over the toolchain');
  });

  it('flags a C++ project that cannot build as published (IDE-Arena\'s game-engine-service: a header no file provides) as the dataset\'s quirk', () => {
    const d = copy();
    rmSync(join(d, 'tasks/task-2'), { recursive: true });
    for (const f of ['project/include/ecs/x', 'project/src/ecs/x']) mkdirSync(dirname(join(d, f)), { recursive: true });
    writeFileSync(join(d, 'project/CMakeLists.txt'), 'add_library(core STATIC src/ecs/component.cpp)\n');
    writeFileSync(join(d, 'project/include/ecs/component.h'), '#pragma once\n');
    writeFileSync(join(d, 'project/src/ecs/component.cpp'), '#include "ecs/component.h"\n#include "ecs/entity.h"\n#include <cmath>\n');
    writeFileSync(join(d, 'tasks/task-1/run-tests.sh'), '#!/usr/bin/env bash\ncd /app/project && mkdir -p build && cd build && cmake .. && cmake --build .\ncd /app\npytest -q "tasks/${TASK_ID}/task_tests.py"\n');
    const c = convertIdeBench(d, { outRoot: tmp() });
    assert.ok(c.tasks[0].tags.includes('invalid:does not build: ecs/entity.h is missing'), c.tasks[0].tags.join(', '));
    assert.ok(c.notes.some((n) => /^task-1: invalid row: the repository does not build as published: project\/src\/ecs\/component\.cpp includes "ecs\/entity\.h"/.test(n)), c.notes.join('\n'));
    // The task's diff adding the header makes the task sound: the agent's change is what builds it.
    writeFileSync(join(d, 'tasks/task-1/task_diff.txt'), 'diff --git a/project/include/ecs/entity.h b/project/include/ecs/entity.h\nnew file mode 100644\n--- /dev/null\n+++ b/project/include/ecs/entity.h\n@@ -0,0 +1 @@\n+#pragma once\n');
    assert.deepEqual(convertIdeBench(d, { outRoot: tmp() }).tasks[0].tags.filter((t) => t.startsWith('invalid:')), []);
    assert.deepEqual(missingInclude({ 'a/x.cpp': '#include "x.h"\n' }, ['a/x.h']), undefined, 'beside the including file');
  });

  it('detects the framework without any test script: every runner\'s tests counted past the base, as a script\'s are', async () => {
    const d = copy();
    unlinkSync(join(d, 'run_tests.sh'));
    for (const t of ['task-1', 'task-2']) unlinkSync(join(d, 'tasks', t, 'run-tests.sh'));
    const notes: string[] = [];
    const [detected] = await convertDataset('idebench', d, { outRoot: tmp(), limit: 1, onNote: (n) => notes.push(n) });
    const e = detected.evaluator as TestsEvaluator;
    assert.deepEqual([e.framework, e.command, e.scoring, e.countFailingOnBase], ['pytest', ['sh', WRAPPER, 'tasks/task-1/pwp-tests.sh', 'task-1', '.'], 'passRate', true]);
    assert.match(readFileSync(join(detected.hiddenDir!, 'workspace/tasks/task-1/pwp-tests.sh'), 'utf8'), /^cd \/workspace\nexec 'python3' '-m' 'pytest' '-q' 'tasks\/task-1\/task_tests\.py'\n$/m);
    assert.ok(existsSync(join(detected.hiddenDir!, 'workspace', WRAPPER)));
    assert.match(notes.find((n) => n.startsWith('task-1:')) ?? notes.join('\n'), /^task-1: no run_tests\.sh; pytest found \(conftest\.py\): python3 -m pytest -q tasks\/task-1\/task_tests\.py, counting the tests that fail on the base$/);
    // A JavaScript repository's tests: its runner's report, past the same base run.
    const js = copy();
    unlinkSync(join(js, 'run_tests.sh'));
    rmSync(join(js, 'tasks/task-2'), { recursive: true });
    for (const f of ['run-tests.sh', 'task_tests.py']) unlinkSync(join(js, 'tasks/task-1', f));
    unlinkSync(join(js, 'conftest.py'));
    writeFileSync(join(js, 'tasks/task-1/task_tests.js'), 'test("x", () => {});\n');
    writeFileSync(join(js, 'package.json'), '{"devDependencies": {"jest": "29"}}\n');
    const [j] = convertIdeBench(js, { outRoot: tmp() }).tasks;
    const je = j.evaluator as TestsEvaluator;
    assert.deepEqual([je.framework, je.scoring, je.countFailingOnBase], ['jest', 'passRate', true]);
    assert.equal(j.imageSource.kind, 'ide', 'jest runs in the IDE image');
    // Go's report, its hidden test file sealed into the build (a task's evaluator as the schema reads it: no env of its own).
    unlinkSync(join(js, 'package.json'));
    unlinkSync(join(js, 'tasks/task-1/task_tests.js'));
    writeFileSync(join(js, 'go.mod'), 'module gauge\n\ngo 1.19\n');
    writeFileSync(join(js, 'tasks/task-1/task_test.go'), 'package gauge\n');
    const { tasks: [go], notes: goNotes } = convertIdeBench(js, { outRoot: tmp() });
    assert.deepEqual([(go.evaluator as TestsEvaluator).framework, goNotes.some((n) => n.includes('unguarded'))], ['go', false]);
    unlinkSync(join(js, 'go.mod'));
    unlinkSync(join(js, 'tasks/task-1/task_test.go'));
    // A runner that builds first gets the toolchain image it builds with, as a task script that builds does.
    writeFileSync(join(js, 'tasks/task-1/task_tests.c'), 'int main(void) { return 0; }\n');
    writeFileSync(join(js, 'CMakeLists.txt'), 'cmake_minimum_required(VERSION 3.13)\nproject(gauge C)\nenable_testing()\n');
    const { tasks: [c], notes: cNotes } = convertIdeBench(js, { outRoot: tmp() });
    // ctest through the SWE-bench log grader, with its canary and the task's C sources sealed.
    const ce = c.evaluator as TestsEvaluator;
    assert.deepEqual([ce.framework, ce.command, ce.innerBuild, c.image], ['pytest', ['python3', '-m', 'pytest', '-q', '.swebench/test_swebench.py'], true, { toolchain: 'cpp' }]);
    assert.match(cNotes.find((n) => n.startsWith('task-1:')) ?? cNotes.join('\n'), /^task-1: no run_tests\.sh; ctest found .*counting the tests that fail on the base; it builds with cmake\/make: the cpp toolchain image$/);
    // Maven alike: surefire's canary beside the task's tests, which the pom's testSourceDirectory names.
    unlinkSync(join(js, 'CMakeLists.txt'));
    unlinkSync(join(js, 'tasks/task-1/task_tests.c'));
    writeFileSync(join(js, 'tasks/task-1/task_tests.java'), 'package gauge;\nclass ClampTest {}\n');
    writeFileSync(join(js, 'pom.xml'), '<project><build><testSourceDirectory>tasks/task-1</testSourceDirectory></build></project>\n');
    const { tasks: [m], notes: mNotes } = convertIdeBench(js, { outRoot: tmp() });
    const me = m.evaluator as TestsEvaluator;
    assert.deepEqual([me.framework, me.innerBuild, m.image], ['pytest', true, { toolchain: 'java' }]);
    const spec = JSON.parse(readFileSync(join(m.hiddenDir!, 'workspace/.swebench/spec.json'), 'utf8'));
    assert.deepEqual([spec.log, spec.tests, spec.command.slice(0, 4)], ['surefire', null, ['mvn', '-B', '-q', '-o']]);
    assert.match(mNotes.find((n) => n.startsWith('task-1:')) ?? mNotes.join('\n'), /^task-1: no run_tests\.sh; maven found .*: mvn -B -q -o test .*the java toolchain image$/);
    // And Gradle: its test task, with the canary's init script.
    unlinkSync(join(js, 'pom.xml'));
    writeFileSync(join(js, 'build.gradle'), "apply plugin: 'java'\nsourceSets { test { java { srcDirs = ['tasks/task-1'] } } }\n");
    const [g] = convertIdeBench(js, { outRoot: tmp() }).tasks;
    const gSpec = JSON.parse(readFileSync(join(g.hiddenDir!, 'workspace/.swebench/spec.json'), 'utf8'));
    assert.deepEqual([(g.evaluator as TestsEvaluator).innerBuild, gSpec.log, gSpec.tests, gSpec.command], [true, 'gradle', null, ['gradle', 'test', '--offline', '--no-daemon']]);
  });

  it('grades tests of other languages behind the task\'s script by its exit status, through the base run, and says that is unguarded', () => {
    const d = copy();
    rmSync(join(d, 'tasks/task-2'), { recursive: true });
    unlinkSync(join(d, 'tasks/task-1/task_tests.py'));
    writeFileSync(join(d, 'tasks/task-1/task_tests.js'), 'test("x", () => {});\n');
    const { tasks: [t], notes } = convertIdeBench(d, { outRoot: tmp() });
    assert.deepEqual([(t.evaluator as TestsEvaluator).framework, (t.evaluator as TestsEvaluator).command],
      ['exitCode', ['sh', WRAPPER, 'tasks/task-1/run-tests.sh', 'task-1', '.']]);
    assert.equal((t.evaluator as TestsEvaluator).countFailingOnBase, true);
    assert.ok(!existsSync(join(t.hiddenDir!, 'workspace/tasks/task-1/conftest.py')), 'no pytest hook for tests pytest does not run');
    // Code the script runs can end it with success: the conversion says so, and a bench leaves the task out of its figures.
    assert.match(notes.join('\n'), /^task-1: unguarded grading: graded by the exit status of `sh \.pwp-idebench\/run-tests\.sh tasks\/task-1\/run-tests\.sh task-1 \.` alone \(no canary, no completion mark\)/m);
    const { counted, leftOut } = partitionFlagged([t]);
    assert.deepEqual([counted.length, leftOut.map((l) => l.kind)], [0, ['unguarded']]);
    assert.match(leftOut[0].reason, /^its grading is unguarded: graded by the exit status/);
    // The same dataset's Python tests (pytest behind the script: canary, sealed tests) count.
    const [py] = convertIdeBench(copy(), { outRoot: tmp() }).tasks;
    assert.deepEqual(partitionFlagged([py]).leftOut, []);
  });

  it('takes a folder of datasets as one suite each, and refuses what is not one, writing nothing', () => {
    const out = tmp();
    const c = convertIdeBench(join(FIXTURE, '..'), { outRoot: out });
    assert.deepEqual(c.tasks.map(taskName), ['inventory-service/task-1', 'inventory-service/task-2']);
    assert.match(c.notes[2], /^inventory-service: the repository's Dockerfile/);

    const empty = tmp();
    const nothing = tmp();
    assert.throws(() => convertIdeBench(empty, { outRoot: nothing }), (e: Error) => e instanceof DatasetError && /not an IDE-Bench dataset/.test(e.message));
    const d = copy();
    unlinkSync(join(d, 'tasks/task-2/task_diff.txt'));
    assert.throws(() => convertIdeBench(d, { outRoot: nothing }), (e: Error) => e instanceof DatasetError && /task-2\/task_diff\.txt: missing or empty/.test(e.message));
    assert.deepEqual(readdirSync(nothing), [], 'nothing written');
  });
});
