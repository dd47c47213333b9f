// What a base run keeps (host/evaluation/baseRun.ts): the ids that passed there, and a go package
// whose tests vanished with its build as one failure; and the tests grader's count past it, with
// stand-in verifiers. The runs themselves, in real verifiers: test/integration/ideBench/.
import { strict as assert } from 'node:assert';
import type { ExecResult } from '../../../../host/deployment/runtime';
import { goPackageFailures, onBase, passingOnBase, pastBase, sharedBaseRun, vanishedSinceBase, type BaseOutcome } from '../../../../host/evaluation/baseRun';
import { evaluate } from '../../../../host/evaluation/evaluate';
import { EvaluatorSchema, type TestsEvaluator } from '../../../../host/evaluation/evaluatorSchema';
import type { Sandbox } from '../../../../host/evaluation/verifier';
import type { TestCase } from '../../../../host/evaluation/testReports';

const c = (id: string, status: TestCase['status']): TestCase => ({ id, aliases: [], status });

describe('base runs', () => {
  it('keeps the ids whose every case passed on the base (a name shared with a failing or skipped case is not)', () => {
    const base = [c('a', 'passed'), c('b', 'failed'), c('dup', 'passed'), c('dup', 'failed'), c('s', 'skipped'), c('e', 'passed')];
    assert.deepEqual([...passingOnBase(base)].sort(), ['a', 'e']);
  });

  it('counts a go package that failed without a failing test as one failure, and no other', () => {
    const cases = [c('example.com/x::TestA', 'passed'), c('example.com/y::TestB', 'failed')];
    assert.deepEqual(goPackageFailures(['example.com/y', 'example.com/z', 'example.com/z'], cases).map((t) => [t.id, t.status]), [['example.com/z::(package)', 'failed']]);
    assert.deepEqual(goPackageFailures([], cases), []);
  });

  it('counts past the base what did not pass there and what passed there and fails now; what passes on both sides counts neither way', () => {
    const now = [c('kept', 'passed'), c('broken', 'failed'), c('new', 'passed'), c('still', 'failed'), c('skip', 'skipped')];
    const extra = [c('ex/t::(package)', 'failed')];
    const past = pastBase(now, new Set(['kept', 'broken', 'skip']), extra);
    assert.deepEqual([past.counted.map((t) => t.id), past.leftOut, past.broken], [['broken', 'new', 'still', 'ex/t::(package)'], 2, 1]);
  });

  it('fails the tests that did not pass on the base and are gone from the agent\'s run (a go package\'s own failure aside)', () => {
    const base = [c('kept', 'passed'), c('fixed', 'failed'), c('gone', 'failed'), c('skipped', 'skipped'), c('ex/t::(package)', 'failed'), c('aka', 'failed')];
    const now = [c('kept', 'passed'), c('fixed', 'passed'), { ...c('renamed', 'passed'), aliases: ['aka'] }];
    assert.deepEqual(vanishedSinceBase(base, now).map((t) => [t.id, t.status]), [['gone', 'failed'], ['skipped', 'failed']]);
  });

  it('refuses a grading without a base, and removes the base after its run, thrown or not', async () => {
    await assert.rejects(onBase({} as Sandbox, async () => 1), /no initial workspace to run the base from/);
    let removed = 0;
    const sandbox = { base: async () => ({ remove: async () => { removed++; } }) } as unknown as Sandbox;
    assert.equal(await onBase(sandbox, async () => 7), 7);
    await assert.rejects(onBase(sandbox, async () => { throw new Error('boom'); }), /boom/);
    assert.equal(removed, 2);
  });
});

