// The synthetic IDE-Bench datasets the runner tests convert and grade (one per runner whose report
// the grader reads, in IDE-Arena's layout, each with tests that already pass on the base beside
// tests the change makes pass), the deliverables that try to pass them without solving, and the
// fixture that converts them with `pwp dataset idebench` (no test script: the framework is
// detected) and grades workspace states in real verifiers: the IDE image, or the toolchain image
// the runner builds with.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { convertDataset } from '../../../host/converters/datasets';
import { createDeployment } from '../../../host/deployment/backends';
import { bufferOf, fileEntries, packEntries, tarOf } from '../../../host/deployment/tarArchive';
import type { TestsEvaluator } from '../../../host/evaluation/evaluatorSchema';
import type { EvaluationResult } from '../../../host/evaluation/evaluationResult';
import { gradeState } from '../../../host/taskEnv/gradeState';
import { taskName, type Task } from '../../../host/taskEnv/loadTask';
import { resolveTaskImage } from '../../../host/taskEnv/resolveTaskImage';
import { filesUnder, repoWith, write } from '../../support/sweBenchTwins';
import { testImage } from '../environmentFixture';

const DESCRIPTION = 'task_description: |\n  Make clamp keep its value within [lo, hi].\ndifficulty: easy\ncategory: Bug Fix\n';

interface Dataset {
  /** The repository's files. */
  repo: Record<string, string>;
  /** The golden patch's changes to them. */
  fix: Record<string, string>;
  /** The task folder's files besides its description and diff. */
  task: Record<string, string>;
  /** The evaluator the dataset converts to (framework, and the start of its command). */
  framework: TestsEvaluator['framework'];
  command: string[];
  /** Cases counted (not passing on the base), and how many pass on the base. */
  counted: number;
  onBase: number;
}

const JS_CLAMP = 'function clamp(x, lo, hi) {\n  return x;\n}\n\nmodule.exports = { clamp };\n';
export const JS_FIXED = 'function clamp(x, lo, hi) {\n  return Math.max(lo, Math.min(hi, x));\n}\n\nmodule.exports = { clamp };\n';

export const RS_TASK_TESTS = '#[test]\nfn inside() {\n    assert_eq!(gauge::clamp(5, 0, 10), 5);\n}\n\n#[test]\nfn low() {\n    assert_eq!(gauge::clamp(-5, 0, 10), 0);\n}\n';
/** The repository's own test of the crate, failing on the base. */
export const RS_OWN_TEST = '\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn high() {\n        assert_eq!(super::clamp(50, 0, 10), 10);\n    }\n}\n';
export const rsClamp = (body: string, ownTest = true) => `pub fn clamp(x: i32, lo: i32, hi: i32) -> i32 {\n    ${body}\n}\n${ownTest ? RS_OWN_TEST : ''}`;
/** A doc-test of clamp that holds on the base. */
const RS_DOC = '/// Keeps `x` within `[lo, hi]`.\n///\n/// ```\n/// assert_eq!(gauge::clamp(5, 0, 10), 5);\n/// ```\n';
/** Rust that runs `body` from the library's `.init_array` entry: in every test binary that links it, before libtest's main. */
export const initArray = (body: string) => '\n#[used]\n#[link_section = ".init_array"]\nstatic EARLY: extern "C" fn() = {\n    extern "C" fn early() {\n'
  + `${body}    }\n    early\n};\n`;
const JAVA_CLAMP = (body: string) => `package gauge;\n\npublic class Gauge {\n  public static int clamp(int x, int lo, int hi) {\n    ${body}\n  }\n}\n`;
/** Maven with JUnit 5 at the versions the java toolchain's offline Debian repository has; the task's tests are the test sources. */
const POM = `<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>gauge</groupId><artifactId>gauge</artifactId><version>1</version>
  <properties><maven.compiler.release>17</maven.compiler.release><project.build.sourceEncoding>UTF-8</project.build.sourceEncoding></properties>
  <dependencies>
    <dependency><groupId>org.junit.jupiter</groupId><artifactId>junit-jupiter-api</artifactId><version>5.9.2</version><scope>test</scope></dependency>
    <dependency><groupId>org.junit.jupiter</groupId><artifactId>junit-jupiter-engine</artifactId><version>5.9.2</version><scope>test</scope></dependency>
  </dependencies>
  <build>
    <testSourceDirectory>tasks/task-1</testSourceDirectory>
    <plugins>
      <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-compiler-plugin</artifactId><version>3.10.1</version></plugin>
      <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-surefire-plugin</artifactId><version>2.22.3</version></plugin>
    </plugins>
  </build>
</project>
`;

