// Which gradings the code under test could pass without solving the task: those pwp's canary,
// completion mark and sealed tests do not reach, each with its reason; every guarded kind says nothing.
import { strict as assert } from 'node:assert';
import { EvaluatorSchema, type Evaluator } from '../../../../host/evaluation/evaluatorSchema';
import { unguardedGrading } from '../../../../host/evaluation/unguardedGrading';

const tests = (o: Record<string, unknown>): Evaluator => EvaluatorSchema.parse({ kind: 'tests', ...o });

describe('unguarded gradings (unguardedGrading.ts)', () => {
  it('a test script graded by its exit status alone is unguarded; with a completion mark it is not', () => {
    const script = tests({ framework: 'exitCode', command: ['bash', 'tasks/t/run-tests.sh'] });
    assert.match(unguardedGrading(script) ?? '', /^graded by the exit status of `bash tasks\/t\/run-tests\.sh` alone \(no canary, no completion mark\)/);
    assert.equal(unguardedGrading(tests({ framework: 'exitCode', command: ['python3', '-I', '.resq/run_resq.py'], completionMark: true })), undefined);
  });

  it('a JUnit report the run writes itself is unguarded', () => {
    assert.match(unguardedGrading(tests({ framework: 'junit', command: ['make', 'test'], report: 'build/junit.xml' })) ?? '', /JUnit report its own run writes \(build\/junit\.xml\)/);
  });

  it('runners that carry the canary, with their hidden tests sealed, are guarded', () => {
    for (const [framework, command] of [
      ['pytest', ['python3', '-m', 'pytest', 'tests']], ['node', ['node', '--test']], ['jest', ['jest']], ['mocha', ['mocha']],
      ['go', ['go', 'test', './...']], ['cargo', ['cargo', 'test']],
    ] as const) {
      assert.equal(unguardedGrading(tests({ framework, command }), ['tests/hidden_test.go', 'tests/hidden.rs', 'tests/test_x.py']), undefined, framework);
    }
  });

  it('go with cgo or -race, and go or cargo with options the sealed builds do not know, run hidden tests unsealed', () => {
    const hidden = ['pkg/x_test.go', 'tests/it.rs'];
    assert.match(unguardedGrading(tests({ framework: 'go', command: ['go', 'test', '-race', './...'] }), hidden) ?? '', /unsealed \(cgo is on, or -race/);
    assert.match(unguardedGrading(tests({ framework: 'go', command: ['go', 'test', './...'], env: { CGO_ENABLED: '1' } }), hidden) ?? '', /unsealed \(cgo is on/);
    assert.match(unguardedGrading(tests({ framework: 'go', command: ['go', 'test', '-exec', 'wrap', './...'] }), hidden) ?? '', /options pwp's sealed go build does not know/);
    assert.match(unguardedGrading(tests({ framework: 'cargo', command: ['cargo', 'test', '--doc'] }), hidden) ?? '', /options pwp's sealed cargo build does not know/);
    // With no hidden test of that language, there is nothing to seal: the canary still guards the run.
    assert.equal(unguardedGrading(tests({ framework: 'go', command: ['go', 'test', '-race', './...'] }), ['notes.txt']), undefined);
    assert.equal(unguardedGrading(tests({ framework: 'cargo', command: ['cargo', 'test', '--doc'] }), []), undefined);
    // Its own overlay takes the canary's place: no canary at all.
    assert.match(unguardedGrading(tests({ framework: 'go', command: ['go', 'test', '-overlay=o.json', './...'] }), []) ?? '', /takes no canary/);
  });

  it('jest run by a script (npm test) takes no canary and is unguarded; jest itself, or npx jest, is guarded', () => {
    assert.match(unguardedGrading(tests({ framework: 'jest', command: ['npm', 'test'] })) ?? '', /^jest ran by `npm test` takes no canary/);
    assert.equal(unguardedGrading(tests({ framework: 'jest', command: ['npx', 'jest', 'src'] })), undefined);
    assert.equal(unguardedGrading(tests({ framework: 'jest', command: ['node_modules/.bin/jest'] })), undefined);
  });

  it('a composite is unguarded when any of its parts is', () => {
    const files = { kind: 'files', checks: [{ path: 'a.txt', exists: true }] };
    const script = { kind: 'tests', framework: 'exitCode', command: ['sh', 'check.sh'] };
    for (const kind of ['all', 'any']) {
      assert.match(unguardedGrading(EvaluatorSchema.parse({ kind, evaluators: [files, script] })) ?? '', /exit status of `sh check\.sh`/, kind);
      assert.equal(unguardedGrading(EvaluatorSchema.parse({ kind, evaluators: [files, files] })), undefined, kind);
    }
  });
});
