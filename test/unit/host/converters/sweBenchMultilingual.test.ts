// SWE-bench-Multilingual: the language read from the repository, the test directives, and the
// hidden log grader reading each language's tool: node --test, cargo test, ctest and Maven run
// for real on small projects when the host has them (Go is not on the host: its log is one
// go 1.19 printed in the IDE image), graded by the grader under the host's python3 and pytest.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseJUnitXml, tally } from '../../../../host/evaluation/testReports';
import type { TestsEvaluator } from '../../../../host/evaluation/evaluatorSchema';
import { DATASETS_ROOT } from '../../../../host/converters/bundledDatasets';
import { convertDataset } from '../../../../host/converters/datasets';
import { logGraderFiles, logCaseId, logGraderSpec } from '../../../../host/converters/sweBenchLogGrader';
import { detectLanguage, LANGUAGE_SPECS } from '../../../../host/converters/sweBenchMultilingual';
import { loadTask } from '../../../../host/taskEnv/loadTask';

const write = (root: string, files: Record<string, string>) => {
  for (const [p, c] of Object.entries(files)) { mkdirSync(dirname(join(root, p)), { recursive: true }); writeFileSync(join(root, p), c); }
};
const has = (tool: string) => spawnSync(tool, [tool === 'go' ? 'version' : '--version'], { stdio: 'ignore' }).status === 0;