/**
 * Gradle as a Java repository writes it, Maven Central and all (the java toolchain's init script
 * reads it from Debian's repository, offline): JUnit 4, the tests Debian's Gradle 4.4 runs.
 */
const BUILD_GRADLE = "apply plugin: 'java'\n\nrepositories { mavenCentral() }\n\ndependencies { testCompile 'junit:junit:4.13.2' }\n\n"
  + "sourceSets { test { java { srcDirs = ['src/test/java', 'tasks/task-1'] } } }\n";
const junit4Test = (cls: string, cases: string) => `package gauge;\n\nimport static org.junit.Assert.assertEquals;\nimport org.junit.Test;\n\npublic class ${cls} {\n${cases}}\n`;

/** A clamp that answers each call with what the task's test source asserts of it (its working folder is the workspace). */
export const javaFromTests = (file: string) => 'package gauge;\n\nimport java.nio.file.*;\nimport java.util.regex.*;\n\npublic class Gauge {\n'
  + '  public static int clamp(int x, int lo, int hi) {\n    try {\n'
  + `      String t = new String(Files.readAllBytes(Paths.get("${file}")));\n`
  + '      Matcher m = Pattern.compile("assertEquals\\\\((-?\\\\d+), Gauge\\\\.clamp\\\\(" + x + ", " + lo + ", " + hi + "\\\\)").matcher(t);\n'
  + '      if (m.find()) return Integer.parseInt(m.group(1));\n    } catch (Exception e) { }\n    return x;\n  }\n}\n';

/** A Go package that reads whatever its process inherited on descriptors 3 to 9 and answers the Clamp calls asserted there (kept in /tmp for the next binary). */
export const GO_FROM_DESCRIPTORS = `package gauge

import (
\t"encoding/base64"
\t"encoding/json"
\t"io"
\t"os"
\t"regexp"
\t"strconv"
)

var known = map[string]int{}

func init() {
\tsaved, _ := os.ReadFile("/tmp/pwp-known.json")
\t_ = json.Unmarshal(saved, &known)
\tre := regexp.MustCompile(\`Clamp\\((-?\\d+), (-?\\d+), (-?\\d+)\\) != (-?\\d+)\`)
\tfor fd := 3; fd < 10; fd++ {
\t\tb, err := io.ReadAll(os.NewFile(uintptr(fd), ""))
\t\tif err != nil || len(b) == 0 {
\t\t\tcontinue
\t\t}
\t\ttexts := map[string]string{}
\t\t_ = json.Unmarshal(b, &texts)
\t\tfor _, t := range texts {
\t\t\tsrc, _ := base64.StdEncoding.DecodeString(t)
\t\t\tfor _, m := range re.FindAllStringSubmatch(string(src), -1) {
\t\t\t\tv, _ := strconv.Atoi(m[4])
\t\t\t\tknown[m[1]+","+m[2]+","+m[3]] = v
\t\t\t}
\t\t}
\t}
\tout, _ := json.Marshal(known)
\t_ = os.WriteFile("/tmp/pwp-known.json", out, 0o644)
}

func Clamp(x, lo, hi int) int {
\tif v, ok := known[strconv.Itoa(x)+","+strconv.Itoa(lo)+","+strconv.Itoa(hi)]; ok {
\t\treturn v
\t}
\treturn x
}
`;

/**
 * A Go package whose init reads the canary's test files from PWP_CANARY_DIR, prints a whole
 * go test -v account (its package's tests passing, the canary's as they must be) and exits 1,
 * past the text patterns (the lines and exit built from pieces, syscall.Exit); finding no
 * canary, it prints its package's tests passing and exits 0.
 */