describe('base runs shared between gradings of the same base', () => {
  const keyed = (key: string | undefined) => ({ ...(key ? { baseKey: async () => key } : {}) }) as Sandbox;
  const outcome = (id: string): BaseOutcome => ({ cases: [c(id, 'passed')], exitCode: 0 });
  const unique = () => `base-${Math.random()}`;

  it('runs a base once for gradings side by side and after, and again for another evaluator or another base', async () => {
    const key = unique();
    let runs = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => { release = r; });
    const run = async () => { runs++; await gate; return outcome('a'); };
    const both = Promise.all([sharedBaseRun(keyed(key), { e: 1 }, run), sharedBaseRun(keyed(key), { e: 1 }, run)]);
    release();
    assert.deepEqual((await both).map((x) => x.reused), [false, true]);
    assert.deepEqual(await sharedBaseRun(keyed(key), { e: 1 }, run), { outcome: outcome('a'), reused: true });
    assert.equal(runs, 1);
    assert.equal((await sharedBaseRun(keyed(key), { e: 2 }, run)).reused, false);
    assert.equal((await sharedBaseRun(keyed(unique()), { e: 1 }, run)).reused, false);
    assert.equal(runs, 3);
  });

  it('keeps no failed run, thrown or said, and shares nothing without a key', async () => {
    const key = unique();
    await assert.rejects(sharedBaseRun(keyed(key), {}, async () => { throw new Error('engine gone'); }), /engine gone/);
    assert.deepEqual(await sharedBaseRun(keyed(key), {}, async () => ({ failed: 'stale report' })), { outcome: { failed: 'stale report' }, reused: false });
    assert.deepEqual(await sharedBaseRun(keyed(key), {}, async () => outcome('b')), { outcome: outcome('b'), reused: false });
    let runs = 0;
    for (let i = 0; i < 2; i++) assert.equal((await sharedBaseRun(keyed(undefined), {}, async () => { runs++; return outcome('c'); })).reused, false);
    assert.equal(runs, 2);
  });
});

/**
 * A verifier stand-in whose test runner prints the `go test -json` events given for it: the
 * agent's workspace, and through base() the task's base, each its own.
 */
class GoRun implements Sandbox {
  removed = 0;
  prepared: string[] = [];
  constructor(private readonly events: [string, string | undefined, 'pass' | 'fail'][], private readonly onBaseRun?: GoRun) {}
  async exec(argv: string[]): Promise<ExecResult> {
    if (argv[1] !== '/pwp/runner/run.js') {
      this.prepared.push(argv.join(' '));
      return { exitCode: 0, stdout: '', stderr: '', timedOut: false, durationMs: 1 };
    }
    const exitCode = this.events.some(([, , a]) => a === 'fail') ? 1 : 0;
    return { exitCode: 0, stdout: `${JSON.stringify({ exitCode, timedOut: false, survivors: 0, hasReport: false })}\n`, stderr: '', timedOut: false, durationMs: 1 };
  }
  async readFile() { return undefined; }
  async readTree() {
    const stdout = this.events.map(([Package, Test, Action]) => JSON.stringify({ Action, Package, ...(Test ? { Test } : {}) })).join('\n');
    return new Map([['stdout', Buffer.from(stdout)]]);
  }
  get base() {
    const b = this.onBaseRun;
    return b ? async () => Object.assign(b, { remove: async () => { b.removed++; } }) : undefined;
  }
}

