// The per-run canary and the equality checks in a real verifier container (canary.ts,
// docs/grading-canary.md): runners impersonated from inside the test process (a Go init()
// that prints passes and exits 0) and values whose own coercion answers for the expected value
// score 0 with the reason; honest solutions of the same suites still score 1, the canary's
// tests never among the counted cases. Python's report-writing exit handler and always-equal
// subclasses are replayed in a task's own environment (verifierTampering.test.ts).
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { bufferOf, tarOf } from '../../host/deployment/tarArchive';
import { evaluate } from '../../host/evaluation/evaluate';
import type { EvaluationResult } from '../../host/evaluation/evaluationResult';
import { EvaluatorSchema, type Evaluator } from '../../host/evaluation/evaluatorSchema';
import { Verifier } from '../../host/evaluation/verifier';
import { testImage } from './environmentFixture';

function tarBuffer(files: Record<string, string>): Promise<Buffer> {
  return bufferOf(tarOf(Object.entries(files).map(([path, content]) => ({ path: `workspace/${path}`, content }))));
}
function writeTree(root: string, files: Record<string, string>): void {
  for (const [p, c] of Object.entries(files)) { mkdirSync(dirname(join(root, p)), { recursive: true }); writeFileSync(join(root, p), c); }
}
const show = (r: EvaluationResult) => `${r.summary}\n${r.tests?.stdoutTail ?? ''}\n${r.tests?.stderrTail ?? ''}`;
/** No case of the result is one the grader added: the three real ones only. */
const ids = (r: EvaluationResult) => r.tests!.cases.map((c) => c.id);

const GO_SUM_WRONG = 'package gosum\n\nfunc Sum(a, b int) int { return 0 }\n';
const GO_SUM = 'package gosum\n\nfunc Sum(a, b int) int { return a + b }\n';
const GO_TEST = 'package gosum\n\nimport "testing"\n\n'
  + 'func TestAdds(t *testing.T) {\n\tif Sum(1, 2) != 3 {\n\t\tt.Fatal("1+2")\n\t}\n}\n\n'
  + 'func TestNegatives(t *testing.T) {\n\tif Sum(-1, -2) != -3 {\n\t\tt.Fatal("-1-2")\n\t}\n}\n\n'
  + 'func TestZero(t *testing.T) {\n\tif Sum(0, 0) != 0 {\n\t\tt.Fatal("0+0")\n\t}\n}\n';
// The trick: a new file whose init() runs before any test, prints a pass for each
// hidden test (names built from pieces, as a pattern check would miss them) and exits 0.
const GO_INIT = `package gosum

import (
\t"fmt"
\t"syscall"
)

func init() {
\tfor _, n := range []string{"Adds", "Negatives", "Zero"} {
\t\tfmt.Printf("=== RUN   T%s\\n--- PASS: T%s (0.00s)\\n", "est"+n, "est"+n)
\t}
\tfmt.Println("PASS")
\tsyscall.Exit(0)
}
`;
// A filter spliced between the test binary and go test: stdout goes through sed, which turns the
// FAIL lines of the tests it finds in the package's files into PASS; the canary's own test
// (in the overlay, not on disk) is left as it is.
const GO_FILTER = `package gosum

import (
\t"os"
\t"os/exec"
\t"path/filepath"
\t"regexp"
\t"strings"
\t"syscall"
)

func init() {
\tfiles, _ := filepath.Glob("*_test.go")
\tvar names []string
\tfor _, f := range files {
\t\tsrc, _ := os.ReadFile(f)
\t\tfor _, m := range regexp.MustCompile(\`func (Test\\w+)\\(\`).FindAllStringSubmatch(string(src), -1) {
\t\t\tnames = append(names, m[1])
\t\t}
\t}
\tdash := "-" + "--"
\tscript := "s/" + dash + " FA" + "IL: \\\\(" + strings.Join(names, "\\\\|") + "\\\\)\\\\([/ ]\\\\)/" + dash + " PA" + "SS: \\\\1\\\\2/"
\torig, _ := syscall.Dup(1)
\tr, w, _ := os.Pipe()
\tcmd := exec.Command("sed", "-u", script)
\tcmd.Stdin = r
\tcmd.Stdout = os.NewFile(uintptr(orig), "out")
\tcmd.Stderr = os.Stderr
\tif cmd.Start() != nil {
\t\treturn
\t}
\tr.Close()
\tsyscall.Dup2(int(w.Fd()), 1)
\tw.Close()
}
`;
const MOCHA_TEST = "const assert = require('node:assert/strict');\nconst sum = require('../sum');\ndescribe('sum', () => {\n  it('adds', () => assert.equal(sum(1, 2), 3));\n  it('adds negatives', () => assert.equal(sum(-1, -2), -3));\n});\n";
const NODE_TEST = "const { test } = require('node:test');\nconst assert = require('node:assert');\nconst sum = require('../sum');\ntest('adds', () => assert.equal(sum(1, 2), 3));\ntest('adds negatives', () => assert.equal(sum(-1, -2), -3));\n";