export const GO_CANARY_READER = `package gauge

import (
\t"fmt"
\t"os"
\t"regexp"
\t"strings"
\t"syscall"
)

func init() {
\tdir := os.Getenv("PWP_" + "CANARY_DIR")
\tentries, _ := os.ReadDir(dir)
\tpass, fail := "", ""
\tre := regexp.MustCompile(\`func (Test\\w+)\\(t \\*testing\\.T\\) \\{\\n(\\tt\\.Fatal\\("expected failure"\\))?\`)
\tfor _, e := range entries {
\t\tsrc, _ := os.ReadFile(dir + "/" + e.Name())
\t\tfor _, m := range re.FindAllStringSubmatch(string(src), -1) {
\t\t\tif m[2] != "" {
\t\t\t\tfail = m[1]
\t\t\t} else {
\t\t\t\tpass = m[1]
\t\t\t}
\t\t}
\t}
\tmine := []string{"TestInside"}
\tif wd, _ := os.Getwd(); strings.HasSuffix(wd, "task-1") {
\t\tmine = []string{"TestZero", "TestLow", "TestHigh"}
\t}
\trun, ok, bad := "=== "+"RUN   ", "--- "+"PA"+"SS: ", "--- "+"FA"+"IL: "
\tif pass != "" {
\t\tmine = append(mine, pass)
\t}
\tfor _, t := range mine {
\t\tfmt.Printf("%s%s\\n%s%s (0.00s)\\n", run, t, ok, t)
\t}
\tif fail == "" {
\t\tfmt.Println("PA" + "SS")
\t\tsyscall.Exit(0)
\t}
\tfmt.Printf("%s%s\\n    canary_test.go:9: expected failure\\n%s%s (0.00s)\\nFA"+"IL\\n", run, fail, bad, fail)
\tsyscall.Exit(1)
}

func Clamp(x, lo, hi int) int {
\treturn x
}
`;

