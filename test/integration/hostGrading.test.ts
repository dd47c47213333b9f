// Grading on the host (evaluation/archiveSandbox.ts) against the real verifier container: the
// same evaluators that only read (files, diff, ide, answer, metric) on the same archives give the
// same results both ways, links, hard links, the hidden overlay and paths that lead out of the
// workspace included. gradeState uses the host for such evaluators, so this is what keeps the
// two from drifting apart.
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { workspaceArchive as archive, type WorkspaceSpec as Spec } from '../support/workspaceArchive';
import { ArchiveSandbox } from '../../host/evaluation/archiveSandbox';
import { evaluate } from '../../host/evaluation/evaluate';
import type { EvaluationResult } from '../../host/evaluation/evaluationResult';
import { EvaluatorSchema, type Evaluator } from '../../host/evaluation/evaluatorSchema';
import type { IdeState } from '../../host/evaluation/ideState';
import { Verifier } from '../../host/evaluation/verifier';
import { testImage } from './environmentFixture';

/** A result without its timings, for comparing. */
function comparable(r: EvaluationResult): unknown {
  return JSON.parse(JSON.stringify(r, (k, v: unknown) => (k === 'durationMs' ? undefined : v)));
}

const ideState = (settings: Record<string, unknown>): IdeState => ({
  capturedAt: '2026-01-01T00:00:00Z', timeline: {}, errors: [],
  settings: { 'editor.rulers': { key: 'editor.rulers', value: [], defaultValue: [] } as never },
  files: { userSettings: settings, errors: [] },
});

const evaluators: unknown[] = [
  { kind: 'files', checks: [
    { path: 'out.txt', equals: 'done\n' }, { path: 'via/f.txt', contains: ['F'] }, { path: 'last.txt', exists: true },
    { path: 'hard.txt', equals: 'F' }, { path: 'conf.json', json: { a: 1 } }, { path: 'missing.txt', exists: false },
    { path: 'tests/t.py', equalsHidden: 'workspace/tests/t.py' }, { path: 'out.txt', equalsHidden: 'expected/out.txt' },
  ] },
  { kind: 'files', checks: [{ path: 'up/etc/hostname', exists: true }] },
  { kind: 'files', checks: [{ path: 'secret/a.ts', exists: true }] },
  { kind: 'diff', expected: 'expected', ignore: ['notes.md'] },
  { kind: 'diff', expected: 'expected' },
  { kind: 'ide', checks: [{ setting: 'editor.rulers', scope: 'user', value: [80] }, { setting: 'editor.tabSize', scope: 'workspace', value: 2 }] },
  { kind: 'answer', expected: '42' },
  { kind: 'metric', metric: 'accuracy', answers: 'answers.csv', predictions: 'pred.csv', id: 'id', target: 'y', baseline: 0, gold: 1, threshold: 1 },
];

describe('grading on the host gives what the verifier container gives', function () {
  this.timeout(10 * 60_000);
  let root: string;
  before(() => {
    root = mkdtempSync(join(tmpdir(), 'pwp-hostgrading-'));
    const hidden = { 'expected/out.txt': 'done\n', 'workspace/tests/t.py': 'hidden test\n', 'answers.csv': 'id,y\n1,a\n2,b\n' };
    for (const [p, c] of Object.entries(hidden)) { mkdirSync(dirname(join(root, 'hidden', p)), { recursive: true }); writeFileSync(join(root, 'hidden', p), c); }
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  const states: [string, Spec][] = [
    ['a solved state with links on the way, a hard link and the hidden overlay', {
      'out.txt': 'done\n', 'notes.md': 'changed', real: null, 'real/f.txt': 'F', via: { link: 'real' }, 'last.txt': { link: 'real/f.txt' },
      'hard.txt': { hard: 'real/f.txt' }, 'conf.json': '{"a": 1, // comment\n}', '.vscode': null, '.vscode/settings.json': '{"editor.tabSize": 2}',
      'pred.csv': 'id,y\n1,a\n2,b\n', tests: { link: '/tmp' },
    }],
    ['an unsolved state with links that lead out', {
      'out.txt': 'todo\n', up: { link: '../..' }, secret: { link: '/pwp/hidden/expected' }, 'conf.json': 'not json', 'pred.csv': 'id,y\n1,a\n2,c\n',
    }],
  ];
  for (const [what, spec] of states) {
    it(`${what}: every evaluator scores and says the same`, async () => {
      const initialTar = await archive({ 'out.txt': 'todo\n', 'notes.md': 'n' });
      const inputs = { workspaceTar: await archive(spec), initialTar, hiddenDir: join(root, 'hidden'), ideState: ideState({ 'editor.rulers': [80] }), answer: 'The answer is 42.' };
      const host = await ArchiveSandbox.open({ ...inputs, scratchDir: mkdtempSync(join(root, 'scratch-')) });
      const verifier = await Verifier.start({ image: await testImage() });
      try {
        await verifier.load(inputs);
        for (const e of evaluators) {
          const parsed = EvaluatorSchema.parse(e) as Evaluator;
          const [inContainer, onHost] = [await evaluate(parsed, verifier), await evaluate(parsed, host)];
          assert.deepEqual(comparable(onHost), comparable(inContainer), `${parsed.kind}: ${JSON.stringify(e)}`);
        }
      } finally {
        await verifier.remove();
      }
    });
  }
});
