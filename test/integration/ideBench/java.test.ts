// IDE-Bench tasks graded by a detected Maven or Gradle run, on the java toolchain image, through
// the SWE-bench log grader (a canary class, the task's Java tests sealed): Maven with JUnit 5
// (Surefire's per-class XML), Gradle with JUnit 4 (its per-class XML, Debian's Gradle 4.4,
// offline). Only the tests the change makes pass count (runners.test.ts says how); a change that
// breaks the test passing on the base counts it as failed, and a clamp that reads the hidden
// tests for its answers passes none.
import { strict as assert } from 'node:assert';
import { itCountsABreak, itScoresGoldOneNullZero, javaFromTests, runnerTasks, show } from './runnerDatasets';

const KINDS = ['maven', 'gradle'];

describe('IDE-Bench tasks of Maven and Gradle: only the tests the change makes pass count', function () {
  this.timeout(30 * 60_000);
  const fx = runnerTasks(KINDS);

  itScoresGoldOneNullZero(fx, KINDS);

  itCountsABreak(fx, KINDS);

  for (const [kind, file] of [['maven', 'task_tests.java'], ['gradle', 'ClampTest.java']]) {
    it(`${kind}: a clamp that reads the task's test source for what each call must return passes none of the tests (run unsealed, it scored 1)`, async () => {
      const task = fx.tasks[kind];
      const s = fx.states(task);
      const state = new Map(s.initial);
      state.set('src/main/java/gauge/Gauge.java', Buffer.from(javaFromTests(`tasks/task-1/${file}`)));
      const r = await fx.grade(task, { initial: s.initial, state });
      assert.deepEqual([r.score, r.tests?.total], [0, 2], show(r));
    });
  }
});