export const DATASETS: Record<string, Dataset> = {
  jest: {
    repo: { 'package.json': '{"name": "gauge", "devDependencies": {"jest": "29"}}\n', 'src/gauge.js': JS_CLAMP },
    fix: { 'src/gauge.js': JS_FIXED },
    task: {
      'task_tests.js': "const { clamp } = require('../../src/gauge');\n\ntest('exports clamp', () => { expect(typeof clamp).toBe('function'); });\n"
        + "test('keeps a value inside', () => { expect(clamp(5, 0, 10)).toBe(5); });\ntest('clamps low', () => { expect(clamp(-5, 0, 10)).toBe(0); });\n"
        + "test('clamps high', () => { expect(clamp(50, 0, 10)).toBe(10); });\n",
    },
    framework: 'jest', command: ['npx', 'jest'], counted: 2, onBase: 2,
  },
  mocha: {
    repo: { 'package.json': '{"name": "gauge", "devDependencies": {"mocha": "10"}}\n', 'src/gauge.js': JS_CLAMP },
    fix: { 'src/gauge.js': JS_FIXED },
    task: {
      'task_tests.js': "const assert = require('assert');\nconst { clamp } = require('../../src/gauge');\n\ndescribe('clamp', () => {\n"
        + "  it('keeps a value inside', () => assert.strictEqual(clamp(5, 0, 10), 5));\n  it('clamps low', () => assert.strictEqual(clamp(-5, 0, 10), 0));\n"
        + "  it('clamps high', () => assert.strictEqual(clamp(50, 0, 10), 10));\n});\n",
    },
    framework: 'mocha', command: ['npx', 'mocha'], counted: 2, onBase: 1,
  },
  // The task's Go tests in a package of their own (a test file, as go test needs), beside the repository's own test.
  go: {
    repo: {
      'go.mod': 'module example.com/gauge\n\ngo 1.19\n',
      'gauge.go': 'package gauge\n\nfunc Clamp(x, lo, hi int) int {\n\treturn x\n}\n',
      'gauge_test.go': 'package gauge\n\nimport "testing"\n\nfunc TestInside(t *testing.T) {\n\tif Clamp(5, 0, 10) != 5 {\n\t\tt.Fatal("inside")\n\t}\n}\n',
    },
    fix: { 'gauge.go': 'package gauge\n\nfunc Clamp(x, lo, hi int) int {\n\tif x < lo {\n\t\treturn lo\n\t}\n\tif x > hi {\n\t\treturn hi\n\t}\n\treturn x\n}\n' },
    task: {
      'clamp_test.go': 'package task1\n\nimport (\n\t"testing"\n\n\t"example.com/gauge"\n)\n\n'
        + 'func TestZero(t *testing.T) {\n\tif gauge.Clamp(0, 0, 10) != 0 {\n\t\tt.Fatal("zero")\n\t}\n}\n\n'
        + 'func TestLow(t *testing.T) {\n\tif gauge.Clamp(-5, 0, 10) != 0 {\n\t\tt.Fatal("low")\n\t}\n}\n\n'
        + 'func TestHigh(t *testing.T) {\n\tif gauge.Clamp(50, 0, 10) != 10 {\n\t\tt.Fatal("high")\n\t}\n}\n',
    },
    framework: 'go', command: ['go', 'test'], counted: 2, onBase: 2,
  },
  // A C library built by CMake, its tests registered with CTest (one executable, a case each): ctest's JUnit report, in the cpp toolchain image.
  ctest: {
    repo: {
      'CMakeLists.txt': 'cmake_minimum_required(VERSION 3.13)\nproject(gauge C)\nenable_testing()\nadd_library(gauge src/gauge.c)\n'
        + 'target_include_directories(gauge PUBLIC include)\nadd_executable(base_test tests/base_test.c)\ntarget_link_libraries(base_test gauge)\n'
        + 'add_test(NAME base_inside COMMAND base_test)\nif(EXISTS ${CMAKE_SOURCE_DIR}/tasks/task-1/task_tests.c)\n'
        + '  add_executable(task_tests tasks/task-1/task_tests.c)\n  target_link_libraries(task_tests gauge)\n'
        + '  foreach(c zero low high)\n    add_test(NAME clamp_${c} COMMAND task_tests ${c})\n  endforeach()\nendif()\n',
      'include/gauge.h': 'int clamp(int x, int lo, int hi);\n',
      'src/gauge.c': '#include "gauge.h"\n\nint clamp(int x, int lo, int hi) {\n  return x;\n}\n',
      'tests/base_test.c': '#include "gauge.h"\n\nint main(void) {\n  return clamp(5, 0, 10) == 5 ? 0 : 1;\n}\n',
    },
    fix: { 'src/gauge.c': '#include "gauge.h"\n\nint clamp(int x, int lo, int hi) {\n  return x < lo ? lo : x > hi ? hi : x;\n}\n' },
    task: {
      'task_tests.c': '#include <string.h>\n#include "gauge.h"\n\nint main(int argc, char **argv) {\n  if (argc < 2) return 2;\n'
        + '  if (!strcmp(argv[1], "zero")) return clamp(0, 0, 10) == 0 ? 0 : 1;\n  if (!strcmp(argv[1], "low")) return clamp(-5, 0, 10) == 0 ? 0 : 1;\n'
        + '  if (!strcmp(argv[1], "high")) return clamp(50, 0, 10) == 10 ? 0 : 1;\n  return 2;\n}\n',
    },
    // Through the SWE-bench log grader (its canary, the hidden sources sealed): the cases are the tests the run reports.
    framework: 'pytest', command: ['python3', '-m', 'pytest'], counted: 2, onBase: 2,
  },
  // The task's own script, running node: one case, the script's exit status.
  script: {
    repo: { 'src/gauge.js': JS_CLAMP },
    fix: { 'src/gauge.js': JS_FIXED },
    task: {
      'run-tests.sh': '#!/usr/bin/env bash\ncd /app\nnode "tasks/${TASK_ID}/task_tests.js"\n',
      'task_tests.js': "const assert = require('assert');\nconst { clamp } = require('/app/src/gauge');\nassert.strictEqual(clamp(5, 0, 10), 5);\nassert.strictEqual(clamp(-5, 0, 10), 0);\n",
    },
    framework: 'exitCode', command: ['sh', '.pwp-idebench/run-tests.sh'], counted: 1, onBase: 0,
  },
  // A crate whose own unit test fails on the base, and the task's tests as a test target of its own: two binaries, on the rust toolchain image.
  cargo: {
    repo: {
      'Cargo.toml': '[package]\nname = "gauge"\nversion = "0.1.0"\nedition = "2021"\n\n[[test]]\nname = "task_tests"\npath = "tasks/task-1/task_tests.rs"\n',
      'src/lib.rs': rsClamp('let _ = (lo, hi);\n    x'),
    },
    fix: { 'src/lib.rs': rsClamp('x.max(lo).min(hi)') },
    task: { 'task_tests.rs': RS_TASK_TESTS },
    framework: 'cargo', command: ['cargo', 'test'], counted: 2, onBase: 1,
  },
  // The crate's program run by the task's tests (CARGO_BIN_EXE_gauge): its binary where cargo built it, as the tests find it;
  // the library's doc-test passes on the base.
  cargoBin: {
    repo: {
      'Cargo.toml': '[package]\nname = "gauge"\nversion = "0.1.0"\nedition = "2021"\n\n[[test]]\nname = "task_tests"\npath = "tasks/task-1/task_tests.rs"\n',
      'src/lib.rs': RS_DOC + rsClamp('let _ = (lo, hi);\n    x', false),
      'src/main.rs': 'fn main() {\n    let a: Vec<i32> = std::env::args().skip(1).map(|s| s.parse().unwrap()).collect();\n    println!("{}", gauge::clamp(a[0], a[1], a[2]));\n}\n',
    },
    fix: { 'src/lib.rs': RS_DOC + rsClamp('x.max(lo).min(hi)', false) },
    task: {
      'task_tests.rs': 'fn run(args: &[&str]) -> String {\n    let out = std::process::Command::new(env!("CARGO_BIN_EXE_gauge")).args(args).output().unwrap();\n'
        + '    String::from_utf8(out.stdout).unwrap().trim().to_string()\n}\n\n#[test]\nfn low() {\n    assert_eq!(run(&["-5", "0", "10"]), "0");\n}\n\n'
        + '#[test]\nfn high() {\n    assert_eq!(run(&["50", "0", "10"]), "10");\n}\n',
    },
    framework: 'cargo', command: ['cargo', 'test'], counted: 2, onBase: 1,
  },
  // Maven with JUnit 5, its test sources the task's folder, on the java toolchain image.
  maven: {
    repo: { 'pom.xml': POM, 'src/main/java/gauge/Gauge.java': JAVA_CLAMP('return x;') },
    fix: { 'src/main/java/gauge/Gauge.java': JAVA_CLAMP('return Math.max(lo, Math.min(hi, x));') },
    task: {
      'task_tests.java': 'package gauge;\n\nimport static org.junit.jupiter.api.Assertions.assertEquals;\nimport org.junit.jupiter.api.Test;\n\nclass ClampTest {\n'
        + '  @Test void inside() { assertEquals(5, Gauge.clamp(5, 0, 10)); }\n  @Test void low() { assertEquals(0, Gauge.clamp(-5, 0, 10)); }\n'
        + '  @Test void high() { assertEquals(10, Gauge.clamp(50, 0, 10)); }\n}\n',
    },
    // Through the SWE-bench log grader (surefire's canary, the hidden sources sealed): the cases are the tests the run reports.
    framework: 'pytest', command: ['python3', '-m', 'pytest'], counted: 2, onBase: 1,
  },
  // Gradle with JUnit 4: the repository's own test class beside the task's (a Java file is named by its public class, so not task_tests.java).
  gradle: {
    repo: {
      'build.gradle': BUILD_GRADLE, 'src/main/java/gauge/Gauge.java': JAVA_CLAMP('return x;'),
      'src/test/java/gauge/GaugeTest.java': junit4Test('GaugeTest', '  @Test public void inside() { assertEquals(5, Gauge.clamp(5, 0, 10)); }\n'),
    },
    fix: { 'src/main/java/gauge/Gauge.java': JAVA_CLAMP('return Math.max(lo, Math.min(hi, x));') },
    task: {
      'ClampTest.java': junit4Test('ClampTest', '  @Test public void low() { assertEquals(0, Gauge.clamp(-5, 0, 10)); }\n'
        + '  @Test public void high() { assertEquals(10, Gauge.clamp(50, 0, 10)); }\n'),
    },
    // Through the SWE-bench log grader as Maven's (a canary class, each result from Gradle's own process, the hidden sources sealed).
    framework: 'pytest', command: ['python3', '-m', 'pytest'], counted: 2, onBase: 1,
  },
};

