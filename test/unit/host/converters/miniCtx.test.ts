// miniCTX's published records (srcContext, theoremStatement, theoremName, file,
// proofMetadata.proof) become Lean tasks whose reference proof only the oracle has; malformed
// records are skipped with a note, after --limit; records that import Mathlib get a project
// requiring it at the revision they name (the hidden grader's own tests are pytest's:
// test/unit/host/converters/graders/test_check_proof.py); and a run without the Lean toolchain fails with
// MissingToolchainError naming it and how to supply it.
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DATASETS_ROOT, readTreeFiles } from '../../../../host/converters/bundledDatasets';
import { convertDataset } from '../../../../host/converters/datasets';
import { LEAN_TOOLCHAIN, readMiniCtx, statementName } from '../../../../host/converters/miniCtx';
import { loadTask, TASKS_ROOT } from '../../../../host/taskEnv/loadTask';
import { checkToolchains, MissingToolchainError } from '../../../../host/taskEnv/resolveTaskImage';

const SRC = join(DATASETS_ROOT, 'minictx', 'minictx');

describe('minictx converter', () => {
  let root: string;
  beforeEach(() => { root = mkdtempSync(join(tmpdir(), 'pwp-minictx-')); });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('reads a folder of per-project JSON Lines: the file cut at the theorem with sorry, the proof only in oracle/', async () => {
    const records = readMiniCtx(SRC).map((i) => i.record);
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

  it('skips a bad record with a note (after --limit chose the records) and converts the rest', async () => {
    const good = JSON.parse(readFileSync(join(SRC, 'listbasics.jsonl'), 'utf8').trim()) as Record<string, unknown>;
    const cases: [Record<string, unknown>, RegExp][] = [
      // No name, and a statement that declares none.
      [{ theoremName: null, theoremStatement: 'example : 1 + 1 = 2' }, /record 1: missing field "theoremName"/],
      [{ theoremStatement: undefined }, /record 1: missing field "theoremStatement"/],
      [{ proofMetadata: { hasProof: false } }, /proofMetadata\.proof must be the reference proof/],
      [{ file: '/abs/Sum.lean' }, /file must be a relative path ending in \.lean/],
      [{ file: '../Sum.lean' }, /file must be a relative path/],
      [{ theoremStatement: 'theorem t : True :=' }, /must stop before ":="/],
    ];
    for (const [change, message] of cases) {
      const f = join(root, 'bad.jsonl');
      // Like mathlib.jsonl, whose 18th record has theoremName null: one bad record among good ones.
      writeFileSync(f, [{ ...good, ...change }, { ...good, theoremName: 'second' }, { ...good, theoremName: 'third' }].map((r) => JSON.stringify(r)).join('\n'));
      const notes: string[] = [];
      const tasks = await convertDataset('minictx', f, { outRoot: join(root, 'out'), limit: 2, onNote: (l) => notes.push(l) });
      assert.deepEqual(tasks.map((t) => t.id), ['second']);
      assert.equal(notes.length, 1);
      assert.match(notes[0], message);
      assert.match(notes[0], /^skipped: /);
    }
    writeFileSync(join(root, 'broken.jsonl'), `{"srcContext": \n${JSON.stringify({ ...good, theoremName: 'ok' })}\n`);
    const notes: string[] = [];
    assert.deepEqual((await convertDataset('minictx', join(root, 'broken.jsonl'), { outRoot: join(root, 'out'), onNote: (l) => notes.push(l) })).map((t) => t.id), ['ok']);
    assert.match(notes[0], /broken\.jsonl:1: not JSON/);
    mkdirSync(join(root, 'empty'));
    await assert.rejects(convertDataset('minictx', join(root, 'empty'), { outRoot: join(root, 'out2') }), /no \.jsonl file/);
  });

  it('names a record without theoremName by the theorem its statement declares (miniCTX\'s first mathlib.jsonl has no such field)', async () => {
    const good = JSON.parse(readFileSync(join(SRC, 'listbasics.jsonl'), 'utf8').trim()) as Record<string, unknown>;
    const f = join(root, 'first.jsonl');
    const { theoremName: _dropped, ...nameless } = good;
    const statement = String(good.theoremStatement).replace(/^theorem \S+/, 'protected theorem List.sum_twice');
    writeFileSync(f, [nameless, { ...nameless, theoremStatement: statement }].map((r) => JSON.stringify(r)).join('\n'));
    const notes: string[] = [];
    const tasks = await convertDataset('minictx', f, { outRoot: join(root, 'out'), onNote: (l) => notes.push(l) });
    assert.deepEqual(tasks.map((t) => t.id), ['sumlist_append', 'list.sum_twice'], notes.join('\n'));
    assert.deepEqual(notes, [`${f}: 2 records have no theoremName (as miniCTX's first mathlib.jsonl): each is named by its theoremStatement`]);
    assert.equal(statementName('@[simp] private lemma foo_bar (n : Nat) : n = n'), 'foo_bar');
    // That file imports Mathlib and names no revision of it (theoremCreated is a bare commit): pending, said.
    const unpinned = join(root, 'unpinned.jsonl');
    writeFileSync(unpinned, JSON.stringify({ ...nameless, srcContext: `import Mathlib.Data.Nat.Basic\n${String(good.srcContext)}`, theoremCreated: '85a4719' }));
    const more: string[] = [];
    const [t] = await convertDataset('minictx', unpinned, { outRoot: join(root, 'out2'), onNote: (l) => more.push(l) });
    assert.ok(t.tags.includes('pending:the record imports Mathlib but names no Mathlib revision'), t.tags.join(', '));
    assert.ok(more.some((n) => /^1 records import Mathlib but name no Mathlib revision/.test(n)), more.join('\n'));
    assert.equal(statementName('instance : Foo := x'), undefined);
    assert.equal(statementName('instance [T0Space α] : SeparatesPoints α'), undefined);
    // The real mathlib.jsonl's two records with theoremName null are named instances: named by them, not skipped.
    assert.equal(statementName('instance (priority := 100) OpensMeasurableSpace.separatesPoints [T0Space α] :\n    SeparatesPoints α'), 'OpensMeasurableSpace.separatesPoints');
    assert.equal(statementName('instance instCountable_of_discrete {E : Type*} (L : AddSubgroup E) :\n    Countable L'), 'instCountable_of_discrete');
  });

  it('gives records that import Mathlib a project requiring it at the revision they name, supplied in the image and linked at set-up', async () => {
    const good = JSON.parse(readFileSync(join(SRC, 'listbasics.jsonl'), 'utf8').trim()) as Record<string, unknown>;
    const mathlib = (name: string, commit: string, date: string) => ({ ...good, theoremName: name, srcContext: `import Mathlib.Data.Nat.Basic\n\n${good.srcContext as string}`, theoremCreated: { commit, date } });
    const records = [mathlib('older', '12c27420d4', '2024-01-02'), mathlib('newest', '85a47191ab', '2024-04-17'), { ...good, theoremName: 'core_only' }];
    writeFileSync(join(root, 'mathlib.jsonl'), records.map((r) => JSON.stringify(r)).join('\n'));
    const [a, b, core] = await convertDataset('minictx', join(root, 'mathlib.jsonl'), { outRoot: root });
    for (const t of [a, b]) {
      const lakefile = readFileSync(join(t.workspaceDir!, 'lakefile.lean'), 'utf8');
      assert.match(lakefile, /require mathlib from git\n {2}"https:\/\/github\.com\/leanprover-community\/mathlib4" @ "85a47191ab"/);
      const manifest = JSON.parse(readFileSync(join(t.workspaceDir!, 'lake-manifest.json'), 'utf8')) as { packages: { name: string; rev: string }[] };
      assert.deepEqual(manifest.packages.map((p) => [p.name, p.rev]), [['mathlib', '85a47191ab']]);
      assert.deepEqual(t.setup.map((s) => Object.keys(s)[0]), ['writeFile', 'exec']);
      assert.ok(t.tags.includes('mathlib:85a47191ab'));
    }
    assert.doesNotMatch(readFileSync(join(core.workspaceDir!, 'lakefile.lean'), 'utf8'), /mathlib/);
    assert.deepEqual(core.setup, []);
    mkdirSync(join(root, 'minictx', '_image', 'lean', 'bin'), { recursive: true });
    writeFileSync(join(root, 'minictx', '_image', 'lean', 'bin', 'lean'), '');
    assert.throws(() => checkToolchains(a.imageSource), (err: Error) => err instanceof MissingToolchainError && /toolchain missing: Mathlib at 85a47191ab \(no .*_image\/mathlib\/85a47191ab\/lake-manifest\.json\)/.test(err.message));
    assert.match(readFileSync(join(root, 'minictx', '_image', 'Dockerfile'), 'utf8'), /COPY mathlib\/ \/opt\/mathlib\//);
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