describe('a tests evaluator that counts only what fails on the base', () => {
  // -overlay: the task's own overlay, so the run goes without the canary (testsGrader.ts) and the events are exactly these.
  const evaluator = (o: Partial<TestsEvaluator> = {}) => EvaluatorSchema.parse({
    kind: 'tests', framework: 'go', command: ['go', 'test', '-overlay=o.json', './...'], scoring: 'passRate', countFailingOnBase: true, ...o,
  }) as TestsEvaluator;
  type Events = [string, string | undefined, 'pass' | 'fail'][];
  const base: Events = [['ex/g', 'TestInside', 'pass'], ['ex/g', 'TestLow', 'fail'], ['ex/g', 'TestHigh', 'fail'], ['ex/g', undefined, 'fail']];
  const gold: Events = [['ex/g', 'TestInside', 'pass'], ['ex/g', 'TestLow', 'pass'], ['ex/g', 'TestHigh', 'pass']];

  it('leaves out the tests passing on the base: doing nothing scores 0, the fix 1, and the base\'s verifier is removed', async () => {
    const onBase = new GoRun(base);
    const nul = await evaluate(evaluator(), new GoRun(base, onBase));
    assert.deepEqual([nul.score, nul.tests?.total, nul.tests?.passingOnBase], [0, 2, ['ex/g::TestInside']], nul.summary);
    assert.equal(nul.summary, '0/2 tests pass (exit code 1); 1 passing on the base not counted');
    const fixed = await evaluate(evaluator(), new GoRun(gold, onBase));
    assert.deepEqual([fixed.score, fixed.passed, fixed.tests?.total], [1, true, 2], fixed.summary);
    assert.equal(onBase.removed, 2);
    // A fix that breaks the test passing on the base: that test counts against it, the exit status aside.
    const breaking = await evaluate(evaluator(), new GoRun([['ex/g', 'TestInside', 'fail'], ['ex/g', 'TestLow', 'pass'], ['ex/g', 'TestHigh', 'pass']], onBase));
    assert.deepEqual([breaking.score, breaking.passed, breaking.tests?.total], [2 / 3, false, 3], breaking.summary);
    assert.equal(breaking.summary, '2/3 tests pass (exit code 1); 1 passing on the base fail now');
    const notBroken = await evaluate(evaluator({ scoring: 'all' }), new GoRun(gold, onBase));
    assert.deepEqual([notBroken.score, notBroken.passed], [1, true], notBroken.summary);
    assert.equal(onBase.removed, 4);
    // The same runs counted whole: the test passing on the base earns doing nothing a third.
    const whole = await evaluate(evaluator({ countFailingOnBase: undefined }), new GoRun(base, onBase));
    assert.equal(whole.score, 1 / 3, whole.summary);
  });

  it('counts a package whose tests vanished with its build as one failure, and says when the base leaves nothing to count', async () => {
    // The task's tests in a package that builds on neither side: without its failure nothing would count.
    const broken: Events = [['ex/g', 'TestInside', 'pass'], ['ex/t', undefined, 'fail']];
    const r = await evaluate(evaluator(), new GoRun(broken, new GoRun(broken)));
    assert.deepEqual([r.score, r.tests?.total, r.tests?.cases.map((t) => t.id)], [0, 1, ['ex/g::TestInside', 'ex/t::(package)']], r.summary);
    assert.match(r.summary, /^0\/1 tests pass \(exit code 1\); 1 passing on the base not counted/);
    // Nothing ran on the base (its build failed before any test): every test counts, and the summary says so.
    const unbuilt = await evaluate(evaluator(), new GoRun(gold, new GoRun([['ex/g', undefined, 'fail']])));
    assert.deepEqual([unbuilt.score, unbuilt.tests?.total], [1, 3], unbuilt.summary);
    assert.equal(unbuilt.summary, '3/3 tests pass (exit code 0); no test ran on the base (exit code 1), so every test counts');
    // A change that makes one failing test pass and the other vanish: the vanished one fails.
    const deleted = await evaluate(evaluator(), new GoRun([['ex/g', 'TestInside', 'pass'], ['ex/g', 'TestLow', 'pass']], new GoRun(base)));
    assert.deepEqual([deleted.score, deleted.passed, deleted.tests?.total], [0.5, false, 2], deleted.summary);
    assert.deepEqual(deleted.tests?.cases.filter((t) => t.status === 'failed').map((t) => [t.id, t.message]), [['ex/g::TestHigh', 'failed on the base and did not run in the agent\'s run']]);
    const done = await evaluate(evaluator(), new GoRun(gold, new GoRun(gold)));
    assert.deepEqual([done.score, done.passed], [0, false]);
    assert.equal(done.summary, '0/0 tests pass (exit code 0); 3 passing on the base not counted; every test that ran passes on the base: the task\'s change makes none pass');
  });

  it('prepares the base as it prepares the agent\'s workspace, and fails the grading without a base to run', async () => {
    const onBase = new GoRun(base);
    const agent = new GoRun(gold, onBase);
    const r = await evaluate(evaluator({ prepare: { command: ['/pwp/hidden/prep.sh'], timeoutSec: 60 } }), agent);
    assert.equal(r.score, 1, r.summary);
    const prepared = (s: GoRun) => s.prepared.filter((c) => c === '/pwp/hidden/prep.sh').length;
    assert.deepEqual([prepared(onBase), prepared(agent)], [1, 1]);
    const none = await evaluate(evaluator(), new GoRun(gold));
    assert.deepEqual([none.score, none.passed], [0, false]);
    assert.match(none.summary, /no initial workspace to run the base from/);
  });
});