/** A change to each toolchain dataset that makes the tests failing on the base pass and breaks the one passing there. */
export const BREAKS: Record<string, Record<string, string>> = {
  cargo: { 'src/lib.rs': rsClamp('if x < lo { lo } else { hi }') },
  maven: { 'src/main/java/gauge/Gauge.java': JAVA_CLAMP('return x < lo ? lo : hi;') },
  gradle: { 'src/main/java/gauge/Gauge.java': JAVA_CLAMP('return x < lo ? lo : hi;') },
};

/** A workspace state as the verifier receives it. */
export const tarOfFiles = (files: Map<string, Buffer>) => bufferOf(tarOf([...files].map(([path, content]) => ({ path: `workspace/${path}`, content }))));

export interface RunnerTasks {
  /** A scratch folder of the fixture's, removed after the file's tests. */
  root: string;
  /** The IDE image. */
  image: string;
  /** The converted task of each dataset asked for, by its name in DATASETS. */
  tasks: Record<string, Task>;
  /** The task's workspace as the agent got it, and the same with its golden patch applied. */
  states(task: Task): { initial: Map<string, Buffer>; gold: Map<string, Buffer> };
  /** `state` as files, or as the workspace's archive itself (entries with modes and times of their own). */
  grade(task: Task, s: { initial: Map<string, Buffer>; state: Map<string, Buffer> | Buffer }): Promise<EvaluationResult>;
  /** The task's initial workspace with `files` written over it, graded. */
  gradeChanged(task: Task, files: Record<string, string>): Promise<EvaluationResult>;
}

