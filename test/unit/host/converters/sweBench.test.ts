// SWE-bench: the per-repository test commands, the hidden log grader of repositories with their
// own runner (run here with the host's python3 and pytest on a runner that prints Django's and
// SymPy's log lines), per-instance Dockerfiles, and the predictions file for SWE-bench's harness.
import { strict as assert } from 'node:assert';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { agentDiff } from '../../../../host/evaluation/agentDiff';
import type { TestsEvaluator } from '../../../../host/evaluation/evaluatorSchema';
import { parseJUnitXml, tally } from '../../../../host/evaluation/testReports';
import { dockerfileProblems } from '../../../../host/imageBuild/buildTaskImage';
import { DATASETS_ROOT } from '../../../../host/converters/bundledDatasets';
import { convertDataset } from '../../../../host/converters/datasets';
import { convertSweBench, type SweInstance } from '../../../../host/converters/sweBench';
import { instanceDockerfile, readInstanceSetups } from '../../../../host/converters/sweBenchImage';
import { logGraderFiles, logCaseId, logGraderSpec } from '../../../../host/converters/sweBenchLogGrader';
import { applicablePatch, collectPredictions } from '../../../../host/converters/sweBenchPredictions';
import { sweTestSpec, testDirectives } from '../../../../host/converters/sweBenchSpecs';
import { loadTask, TASKS_ROOT } from '../../../../host/taskEnv/loadTask';

const write = (root: string, files: Record<string, string>) => {
  for (const [p, c] of Object.entries(files)) { mkdirSync(dirname(join(root, p)), { recursive: true }); writeFileSync(join(root, p), c); }
};
const gitEnv = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' };

/** A repository with one commit, and the diffs `change` makes to it (then undone). */
function repoWith(dir: string, files: Record<string, string>): { base: string; diff: (change: Record<string, string>) => string } {
  write(dir, files);
  const g = (args: string[]) => execFileSync('git', args, { cwd: dir, env: gitEnv }).toString();
  g(['init', '-q']); g(['add', '-A']); g(['commit', '-qm', 'base']);
  return {
    base: g(['rev-parse', 'HEAD']).trim(),
    diff(change) { write(dir, change); g(['add', '-N', '.']); const d = g(['diff']); g(['reset', '-q']); g(['checkout', '-q', '--', '.']); g(['clean', '-qfd']); return d; },
  };
}

