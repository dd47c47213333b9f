// IDE-Bench tasks whose tests are not pytest's, counted as pytest's are: only the tests the task's
// change makes pass (those not passing on the base, found by the verifier's base run:
// host/evaluation/baseRun.ts) count, so the null agent scores 0 and the golden patch 1. Here the
// runners of the IDE image, jest (its JSON report), mocha (its JSON report), go test (-json) and a
// task script that runs node (one case, its exit status), and CTest (its JUnit report, through
// the SWE-bench log grader) on the cpp toolchain image; the base run itself, shared by gradings
// of the same base. Planted: the same tasks graded without the base run give the null agent the
// tests that already passed. Cargo's and the JVM's runners: the other files of this folder.
import { strict as assert } from 'node:assert';
import Docker from 'dockerode';
import { gradeState } from '../../../host/taskEnv/gradeState';
import { taskName } from '../../../host/taskEnv/loadTask';
import { GO_CANARY_READER, GO_FROM_DESCRIPTORS, itGradesAFixSavedOddly, itScoresGoldOneNullZero, JS_FIXED, runnerTasks, show, tarOfFiles } from './runnerDatasets';

const KINDS = ['jest', 'mocha', 'go', 'ctest', 'script'];

describe('IDE-Bench tasks of the IDE image\'s runners and CTest: only the tests the change makes pass count', function () {
  this.timeout(30 * 60_000);
  const fx = runnerTasks(KINDS);

  itScoresGoldOneNullZero(fx, KINDS);

  it('ctest: a clamp that ends its process with success (exit(0)) passes none of the tests that call it: their main did not return', async () => {
    const task = fx.tasks.ctest;
    const s = fx.states(task);
    const state = new Map(s.initial);
    state.set('src/gauge.c', Buffer.from('#include <stdlib.h>\n#include "gauge.h"\n\nint clamp(int x, int lo, int hi) {\n  exit(0);\n}\n'));
    const r = await fx.grade(task, { initial: s.initial, state });
    assert.equal(r.score, 0, show(r));
    assert.match(show(r), /its main did not return 0/, show(r));
  });

  // The sealed test files' texts go on a descriptor to a runner that loads them itself (pytest's
  // plugin, node's preload), never to go's test binaries, which have them compiled in: a package
  // whose init reads every descriptor it inherited would find them there, keep what each call of
  // Clamp is asserted to return (in /tmp, for the next test binary) and answer with it.
  it('go: a package that reads the sealed tests\' texts from an inherited descriptor to answer them does not pass them', async () => {
    const r = await fx.gradeChanged(fx.tasks.go, { 'gauge.go': GO_FROM_DESCRIPTORS });
    const low = r.tests?.cases.find((c) => /TestLow$/.test(c.id));
    assert.ok(r.score < 1 && low?.status === 'failed', show(r));
  });

  // The canary is compiled into go's test binaries (its overlay): once they are built, its folder
  // and PWP_CANARY_DIR are gone, or a package's init could read which of its tests must fail and
  // print a whole account of the run with them (runTests.js, forgetCanary).
  it('go: a package that reads the canary\'s tests from PWP_CANARY_DIR and prints a whole account with them scores 0', async () => {
    const r = await fx.gradeChanged(fx.tasks.go, { 'gauge.go': GO_CANARY_READER });
    assert.equal(r.score, 0, show(r));
    assert.match(r.summary, /tampering suspected: .*canary/, show(r));
  });

  itGradesAFixSavedOddly(fx, 'go');

  it('a task whose tests already pass on the base leaves nothing the change makes pass: the golden patch scores 0 and says why', async () => {
    const task = fx.tasks.mocha;
    const s = fx.states(task);
    const r = await fx.grade(task, { initial: s.gold, state: s.gold });
    assert.equal(r.score, 0, show(r));
    assert.match(r.summary, /^0\/0 tests pass .*; 3 passing on the base not counted; every test that ran passes on the base: the task's change makes none pass/, show(r));
  });

  it('the base runs in a verifier of its own, which goes with the grading: the agent\'s new file is graded, no container is left; the next grading of that base takes its outcome', async () => {
    const task = fx.tasks.script;
    const s = fx.states(task);
    // A base of this test's own (the file's other tests graded the task's), so that it runs here.
    const initial = new Map([...s.initial, ['NOTES.md', Buffer.from('a base of its own\n')]]);
    // The agent fixes the code by a new module the old one loads: only in the agent's workspace.
    const state = new Map(initial);
    state.set('src/gauge.js', Buffer.from("module.exports = require('./fixed');\n"));
    state.set('src/fixed.js', Buffer.from(JS_FIXED));
    const r = await fx.grade(task, { initial, state });
    assert.deepEqual([r.score, r.tests?.baseReused], [1, undefined], show(r));
    const left = await new Docker().listContainers({ all: true, filters: { label: [`pwp.task=${taskName(task)}`] } });
    assert.deepEqual(left.map((c) => c.Names), []);
    // Graded again (the archives made anew, at another time): the base's outcome is the first grading's.
    const again = await fx.grade(task, { initial, state: initial });
    assert.deepEqual([again.score, again.tests?.baseReused, again.tests?.total], [0, true, 1], show(again));
  });

  it('a grading without the initial workspace cannot run the base, and says so', async () => {
    const task = fx.tasks.script;
    const s = fx.states(task);
    const r = await gradeState(task, { image: fx.image, workspaceTar: await tarOfFiles(s.gold) });
    assert.equal(r.score, 0);
    assert.match(r.summary, /^grading failed: this grading has no initial workspace to run the base from/);
  });
});