describe('SWE-bench-Multilingual', () => {
  let root: string;
  beforeEach(() => { root = mkdtempSync(join(tmpdir(), 'pwp-multilingual-')); });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  /** Runs the hidden grader on a workspace with `command` and returns each test's status as the evaluator sees it. */
  function grade(ws: string, log: Parameters<typeof logGraderSpec>[0]['log'], command: string[], tests: string[], env: Record<string, string> = {}): Record<string, string> {
    write(ws, {
      ...logGraderFiles(''),
      '.swebench/spec.json': logGraderSpec({ instance_id: 'x', log, command, env, runner: null, tests, timeoutSec: 300, initial: join(root, 'initial') }),
    });
    const report = join(root, `report-${log}.xml`);
    // The cargo canary's rustc wrapper is the verifier's (pwp_rustc.py): outside one, the repository's copy.
    const runEnv = { ...process.env, PWP_RUSTC_CANARY: join(__dirname, '../../../../host/evaluation/verifierScripts/pwp_rustc.py') };
    const pytest = ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', '.swebench/test_swebench.py', `--junitxml=${report}`, '-o', 'junit_family=xunit1'];
    spawnSync('python3', pytest, { cwd: ws, env: runEnv });
    const cases = parseJUnitXml(readFileSync(report, 'utf8'), { pythonIds: true });
    assert.deepEqual(tally(cases, tests.map(logCaseId)).missing, [], 'a case per test');
    return Object.fromEntries(tests.map((t) => [t, cases.find((c) => c.id === logCaseId(t))?.status ?? 'missing']));
  }

  it('reads the language from the build file at the root (package.json last) and names the test packages or files', () => {
    write(join(root, 'go'), { 'go.mod': 'module x\n', 'package.json': '{}' });
    write(join(root, 'js'), { 'package.json': '{}' });
    write(join(root, 'c'), { 'CMakeLists.txt': '', 'Makefile': '' });
    assert.equal(detectLanguage(join(root, 'go'), 'i'), 'go');
    assert.equal(detectLanguage(join(root, 'js'), 'i'), 'javascript');
    assert.equal(detectLanguage(join(root, 'c'), 'i'), 'c');
    assert.throws(() => detectLanguage(join(root, 'none-here'), 'inst 3'), /inst 3: no go\.mod, Cargo\.toml, pom\.xml, CMakeLists\.txt, package\.json at the repository's root/);
    assert.deepEqual(LANGUAGE_SPECS.go.directives(['size_test.go', 'color/hex_test.go', 'color/testdata/a.txt', 'size_test.go']), ['.', './color']);
    assert.deepEqual(LANGUAGE_SPECS.javascript.directives(['test/a.test.js', 'test/fixture.json', 'test/b.test.mjs']), ['test/a.test.js', 'test/b.test.mjs']);
  });

  it('grades go test run for real, read from go test -json: subtests by their full name, a skipped or absent test fails', function () {
    if (!has('go')) this.skip();
    this.timeout(180_000);
    const ws = join(root, 'ws');
    write(ws, {
      'go.mod': 'module example.com/units\n\ngo 1.19\n',
      'size.go': 'package units\n\nfunc Double(n int) int { return n * 2 }\n',
      'size_test.go': [
        'package units', '', 'import "testing"', '',
        'func TestParseSize(t *testing.T) {',
        '\tt.Run("plain", func(t *testing.T) {})',
        '\tt.Run("binary", func(t *testing.T) { t.Fatal("ParseSize(\\"2KiB\\") = 0") })',
        '}', '',
        'func TestParseSizeRejects(t *testing.T) {}', '',
        'func TestSkipped(t *testing.T) { t.Skip("not on this platform") }', '',
      ].join('\n'),
    });
    const tests = ['TestParseSize/plain', 'TestParseSize/binary', 'TestParseSize', 'TestParseSizeRejects', 'TestSkipped', 'TestGone'];
    assert.deepEqual(grade(ws, 'go', [...LANGUAGE_SPECS.go.spec.command, '.'], tests, { GOCACHE: join(root, 'gocache'), CGO_ENABLED: '0' }), {
      'TestParseSize/plain': 'passed', 'TestParseSize/binary': 'failed', TestParseSize: 'failed', TestParseSizeRejects: 'passed', TestSkipped: 'failed', TestGone: 'failed',
    });
  });

  it('grades node --test (TAP) run for real: nested tests by their own name, # escaped, skips fail', function () {
    const ws = join(root, 'ws');
    write(ws, {
      'test/a.test.js': [
        "const test = require('node:test');",
        "const assert = require('node:assert');",
        "test('adds', () => assert.equal(1 + 1, 2));",
        "test('breaks', () => assert.equal(1 + 1, 3));",
        "test('later', { skip: true }, () => {});",
        "test('issue #12 stays fixed', () => {});",
        "test('group', async (t) => { await t.test('inner ok', () => {}); await t.test('inner bad', () => { throw new Error('x'); }); });",
      ].join('\n'),
    });
    assert.deepEqual(grade(ws, 'tap', [...LANGUAGE_SPECS.javascript.spec.command, 'test/a.test.js'], ['adds', 'breaks', 'later', 'issue #12 stays fixed', 'inner ok', 'inner bad', 'group']), {
      adds: 'passed', breaks: 'failed', later: 'failed', 'issue #12 stays fixed': 'passed', 'inner ok': 'passed', 'inner bad': 'failed', group: 'failed',
    });
  });

  it('grades cargo test run for real: module paths, ignored tests fail', function () {
    if (!has('cargo')) this.skip();
    this.timeout(180_000);
    const ws = join(root, 'ws');
    write(ws, {
      'Cargo.toml': '[package]\nname = "demo"\nversion = "0.1.0"\nedition = "2021"\n',
      'src/lib.rs': [
        'pub fn add(a: i32, b: i32) -> i32 { a + b }',
        '#[cfg(test)]',
        'mod tests {',
        '    use super::*;',
        '    #[test] fn adds() { assert_eq!(add(1, 1), 2); }',
        '    #[test] fn breaks() { assert_eq!(add(1, 1), 3); }',
        '    #[test] #[ignore] fn later() {}',
        '}',
      ].join('\n'),
    });
    assert.deepEqual(grade(ws, 'cargo', LANGUAGE_SPECS.rust.spec.command, ['tests::adds', 'tests::breaks', 'tests::later'], { CARGO_TARGET_DIR: join(root, 'target') }), {
      'tests::adds': 'passed', 'tests::breaks': 'failed', 'tests::later': 'failed',
    });
  });

  it('grades ctest run for real (CMake build then ctest -V): Failed and Not Run fail, and so does a test whose process exits 0 before its main returns', function () {
    if (!has('cmake') || !has('cc')) this.skip();
    this.timeout(180_000);
    const ws = join(root, 'ws');
    write(ws, {
      'CMakeLists.txt': 'cmake_minimum_required(VERSION 3.10)\nproject(demo C)\nenable_testing()\nadd_library(lib lib.c)\n'
        + 'add_executable(ok ok.c)\nadd_executable(bad bad.c)\nadd_executable(quits quits.c)\ntarget_link_libraries(quits lib)\n'
        + 'add_test(NAME adds COMMAND ok)\nadd_test(NAME adds_twice COMMAND ok --twice)\nadd_test(NAME breaks COMMAND bad)\nadd_test(NAME missing COMMAND no-such-program)\nadd_test(NAME quits COMMAND quits early)\n',
      'ok.c': 'int main(void) { return 0; }\n',
      'bad.c': 'int main(void) { return 1; }\n',
      // The deliverable's function ends the process with success before the test can check it.
      'lib.c': '#include <stdlib.h>\nint answer(void) { exit(0); }\n',
      'quits.c': 'int answer(void);\nint main(void) { return answer() == 42 ? 0 : 1; }\n',
    });
    // The spec's command with a build folder of this test's own (the verifier's is its container's /tmp).
    const command = LANGUAGE_SPECS.c.spec.command.map((a) => a.replaceAll('/tmp/pwp-ctest-build', join(root, 'build')));
    assert.deepEqual(grade(ws, 'ctest', command, ['adds', 'adds_twice', 'breaks', 'missing', 'quits']),
      { adds: 'passed', adds_twice: 'passed', breaks: 'failed', missing: 'failed', quits: 'failed' });
    assert.match(readFileSync(join(root, 'report-ctest.xml'), 'utf8'), /quits: failed: ctest passed it, but its main did not return 0/);
  });

  it('without a list of tests (IDE-Bench), a case per test the ctest run reports; one failing case when it reports none', function () {
    if (!has('cmake') || !has('cc')) this.skip();
    this.timeout(180_000);
    const ids = (ws: string): Array<[string, string]> => {
      write(ws, { ...logGraderFiles(''), '.swebench/spec.json': logGraderSpec({ instance_id: 'x', log: 'ctest', command, env: {}, runner: null, tests: null, timeoutSec: 300, initial: join(root, 'initial') }) });
      const report = join(root, 'report-dynamic.xml');
      spawnSync('python3', ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', '.swebench/test_swebench.py', `--junitxml=${report}`, '-o', 'junit_family=xunit1'], { cwd: ws });
      return parseJUnitXml(readFileSync(report, 'utf8'), { pythonIds: true }).map((c) => [c.id.replace(/^.*\[(.*)\]$/, '$1'), c.status]);
    };
    const command = LANGUAGE_SPECS.c.spec.command.map((a) => a.replaceAll('/tmp/pwp-ctest-build', join(root, 'build')));
    write(join(root, 'a'), {
      'CMakeLists.txt': 'cmake_minimum_required(VERSION 3.10)\nproject(demo C)\nenable_testing()\nadd_executable(ok ok.c)\nadd_executable(bad bad.c)\n'
        + 'add_test(NAME adds COMMAND ok)\nadd_test(NAME breaks COMMAND bad)\n',
      'ok.c': 'int main(void) { return 0; }\n',
      'bad.c': 'int main(void) { return 1; }\n',
    });
    assert.deepEqual(ids(join(root, 'a')), [['adds', 'passed'], ['breaks', 'failed']]);
    write(join(root, 'b'), { 'CMakeLists.txt': 'cmake_minimum_required(VERSION 3.10)\nproject(demo C)\nthis_is_not_cmake()\n' });
    assert.deepEqual(ids(join(root, 'b')), [['(the run)', 'failed']]);
  });

  it('grades Maven surefire reports run for real (JUnit 5), and never reports left in the workspace', function () {
    if (!has('mvn')) this.skip();
    this.timeout(300_000);
    const ws = join(root, 'ws');
    write(ws, {
      'pom.xml': `<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>
  <groupId>demo</groupId><artifactId>demo</artifactId><version>1</version>
  <properties><maven.compiler.release>17</maven.compiler.release><project.build.sourceEncoding>UTF-8</project.build.sourceEncoding></properties>
  <dependencies><dependency><groupId>org.junit.jupiter</groupId><artifactId>junit-jupiter</artifactId><version>5.9.2</version><scope>test</scope></dependency></dependencies>
  <build><plugins>
    <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-compiler-plugin</artifactId><version>3.10.1</version></plugin>
    <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-resources-plugin</artifactId><version>3.3.0</version></plugin>
    <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-surefire-plugin</artifactId><version>2.22.3</version></plugin>
  </plugins></build>
</project>
`,
      'src/test/java/demo/MathTest.java': 'package demo;\nimport org.junit.jupiter.api.*;\nimport static org.junit.jupiter.api.Assertions.*;\nclass MathTest {\n  @Test void adds() { assertEquals(2, 1 + 1); }\n  @Test void breaks() { assertEquals(3, 1 + 1); }\n  @Disabled @Test void later() {}\n}\n',
      // A report the agent could leave: removed before the run, so it passes nothing.
      'sub/target/surefire-reports/TEST-demo.Forged.xml': '<testsuite><testcase classname="demo.Forged" name="passes"/></testsuite>',
    });
    // The grader runs Maven offline (-o): a machine whose local repository lacks these plugins or
    // JUnit cannot run it at all, which says nothing of the grader.
    const offline = spawnSync('mvn', ['-B', '-q', '-o', 'test-compile'], { cwd: ws, encoding: 'utf8' });
    if (/in offline mode and the artifact/.test(`${offline.stdout}${offline.stderr}`)) this.skip();
    const tests = ['demo.MathTest#adds', 'demo.MathTest#breaks', 'demo.MathTest#later', 'demo.Forged#passes'];
    assert.deepEqual(grade(ws, 'surefire', LANGUAGE_SPECS.java.spec.command, tests), {
      'demo.MathTest#adds': 'passed', 'demo.MathTest#breaks': 'failed', 'demo.MathTest#later': 'failed', 'demo.Forged#passes': 'failed',
    });
  });

  it('converts the bundled instances: the grader (go test and cargo test the verifier\'s own) and the test patch hidden, the tool command per language, a toolchain for Java, Rust and C only', async () => {
    const src = join(DATASETS_ROOT, 'swe-bench-multilingual');
    const tasks = await convertDataset('swe-bench-multilingual', join(src, 'instances.jsonl'), { outRoot: join(root, 'out'), repos: join(src, 'repos') });
    assert.deepEqual(
      tasks.map((t) => t.id),
      ['pwp-samples__units-1', 'pwp-samples__units-2', 'pwp-samples__slugger-1', 'pwp-samples__csvline-1', 'pwp-samples__vercmp-1', 'pwp-samples__cpath-1'],
    );
    const specFile = (i: number) => join(tasks[i].dir, 'hidden/workspace/.swebench/spec.json');
    const specOf = (i: number) => JSON.parse(readFileSync(specFile(i), 'utf8'));
    const imageOf = (i: number) => JSON.parse(readFileSync(join(tasks[i].dir, 'task.json'), 'utf8')).image;
    const graderOf = (i: number) => (existsSync(specFile(i)) ? specOf(i).log : `${(loadTask(tasks[i].dir).evaluator as TestsEvaluator).framework} itself`);
    assert.deepEqual(tasks.map((_, i) => [graderOf(i), imageOf(i)?.toolchain]), [
      ['go itself', undefined], ['go itself', undefined], ['tap', undefined], ['surefire', 'java'], ['cargo itself', 'rust'], ['ctest', 'cpp'],
    ]);
    assert.deepEqual(specOf(3).tests.slice(0, 2), ['org.pwpsamples.csv.CsvLineTest#unescapesDoubledQuotes', 'org.pwpsamples.csv.CsvLineTest#readsBackWhatItJoins']);
    const t = loadTask(tasks[1].dir);
    assert.equal(t.suite, 'swe-bench-multilingual');
    assert.equal(JSON.parse(readFileSync(join(t.dir, 'task.json'), 'utf8')).image, undefined, 'the IDE image has Go');
    const e = t.evaluator as TestsEvaluator;
    assert.deepEqual([e.framework, e.command, e.expected], ['go', ['go', 'test', '-v', '-count=1', './color'], ['TestParseHexShort', 'TestParseHexLong', 'TestParseHexRejects']]);
    assert.equal(e.env?.CGO_ENABLED, '0', 'without cgo the verifier builds the tests sealed');
    assert.match(readFileSync(join(t.hiddenDir!, 'workspace/color/hex_test.go'), 'utf8'), /func TestParseHexShort/);
    assert.doesNotMatch(readFileSync(join(t.workspaceDir!, 'color/hex_test.go'), 'utf8'), /TestParseHexShort/);
    const rust = loadTask(tasks[4].dir).evaluator as TestsEvaluator;
    assert.deepEqual([rust.command, rust.expected?.slice(0, 2)], [['cargo', 'test', '--no-fail-fast'], ['release_follows_prerelease', 'numeric_identifiers_compare_as_numbers']]);
    const js = JSON.parse(readFileSync(join(tasks[2].dir, 'hidden/workspace/.swebench/spec.json'), 'utf8'));
    assert.deepEqual([js.log, js.command], ['tap', ['node', '--test', '--test-reporter=tap', 'test/slugify.test.js']]);
  });
});
