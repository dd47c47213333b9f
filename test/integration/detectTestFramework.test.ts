// The commands test-framework detection gives (host/evaluation/detectTestFramework.ts), run by
// the verifier's isolated runner in the IDE image on IDE-Bench-style test files
// (tasks/task-N/task_tests.*, which no runner picks up by its default patterns): each reports
// its cases one by one. Which framework a tree shows is unit-tested (test/unit/.../detectTestFramework.test.ts).
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { bufferOf, tarOf } from '../../host/deployment/tarArchive';
import { testCommand, type DetectedFramework } from '../../host/evaluation/detectTestFramework';
import { evaluate } from '../../host/evaluation/evaluate';
import { EvaluatorSchema, type Evaluator } from '../../host/evaluation/evaluatorSchema';
import { Verifier } from '../../host/evaluation/verifier';
import { testImage } from './environmentFixture';

const tarBuffer = (files: Record<string, string>) => bufferOf(tarOf(Object.entries(files).map(([p, content]) => ({ path: `workspace/${p}`, content, mode: 0o644 }))));

describe('detected test commands in the verifier', function () {
  this.timeout(10 * 60_000);
  let image: string;
  before(async function () { this.timeout(30 * 60_000); image = await testImage(); });

  it('pytest, jest, mocha and go each run the task\'s test file and report every case', async () => {
    const hidden = mkdtempSync(join(tmpdir(), 'pwp-detect-hidden-'));
    const tests: Record<string, string> = {
      'tasks/task-1/task_tests.py': 'from calc import add\n\n\ndef test_adds():\n    assert add(2, 3) == 5\n\n\ndef test_wrong():\n    assert add(2, 2) == 5\n',
      'tasks/task-2/task_tests.js': 'const { add } = require("../../calc");\ntest("adds", () => { expect(add(2, 3)).toBe(5); });\ntest("wrong", () => { expect(add(2, 2)).toBe(5); });\n',
      'tasks/task-3/task_tests.js': 'const assert = require("node:assert");\nconst { add } = require("../../calc");\ndescribe("add", () => {\n  it("adds", () => assert.equal(add(2, 3), 5));\n  it("wrong", () => assert.equal(add(2, 2), 5));\n});\n',
      'calc/calc_test.go': 'package calc\n\nimport "testing"\n\nfunc TestAdds(t *testing.T) { if Add(2, 3) != 5 { t.Fatal("2+3") } }\n\nfunc TestWrong(t *testing.T) { if Add(2, 2) != 5 { t.Fatal("2+2") } }\n',
    };
    for (const [p, c] of Object.entries(tests)) { mkdirSync(dirname(join(hidden, 'workspace', p)), { recursive: true }); writeFileSync(join(hidden, 'workspace', p), c); }
    const v = await Verifier.start({ image, labels: { 'pwp.test': '1' } });
    try {
      await v.load({
        workspaceTar: await tarBuffer({
          'package.json': '{"name": "calc"}',
          'calc.py': 'def add(a, b):\n    return a + b\n',
          'calc.js': 'exports.add = (a, b) => a + b;\n',
          'go.mod': 'module example.com/calc\n\ngo 1.19\n',
          'calc/calc.go': 'package calc\n\nfunc Add(a, b int) int { return a + b }\n',
        }),
        hiddenDir: hidden,
      });
      const runs: [DetectedFramework, string][] = [
        ['pytest', 'tasks/task-1/task_tests.py'],
        ['jest', 'tasks/task-2/task_tests.js'],
        ['mocha', 'tasks/task-3/task_tests.js'],
        ['go', 'calc/calc_test.go'],
      ];
      for (const [fw, file] of runs) {
        const e = EvaluatorSchema.parse({ kind: 'tests', ...testCommand(fw, [file]), scoring: 'passRate' }) as Evaluator;
        const r = await evaluate(e, v);
        assert.deepEqual([r.tests?.passed, r.tests?.total, r.score, r.tampering], [1, 2, 0.5, undefined], `${fw}: ${r.summary}\n${r.tests?.stdoutTail ?? ''}\n${r.tests?.stderrTail ?? ''}`);
      }
    } finally {
      await v.remove();
      rmSync(hidden, { recursive: true, force: true });
    }
  });
});
