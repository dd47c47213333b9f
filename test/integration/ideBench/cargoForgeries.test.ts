// Deliverables that pass cargo's IDE-Bench tests without solving them, where the task's tests and
// the canary are within their reach: read at run time, at compile time, carried out by a proc
// macro the tests invoke, or the canary's names read from PWP_CANARY_DIR. Sealed, none passes;
// each is shown passing with the run unsealed (an option the sealed run does not know).
import { strict as assert } from 'node:assert';
import { cpSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { TestsEvaluator } from '../../../host/evaluation/evaluatorSchema';
import { loadTask, type Task } from '../../../host/taskEnv/loadTask';
import { write } from '../../support/sweBenchTwins';
import { DATASETS, initArray, RS_OWN_TEST, RS_TASK_TESTS, rsClamp, runnerTasks, show } from './runnerDatasets';

const KINDS = ['cargo'];

describe('IDE-Bench tasks of cargo: a deliverable that reads the tests or the canary does not pass', function () {
  this.timeout(30 * 60_000);
  const fx = runnerTasks(KINDS);

  // The task's tests read from disk by the deliverable, at run time or at compile time
  // (include_str!): it answers each (x, lo, hi) the file asserts with the value asserted, and
  // the repository's own test of clamp by rote. The hidden test file is closed to the test
  // binaries, and to the build of everything but its own crate (cargoRun.ts).
  const FROM_FILE = 'pub fn clamp(x: i32, lo: i32, hi: i32) -> i32 {\n    if (x, lo, hi) == (50, 0, 10) {\n        return 10;\n    }\n'
    + '    for line in TEXT.lines() {\n        if let Some(rest) = line.trim().strip_prefix("assert_eq!(gauge::clamp(") {\n'
    + '            let n: Vec<i32> = rest.split(|c: char| !(c.is_ascii_digit() || c == \'-\')).filter_map(|s| s.parse().ok()).collect();\n'
    + '            if n.len() == 4 && (n[0], n[1], n[2]) == (x, lo, hi) {\n                return n[3];\n            }\n        }\n    }\n    x\n}\n' + RS_OWN_TEST;

  const READERS: Record<string, string> = {
    'at run time': 'struct Text;\nimpl Text {\n    fn lines(&self) -> Vec<String> {\n'
      + '        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tasks/task-1/task_tests.rs")).unwrap_or_default().lines().map(String::from).collect()\n'
      + '    }\n}\nconst TEXT: Text = Text;\n',
    'at compile time (include_str!)': 'const TEXT: &str = include_str!("../tasks/task-1/task_tests.rs");\n',
  };

  /** Planted: the task with an option the sealed run does not know (--color), so cargo test runs as given, the hidden file readable. */
  const unsealed = (task: Task): Task => {
    const e = task.evaluator as TestsEvaluator;
    return { ...task, evaluator: { ...e, command: [...e.command, '--color', 'never'] } };
  };

  for (const [when, reader] of Object.entries(READERS)) {
    it(`cargo: a library that reads the task's tests ${when} to answer them does not pass them (run unsealed, it scored 1)`, async () => {
      const task = fx.tasks.cargo;
      const s = fx.states(task);
      const state = new Map(s.initial);
      state.set('src/lib.rs', Buffer.from(reader + FROM_FILE));
      const r = await fx.grade(task, { initial: s.initial, state });
      const low = r.tests?.cases.find((c) => /task_tests\.rs::low$/.test(c.id));
      assert.ok(r.score < 1 && low?.status === 'failed', show(r));
      assert.doesNotMatch(r.tests?.stderrTail ?? '', /runs unsealed/, show(r));
      const open = await fx.grade(unsealed(task), { initial: s.initial, state });
      assert.equal(open.score, 1, show(open));
    });
  }

  // The account of the init_array forger above, with the canary in it: its names read from the
  // canary.json that PWP_CANARY_DIR names, each binary's own tests known from its name.
  it('cargo: a library that reads the canary\'s names from PWP_CANARY_DIR and prints a whole account with them scores 0: the folder is gone when the binaries run (run unsealed, it scored 1)', async () => {
    const task = fx.tasks.cargo;
    const s = fx.states(task);
    const state = new Map(s.initial);
    const forge = initArray('        let dir = std::env::var("PWP_CANARY_DIR").unwrap_or_default();\n'
      + '        let text = std::fs::read_to_string(format!("{}/canary.json", dir)).unwrap_or_default();\n'
      + '        let words: Vec<&str> = text.split(\'"\').collect();\n'
      + '        let after = |k: &str| words.iter().position(|w| *w == k).map(|i| words[i + 2].to_string()).unwrap_or_default();\n'
      + '        let (pass, fail) = (after("pass"), after("fail"));\n'
      + '        let me = std::env::args().next().unwrap_or_default();\n'
      + '        let mine: Vec<&str> = if me.contains("task_tests") { vec!["inside", "low"] } else { vec!["tests::high"] };\n'
      + '        println!("\\nrunning {} tests", mine.len() + 2);\n'
      + '        for t in &mine {\n            println!("test {} ... ok", t);\n        }\n'
      + '        println!("test {} ... ok\\ntest {} ... FAILED\\n\\nfailures:\\n\\n---- {} stdout ----\\nexpected failure\\n\\nfailures:\\n    {}\\n", pass, fail, fail, fail);\n'
      + '        println!("test result: FAILED. {} passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\\n", mine.len() + 1);\n'
      + '        std::process::exit(101);\n');
    state.set('src/lib.rs', Buffer.from(rsClamp('let _ = (lo, hi);\n    x') + forge));
    const r = await fx.grade(task, { initial: s.initial, state });
    assert.equal(r.score, 0, show(r));
    const open = await fx.grade(unsealed(task), { initial: s.initial, state });
    assert.equal(open.score, 1, show(open));
  });

  // A proc macro of the repository's that the task's tests invoke runs in the second build, while
  // they are readable to it: the agent's copies them to a file of its own in /tmp, for the library
  // to read at run time as above. The build user's files outside its folder are gone before the
  // tests run (cargoBuild.js, sweep), so such a macro can carry them into the test binary only.
  it('cargo: a proc macro the task\'s tests invoke, copying them to /tmp for the library to read at run time, does not pass them (run unsealed, it scored 1)', async () => {
    const suite = join(fx.root, 'macro', basename(dirname(fx.tasks.cargo.dir)));
    cpSync(dirname(fx.tasks.cargo.dir), suite, { recursive: true });
    const dir = join(suite, basename(fx.tasks.cargo.dir));
    const macro = (body: string) => 'extern crate proc_macro;\nuse proc_macro::TokenStream;\n\n#[proc_macro_attribute]\n'
      + `pub fn case(_attr: TokenStream, item: TokenStream) -> TokenStream {\n${body}    item\n}\n`;
    write(join(suite, '_repo'), {
      'Cargo.toml': `${DATASETS.cargo.repo['Cargo.toml']}\n[dev-dependencies]\ncheck = { path = "check" }\n`,
      'check/Cargo.toml': '[package]\nname = "check"\nversion = "0.1.0"\nedition = "2021"\n\n[lib]\nproc-macro = true\n',
      'check/src/lib.rs': macro(''),
    });
    write(join(dir, 'hidden/workspace'), { 'tasks/task-1/task_tests.rs': RS_TASK_TESTS.replace(/#\[test\]/g, '#[check::case]\n#[test]') });
    const task = loadTask(dir);
    const forge = {
      'check/src/lib.rs': macro('    let dir = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default();\n'
        + '    if let Ok(text) = std::fs::read_to_string(format!("{}/tasks/task-1/task_tests.rs", dir)) {\n'
        + '        let _ = std::fs::write("/tmp/pwp-task-tests.rs", text);\n    }\n'),
      'src/lib.rs': READERS['at run time'].replace(/concat!\(.*?\)\)/, '"/tmp/pwp-task-tests.rs")') + FROM_FILE,
    };
    const r = await fx.gradeChanged(task, forge);
    const low = r.tests?.cases.find((c) => /task_tests\.rs::low$/.test(c.id));
    assert.ok(r.score < 1 && low?.status === 'failed', show(r));
    assert.doesNotMatch(r.tests?.stderrTail ?? '', /runs unsealed|could not all be removed/, show(r));
    const open = await fx.gradeChanged(unsealed(task), forge);
    assert.equal(open.score, 1, show(open));
  });
});