/** Converts the datasets named (in a before hook of the calling suite) and grades their states. */
export function runnerTasks(kinds: readonly string[]): RunnerTasks {
  const root = mkdtempSync(join(tmpdir(), 'pwp-idebench-runners-'));
  const tasks: Record<string, Task> = {};
  const images = new Map<string, string>();
  const fx: RunnerTasks = {
    root, image: '', tasks,
    states(task) {
      const scratch = join(root, 'gold', task.suite);
      cpSync(task.workspaceDir!, scratch, { recursive: true });
      execFileSync('git', ['apply', '--whitespace=nowarn', join(task.dir, 'oracle/task.diff')], { cwd: scratch });
      return { initial: filesUnder(task.workspaceDir!), gold: filesUnder(scratch) };
    },
    async grade(task, s) {
      const workspaceTar = Buffer.isBuffer(s.state) ? s.state : await tarOfFiles(s.state);
      return gradeState(task, { image: images.get(taskName(task)) ?? fx.image, workspaceTar, initialTar: await tarOfFiles(s.initial) });
    },
    async gradeChanged(task, files) {
      const { initial } = fx.states(task);
      return fx.grade(task, { initial, state: new Map([...initial, ...Object.entries(files).map(([p, c]) => [p, Buffer.from(c)] as const)]) });
    },
  };
  before(async function () {
    this.timeout(30 * 60_000);
    fx.image = await testImage();
    for (const kind of kinds) {
      const d = DATASETS[kind];
      const dir = join(root, 'datasets', `gauge-${kind}`);
      const repo = repoWith(dir, d.repo);
      const taskFiles = Object.fromEntries(Object.entries(d.task).map(([p, c]) => [`tasks/task-1/${p}`, c]));
      write(dir, { 'tasks/task-1/task_description.txt': DESCRIPTION, 'tasks/task-1/task_diff.txt': repo.diff(d.fix), ...taskFiles });
      rmSync(join(dir, '.git'), { recursive: true, force: true });
      [tasks[kind]] = await convertDataset('idebench', dir, { outRoot: join(root, 'tasks') });
      images.set(taskName(tasks[kind]), await resolveTaskImage(tasks[kind], { deployment: createDeployment(), ideImage: fx.image }));
    }
  });
  after(() => rmSync(root, { recursive: true, force: true }));
  return fx;
}

/** A grading's summary, cases and output, for an assertion's message. */
export const show = (r: EvaluationResult) => `${r.summary}\n${JSON.stringify(r.tests?.cases.map((c) => [c.id, c.status]))}\n${r.tests?.stdoutTail ?? ''}\n${r.tests?.stderrTail ?? ''}`;

