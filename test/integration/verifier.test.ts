// The verifier container on its own (no IDE): it grades a workspace with its own hidden
// tests even when the agent planted a passing copy of them, it has no network, the tests
// run as the IDE user and cannot change the hidden files, and each evaluator kind that
// runs commands works in it (pytest, node --test, jest, mocha, go test, JUnit reports, a
// command, SQL).
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import sharp from 'sharp';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { bufferOf, tarOf } from '../../host/deployment/tarArchive';
import { evaluate } from '../../host/evaluation/evaluate';
import { EvaluatorSchema, type Evaluator } from '../../host/evaluation/evaluatorSchema';
import { Verifier } from '../../host/evaluation/verifier';
import { loadTask } from '../../host/taskEnv/loadTask';
import { gradeState } from '../../host/taskEnv/gradeState';
import { testImage } from './environmentFixture';

/** A tar of files as the agent container's archive of /workspace gives it (owned by the IDE user). */
function tarBuffer(files: Record<string, string | Buffer>): Promise<Buffer> {
  return bufferOf(tarOf(Object.entries(files).map(([path, content]) => ({ path: `workspace/${path}`, content }))));
}

function writeTree(root: string, files: Record<string, string>): void {
  for (const [p, c] of Object.entries(files)) { mkdirSync(dirname(join(root, p)), { recursive: true }); writeFileSync(join(root, p), c); }
}

// Suites of three tests with one failing, one per runner the image has besides pytest and
// node --test; the pytest one is read as a plain JUnit report (framework `junit`).
const JS_SUM = "module.exports = (a, b) => a + b;\n";
const TS_CONFIG = '{"compilerOptions": {"strict": true, "noEmit": true}, "files": ["a.ts"]}\n';
const JEST_TEST = "const sum = require('../sum');\ndescribe('sum', () => {\n  test('adds', () => expect(sum(1, 2)).toBe(3));\n  test('adds negatives', () => expect(sum(-1, -2)).toBe(-3));\n  test('is wrong', () => expect(sum(1, 1)).toBe(3));\n});\n";
const MOCHA_TEST = "const assert = require('node:assert/strict');\nconst sum = require('../sum');\ndescribe('sum', () => {\n  it('adds', () => assert.equal(sum(1, 2), 3));\n  it('adds negatives', () => assert.equal(sum(-1, -2), -3));\n  it('is wrong', () => assert.equal(sum(1, 1), 3));\n});\n";
const GO_SUM = 'package gosum\n\nfunc Sum(a, b int) int { return a + b }\n';
const GO_TEST = 'package gosum\n\nimport "testing"\n\nfunc TestAdds(t *testing.T) {\n\tif Sum(1, 2) != 3 {\n\t\tt.Fatal("1+2")\n\t}\n}\n\n'
  + 'func TestNegatives(t *testing.T) {\n\tif Sum(-1, -2) != -3 {\n\t\tt.Fatal("-1-2")\n\t}\n}\n\n'
  + 'func TestWrong(t *testing.T) {\n\tif got := Sum(1, 1); got != 3 {\n\t\tt.Errorf("Sum(1, 1) = %d, want 3", got)\n\t}\n}\n';
const PY_MEAN = 'def mean(xs):\n    return sum(xs) / len(xs)\n';
const PY_TEST = 'from mean import mean\n\n\nclass TestMean:\n    def test_one(self):\n        assert mean([1]) == 1\n\n    def test_two(self):\n        assert mean([1, 3]) == 2\n\n    def test_wrong(self):\n        assert mean([1, 2]) == 2\n';

const HIDDEN_TEST = 'from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n\n\ndef test_add_negative():\n    assert add(-2, -3) == -5\n';
const PLANTED = 'def test_add():\n    pass\n\n\ndef test_add_negative():\n    pass\n';

