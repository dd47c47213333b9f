// IDE-Bench tasks graded by cargo test on the rust toolchain image (its console, per test binary;
// a library's tests, and a program's run by its tests): only the tests the change makes pass
// count (runners.test.ts says how), a break or a deleted test counts as failed, a library that
// prints a whole passing account before main scores 0, and the sealed run keeps working for a
// fix saved with odd modes and times, or beside a hidden source that is no test target.
import { strict as assert } from 'node:assert';
import { cpSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { loadTask } from '../../../host/taskEnv/loadTask';
import { initArray, itCountsABreak, itGradesAFixSavedOddly, itScoresGoldOneNullZero, rsClamp, runnerTasks, show } from './runnerDatasets';

const KINDS = ['cargo', 'cargoBin'];

describe('IDE-Bench tasks of cargo: only the tests the change makes pass count', function () {
  this.timeout(30 * 60_000);
  const fx = runnerTasks(KINDS);

  itScoresGoldOneNullZero(fx, KINDS);

  itCountsABreak(fx, ['cargo']);

  it('cargo: the repository\'s failing test deleted, not made to pass, counts as failed (fixing the other and deleting it scored 1)', async () => {
    const task = fx.tasks.cargo;
    const s = fx.states(task);
    const state = new Map(s.initial);
    state.set('src/lib.rs', Buffer.from(rsClamp('x.max(lo)', false)));
    const r = await fx.grade(task, { initial: s.initial, state });
    // Counted: low (passes now) and high (gone, failed); inside passes on both sides.
    assert.deepEqual([r.score, r.tests?.total, r.tests?.passed, r.tests?.failed], [0.5, 2, 1, 1], show(r));
    assert.equal(r.tests?.passingOnBase?.length, 1, show(r));
    // The gone test is named among the result's cases, as failed and why.
    assert.deepEqual(r.tests?.cases.filter((c) => /high/.test(c.id)).map((c) => [c.status, c.message]),
      [['failed', 'failed on the base and did not run in the agent\'s run']], show(r));
  });

  // libtest's lines printed before main by the library (an .init_array entry links into every
  // test binary that uses it), each of the task's tests passing, then exit 0: cargo's console
  // agrees with itself, but no test binary ran the canary.
  it('cargo: a library that prints every test\'s pass before main and exits 0 scores 0, tampering suspected: no binary ran the canary', async () => {
    const task = fx.tasks.cargo;
    const s = fx.states(task);
    const state = new Map(s.initial);
    const forge = initArray('        println!("\\nrunning 3 tests\\ntest inside ... ok\\ntest low ... ok\\ntest tests::high ... ok\\n");\n'
      + '        println!("test result: ok. 3 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\\n");\n'
      + '        std::process::exit(0);\n');
    state.set('src/lib.rs', Buffer.from(rsClamp('let _ = (lo, hi);\n    x') + forge));
    const r = await fx.grade(task, { initial: s.initial, state });
    assert.equal(r.score, 0, show(r));
    assert.match(r.summary, /tampering suspected: .*test binary \S+ reports passing tests but not the canary/, show(r));
  });

  // A hidden Rust file that is no test target's root would be compiled with the agent's code while
  // readable: such a run goes unsealed, as given, and says so; it grades as before.
  it('cargo: a hidden Rust source that is no test target\'s root runs cargo test unsealed, says so, and the golden patch still scores 1', async () => {
    // The suite folder copied whole (the task's workspace is its _repo).
    const suite = join(fx.root, 'helper', basename(dirname(fx.tasks.cargo.dir)));
    cpSync(dirname(fx.tasks.cargo.dir), suite, { recursive: true });
    const dir = join(suite, basename(fx.tasks.cargo.dir));
    writeFileSync(join(dir, 'hidden/workspace/tasks/task-1/helper.rs'), 'pub const LIMIT: i32 = 10;\n');
    const task = loadTask(dir);
    const s = fx.states(fx.tasks.cargo);
    const r = await fx.grade(task, { initial: s.initial, state: s.gold });
    assert.equal(r.score, 1, show(r));
    assert.match(r.tests?.stderrTail ?? '', /helper\.rs is not a test target's root, so cargo test runs unsealed/, show(r));
  });

  itGradesAFixSavedOddly(fx, 'cargo');
});
