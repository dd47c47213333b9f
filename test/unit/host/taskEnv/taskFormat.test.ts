// task.json validation: every mistake is reported with the file and the field it is in, and
// every bundled task loads.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../../../../host/common/paths';
import { listSuites, loadTask, resolveTasks, suiteTaskDirs, TASKS_ROOT, TaskError } from '../../../../host/taskEnv/loadTask';
import { MINIMAL_TASK_JSON } from '../../../support/minimalTaskJson';

const VALID = MINIMAL_TASK_JSON;

describe('task.json', () => {
  let root: string;
  beforeEach(() => { root = mkdtempSync(join(tmpdir(), 'pwp-tasks-')); });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  /** Writes tasks/demo-suite/<id>/task.json (text as is when a string) and returns its folder. */
  function write(task: unknown, id = 'x', files: Record<string, string> = {}): string {
    const dir = join(root, 'demo-suite', id);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'task.json'), typeof task === 'string' ? task : JSON.stringify(task, null, 2));
    for (const [p, c] of Object.entries(files)) { mkdirSync(join(dir, p, '..'), { recursive: true }); writeFileSync(join(dir, p), c); }
    return dir;
  }

  function problems(task: unknown, files?: Record<string, string>): string {
    const dir = write(task, 'x', files);
    try { loadTask(dir); } catch (err) {
      assert.ok(err instanceof TaskError, String(err));
      assert.ok(err.message.split('\n').every((l) => l.includes(join('demo-suite', 'x', 'task.json'))), `every line names the file: ${err.message}`);
      return err.message;
    }
    assert.fail('the task loaded');
  }

  it('loads a valid task with defaults filled in', () => {
    const t = loadTask(write(VALID));
    assert.equal(t.image, 'default');
    assert.deepEqual(t.limits, { steps: 100, seconds: 900, workspaceBytes: 512 * 2 ** 20, workspaceFiles: 100_000 });
    assert.deepEqual(t.setup, []);
    assert.equal(t.workspaceDir, undefined);
  });

  it('names the line and column of a JSON syntax error', () => {
    assert.match(problems('{\n  "id": "x",\n  "suite" "demo-suite"\n}'), /task\.json: not valid JSON at line 3, column 11/);
  });

  it('lists the evaluator kinds when the kind is wrong', () => {
    assert.match(problems({ ...VALID, evaluator: { kind: 'magic' } }), /task\.json: evaluator\.kind: expected one of "tests", "command", "files", "diff", "ide", "answer", "image", "sql", "design2code", "chartmimic", "metric", "all", "any"$/m);
  });

  it('names a missing field and an unknown one', () => {
    const { instruction: _, ...rest } = VALID;
    const msg = problems({ ...rest, instructions: 'typo' });
    assert.match(msg, /: instruction: Invalid input: expected string, received undefined/);
    assert.match(msg, /: \(top level\): unknown field "instructions"/);
  });

  it('names the step and field of a bad step', () => {
    assert.match(problems({ ...VALID, oracle: { steps: [{ key: 'ctrl+s', type: 'x' }] } }), /oracle\.steps\[0\]: expected exactly one action key, found key and type/);
    assert.match(problems({ ...VALID, oracle: { steps: [{ presss: 'enter' }] } }), /oracle\.steps\[0\]: expected exactly one action key, one of: key, type, waitForFocus, waitForMark, waitForText, click.*\(found presss\)/);
    assert.match(problems({ ...VALID, setup: [{ exec: ['true'], timeout: 5 }] }), /setup\[0\]: unknown field "timeout"/);
    assert.match(problems({ ...VALID, setup: [{ exec: 'make test' }] }), /setup\[0\]\.exec: Invalid input: expected array, received string/);
  });

  it('checks the screen-watching steps: waitForText, a click\'s timeoutMs, and that their regular expressions compile', () => {
    const oracle = (...steps: unknown[]) => ({ ...VALID, oracle: { steps } });
    const t = loadTask(write(oracle({ waitForText: 'tests? passed' }, { click: { text: 'Run' }, timeoutMs: 5000 })));
    assert.deepEqual(t.oracle.steps[0], { waitForText: 'tests? passed', timeoutMs: 60_000 });
    assert.match(problems(oracle({ waitForText: '(unclosed' })), /task\.json: oracle\.steps\[0\]\.waitForText: not a valid regular expression: .*Unterminated group/);
    assert.match(problems(oracle({ waitForText: '' })), /oracle\.steps\[0\]\.waitForText: Too small/);
    assert.match(problems(oracle({ waitForText: 'x', timeout: 5 })), /oracle\.steps\[0\]: unknown field "timeout"/);
    assert.match(problems(oracle({ waitForText: 'x', timeoutMs: -1 })), /oracle\.steps\[0\]\.timeoutMs: Too small/);
    assert.match(problems(oracle({ click: { text: '[a-' } })), /oracle\.steps\[0\]\.click\.text: not a valid regular expression/);
    assert.match(problems(oracle({ waitForMark: { text: '*' } })), /oracle\.steps\[0\]\.waitForMark\.text: not a valid regular expression/);
    assert.match(problems(oracle({ click: { x: 1, y: 2 }, timeoutMs: 100 })), /oracle\.steps\[0\]\.timeoutMs: a click on a point does not wait/);
    assert.doesNotThrow(() => loadTask(write({ ...VALID, oracle: { inputOnly: true, steps: [{ waitForText: 'ready' }, { key: 'enter' }] } })), 'waitForText only watches the screen: an input-only oracle may use it');
  });

  it('checks the params of an ide step against the wire protocol', () => {
    assert.match(problems({ ...VALID, oracle: { steps: [{ ide: 'ide.settings.update', params: { value: 1, target: 'global' } }] } }),
      /oracle\.steps\[0\]\.params\.key: Invalid input: expected string[\s\S]*oracle\.steps\[0\]\.params\.target: expected one of "user", "workspace", "workspaceFolder"/);
    assert.match(problems({ ...VALID, oracle: { steps: [{ ide: 'ide.nothing', params: {} }] } }), /oracle\.steps\[0\]\.ide: expected an ide\.\* method/);
  });

  it('names a bad IDE check and a bad matcher operator', () => {
    assert.match(problems({ ...VALID, evaluator: { kind: 'ide', checks: [{ setting: 'a.b', value: { $regexp: 'x' } }] } }), /evaluator\.checks\[0\]\.value\.\$regexp: unknown matcher operator/);
    assert.match(problems({ ...VALID, evaluator: { kind: 'answer', expected: 3, match: 'fuzzy' } }), /evaluator\.match: expected one of "exact", "regex", "numeric", "contains"/);
  });

  it('checks `any` checks: at least two alternatives, each a valid check, with mistakes named inside the alternative', () => {
    const ide = (...checks: unknown[]) => ({ ...VALID, evaluator: { kind: 'ide', checks } });
    const kb = (command: string) => ({ keybinding: { key: 'ctrl+alt+l', command } });
    assert.doesNotThrow(() => loadTask(write(ide({ any: [kb('a'), kb('b')] }))));
    assert.match(problems(ide({ any: [kb('a')] })), /task\.json: evaluator\.checks\[0\]\.any: Too small: expected array to have >=2 items/);
    assert.match(problems(ide({ any: [kb('a'), { keybinding: { key: 'ctrl+alt+l', comand: 'b' } }] })), /evaluator\.checks\[0\]\.any\[1\]\.keybinding: unknown field "comand"/);
    assert.match(problems(ide({ any: [kb('a'), kb('b')], scoring: 'all' })), /evaluator\.checks\[0\]: unknown field "scoring"/);
    assert.match(problems(ide({ setting: 'a.b', valu: 1 })), /evaluator\.checks\[0\]: unknown field "valu"/, 'a plain check with a typo is still reported as that check');
    assert.match(problems({ ...VALID, evaluator: { kind: 'files', checks: [{ any: [{ path: 'a', contain: ['x'] }, { path: 'b' }] }] } }), /evaluator\.checks\[0\]\.any\[0\]: unknown field "contain"/);
    assert.match(problems({ ...VALID, evaluator: { kind: 'files', checks: [{ any: [{ path: 'a', exists: true }, { path: 'b', equalsHidden: 'b' }] }] } }),
      /evaluator\.checks\[0\]\.any\[1\]\.equalsHidden: "b" needs a hidden folder, and the task has none/);
  });

  it('requires the id and suite to match the folders', () => {
    assert.match(problems({ ...VALID, id: 'y' }), /id: "y" must equal the folder name "x"/);
    assert.match(problems({ ...VALID, suite: 'other' }), /suite: "other" must equal the suite folder name "demo-suite"/);
  });

  it('checks that files the task names exist', () => {
    const msg = problems({
      ...VALID,
      workspace: 'ws',
      setup: [{ writeFile: 'a.txt', from: 'files/a.txt' }, { buildVsix: 'ext', out: 'ext.vsix' }],
      evaluator: { kind: 'diff', expected: 'expected' },
    });
    assert.match(msg, /workspace: folder "ws" not found next to task\.json/);
    assert.match(msg, /setup\[0\]\.from: "files\/a\.txt" not found in the task folder/);
    assert.match(msg, /setup\[1\]\.buildVsix: "ext\/package\.json" not found/);
    assert.match(msg, /evaluator\.expected: "expected" needs a hidden folder, and the task has none/);
  });

  it('refuses non-input steps in an oracle that must use only keyboard and mouse', () => {
    assert.match(problems({ ...VALID, oracle: { inputOnly: true, steps: [{ key: 'ctrl+s' }, { writeFile: 'a', content: '' }] } }),
      /oracle\.steps\[1\]\.writeFile: the oracle is inputOnly but this step is not keyboard or mouse input/);
  });

  it('refuses an answer in the set-up', () => {
    assert.match(problems({ ...VALID, setup: [{ answer: '42' }] }), /setup\[0\]\.answer: set-up cannot give the final answer/);
  });

  it('finds tasks by suite, by suite/id and by path, and says which suites exist', () => {
    write(VALID, 'x');
    write({ ...VALID, id: 'y' }, 'y');
    mkdirSync(join(root, 'demo-suite', '_shared'));
    writeFileSync(join(root, 'demo-suite', '_shared', 'task.json'), '{}');
    assert.deepEqual(resolveTasks(['demo-suite'], root).map((t) => t.id), ['x', 'y']);
    assert.deepEqual(resolveTasks(['demo-suite/y'], root).map((t) => t.id), ['y']);
    assert.deepEqual(resolveTasks([join(root, 'demo-suite', 'x', 'task.json')], root).map((t) => t.id), ['x']);
    assert.throws(() => resolveTasks(['nope'], root), /no task or suite by that name \(suites: demo-suite/);
  });

  it('pwp tasks lists a suite and reports every malformed task.json, not only the first', function () {
    // Two runs of the CLI: from the sources (a tree newer than its bundle) at a load of 50 on 2
    // cores, 58 s together. spawnSync holds the event loop, so this is checked only afterwards.
    this.timeout(300_000);
    write(VALID, 'x');
    write({ ...VALID, id: 'y', evaluator: { kind: 'nope' } }, 'y');
    write('{ "id": "z",', 'z');
    const r = spawnSync(join(REPO_ROOT, 'bin', 'pwp'), ['tasks', join(root, 'demo-suite')], { encoding: 'utf8' });
    assert.equal(r.status, 1, r.stderr);
    assert.match(r.stdout, /^demo-suite \(1 task\)\n {2}x {2}ide {2}Turn on auto save\.$/m);
    assert.match(r.stdout, /1 task in 1 suite; 2 task\.json files have problems/);
    assert.match(r.stderr, /demo-suite\/y\/task\.json: evaluator\.kind: expected one of/);
    assert.match(r.stderr, /demo-suite\/z\/task\.json: not valid JSON/);
    const json = spawnSync(join(REPO_ROOT, 'bin', 'pwp'), ['tasks', join(root, 'demo-suite', 'x'), '--json'], { encoding: 'utf8' });
    assert.equal(json.status, 0, json.stderr);
    const out = JSON.parse(json.stdout) as { tasks: { task: string; evaluator: string[] }[]; invalid: unknown[] };
    assert.deepEqual({ tasks: out.tasks.map((t) => [t.task, t.evaluator]), invalid: out.invalid }, { tasks: [['demo-suite/x', ['ide']]], invalid: [] });
  });
});

describe('bundled tasks', () => {
  it('all load and validate', () => {
    const suites = listSuites(TASKS_ROOT);
    assert.ok(suites.includes('vscode-config'), `suites: ${suites.join(', ')}`);
    for (const s of suites) for (const d of suiteTaskDirs(join(TASKS_ROOT, s))) loadTask(d);
  });
});