describe('verifier container', function () {
  this.timeout(300_000);
  let image: string;
  let taskDir: string;
  before(async function () {
    this.timeout(30 * 60_000);
    image = await testImage();
    taskDir = join(mkdtempSync(join(tmpdir(), 'pwp-vtask-')), 'demo', 'add');
    writeTree(taskDir, {
      'task.json': JSON.stringify({
        id: 'add', suite: 'demo', instruction: 'Implement add().',
        evaluator: { kind: 'tests', framework: 'pytest', command: ['python3', '-m', 'pytest', '-q', 'tests/test_calc_hidden.py'] },
        oracle: { steps: [{ writeFile: 'calc.py', content: 'def add(a, b):\n    return a + b\n' }] },
      }),
      'workspace/calc.py': 'def add(a, b):\n    raise NotImplementedError\n',
      'workspace/conftest.py': 'import os, sys\nsys.path.insert(0, os.path.dirname(__file__))\n',
      'hidden/workspace/tests/test_calc_hidden.py': HIDDEN_TEST,
    });
  });

  it('grades with its own hidden tests, not a passing copy the agent planted under the same name', async () => {
    const task = loadTask(taskDir);
    const wrong = { 'calc.py': 'def add(a, b):\n    return 5\n', 'conftest.py': 'import os, sys\nsys.path.insert(0, os.path.dirname(__file__))\n', 'tests/test_calc_hidden.py': PLANTED };
    const r = await gradeState(task, { image, workspaceTar: await tarBuffer(wrong) });
    assert.equal(r.score, 0, r.summary);
    assert.deepEqual(r.tests!.cases.map((c) => [c.id, c.status]), [['tests/test_calc_hidden.py::test_add', 'passed'], ['tests/test_calc_hidden.py::test_add_negative', 'failed']]);
    const right = { ...wrong, 'calc.py': 'def add(a, b):\n    return a + b\n' };
    const ok = await gradeState(task, { image, workspaceTar: await tarBuffer(right) });
    assert.equal(ok.score, 1, ok.summary);
    assert.equal(ok.tests!.passed, 2);
  });

  it('imports no module from an archive in the workspace (code the check cannot read): an add() that only a zip holds is not found and scores 0; from a .py file it scores 1', async () => {
    // A zip archive of any name on sys.path is a source of modules the parsed-code check never
    // reads (frame walkers, pytest patches): what it holds must not run, whatever it does.
    const zipDir = mkdtempSync(join(tmpdir(), 'pwp-zip-'));
    const module = 'def add(a, b):\n    return a + b\n';
    execFileSync('python3', ['-c', 'import sys, zipfile\nwith zipfile.ZipFile(sys.argv[1], "w") as z:\n    z.writestr("fastmath.py", sys.argv[2])', join(zipDir, 'assets.dat'), module]);
    const calc = 'import os, sys\nsys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "assets.dat"))\nfrom fastmath import add  # noqa\n';
    const conftest = 'import os, sys\nsys.path.insert(0, os.path.dirname(__file__))\n';
    const zipped = { 'calc.py': calc, 'assets.dat': readFileSync(join(zipDir, 'assets.dat')), 'conftest.py': conftest };
    const r = await gradeState(loadTask(taskDir), { image, workspaceTar: await tarBuffer(zipped) });
    assert.equal(r.score, 0, r.summary);
    assert.match(JSON.stringify(r), /No module named 'fastmath'/);
    const plain = await gradeState(loadTask(taskDir), { image, workspaceTar: await tarBuffer({ 'calc.py': calc, 'fastmath.py': module, 'conftest.py': conftest }) });
    assert.equal(plain.score, 1, plain.summary);
  });

  it('has no network, runs commands as the IDE user, and keeps hidden files out of their reach', async () => {
    const v = await Verifier.start({ image, labels: { 'pwp.test': '1' } });
    try {
      // The agent made tests/ (its notes there are test infrastructure and left out; the folder stays).
      await v.load({ workspaceTar: await tarBuffer({ 'a.txt': 'x', 'tests/notes.txt': 'n' }), hiddenDir: join(taskDir, 'hidden') });
      const who = await v.exec(['id', '-un']);
      assert.equal(who.stdout.trim(), 'pwp');
      const net = await v.exec(['python3', '-c', 'import socket; socket.create_connection(("1.1.1.1", 53), timeout=3)']);
      assert.notEqual(net.exitCode, 0, 'a connection out of the verifier must fail');
      const ifaces = await v.exec(['cat', '/proc/net/dev']);
      assert.deepEqual(ifaces.stdout.split('\n').slice(2).map((l) => l.trim().split(':')[0]).filter(Boolean), ['lo']);
      const overwrite = await v.exec(['bash', '-c', 'echo hacked > /workspace/tests/test_calc_hidden.py']);
      assert.notEqual(overwrite.exitCode, 0, 'the hidden test copied over the workspace is not writable by the tests');
      assert.equal((await v.readFile('/workspace/tests/test_calc_hidden.py'))!.toString(), HIDDEN_TEST);
      assert.equal((await v.readFile('/pwp/hidden/workspace/tests/test_calc_hidden.py'))!.toString(), HIDDEN_TEST);
      assert.equal((await v.exec(['touch', '/pwp/out/report.xml'])).exitCode, 0, 'reports can be written');
      // While tests run, the hidden folder is root's alone; it is given back once they are gone.
      const peek = await evaluate(EvaluatorSchema.parse({ kind: 'tests', framework: 'exitCode', command: ['cat', '/pwp/hidden/workspace/tests/test_calc_hidden.py'] }) as Evaluator, v);
      assert.equal(peek.score, 0, peek.summary);
      assert.match(peek.tests!.stderrTail ?? '', /Permission denied/);
      // And after it: the hidden folder is root's alone for the verifier's life; only a command
      // evaluator (the task's own check) reads it as the IDE user, while it runs.
      assert.notEqual((await v.exec(['cat', '/pwp/hidden/workspace/tests/test_calc_hidden.py'])).exitCode, 0, 'root\'s alone after the run too');
      const check = await evaluate(EvaluatorSchema.parse({ kind: 'command', command: ['cat', '/pwp/hidden/workspace/tests/test_calc_hidden.py'] }) as Evaluator, v);
      assert.equal(check.score, 1, check.summary);
      assert.notEqual((await v.exec(['cat', '/pwp/hidden/workspace/tests/test_calc_hidden.py'])).exitCode, 0, 'closed again after the command');
      // The folders on the way to the hidden test, which the agent had made, are root's and
      // sticky: the tests' user can add files there, not rename or remove the task's.
      assert.equal((await v.exec(['stat', '-c', '%U %a', '/workspace', '/workspace/tests'])).stdout, 'root 1777\nroot 1777\n');
      assert.notEqual((await v.exec(['mv', '/workspace/tests/test_calc_hidden.py', '/workspace/tests/x.py'])).exitCode, 0, 'not renamed');
      assert.notEqual((await v.exec(['rm', '-f', '/workspace/tests/test_calc_hidden.py'])).exitCode, 0, 'not removed');
      assert.equal((await v.exec(['touch', '/workspace/tests/build-output.txt'])).exitCode, 0, 'new files can be made');
      const timedOut = await v.exec(['sleep', '30'], { timeoutSec: 1 });
      assert.equal(timedOut.timedOut, true);
    } finally {
      await v.remove();
    }
  });

  it('runs node --test suites, commands and SQL queries', async () => {
    const v = await Verifier.start({ image, labels: { 'pwp.test': '1' } });
    const hidden = mkdtempSync(join(tmpdir(), 'pwp-vhidden-'));
    // A tiny SQLite database and a gold query, as a BIRD-style task has them.
    execFileSync('python3', ['-c', 'import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.executescript("create table t(a int, b text); insert into t values (1,\'x\'),(2,\'y\'),(3,\'y\');"); c.commit()', join(hidden, 'db.sqlite')]);
    writeFileSync(join(hidden, 'gold.sql'), "SELECT a FROM t WHERE b = 'y';\n");
    try {
      await v.load({
        workspaceTar: await tarBuffer({
          'package.json': '{"type":"module"}',
          'src/sum.ts': 'export const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);\n',
          'tests/sum.test.ts': "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { sum } from '../src/sum.ts';\ntest('sums', () => assert.equal(sum([1, 2]), 3));\ntest('fails', () => assert.equal(sum([1]), 2));\n",
          'query.sql': "select a from t where b='y' order by a desc",
          // The sqlite3 shell would read the gold query with this; SQLite's library refuses it.
          'dot.sql': '.read /pwp/hidden/gold.sql\n',
        }),
        hiddenDir: hidden,
        answer: 'SELECT 1',
      });
      const grade = (e: unknown) => evaluate(EvaluatorSchema.parse(e) as Evaluator, v);
      const node = await grade({ kind: 'tests', framework: 'node', command: ['node', '--test', 'tests/sum.test.ts'], scoring: 'passRate' });
      assert.deepEqual([node.score, node.tests!.passed, node.tests!.total], [0.5, 1, 2], node.summary);
      assert.equal((await grade({ kind: 'command', command: ['python3', '-c', 'print(6*7)'], stdout: '42' })).score, 1);
      assert.equal((await grade({ kind: 'sql', database: 'db.sqlite', gold: 'gold.sql', predicted: { file: 'query.sql' } })).score, 1);
      const wrongSql = await grade({ kind: 'sql', database: 'db.sqlite', gold: 'gold.sql', predicted: 'answer' });
      assert.equal(wrongSql.score, 0);
      assert.match(wrongSql.summary, /different results/);
      const dotCommand = await grade({ kind: 'sql', database: 'db.sqlite', gold: 'gold.sql', predicted: { file: 'dot.sql' } });
      assert.equal(dotCommand.score, 0);
      assert.match(dotCommand.summary, /the query failed: .*syntax error/, dotCommand.summary);
    } finally {
      await v.remove();
    }
  });

  it('runs jest, mocha and go test suites and reads JUnit reports, case by case', async () => {
    const v = await Verifier.start({ image, labels: { 'pwp.test': '1' } });
    const hidden = mkdtempSync(join(tmpdir(), 'pwp-vhidden-'));
    // The tests are hidden files, as a task has them: root-owned, copied over the workspace.
    writeTree(hidden, {
      'workspace/jest/sum.test.js': JEST_TEST,
      'workspace/mocha/sum.spec.js': MOCHA_TEST,
      'workspace/gosum/sum_test.go': GO_TEST,
      'workspace/py/test_mean.py': PY_TEST,
    });
    const passing = '<testsuite name="planted"><testcase classname="py.test_mean.TestMean" name="test_wrong"/></testsuite>';
    try {
      await v.load({
        workspaceTar: await tarBuffer({
          // jest looks for its configuration (package.json at least) from the folder it runs in.
          'package.json': '{"name": "suites"}',
          'sum.js': JS_SUM,
          'go.mod': 'module example.com/suites\n\ngo 1.19\n',
          'gosum/sum.go': GO_SUM,
          'py/mean.py': PY_MEAN,
          'ts/tsconfig.json': TS_CONFIG,
          'ts/a.ts': 'export const n: number = 1;\n',
          'tsbad/tsconfig.json': TS_CONFIG,
          'tsbad/a.ts': 'export const n: number = "one";\n',
          // A configuration of two projects: the canary's setup file cannot be given to either.
          'two-projects.cjs': "module.exports = { projects: ['a', 'b'].map((displayName) => ({ displayName, rootDir: __dirname, testMatch: ['<rootDir>/jest/**/*.test.js'] })) };\n",
          // Reports the agent left claiming everything passes.
          'reports/junit.xml': passing,
          'reports/stale.xml': passing,
        }),
        hiddenDir: hidden,
      });
      const grade = (e: unknown) => evaluate(EvaluatorSchema.parse(e) as Evaluator, v);
      const suites: { evaluator: Record<string, unknown>; cases: string[] }[] = [
        { evaluator: { framework: 'jest', command: ['jest', 'jest/'] }, cases: ['sum adds', 'sum adds negatives', 'sum is wrong'] },
        { evaluator: { framework: 'mocha', command: ['mocha', 'mocha/'] }, cases: ['sum adds', 'sum adds negatives', 'sum is wrong'] },
        {
          evaluator: { framework: 'go', command: ['go', 'test', './...'] },
          cases: ['example.com/suites/gosum::TestAdds', 'example.com/suites/gosum::TestNegatives', 'example.com/suites/gosum::TestWrong'],
        },
        {
          evaluator: {
            framework: 'junit',
            command: ['python3', '-m', 'pytest', '-q', '-p', 'no:cacheprovider', '--junitxml=reports/junit.xml', 'py'],
            report: 'reports/junit.xml',
          },
          cases: ['py.test_mean.TestMean::test_one', 'py.test_mean.TestMean::test_two', 'py.test_mean.TestMean::test_wrong'],
        },
      ];
      for (const { evaluator, cases } of suites) {
        const e = { kind: 'tests', ...evaluator };
        const rate = await grade({ ...e, scoring: 'passRate' });
        const why = `${String(evaluator.framework)}: ${rate.summary}\n${rate.tests?.stderrTail ?? ''}`;
        assert.deepEqual([rate.score, rate.tests!.passed, rate.tests!.total], [2 / 3, 2, 3], why);
        assert.deepEqual(rate.tests!.cases.map((c) => [c.id, c.status]), cases.map((id, i) => [id, i === 2 ? 'failed' : 'passed']), why);
        assert.equal(rate.passed, false);
        const all = await grade(e);
        assert.deepEqual([all.score, all.passed, all.tests!.passed], [0, false, 2], `${String(evaluator.framework)}: ${all.summary}`);
      }
      // jest whose configuration has two projects runs without the canary: graded, and marked unguarded by the run.
      const twoProjects = await grade({ kind: 'tests', framework: 'jest', command: ['jest', '--config', 'two-projects.cjs'], scoring: 'passRate' });
      assert.equal(twoProjects.tests!.total, 6, twoProjects.summary);
      assert.match(twoProjects.unguarded ?? '', /^jest ran without a canary: its configuration's setup files could not be read/, twoProjects.summary);
      // Expected ids (relative file::title for jest) decide alone: the failing test is not among them.
      const expected = await grade({ kind: 'tests', framework: 'jest', command: ['jest', 'jest/'], expected: ['jest/sum.test.js::sum adds', 'sum adds negatives'] });
      assert.deepEqual([expected.score, expected.passed], [1, true], expected.summary);
      // "The project type-checks": the image's own tsc.
      const typed = await grade({ kind: 'tests', framework: 'exitCode', command: ['tsc', '--noEmit', '-p', 'ts'] });
      assert.equal(typed.passed, true, typed.summary);
      const untyped = await grade({ kind: 'tests', framework: 'exitCode', command: ['tsc', '--noEmit', '-p', 'tsbad'] });
      assert.equal(untyped.passed, false, untyped.summary);
      // An exit status alone is a grading pwp cannot guard (code a command runs can end it with success): said with the result.
      assert.match(typed.unguarded ?? '', /^graded by the exit status of `tsc --noEmit -p ts` alone/);
      assert.equal(expected.unguarded, undefined, 'jest carries the canary');
      // A command that writes no report is graded on none, not on the one the agent left.
      const stale = await grade({ kind: 'tests', framework: 'junit', command: ['true'], report: 'reports/stale.xml', scoring: 'passRate' });
      assert.equal(stale.score, 0, stale.summary);
      assert.match(stale.summary, /no JUnit report at \/workspace\/reports\/stale.xml/);
      assert.match(stale.unguarded ?? '', /JUnit report its own run writes/);
    } finally {
      await v.remove();
    }
  });

  it('runs the agent\'s page and commands for an image grader where they cannot read the hidden reference', async () => {
    // A reference with shapes and colours; the agent's page shows it from the hidden folder and
    // its command copies it: with the folder readable, either would match it exactly.
    const hidden = mkdtempSync(join(tmpdir(), 'pwp-image-hidden-'));
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="150"><rect width="200" height="150" fill="#fff"/>'
      + '<rect x="10" y="10" width="80" height="60" fill="#c00"/><circle cx="140" cy="100" r="35" fill="#06c"/></svg>';
    writeFileSync(join(hidden, 'reference.png'), await sharp(Buffer.from(svg)).png().toBuffer());
    const v = await Verifier.start({ image, labels: { 'pwp.test': '1' } });
    try {
      await v.load({
        workspaceTar: await tarBuffer({
          'page.html': '<html><body style="margin:0"><img src="file:///pwp/hidden/reference.png" width="200" height="150"></body></html>',
          'copy.sh': 'cp /pwp/hidden/reference.png out.png\n',
        }),
        hiddenDir: hidden,
      });
      const imageCheck = (candidate: unknown) => EvaluatorSchema.parse({ kind: 'image', candidate, reference: 'reference.png' }) as Evaluator;
      const page = await evaluate(imageCheck({ html: 'page.html', width: 200, height: 150 }), v);
      assert.ok(page.score < 0.95, `the page showed the hidden reference: ${page.summary}`);
      const copy = await evaluate(imageCheck({ command: ['sh', 'copy.sh'], output: 'out.png' }), v);
      assert.equal(copy.score, 0, copy.summary);
      assert.match(copy.output?.stderrTail ?? '', /Permission denied/);
    } finally {
      await v.remove();
    }
  });
});
