// Grading on the host (archiveSandbox.ts): what an evaluator that only reads sees of the agent's
// archive, the task's hidden files and the IDE state, and that the paths it reads resolve as the
// verifier resolves them. The same evaluators against the real verifier container, side by side,
// are in test/integration/hostGrading.test.ts.
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { LimitExceededError } from '../../../../bridge/protocol';
import type { Deployment } from '../../../../host/deployment/deployment';
import { workspaceArchive as archive, type WorkspaceSpec as Spec } from '../../../support/workspaceArchive';
import { ArchiveSandbox, readsOnly } from '../../../../host/evaluation/archiveSandbox';
import { evaluate } from '../../../../host/evaluation/evaluate';
import { EvaluatorSchema, type Evaluator } from '../../../../host/evaluation/evaluatorSchema';
import { gradeState } from '../../../../host/taskEnv/gradeState';
import type { Task } from '../../../../host/taskEnv/loadTask';

function writeTree(root: string, files: Record<string, string>): void {
  for (const [p, c] of Object.entries(files)) { mkdirSync(dirname(join(root, p)), { recursive: true }); writeFileSync(join(root, p), c); }
}

describe('grading on the host (archive sandbox)', () => {
  let dir: string;
  let hidden: string;
  const open = async (spec: Spec, more: Partial<Parameters<typeof ArchiveSandbox.open>[0]> = {}) => ArchiveSandbox.open({
    workspaceTar: await archive(spec), hiddenDir: hidden, scratchDir: dir, ...more,
  });
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pwp-asb-'));
    hidden = join(dir, 'hidden');
    writeTree(hidden, { 'expected/src/a.ts': 'export const a = 2;\n', 'answers.csv': 'id,y\n1,2\n', 'workspace/tests/t.py': 'hidden test\n' });
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reads the agent\'s files, the hidden folder, the IDE state and the answer', async () => {
    const sb = await open({ src: null, 'src/a.ts': 'export const a = 1;\n' }, { answer: '42', ideState: { files: {} } as never });
    assert.equal((await sb.readFile('/workspace/src/a.ts'))?.toString(), 'export const a = 1;\n');
    assert.equal(await sb.readFile('/workspace/src/b.ts'), undefined);
    assert.equal((await sb.readFile('/pwp/hidden/answers.csv'))?.toString(), 'id,y\n1,2\n');
    assert.equal((await sb.readFile('/pwp/answer.txt'))?.toString(), '42');
    assert.deepEqual(JSON.parse((await sb.readFile('/pwp/ide/state.json'))!.toString()), { files: {} });
    assert.deepEqual([...(await sb.readTree('/pwp/hidden/expected'))!.keys()], ['src/a.ts']);
    assert.equal(await sb.readTree('/pwp/hidden/none'), undefined);
    assert.equal(await sb.readFile('/etc/passwd'), undefined);
  });

  it('puts the task\'s hidden workspace files over the agent\'s, the folders on their way included', async () => {
    const sb = await open({ tests: { link: '/tmp' }, 'x.txt': 'x' });
    assert.equal((await sb.readFile('/workspace/tests/t.py'))?.toString(), 'hidden test\n');
  });

  it('follows links inside the workspace on the way, and a link as the last part reads as no file', async () => {
    const sb = await open({
      real: null, 'real/f.txt': 'F', via: { link: 'real' }, abs: { link: '/workspace/real' }, 'last.txt': { link: 'real/f.txt' }, 'hard.txt': { hard: 'real/f.txt' },
    });
    assert.equal((await sb.readFile('/workspace/via/f.txt'))?.toString(), 'F');
    assert.equal((await sb.readFile('/workspace/abs/f.txt'))?.toString(), 'F');
    assert.equal((await sb.readFile('/workspace/real/../real/./f.txt'))?.toString(), 'F');
    assert.equal(await sb.readFile('/workspace/last.txt'), undefined);
    assert.equal((await sb.readFile('/workspace/hard.txt'))?.toString(), 'F');
    assert.deepEqual([...(await sb.readTree('/workspace/via'))!.keys()], ['f.txt']);
  });

  it('fails a read whose path leads out of the workspace, however it gets there, with where it leads', async () => {
    const sb = await open({ src: { link: '/pwp/hidden/expected/src' }, up: { link: '../..' }, 'f.txt': { link: '/etc/passwd' }, loop: { link: 'loop/x' } });
    await assert.rejects(sb.readFile('/workspace/src/a.ts'), /src\/a.ts leads out of the workspace, to \/pwp\/hidden\/expected\/src\/a.ts:/);
    await assert.rejects(sb.readFile('/workspace/up/etc/passwd'), /leads out of the workspace/);
    await assert.rejects(sb.readFile('/workspace/f.txt'), /leads out of the workspace, to \/etc\/passwd/);
    await assert.rejects(sb.readFile('/workspace/../etc/passwd'), /leads out of the workspace/);
    await assert.rejects(sb.readFile('/workspace/loop/y'), /too many levels of symbolic links/);
    await assert.rejects(sb.readTree('/workspace/src'), /leads out of the workspace/);
  });

  it('bounds each read: a file past the bound is a LimitExceededError, never read', async () => {
    const sb = await open({ 'big.txt': 'x'.repeat(1000) });
    await assert.rejects(sb.readFile('/workspace/big.txt', { maxBytes: 999 }), LimitExceededError);
    assert.equal((await sb.readFile('/workspace/big.txt', { maxBytes: 1000 }))?.length, 1000);
  });

  it('lists digests of the workspace (overlay included) and of the initial workspace only when it was given', async () => {
    const sb = await open({ 'a.txt': 'a' });
    assert.deepEqual([...(await sb.digests('/workspace'))!.keys()].sort(), ['a.txt', 'tests/t.py']);
    assert.equal(await sb.digests('/pwp/initial/workspace'), undefined);
    const withInitial = await open({ 'a.txt': 'a' }, { initialTar: await archive({ 'a.txt': 'b' }) });
    assert.notEqual((await withInitial.digests('/pwp/initial/workspace'))!.get('a.txt'), (await withInitial.digests('/workspace'))!.get('a.txt'));
  });

  it('runs no commands', async () => {
    const sb = await open({});
    await assert.rejects(sb.exec(['true']), /runs no commands/);
  });

  it('tells evaluators that only read from those that run something', () => {
    const parse = (e: unknown) => EvaluatorSchema.parse(e) as Evaluator;
    assert.equal(readsOnly(parse({ kind: 'all', evaluators: [{ kind: 'files', checks: [{ path: 'a', exists: true }] }, { kind: 'answer', expected: '1' }] })), true);
    assert.equal(readsOnly(parse({ kind: 'ide', checks: [{ setting: 'editor.rulers', value: [80] }] })), true);
    assert.equal(readsOnly(parse({ kind: 'any', evaluators: [{ kind: 'files', checks: [{ path: 'a', exists: true }] }, { kind: 'command', command: ['true'] }] })), false);
  });

  it('grades a task whose evaluator only reads without starting a verifier container', async () => {
    const noContainers = { startVerifier: () => { throw new Error('a verifier container was started'); } } as unknown as Deployment;
    const task = {
      id: 't', suite: 's', dir, hiddenDir: hidden,
      evaluator: EvaluatorSchema.parse({ kind: 'all', evaluators: [
        { kind: 'files', checks: [{ path: 'out.txt', equals: 'done\n' }] },
        { kind: 'diff', expected: 'expected', ignore: ['out.txt'] },
      ] }),
    } as unknown as Task;
    const initialTar = await archive({ 'out.txt': 'todo\n', 'notes.md': 'n', src: null, 'src/a.ts': 'export const a = 1;\n' });
    const grade = async (spec: Spec) => gradeState(task, { image: 'none', deployment: noContainers, initialTar, workspaceTar: await archive(spec) });
    const solved = await grade({ 'out.txt': 'done\n', 'notes.md': 'n', src: null, 'src/a.ts': 'export const a = 2;\n' });
    assert.equal(solved.score, 1, solved.summary);
    const unsolved = await grade({ 'out.txt': 'done\n', 'notes.md': 'n', 'src/a.ts': 'export const a = 1;\n' });
    assert.equal(unsolved.score, 0, unsolved.summary);
    assert.match(unsolved.summary, /src\/a.ts/);
    const elsewhere = await grade({ 'out.txt': 'done\n', 'notes.md': 'changed', 'src/a.ts': 'export const a = 2;\n' });
    assert.match(elsewhere.summary, /unexpected changes: notes.md \(changed\)/);
    const command = { ...task, evaluator: EvaluatorSchema.parse({ kind: 'command', command: ['true'] }) } as Task;
    const r = await evaluate(command.evaluator, await open({}));
    assert.match(r.summary, /grading failed: grading on the host runs no commands/);
  });
});
