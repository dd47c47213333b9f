// The graders of the converted dataset families, in a real verifier, on states an agent could
// leave: an honest answer unlike the oracle's passes, and the cheap ways around each benchmark's
// check score 0 (SWT-Bench tests that keep state between runs or read the grader's files,
// CanItEdit and RES-Q programs that exit before the tests end, a module shadowing the standard
// library).
import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bufferOf, tarOf } from '../../host/deployment/tarArchive';
import { readTreeFiles } from '../../host/converters/bundledDatasets';
import type { MetricComponent } from '../../host/evaluation/evaluationResult';
import { gradeState } from '../../host/taskEnv/gradeState';
import { loadTask, TASKS_ROOT } from '../../host/taskEnv/loadTask';
import { testImage } from './environmentFixture';
import { inParallel } from './taskBaselines';

function tarBuffer(files: Map<string, string | Buffer>): Promise<Buffer> {
  return bufferOf(tarOf([...files].map(([path, content]) => ({ path: `workspace/${path}`, content }))));
}

/** Grades the task's workspace with `changes` applied (null deletes a file). */
async function grade(image: string, name: string, changes: Record<string, string | null>) {
  const task = loadTask(join(TASKS_ROOT, name));
  const initial = readTreeFiles(task.workspaceDir!);
  const final = new Map<string, string | Buffer>(initial);
  for (const [p, c] of Object.entries(changes)) if (c === null) final.delete(p); else final.set(p, c);
  return gradeState(task, { image, workspaceTar: await tarBuffer(final), initialTar: await tarBuffer(initial) });
}

const SLUG_TEST = 'from textkit.slug import slugify\n\n\ndef test_spaces_and_commas():\n    assert slugify("a , b") == "a-b"\n';
// Fails on its first run only: with three runs of each state, a later run of the original code passes, whatever the order.
const STATEFUL = 'import os\n\n\ndef test_state():\n    marker = "/pwp/out/swt-state"\n    if os.path.exists(marker):\n        return\n    open(marker, "w").close()\n    assert False\n';
// Notices that the patched file changed (its hash against the original's, through another
// process) instead of reproducing the issue: it fails on the original and passes after any change.
const detectsChange = () => {
  const original = createHash('sha1').update(readFileSync(join(loadTask(join(TASKS_ROOT, 'swt-bench/pwp-samples__textkit-1')).workspaceDir!, 'textkit/slug.py'))).digest('hex');
  return `import subprocess\n\n\ndef test_changed():\n    assert subprocess.run(["sha1sum", "textkit/slug.py"], capture_output=True, text=True).stdout.split()[0] != "${original}"\n`;
};
const PEEKS_GRADER = 'import pathlib\n\n\ndef test_fixed():\n    assert "+" in pathlib.Path("textkit/slug.py").read_text() or not pathlib.Path("/pwp/swt").exists()\n';

describe('dataset family graders in a real verifier', function () {
  this.timeout(20 * 60_000);
  const results = new Map<string, { score: number; summary: string; components?: MetricComponent[] }>();
  const cases: [string, string, Record<string, string | null>][] = [
    ['swt honest', 'swt-bench/pwp-samples__textkit-1', { 'tests/test_mine.py': SLUG_TEST }],
    ['swt stateful', 'swt-bench/pwp-samples__textkit-1', { 'tests/test_mine.py': STATEFUL }],
    ['swt peeks', 'swt-bench/pwp-samples__textkit-1', { 'tests/test_mine.py': PEEKS_GRADER }],
    ['swt detects a change', 'swt-bench/pwp-samples__textkit-1', { 'tests/test_mine.py': detectsChange() }],
    ['swt fixes the code instead', 'swt-bench/pwp-samples__textkit-1', { 'textkit/slug.py': 'import re\n\n\ndef slugify(text):\n    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")\n' }],
    ['canitedit early exit', 'canitedit/1_stack_peek', { 'main.py': 'import sys\nsys.exit(0)\n' }],
    ['canitedit honest', 'canitedit/1_stack_peek', { 'main.py': 'class Stack(list):\n    def push(self, x):\n        self.append(x)\n\n    def peek(self):\n        return self[-1]\n' }],
    ['res-q early exit', 'res-q/0_0', { 'todo/__init__.py': 'import sys\nsys.exit(0)\n' }],
    ['res-q shadowed unittest', 'res-q/0_0', { 'unittest.py': 'import sys\n\n\nclass TestCase:\n    pass\n\n\ndef main(exit=False):\n    class R:\n        result = type("x", (), {"wasSuccessful": lambda self: True})()\n    return R\n' }],
  ];

  before(async function () {
    this.timeout(30 * 60_000);
    const image = await testImage();
    await inParallel(cases, 2, async ([label, task, changes]) => {
      const r = await grade(image, task, changes);
      results.set(label, { score: r.score, summary: r.summary, components: r.components });
    });
  });

  const expect: Record<string, [number, RegExp?]> = {
    'swt honest': [1],
    'swt stateful': [0],
    'swt peeks': [0, /[01]\/3/],
    // Refused either way: it names the file to another process (the hook), or, past that, the decoy passes it.
    'swt detects a change': [0, /^[0-2]\/3 tests pass/],
    'swt fixes the code instead': [0, /0\/3/],
    'canitedit early exit': [0],
    'canitedit honest': [1],
    'res-q early exit': [0],
    'res-q shadowed unittest': [0],
  };
  // SWT-Bench's published metrics, reported beside the score (the gold patch changes one executable line, run by the honest test).
  const metrics: Record<string, [number, number, number]> = {
    'swt honest': [1, 1, 1],
    'swt detects a change': [1, 0, 0],
    'swt fixes the code instead': [0, 0, 0],
  };
  for (const [label, [applicability, failToPass, coverage]] of Object.entries(metrics)) {
    it(`${label}: reports applicability ${applicability}, fail-to-pass ${failToPass}, change coverage ${coverage}`, () => {
      const r = results.get(label);
      assert.ok(r, 'not graded');
      assert.deepEqual(r.components, [
        { name: 'applicability', value: applicability }, { name: 'fail-to-pass', value: failToPass }, { name: 'change coverage', value: coverage },
      ], r.summary);
      assert.match(r.summary, new RegExp(`SWT-Bench: applicability ${applicability}\\.000, fail-to-pass ${failToPass}\\.000, change coverage ${coverage}\\.000`));
    });
  }
  for (const [label, [score, summary]] of Object.entries(expect)) {
    it(`${label}: scores ${score}`, () => {
      const r = results.get(label);
      assert.ok(r, 'not graded');
      assert.equal(r.score, score, r.summary);
      if (summary) assert.match(r.summary, summary);
    });
  }
});