describe('SWE-bench', () => {
  let root: string;
  beforeEach(() => { root = mkdtempSync(join(tmpdir(), 'pwp-swebench-')); });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('runs each repository as the harness specs do, with pytest -rA for a repository not in the table', () => {
    assert.deepEqual(sweTestSpec('pallets/flask').spec.command, ['python3', '-m', 'pytest', '-rA']);
    assert.equal(sweTestSpec('pallets/flask').note, undefined);
    assert.deepEqual(sweTestSpec('django/django', '4.0').spec.command.slice(1), ['tests/runtests.py', '--verbosity', '2', '--settings=test_sqlite', '--parallel', '1']);
    assert.ok(!sweTestSpec('django/django', '1.9').spec.command.includes('--parallel'), 'the 1.9 runner has no --parallel');
    assert.equal(sweTestSpec('sympy/sympy').spec.log, 'sympy');
    const unknown = sweTestSpec('acme/widgets');
    assert.deepEqual(unknown.spec.command, ['python3', '-m', 'pytest', '-rA']);
    assert.match(unknown.note!, /acme\/widgets: no test spec/);
    assert.deepEqual(testDirectives(sweTestSpec('django/django').spec, ['tests/forms_tests/tests/test_forms.py', 'docs/ref.txt']), ['forms_tests.tests.test_forms']);
    assert.deepEqual(testDirectives(sweTestSpec('sympy/sympy').spec, ['sympy/core/tests/test_basic.py']), ['sympy/core/tests/test_basic.py']);
  });

  it('grades a runner\'s log test by test, and refuses an edited runner', function () {
    this.timeout(300_000); // it runs python3 for real, many times: 25 s on a quiet machine
    // A repository whose runner prints Django's verbose lines (one per test, the docstring's
    // line for a test that has one) and, with --sympy, SymPy's.
    const ws = join(root, 'ws');
    write(ws, {
      'tests/runtests.py': [
        'import sys',
        'if "--sympy" in sys.argv:',
        '    print("test_expand ok\\ntest_simplify F\\ntest_slow w")',
        'else:',
        '    print("test_a (app.tests.T) ... ok", file=sys.stderr)',
        '    print("test_b (app.tests.T) ... FAIL", file=sys.stderr)',
        '    print("test_c (app.tests.T)\\nA docstring line ... ok", file=sys.stderr)',
        "    print(\"test_d (app.tests.T) ... skipped 'no db'\", file=sys.stderr)",
        'sys.exit(1)',
      ].join('\n'),
    });
    cpSync(ws, join(root, 'initial'), { recursive: true });
    const grade = (log: 'django' | 'sympy', tests: string[]) => {
      write(ws, {
        ...logGraderFiles(''),
        '.swebench/spec.json': logGraderSpec({ instance_id: 'x', log, command: ['python3', 'tests/runtests.py', ...(log === 'sympy' ? ['--sympy'] : [])], env: {}, runner: 'tests/runtests.py', tests, timeoutSec: 60, initial: join(root, 'initial') }),
      });
      const report = join(root, `report-${log}.xml`);
      spawnSync('python3', ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', '.swebench/test_swebench.py', `--junitxml=${report}`, '-o', 'junit_family=xunit1'], { cwd: ws });
      const cases = parseJUnitXml(readFileSync(report, 'utf8'), { pythonIds: true });
      // Every test has its case under the id the converter expects (none missing for the evaluator).
      assert.deepEqual(tally(cases, tests.map(logCaseId)).missing, []);
      return Object.fromEntries(tests.map((t) => [t, cases.find((c) => c.id === logCaseId(t))?.status ?? 'missing']));
    };
    assert.deepEqual(grade('django', ['test_a (app.tests.T)', 'test_b (app.tests.T)', 'A docstring line', 'test_d (app.tests.T)', 'test_e (app.tests.T)']), {
      'test_a (app.tests.T)': 'passed', 'test_b (app.tests.T)': 'failed', 'A docstring line': 'passed', 'test_d (app.tests.T)': 'failed', 'test_e (app.tests.T)': 'failed',
    });
    assert.deepEqual(grade('sympy', ['test_expand', 'test_simplify', 'test_slow']), { test_expand: 'passed', test_simplify: 'failed', test_slow: 'failed' });
    writeFileSync(join(ws, 'tests/runtests.py'), 'print("test_b (app.tests.T) ... ok")\n');
    assert.deepEqual(grade('django', ['test_b (app.tests.T)']), { 'test_b (app.tests.T)': 'failed' }, 'an edited runner passes nothing');
  });

  it('converts a Django-run instance: the log grader hidden, one expected case per test, an image with the spec\'s Debian packages', () => {
    const repo = repoWith(join(root, 'repos/django__django'), {
      'tests/runtests.py': 'print("runner")\n', 'django/utils.py': 'def f():\n    return 1\n', 'tests/utils_tests/test_f.py': 'def test_f():\n    pass\n',
    });
    const inst: SweInstance = {
      instance_id: 'django__django-1', repo: 'django/django', base_commit: repo.base, version: '4.0',
      patch: repo.diff({ 'django/utils.py': 'def f():\n    return 2\n' }),
      test_patch: repo.diff({ 'tests/utils_tests/test_f.py': 'def test_f():\n    assert 2\n' }),
      problem_statement: 'f() returns 1', FAIL_TO_PASS: JSON.stringify(['test_f (utils_tests.test_f.T)']), PASS_TO_PASS: '[]',
    };
    writeFileSync(join(root, 'in.jsonl'), `${JSON.stringify(inst)}\n`);
    const [t] = convertSweBench(join(root, 'in.jsonl'), { outRoot: join(root, 'out'), repos: join(root, 'repos') });
    const e = t.evaluator as TestsEvaluator;
    assert.deepEqual(e.expected, ['.swebench/test_swebench.py::test_result[test_f (utils_tests.test_f.T)]']);
    const spec = JSON.parse(readFileSync(join(t.hiddenDir!, 'workspace/.swebench/spec.json'), 'utf8')) as { command: string[]; runner: string };
    assert.deepEqual(spec.command, ['python3', 'tests/runtests.py', '--verbosity', '2', '--settings=test_sqlite', '--parallel', '1', 'utils_tests.test_f']);
    assert.equal(spec.runner, 'tests/runtests.py');
    // The per-instance image: loaded back through the task checks, built on the IDE image.
    assert.deepEqual(t.image, { dockerfile: 'image/Dockerfile' });
    assert.equal(t.imageSource.kind, 'build');
    const dockerfile = readFileSync(join(t.dir, 'image/Dockerfile'), 'utf8');
    assert.deepEqual(dockerfileProblems(dockerfile), []);
    assert.match(dockerfile, /python3-asgiref python3-sqlparse python3-tz/);
    assert.deepEqual(loadTask(t.dir).imageSource, t.imageSource);
  });

  it('a pytest instance runs on the IDE image unless --instance-setup names packages for it; --image names one image for all', () => {
    const repo = repoWith(join(root, 'repos/acme__calc'), { 'calc.py': 'def add(a, b):\n    return a - b\n', 'test_calc.py': 'from calc import add\n' });
    const inst: SweInstance = {
      instance_id: 'acme__calc-7', repo: 'acme/calc', base_commit: repo.base, version: '1.0',
      patch: repo.diff({ 'calc.py': 'def add(a, b):\n    return a + b\n' }),
      test_patch: repo.diff({ 'test_calc.py': 'from calc import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n' }),
      problem_statement: 'add subtracts', FAIL_TO_PASS: ['test_calc.py::test_add'], PASS_TO_PASS: [],
    };
    writeFileSync(join(root, 'in.jsonl'), `${JSON.stringify(inst)}\n`);
    const notes: string[] = [];
    const o = { outRoot: join(root, 'out'), repos: join(root, 'repos'), onNote: (n: string) => notes.push(n) };
    const [plain] = convertSweBench(join(root, 'in.jsonl'), o);
    assert.equal(plain.imageSource.kind, 'ide');
    assert.ok(!existsSync(join(plain.dir, 'image')));
    assert.deepEqual((plain.evaluator as TestsEvaluator).command, ['python3', '-m', 'pytest', '-rA', 'test_calc.py']);
    assert.deepEqual((plain.evaluator as TestsEvaluator).expected, ['test_calc.py::test_add']);
    assert.match(notes[0], /acme\/calc: no test spec/);

    writeFileSync(
      join(root, 'setup.json'),
      JSON.stringify({
        'acme/calc@1.0': { debs: ['python3-numpy'] },
        'acme__calc-7': { debs: ['python3-yaml'] },
        'acme/calc@2.0': { debs: ['python3-scipy'] },
      }),
    );
    const [setUp] = convertSweBench(join(root, 'in.jsonl'), { ...o, instanceSetups: readInstanceSetups(join(root, 'setup.json')) });
    assert.equal(setUp.imageSource.kind, 'build');
    assert.match(readFileSync(join(setUp.dir, 'image/Dockerfile'), 'utf8'), /^ {6}python3-numpy python3-yaml \\$/m);

    const [tagged] = convertSweBench(join(root, 'in.jsonl'), { ...o, image: 'my-swe:1', instanceSetups: readInstanceSetups(join(root, 'setup.json')) });
    assert.deepEqual(tagged.imageSource, { kind: 'tag', tag: 'my-swe:1' });
    assert.ok(!existsSync(join(tagged.dir, 'image')));
  });

  it('refuses a bad --instance-setup and a package name apt-get would take for an option', () => {
    writeFileSync(join(root, 'a.json'), JSON.stringify({ 'x/y': { pip: ['numpy'] } }));
    assert.throws(() => readInstanceSetups(join(root, 'a.json')), /"x\/y": unknown field pip .*nothing is installed from PyPI/);
    writeFileSync(join(root, 'b.json'), JSON.stringify({ 'x/y': { debs: ['--allow-unauthenticated'] } }));
    assert.throws(() => readInstanceSetups(join(root, 'b.json')), /"x\/y".debs must be a list of Debian package names/);
    assert.throws(() => instanceDockerfile('i', ['ok-name', 'Bad Name']), /"Bad Name" is not a Debian package name/);
  });

  it('refuses an instance without a FAIL_TO_PASS test and names it', async () => {
    const line = JSON.parse(readFileSync(join(DATASETS_ROOT, 'swe-bench/instances.jsonl'), 'utf8').split('\n')[0]) as SweInstance;
    writeFileSync(join(root, 'in.jsonl'), `${JSON.stringify({ ...line, FAIL_TO_PASS: '[]' })}\n`);
    await assert.rejects(convertDataset('swe-bench', join(root, 'in.jsonl'), { outRoot: join(root, 'out'), repos: join(DATASETS_ROOT, 'swe-bench/repos') }),
      /instance 1: FAIL_TO_PASS is empty/);
  });

  describe('predictions', () => {
    /** A bench folder's run of a bundled task, with the agent.diff grading would save. */
    async function run(bench: string, task: string, agent: string, change: (ws: string) => void, extra: Record<string, unknown> = {}): Promise<string> {
      const [suite, id] = task.split('/');
      const dir = join(bench, 'runs', suite, id, `${agent}-1`);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'result.json'), JSON.stringify({ task, suite, id, agent, attempt: 1, score: 0, passed: false, ...extra }));
      const ws = join(root, 'ws', agent, id);
      cpSync(join(TASKS_ROOT, task, 'workspace'), ws, { recursive: true });
      const before = execFileSync('tar', ['-c', '-C', ws, '.']);
      change(ws);
      writeFileSync(join(dir, 'agent.diff'), (await agentDiff(before, execFileSync('tar', ['-c', '-C', ws, '.']))).diff);
      return dir;
    }

    it('writes one line per instance with the agent\'s patch, which applies to the base commit', async () => {
      const bench = join(root, 'bench');
      await run(bench, 'swe-bench/pwp-samples__tally-2', 'cua', (ws) => {
        execFileSync('git', ['apply', join(TASKS_ROOT, 'swe-bench/pwp-samples__tally-2/oracle/gold.patch')], { cwd: ws });
        writeFileSync(join(ws, 'NOTES.md'), 'median fixed\n');
        rmSync(join(ws, 'README.md'));
        writeFileSync(join(ws, 'blob.bin'), Buffer.from([0, 1, 2]));
      }, { model: 'openai:gpt-4.1' });
      await run(bench, 'swe-bench/pwp-samples__tally-3', 'cua', () => undefined, { model: 'openai:gpt-4.1' });
      const { predictions, notes } = collectPredictions([bench]);
      assert.deepEqual(predictions.map((p) => [p.instance_id, p.model_name_or_path]), [['pwp-samples__tally-2', 'openai:gpt-4.1'], ['pwp-samples__tally-3', 'openai:gpt-4.1']]);
      assert.equal(predictions[1].model_patch, '', 'no change, an empty patch');
      assert.deepEqual(notes, ['pwp-samples__tally-2: binary files left out of the patch: blob.bin']);
      // The patch applies to the instance's repository as the harness applies it.
      const clone = join(root, 'clone');
      cpSync(join(TASKS_ROOT, 'swe-bench/pwp-samples__tally-2/workspace'), clone, { recursive: true });
      writeFileSync(join(root, 'p.diff'), predictions[0].model_patch);
      execFileSync('git', ['apply', '--verbose', join(root, 'p.diff')], { cwd: clone, stdio: 'pipe' });
      assert.match(readFileSync(join(clone, 'tally/stats.py'), 'utf8'), /ordered\[mid - 1\] \+ ordered\[mid\]/);
      assert.equal(readFileSync(join(clone, 'NOTES.md'), 'utf8'), 'median fixed\n');
      assert.ok(!existsSync(join(clone, 'blob.bin')));
      assert.ok(!existsSync(join(clone, 'README.md')), 'the deletion applied');
      assert.equal(collectPredictions([bench], { modelName: 'mine' }).predictions[0].model_name_or_path, 'mine');
    });

    it('asks which agent when a bench holds baselines, and leaves out tasks that are not SWE-bench\'s', async () => {
      const bench = join(root, 'bench');
      await run(bench, 'swe-bench/pwp-samples__tally-1', 'cua', () => undefined);
      await run(bench, 'swe-bench/pwp-samples__tally-1', 'null', () => undefined);
      await run(bench, 'swt-bench/pwp-samples__textkit-1', 'cua', () => undefined);
      await run(bench, 'swe-bench-mm/pwp-samples__swatch-2', 'cua', () => undefined);
      assert.throws(() => collectPredictions([bench]), /several agents \(cua, null\): choose one with --agent/);
      const { predictions, notes } = collectPredictions([bench], { agent: 'cua' });
      assert.deepEqual(predictions.map((p) => p.instance_id).sort(), ['pwp-samples__swatch-2', 'pwp-samples__tally-1'], 'SWE-bench Multimodal\'s too');
      assert.deepEqual(notes, ['swt-bench/pwp-samples__textkit-1: not a SWE-bench task, left out']);
      assert.throws(() => collectPredictions([bench], { agent: 'cua', tasks: ['swt-bench', 'swe-bench-mm'] }), /its task swe-bench\/pwp-samples__tally-1 is not among the tasks given/);
    });

    it('drops binary entries and keeps the text ones around them', () => {
      const text = 'diff --git a/a.py b/a.py\n--- a/a.py\n+++ b/a.py\n@@ -1 +1 @@\n-x\n+y\nBinary files a/img one.png and b/img one.png differ\ndiff --git a/b.py b/b.py\n--- /dev/null\n+++ b/b.py\n@@ -0,0 +1 @@\n+z\n';
      const { patch, binary } = applicablePatch(text);
      assert.deepEqual(binary, ['img one.png']);
      assert.equal(patch, text.replace('Binary files a/img one.png and b/img one.png differ\n', '').replace('diff --git a/b.py b/b.py\n', 'diff --git a/b.py b/b.py\nnew file mode 100644\n'));
    });
  });
});
