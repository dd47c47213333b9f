// SWE-bench Multimodal: the issue's screenshots from a local folder into the workspace, and the
// per-test grading of node --test, run here on the bundled instances with the host's node: the
// FAIL_TO_PASS test fails at the base commit and passes with the gold patch, read by name from
// node's JUnit report as the tests evaluator reads it.
import { strict as assert } from 'node:assert';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { TestsEvaluator } from '../../../../host/evaluation/evaluatorSchema';
import { parseJUnitXml, tally } from '../../../../host/evaluation/testReports';
import { DATASETS_ROOT } from '../../../../host/converters/bundledDatasets';
import { convertDataset } from '../../../../host/converters/datasets';
import { commandFramework } from '../../../../host/converters/sweBench';
import { readTree } from '../../../../host/converters/repoCheckout';
import { imageFileName, issueImageUrls, type SweMmInstance } from '../../../../host/converters/sweBenchMm';
import { testDirectives, NODE_TEST } from '../../../../host/converters/sweBenchSpecs';
import type { Task } from '../../../../host/taskEnv/loadTask';

const SRC = join(DATASETS_ROOT, 'swe-bench-mm');
const instances = (): SweMmInstance[] => readFileSync(join(SRC, 'instances.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as SweMmInstance);

/** Copies a folder tree. */
function copyTree(from: string, to: string): void {
  for (const [rel, data] of Object.entries(readTree(from))) { mkdirSync(dirname(join(to, rel)), { recursive: true }); writeFileSync(join(to, rel), data); }
}

/** The task's tests run in a copy of `workspace` with the hidden files over it, cases read from node's JUnit report. */
function grade(t: Task, workspace: string): ReturnType<typeof tally> {
  const e = t.evaluator as TestsEvaluator;
  const ws = mkdtempSync(join(tmpdir(), 'pwp-swemm-ws-'));
  try {
    copyTree(workspace, ws);
    copyTree(join(t.hiddenDir!, 'workspace'), ws);
    const r = spawnSync(e.command[0], [e.command[1], '--test-reporter=junit', '--test-reporter-destination=report.xml', ...e.command.slice(2)], { cwd: ws, encoding: 'utf8' });
    assert.ok(existsSync(join(ws, 'report.xml')), `no report: ${r.stderr}`);
    return tally(parseJUnitXml(readFileSync(join(ws, 'report.xml'), 'utf8')), e.expected);
  } finally {
    rmSync(ws, { recursive: true, force: true });
  }
}

describe('SWE-bench Multimodal', () => {
  let root: string;
  beforeEach(() => { root = mkdtempSync(join(tmpdir(), 'pwp-swemm-')); });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('reads image_assets as published (a JSON string or an object) and keys each screenshot by its URL\'s file name', () => {
    const urls = ['https://github.com/user-attachments/assets/a/b%20c.png', 'https://user-images.githubusercontent.com/1/x.png?raw=true'];
    assert.deepEqual(issueImageUrls({ image_assets: JSON.stringify({ problem_statement: urls, patch: [] }) } as SweMmInstance, 'i'), urls);
    assert.deepEqual(issueImageUrls({ image_assets: { problem_statement: urls } } as SweMmInstance, 'i'), urls);
    assert.deepEqual(issueImageUrls({} as SweMmInstance, 'i'), []);
    assert.throws(() => issueImageUrls({ image_assets: '{nope' } as SweMmInstance, 'row 4'), /row 4: image_assets is not JSON/);
    assert.throws(() => issueImageUrls({ image_assets: { problem_statement: [3] } } as unknown as SweMmInstance, 'row 4'), /must be a list of URLs/);
    assert.deepEqual(urls.map(imageFileName), ['b c.png', 'x.png']);
    assert.throws(() => imageFileName('https://example.com/'), /no file name/);
    // --test-command: the report read is its runner's (jest, mocha, node --test), else the spec's.
    assert.equal(commandFramework(['npx', 'jest', '--verbose'], 'node'), 'jest');
    assert.equal(commandFramework(['node_modules/.bin/mocha'], 'node'), 'mocha');
    assert.equal(commandFramework(['node', '--test'], 'pytest'), 'node');
    assert.equal(commandFramework(['python3', '-m', 'pytest', '-rA'], 'node'), 'pytest');
    assert.equal(commandFramework(['yarn', 'test'], 'node'), 'node');
    assert.deepEqual(testDirectives(NODE_TEST, ['test/a.test.js', 'test/b.spec.ts', 'README.md', 'test/c.mjs']), ['test/a.test.js', 'test/b.spec.ts', 'test/c.mjs']);
  });

  it('puts each issue\'s screenshots in the workspace, names them in the instruction, and grades node --test test by test', async function () {
    this.timeout(300_000); // converts and runs node --test for real
    const tasks = await convertDataset('swe-bench-mm', join(SRC, 'instances.jsonl'), { outRoot: join(root, 'out'), repos: join(SRC, 'repos') });
    assert.equal(tasks.length, 3);
    for (const [i, inst] of instances().entries()) {
      const t = tasks[i];
      const [url] = issueImageUrls(inst, inst.instance_id);
      const name = imageFileName(url);
      assert.ok(readFileSync(join(t.workspaceDir!, '.issue', name)).equals(readFileSync(join(SRC, 'images', name))), `${t.id}: the screenshot is copied as it is`);
      assert.ok(t.instruction.includes(`](.issue/${name})`) && !t.instruction.includes(url), `${t.id}: the issue names the local copy, not the URL`);
      assert.match(t.instruction, new RegExp(`screenshots are in the workspace: \\.issue/${name}`));
      assert.ok(t.tags?.includes('dataset:swe-bench-mm'));
      const e = t.evaluator as TestsEvaluator;
      assert.equal(e.framework, 'node');
      const f2p = JSON.parse(inst.FAIL_TO_PASS as string) as string[];
      const p2p = JSON.parse(inst.PASS_TO_PASS as string) as string[];
      assert.deepEqual(e.expected, [...f2p, ...p2p]);
      // The new tests are hidden: the workspace's copy of the test file does not have them.
      const testFile = e.command[2];
      assert.ok(!readFileSync(join(t.workspaceDir!, testFile), 'utf8').includes(f2p[0]));
      // Before the fix: only FAIL_TO_PASS fails; with the gold patch all pass.
      const before = grade(t, t.workspaceDir!);
      assert.equal(before.passed, p2p.length, `${t.id}: PASS_TO_PASS pass before the fix`);
      assert.equal(before.total, f2p.length + p2p.length);
      const fixed = join(root, `fixed-${i}`);
      copyTree(t.workspaceDir!, fixed);
      execFileSync('git', ['apply', join(t.dir, 'oracle/gold.patch')], { cwd: fixed });
      const after = grade(t, fixed);
      assert.deepEqual([after.passed, after.total, after.missing], [f2p.length + p2p.length, f2p.length + p2p.length, []], `${t.id}: all pass with the gold patch`);
    }
  });

  it('takes the screenshots from --images, and refuses a missing one, naming it, before writing anything', async () => {
    const input = join(root, 'in/instances.jsonl');
    cpSync(join(SRC, 'instances.jsonl'), input, { recursive: true });
    const o = { outRoot: join(root, 'out'), repos: join(SRC, 'repos') };
    await assert.rejects(convertDataset('swe-bench-mm', input, o), (err: Error) =>
      err.message.includes(`${input}: instance 1: the issue's screenshot https://`) && err.message.includes('progress-half-full.png'));
    assert.ok(!existsSync(o.outRoot), 'nothing written');
    cpSync(join(SRC, 'images'), join(root, 'shots'), { recursive: true });
    renameSync(join(root, 'shots/bar-chart-upside-down.png'), join(root, 'shots/other.png'));
    await assert.rejects(convertDataset('swe-bench-mm', input, { ...o, images: join(root, 'shots') }), /instance 3: .*bar-chart-upside-down\.png/);
    assert.ok(!existsSync(o.outRoot), 'nothing written');
    renameSync(join(root, 'shots/other.png'), join(root, 'shots/bar-chart-upside-down.png'));
    assert.equal((await convertDataset('swe-bench-mm', input, { ...o, images: join(root, 'shots') })).length, 3);
  });
});