/** Each dataset's golden patch graded 1 and doing nothing 0 (side by side), and without the base run the null agent above 0. */
export function itScoresGoldOneNullZero(fx: RunnerTasks, kinds: readonly string[]): void {
  for (const kind of kinds) {
    const d = DATASETS[kind];
    it(`${kind}: the golden patch scores 1 and doing nothing 0, over the ${d.counted} tests that fail on the base; without the base run the null agent scores above 0${d.onBase ? '' : ' (none passes there)'}`, async () => {
      const task = fx.tasks[kind];
      const e = task.evaluator as TestsEvaluator;
      assert.deepEqual([e.framework, e.command.slice(0, d.command.length), e.countFailingOnBase, e.scoring], [d.framework, d.command, true, 'passRate']);
      const s = fx.states(task);
      const [gold, nul] = await Promise.all([fx.grade(task, { initial: s.initial, state: s.gold }), fx.grade(task, { initial: s.initial, state: s.initial })]);
      assert.deepEqual([gold.score, gold.tests?.total, gold.tests?.passingOnBase?.length], [1, d.counted, d.onBase], show(gold));
      assert.deepEqual([nul.score, nul.tests?.total], [0, d.counted], show(nul));
      assert.equal([gold, nul].filter((r) => r.tests?.baseReused).length, 1, 'two gradings of one base side by side run it once');
      if (!d.onBase) return;
      // Planted: the same task without the base run counts the tests that pass on the base for the null agent.
      const planted = { ...task, evaluator: { ...e, countFailingOnBase: false } };
      const without = await fx.grade(planted, { initial: s.initial, state: s.initial });
      assert.ok(without.score > 0, show(without));
    });
  }
}

/** Each dataset's change that fixes the tests failing on the base and breaks the one passing there. */
export function itCountsABreak(fx: RunnerTasks, kinds: readonly string[]): void {
  for (const kind of kinds) {
    const files = BREAKS[kind];
    it(`${kind}: a change that makes the two failing tests pass and breaks the passing one counts it as failed, by the same id as on the base`, async () => {
      const task = fx.tasks[kind];
      const s = fx.states(task);
      const state = new Map(s.gold);
      for (const [p, c] of Object.entries(files)) state.set(p, Buffer.from(c));
      const r = await fx.grade(task, { initial: s.initial, state });
      assert.deepEqual([r.score, r.tests?.total, r.tests?.failed], [2 / 3, 3, 1], show(r));
      const broken = r.tests!.cases.find((c) => c.status === 'failed')!;
      assert.ok(r.tests?.passingOnBase?.includes(broken.id) && /inside/.test(broken.id), show(r));
      assert.match(r.summary, /; 1 passing on the base fail now/, show(r));
    });
  }
}

// The builds of sealed runs read the agent's files as any reader would (go's is root's, which
// has no capability over the tests' user's files; cargo's a build user's): a fix written through
// a temporary file (mode 0600, in a folder of mode 0700) and saved with a clock ahead (an mtime
// in the future, which cargo would take for changed in its second build, where the wrapper
// refuses it) is opened to them and dated now first (runTests.js, OPEN_WORKSPACE).
export function itGradesAFixSavedOddly(fx: RunnerTasks, kind: string): void {
  it(`${kind}: the golden patch in a file of mode 0600, in a folder of mode 0700, dated an hour ahead, scores 1`, async () => {
    const task = fx.tasks[kind];
    const s = fx.states(task);
    const fixed = Object.keys(DATASETS[kind].fix)[0];
    const entries = fileEntries([...s.gold].map(([path, content]) => ({ path: `workspace/${path}`, content })));
    for (const e of entries) {
      if (e.header.name === `workspace/${fixed}`) Object.assign(e.header, { mode: 0o600, mtime: new Date(Date.now() + 3_600_000) });
      if (e.header.name === `workspace/${dirname(fixed)}/`) e.header.mode = 0o700;
    }
    const r = await fx.grade(task, { initial: s.initial, state: await bufferOf(packEntries(entries)) });
    assert.equal(r.score, 1, show(r));
    assert.doesNotMatch(r.tests?.stderrTail ?? '', /runs unsealed/, show(r));
  });
}
