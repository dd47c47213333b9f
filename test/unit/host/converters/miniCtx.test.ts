// miniCTX's published records (srcContext, theoremStatement, theoremName, file,
// proofMetadata.proof) become Lean tasks whose reference proof only the oracle has; malformed
// records are refused (the hidden grader's own tests are pytest's:
// test/unit/host/converters/graders/test_check_proof.py); and a run without the Lean toolchain fails with
// MissingToolchainError naming it and how to supply it.
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DATASETS_ROOT, readTreeFiles } from '../../../../host/converters/bundledDatasets';
import { convertDataset } from '../../../../host/converters/datasets';
import { LEAN_TOOLCHAIN, readMiniCtx } from '../../../../host/converters/miniCtx';
import { loadTask, TASKS_ROOT } from '../../../../host/taskEnv/loadTask';
import { checkToolchains, MissingToolchainError } from '../../../../host/taskEnv/resolveTaskImage';

const SRC = join(DATASETS_ROOT, 'minictx', 'minictx');

describe('minictx converter', () => {
  let root: string;
  beforeEach(() => { root = mkdtempSync(join(tmpdir(), 'pwp-minictx-')); });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('reads a folder of per-project JSON Lines: the file cut at the theorem with sorry, the proof only in oracle/', async () => {
    const records = readMiniCtx(SRC);
    const tasks = await convertDataset('minictx', SRC, { outRoot: root });
    assert.deepEqual(tasks.map((t) => `${t.suite}/${t.id}`), ['minictx/sumlist_append', 'minictx/double_add', 'minictx/double_eq_two_mul']);
    for (const [i, t] of tasks.entries()) {
      const r = records[i];
      const ws = readTreeFiles(t.workspaceDir!);
      assert.equal(ws.get('lean-toolchain')!.toString(), `${LEAN_TOOLCHAIN}\n`);
      assert.equal(ws.get(r.file)!.toString(), `${r.srcContext}${r.theoremStatement} := by\n  sorry\n`);
      const proofBody = r.proofMetadata.proof.split('\n').slice(1).join('\n');
      for (const [p, c] of ws) assert.ok(!c.toString().includes(proofBody), `${p} does not hold the proof`);
      assert.ok(!readFileSync(join(t.dir, 'task.json'), 'utf8').includes(proofBody));
      assert.equal(readFileSync(join(t.dir, 'oracle', r.file), 'utf8'), `${r.srcContext}${r.theoremStatement} := ${r.proofMetadata.proof}\n`);
      assert.equal(t.imageSource.kind, 'build');
    }
  });

  it('refuses records without the published fields, a proof, or a relative .lean file, and writes nothing', async () => {
    const good = readFileSync(join(SRC, 'listbasics.jsonl'), 'utf8').trim();
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ theoremStatement: undefined }, /record 1: missing field "theoremStatement"/],
      [{ proofMetadata: { hasProof: false } }, /proofMetadata\.proof must be the reference proof/],
      [{ file: '/abs/Sum.lean' }, /file must be a relative path ending in \.lean/],
      [{ file: '../Sum.lean' }, /file must be a relative path/],
      [{ theoremStatement: 'theorem t : True :=' }, /must stop before ":="/],
    ];
    for (const [change, message] of cases) {
      const f = join(root, 'bad.jsonl');
      writeFileSync(f, `${JSON.stringify({ ...JSON.parse(good), ...change })}\n`);
      await assert.rejects(convertDataset('minictx', f, { outRoot: join(root, 'out') }), message);
    }
    mkdirSync(join(root, 'empty'));
    await assert.rejects(convertDataset('minictx', join(root, 'empty'), { outRoot: join(root, 'out') }), /no \.jsonl file/);
    assert.throws(() => readTreeFiles(join(root, 'out')), /ENOENT/);
  });

  it('a run without the Lean toolchain fails with MissingToolchainError saying which and how to supply it', () => {
    const t = loadTask(join(TASKS_ROOT, 'minictx', 'double_add'));
    assert.equal(t.imageSource.kind, 'build');
    assert.throws(() => checkToolchains(t.imageSource), (err: Error) => {
      assert.ok(err instanceof MissingToolchainError);
      assert.match(err.message, /^toolchain missing: Lean 4 \(leanprover\/lean4:v[\d.]+\) \(no .*tasks\/minictx\/_image\/lean\/bin\/lean\); supply it in the task image: put a Lean 4 toolchain/);
      assert.match(err.message, /--image <tag>/);
      return true;
    });
  });

  it('finds a supplied toolchain, takes --image instead, and refuses a required path outside the build context', async () => {
    const [t] = await convertDataset('minictx', join(SRC, 'listbasics.jsonl'), { outRoot: root });
    assert.throws(() => checkToolchains(t.imageSource), MissingToolchainError);
    mkdirSync(join(root, 'minictx', '_image', 'lean', 'bin'), { recursive: true });
    writeFileSync(join(root, 'minictx', '_image', 'lean', 'bin', 'lean'), '');
    checkToolchains(t.imageSource);
    const [tagged] = await convertDataset('minictx', join(SRC, 'listbasics.jsonl'), { outRoot: join(root, 'tagged'), image: 'my-lean:1' });
    assert.deepEqual(tagged.imageSource, { kind: 'tag', tag: 'my-lean:1' });
    const suiteJson = join(root, 'minictx', 'suite.json');
    const suite = JSON.parse(readFileSync(suiteJson, 'utf8')) as { image: { requires: { path: string }[] } };
    suite.image.requires[0].path = '../lean/bin/lean';
    writeFileSync(suiteJson, JSON.stringify(suite));
    assert.throws(() => loadTask(t.dir), /image\.requires: "\.\.\/lean\/bin\/lean" is outside the Dockerfile's folder/);
  });
});