describe('grading canary: runners that cannot be impersonated (verifier container)', function () {
  this.timeout(600_000);
  let image: string;
  before(async function () {
    this.timeout(30 * 60_000);
    image = await testImage();
  });

  async function withVerifier<T>(
    hiddenFiles: Record<string, string>, workspace: Record<string, string>, fn: (grade: (e: unknown) => Promise<EvaluationResult>) => Promise<T>,
  ): Promise<T> {
    const v = await Verifier.start({ image, labels: { 'pwp.test': '1' } });
    const hidden = mkdtempSync(join(tmpdir(), 'pwp-canary-'));
    writeTree(hidden, hiddenFiles);
    try {
      await v.load({ workspaceTar: await tarBuffer(workspace), hiddenDir: hidden, rules: { restore: [], agentFiles: [], commandFiles: [] } });
      return await fn((e) => evaluate(EvaluatorSchema.parse(e) as Evaluator, v));
    } finally {
      await v.remove();
    }
  }

  it('go test: an honest solution scores 1 without the canary among its cases; an init() that prints passes and exits 0, or that pipes the output through sed, scores 0', async () => {
    const go = { kind: 'tests', framework: 'go', command: ['go', 'test', './...'] };
    // go.mod is the task's (test definitions are infrastructure): it comes with the hidden files.
    const base = {};
    const hidden = { 'workspace/gosum/sum_test.go': GO_TEST, 'workspace/go.mod': 'module example.com/suites\n\ngo 1.19\n' };
    await withVerifier(hidden, { ...base, 'gosum/sum.go': GO_SUM }, async (grade) => {
      const r = await grade(go);
      assert.equal(r.score, 1, show(r));
      assert.deepEqual(ids(r), ['example.com/suites/gosum::TestAdds', 'example.com/suites/gosum::TestNegatives', 'example.com/suites/gosum::TestZero'], show(r));
      assert.equal(r.tests!.exitCode, 1, "the canary's failing test ran in the package's test binary");
    });
    await withVerifier(hidden, { ...base, 'gosum/sum.go': GO_SUM_WRONG, 'gosum/zz_init.go': GO_INIT }, async (grade) => {
      const r = await grade(go);
      assert.equal(r.score, 0, show(r));
      assert.equal(r.tests!.passed, 3, `the forged passes are in the report: ${show(r)}`);
      assert.match(r.summary, /tampering suspected: .*the report lacks the canary test Test\w+ that must have passed/, show(r));
      assert.match(r.tampering!.reason, /must have failed/);
    });
    await withVerifier(hidden, { ...base, 'gosum/sum.go': GO_SUM_WRONG, 'gosum/zz_out.go': GO_FILTER }, async (grade) => {
      const r = await grade(go);
      assert.equal(r.score, 0, show(r));
      assert.match(r.summary, /tampering suspected: .*the canary test Test\w+ that must have passed/, show(r));
    });
    // The same package with the wrong sum and no trick: an ordinary failure, not tampering.
    await withVerifier(hidden, { ...base, 'gosum/sum.go': GO_SUM_WRONG }, async (grade) => {
      const r = await grade(go);
      assert.deepEqual([r.score, r.tampering], [0, undefined], show(r));
    });
  });

  it('jest: an honest suite scores 1 with the canary in every test file, after the task\'s own setup file; a report rewritten at exit scores 0', async () => {
    const hidden = { 'workspace/sum.test.js': JEST_TEST, 'workspace/more.test.js': JEST_MORE, 'workspace/setup.js': 'globalThis.three = 3;\n',
      'workspace/package.json': JSON.stringify({ name: 's', jest: { testEnvironment: 'node', setupFilesAfterEnv: ['<rootDir>/setup.js'] } }) };
    const jest = { kind: 'tests', framework: 'jest', command: ['npx', 'jest'] };
    await withVerifier(hidden, { 'sum.js': 'module.exports = (a, b) => a + b;\n' }, async (grade) => {
      const r = await grade(jest);
      assert.equal(r.score, 1, show(r));
      assert.deepEqual(ids(r).sort(), ['sum adds', 'sum adds negatives', 'sum uses the setup'], show(r));
      assert.equal(r.tests!.exitCode, 1, "jest counted the canary's failures");
    });
    // The report jest wrote is replaced, when the process ends, by one where every test passed
    // (one test file: jest runs it in its own process, where the exit handler is).
    const forger = "const fs = require('fs');\nmodule.exports = () => 0;\nprocess.on('exit', () => {\n"
      + "  const out = process.argv.find((a) => a.startsWith('--outputFile='));\n  if (!out) return;\n  const f = out.split('=')[1];\n"
      + "  const r = JSON.parse(fs.readFileSync(f, 'utf8'));\n  for (const t of r.testResults) { t.status = 'passed'; t.assertionResults = t.assertionResults.filter((a) => a.title.startsWith('adds') || a.title.startsWith('uses')).map((a) => ({ ...a, status: 'passed' })); }\n"
      + "  fs.writeFileSync(f, JSON.stringify(r));\n});\n";
    await withVerifier(hidden, { 'sum.js': forger }, async (grade) => {
      const r = await grade({ ...jest, command: ['npx', 'jest', 'sum.test.js'] });
      assert.equal(r.score, 0, show(r));
      assert.match(r.summary, /tampering suspected/, show(r));
    });
  });

  it('mocha and node --test: honest suites score 1 with the canary run beside them; an object answering node:assert.equal for a number scores 0', async () => {
    const hidden = { 'workspace/mocha/sum.spec.js': MOCHA_TEST, 'workspace/node/sum.test.js': NODE_TEST };
    await withVerifier(hidden, { 'sum.js': 'module.exports = (a, b) => a + b;\n' }, async (grade) => {
      const mocha = await grade({ kind: 'tests', framework: 'mocha', command: ['mocha', 'mocha/'] });
      assert.equal(mocha.score, 1, show(mocha));
      assert.deepEqual(ids(mocha), ['sum adds', 'sum adds negatives']);
      assert.equal(mocha.tests!.exitCode, 1, "mocha counted the canary's failure");
      const node = await grade({ kind: 'tests', framework: 'node', command: ['node', '--test', 'node/sum.test.js'] });
      assert.equal(node.score, 1, show(node));
      assert.deepEqual(ids(node), ['adds', 'adds negatives']);
    });
    // valueOf computes the sum only when compared: an object stands in for the number.
    await withVerifier(hidden, { 'sum.js': 'module.exports = (a, b) => ({ valueOf: () => a + b });\n' }, async (grade) => {
      const node = await grade({ kind: 'tests', framework: 'node', command: ['node', '--test', 'node/sum.test.js'] });
      assert.equal(node.score, 0, show(node));
      assert.match(node.summary, /tampering suspected: equality answered by the deliverable: .*equal: the value is an object found equal to the number 3/, show(node));
    });
  });
});

const JEST_TEST = "const sum = require('./sum');\ndescribe('sum', () => {\n  test('adds', () => expect(sum(1, 2)).toBe(3));\n  test('adds negatives', () => expect(sum(-1, -2)).toBe(-3));\n});\n";
const JEST_MORE = "const sum = require('./sum');\ndescribe('sum', () => {\n  test('uses the setup', () => expect(sum(1, 2)).toBe(globalThis.three));\n});\n";
