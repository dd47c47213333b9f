// SWE-bench-Multilingual: SWE-bench's instance format (the same fields) for repositories in Java,
// JavaScript/TypeScript, Go, Rust, C/C++, PHP and Ruby. Its instances carry no language field,
// so the language is read from the repository at base_commit (its build file), and each
// language has one test command and one log format (read by sweBenchLogGrader.ts), but Go and
// Rust, graded by the verifier's own go test and cargo test (their reports, their sealed builds):
//   Go       go.mod           go test -v on the test patch's packages   go test -json
//   Rust     Cargo.toml       cargo test --no-fail-fast                 "test a::b ... ok"
//   JS       package.json     node --test --test-reporter=tap files     "ok 1 - name" (nested too)
//   Java     pom.xml          mvn test                                  surefire's XML reports
//   C/C++    CMakeLists.txt   cmake, build, ctest -V                    "1/3 Test #1: name ... Passed"
// Go, Rust and the C/C++ build each run from the workspace; Java, Rust and C/C++ need a toolchain image
// (docs/tasks.md, Task images), Go and Node are in the IDE image.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { SweTestSpec } from './sweBenchSpecs';

export type SweLanguage = 'go' | 'rust' | 'javascript' | 'java' | 'c';

export interface LanguageSpec {
  /** The file at the repository's root that says the language. */
  marker: string;
  spec: SweTestSpec;
  /** The toolchain image the tests need (docs/tasks.md); none: the IDE image has it. */
  toolchain?: 'java' | 'rust' | 'cpp';
  /** The arguments naming what to run, from the test patch's files. */
  directives(testFiles: readonly string[]): string[];
  /**
   * The verifier's own runner for the language, which grades the command itself (its tests sealed,
   * its structured report and canary); without one the SWE-bench log grader runs it and reads its log.
   */
  framework?: 'go' | 'cargo';
}

/** Where ctest builds: outside the workspace, so the build never enters the agent's diff. */
const C_BUILD = '/tmp/pwp-ctest-build';

export const LANGUAGE_SPECS: Readonly<Record<SweLanguage, LanguageSpec>> = {
  go: {
    marker: 'go.mod',
    spec: { command: ['go', 'test', '-v', '-count=1'], log: 'go', directives: 'paths', env: { GOCACHE: '/tmp/pwp-go-cache', CGO_ENABLED: '0' } },
    // A package per test file's folder, as go test names packages (./dir).
    directives: (files) => [...new Set(files.filter((f) => f.endsWith('_test.go')).map((f) => `./${dirname(f)}`.replace(/\/\.$/, '')))],
    // Root builds the test binaries from the sealed _test.go files: the deliverable cannot read them.
    framework: 'go',
  },
  rust: {
    marker: 'Cargo.toml',
    spec: { command: ['cargo', 'test', '--no-fail-fast'], log: 'cargo', directives: 'paths' },
    toolchain: 'rust',
    directives: () => [],
    // A build user's second build alone reads the hidden test files, compiling only their crates (cargoRun.ts).
    framework: 'cargo',
  },
  javascript: {
    marker: 'package.json',
    spec: { command: ['node', '--test', '--test-reporter=tap'], log: 'tap', directives: 'paths' },
    directives: (files) => files.filter((f) => /\.(c|m)?[jt]s$/.test(f)),
  },
  java: {
    marker: 'pom.xml',
    spec: { command: ['mvn', '-B', '-q', '-o', 'test', '-Dsurefire.failIfNoSpecifiedTests=false', '-Dmaven.test.failure.ignore=true'], log: 'surefire', directives: 'paths' },
    toolchain: 'java',
    directives: () => [],
  },
  c: {
    marker: 'CMakeLists.txt',
    spec: { command: ['sh', '-c', `rm -rf ${C_BUILD} && cmake -S . -B ${C_BUILD} >/dev/null && cmake --build ${C_BUILD} && ctest --test-dir ${C_BUILD} -V`], log: 'ctest', directives: 'paths' },
    toolchain: 'cpp',
    directives: () => [],
  },
};

const ORDER: readonly SweLanguage[] = ['go', 'rust', 'java', 'c', 'javascript'];

/** The language of a repository checked out at `dir`, from the first build file found (package.json last: many repositories carry one for tooling). */
export function detectLanguage(dir: string, where: string): SweLanguage {
  const found = ORDER.find((l) => existsSync(join(dir, LANGUAGE_SPECS[l].marker)));
  if (!found) throw new Error(`${where}: no ${ORDER.map((l) => LANGUAGE_SPECS[l].marker).join(', ')} at the repository's root: its language (and test command) is unknown`);
  return found;
}
