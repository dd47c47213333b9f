// InterCode-CTF's published layout (ic_ctf.json beside task_assets/<task_id>/) becomes tasks
// whose flag only the verifier has; the flag check is exact after trimming; malformed problems
// are refused with the record and the field, and nothing is written.
import { strict as assert } from 'node:assert';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DATASETS_ROOT, readTreeFiles } from '../../../../host/converters/bundledDatasets';
import { convertDataset } from '../../../../host/converters/datasets';
import { graderScript } from '../../../../host/converters/graderScripts';
import { loadTask, TASKS_ROOT } from '../../../../host/taskEnv/loadTask';

const SRC = join(DATASETS_ROOT, 'intercode-ctf');
const published = JSON.parse(readFileSync(join(SRC, 'ic_ctf.json'), 'utf8')) as { task_id: number; gold: string }[];

describe('intercode-ctf converter', () => {
  let root: string;
  beforeEach(() => { root = mkdtempSync(join(tmpdir(), 'pwp-ctf-')); });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('reads ic_ctf.json with task_assets/: the problem\'s files in the workspace, the flag only in hidden/flag.txt', async () => {
    const tasks = await convertDataset('intercode-ctf', join(SRC, 'ic_ctf.json'), { outRoot: root });
    assert.deepEqual(tasks.map((t) => `${t.suite}/${t.id}`), ['intercode-ctf/ctf-0', 'intercode-ctf/ctf-1', 'intercode-ctf/ctf-2']);
    for (const [i, t] of tasks.entries()) {
      const gold = published[i].gold;
      assert.equal(readFileSync(join(t.hiddenDir!, 'flag.txt'), 'utf8'), `${gold}\n`);
      const ws = readTreeFiles(t.workspaceDir!);
      assert.ok(ws.size > 0, 'the problem\'s files are there');
      assert.ok(![...ws.keys()].some((p) => p.startsWith('solution')), 'InterCode\'s solution folder is not the agent\'s');
      for (const [p, c] of ws) assert.ok(!c.includes(gold), `${p} does not hold the flag`);
      assert.ok(!readFileSync(join(t.dir, 'task.json'), 'utf8').includes(gold), 'task.json does not hold the flag');
      for (const [p, c] of readTreeFiles(join(t.dir, 'oracle'))) assert.ok(!c.includes(gold), `the oracle's ${p} recovers the flag rather than holding it`);
      assert.deepEqual(t.oracle.steps.map((s) => Object.keys(s)[0]), ['writeFile', 'answerFrom']);
      assert.equal(t.evaluator.kind, 'command');
    }
  });

  it('keeps executables runnable, runs InterCode\'s set-up with the network, and falls back to the gold flag without a solution script', async () => {
    const src = join(root, 'in');
    mkdirSync(join(src, 'task_assets', '7', 'solution'), { recursive: true });
    writeFileSync(join(src, 'task_assets', '7', 'run_me'), '#!/bin/sh\necho hi\n');
    chmodSync(join(src, 'task_assets', '7', 'run_me'), 0o755);
    writeFileSync(join(src, 'task_assets', '7', 'solution', 'README.md'), 'Run it.\n');
    writeFileSync(join(src, 'ic_ctf.json'), JSON.stringify([
      { task_id: 7, query: 'Run the program.', gold: 'picoCTF{r4n_1t}', source: 'x', tags: ['General Skills'], setup: 'wget https://example.org/f' },
      { task_id: 8, query: 'What is 0x41 in ASCII? Answer as FLAG{...}', gold: 'FLAG{A}', tags: [] },
    ]));
    const notes: string[] = [];
    const [a, b] = await convertDataset('intercode-ctf', join(src, 'ic_ctf.json'), { outRoot: join(root, 'out'), suite: 'mine', onNote: (l) => notes.push(l) });
    assert.equal(statSync(join(a.workspaceDir!, 'run_me')).mode & 0o111, 0o111);
    assert.deepEqual([a.network, a.setup], [true, [{ exec: ['bash', '-c', 'wget https://example.org/f'], exitCode: 0, timeoutSec: 120, note: "InterCode's set-up command" }]]);
    assert.deepEqual(a.tags, ['dataset:intercode-ctf', 'category:general-skills']);
    assert.match(a.instruction, /^Run the program\.\n\nThe problem's files are in the workspace\. When you have the flag \(it looks like picoCTF\{\.\.\.\}\)/);
    assert.equal(readFileSync(join(a.dir, 'oracle', 'gold.txt'), 'utf8'), 'picoCTF{r4n_1t}\n');
    assert.equal(b.network, false);
    assert.ok(!existsSync(join(b.workspaceDir!, 'solution')));
    assert.deepEqual(notes, [
      'mine/ctf-7: task_assets/7/solution/ has no solution script; its oracle answers the gold flag',
      'mine/ctf-8: task_assets/8/solution/ has no solution script; its oracle answers the gold flag',
    ]);
  });

  const bad: [string, (r: Record<string, unknown>[]) => void, RegExp][] = [
    ['a problem without "gold"', (r) => { delete r[2].gold; }, /ic_ctf\.json: problem 2: missing field "gold"/],
    ['a problem without "query"', (r) => { delete r[1].query; }, /ic_ctf\.json: problem 1: missing field "query"/],
    ['a task_id that is not a whole number', (r) => { r[0].task_id = '0'; }, /problem 0: field "task_id" must be a whole number, got "0"/],
    ['an empty flag', (r) => { r[1].gold = '  '; }, /problem 1: field "gold" is empty/],
    ['tags that are not a list of strings', (r) => { r[2].tags = 'Forensics'; }, /problem 2: field "tags" must be a list of strings/],
    ['a task_id given twice', (r) => { r[2].task_id = 0; }, /problem 0: task_id 0 appears twice/],
  ];
  for (const [what, spoil, error] of bad) {
    it(`refuses ${what} and writes nothing`, async () => {
      cpSync(SRC, join(root, 'in'), { recursive: true });
      const records = JSON.parse(readFileSync(join(root, 'in', 'ic_ctf.json'), 'utf8')) as Record<string, unknown>[];
      spoil(records);
      writeFileSync(join(root, 'in', 'ic_ctf.json'), JSON.stringify(records));
      await assert.rejects(convertDataset('intercode-ctf', join(root, 'in', 'ic_ctf.json'), { outRoot: join(root, 'out') }), error);
      assert.ok(!existsSync(join(root, 'out')), 'nothing written');
    });
  }

  it('refuses a file that is not JSON', async () => {
    writeFileSync(join(root, 'ic_ctf.json'), '[{"task_id": 0,');
    await assert.rejects(convertDataset('intercode-ctf', join(root, 'ic_ctf.json'), { outRoot: join(root, 'out') }), /ic_ctf\.json: not JSON/);
  });
});

describe('intercode-ctf flag check', () => {
  // Its behaviour on answers is tested by pytest (test/unit/host/converters/graders/test_check_flag.py).
  it('is what the bundled tasks run in the verifier', () => {
    for (const p of published) {
      const t = loadTask(join(TASKS_ROOT, 'intercode-ctf', `ctf-${p.task_id}`));
      assert.equal(readFileSync(join(t.hiddenDir!, 'check_flag.py'), 'utf8'), graderScript('interCodeCtf'));
      assert.deepEqual(t.evaluator, { kind: 'command', command: ['python3', '-I', '/pwp/hidden/check_flag.py'], exitCode: 0, stdout: 'flag accepted', timeoutSec: 120 });
    }
  });
});
