// Which test framework a repository uses, from its files, and the `tests` evaluator that runs
// it: IDE-Bench's list (pytest, jest, mocha, go, cargo, ctest, JUnit through Maven or Gradle).
// Used where pwp must run a repository's tests and nobody gave the command (the IDE-Bench
// importer, for a dataset without run_tests.sh).
//
// The evidence is what each tool itself reads: go.mod, Cargo.toml, pom.xml, build.gradle, a
// CMakeLists.txt that registers tests, package.json's dependencies and test script, jest and
// mocha configuration files, pytest's configuration sections, and last Python test files.
// Given the test files that will run (`testFiles`), their language decides among the
// frameworks that have evidence, so a C++ repository graded by Python tests runs pytest.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, extname, join, relative } from 'node:path';
import type { TestsEvaluator } from './evaluatorSchema';

export const DETECTED_FRAMEWORKS = ['pytest', 'jest', 'mocha', 'go', 'cargo', 'ctest', 'maven', 'gradle'] as const;
export type DetectedFramework = (typeof DETECTED_FRAMEWORKS)[number];

export interface DetectedTests {
  detected: DetectedFramework;
  /** The file (and what in it) that showed the framework. */
  evidence: string;
  evaluator: Pick<TestsEvaluator, 'framework' | 'command'> & { report?: string };
}

/** Folders never searched for test files: dependencies, builds, caches. */
const SKIP = new Set(['.git', 'node_modules', '.venv', 'venv', '__pycache__', 'target', 'build', 'dist', 'vendor', '.gradle', '.m2']);
const MAX_FILES = 20_000;

/** Repository files (relative paths), breadth-first, dependency and build folders left out. */
function listFiles(root: string): string[] {
  const out: string[] = [];
  const queue = [root];
  while (queue.length && out.length < MAX_FILES) {
    const dir = queue.shift()!;
    for (const e of readdirSync(dir).sort()) {
      const p = join(dir, e);
      const st = statSync(p);
      if (st.isDirectory()) { if (!SKIP.has(e)) queue.push(p); } else out.push(relative(root, p));
    }
  }
  return out;
}

const read = (root: string, f: string) => { try { return readFileSync(join(root, f), 'utf8'); } catch { return ''; } };

/** What package.json says about a JavaScript test runner. */
function nodeRunner(root: string, name: 'jest' | 'mocha'): string | undefined {
  if (!existsSync(join(root, 'package.json'))) return undefined;
  let pkg: { dependencies?: Record<string, string>; devDependencies?: Record<string, string>; scripts?: Record<string, string>; jest?: unknown; mocha?: unknown };
  try { pkg = JSON.parse(read(root, 'package.json')); } catch { return undefined; }
  if (pkg.devDependencies?.[name] || pkg.dependencies?.[name]) return `package.json depends on ${name}`;
  if (new RegExp(`\\b${name}\\b`).test(pkg.scripts?.test ?? '')) return `package.json's test script runs ${name}`;
  if (pkg[name] !== undefined) return `package.json has a "${name}" section`;
  return undefined;
}

type Evidence = Partial<Record<DetectedFramework, string>>;

function gatherEvidence(root: string, files: readonly string[]): Evidence {
  const top = new Set(files.filter((f) => !f.includes('/')));
  const ev: Evidence = {};
  const first = (names: string[]) => names.find((n) => top.has(n));
  if (top.has('go.mod')) ev.go = 'go.mod';
  if (top.has('Cargo.toml')) ev.cargo = 'Cargo.toml';
  if (top.has('pom.xml')) ev.maven = 'pom.xml';
  const gradle = first(['build.gradle', 'build.gradle.kts', 'settings.gradle', 'settings.gradle.kts']);
  if (gradle) ev.gradle = gradle;
  const jestConfig = [...top].find((f) => /^jest\.config\.(js|cjs|mjs|ts|json)$/.test(f));
  ev.jest = jestConfig ?? nodeRunner(root, 'jest');
  const mocharc = [...top].find((f) => /^\.mocharc(\.(js|cjs|json|jsonc|yaml|yml))?$/.test(f));
  ev.mocha = mocharc ?? nodeRunner(root, 'mocha');
  if (top.has('CMakeLists.txt') && /\b(enable_testing|add_test|gtest_discover_tests|gtest_add_tests)\s*\(/i.test(read(root, 'CMakeLists.txt'))) ev.ctest = 'CMakeLists.txt registers tests';
  const requirements = [...top].find((f) => /^requirements.*\.txt$/.test(f) && /^pytest\b/im.test(read(root, f)));
  const pyTest = files.find((f) => /(^|\/)(test_[^/]*|[^/]*_test)\.py$/.test(f));
  ev.pytest = top.has('pytest.ini') ? 'pytest.ini'
    : top.has('conftest.py') ? 'conftest.py'
      : /^\[tool\.pytest/m.test(read(root, 'pyproject.toml')) ? 'pyproject.toml [tool.pytest.ini_options]'
        : /^\[tool:pytest\]/m.test(read(root, 'setup.cfg')) ? 'setup.cfg [tool:pytest]'
          : /^\[pytest\]/m.test(read(root, 'tox.ini')) ? 'tox.ini [pytest]'
            : requirements ? `${requirements} lists pytest`
              : pyTest && `Python test file ${pyTest}`;
  for (const k of Object.keys(ev) as DetectedFramework[]) if (!ev[k]) delete ev[k];
  return ev;
}

/** Frameworks that can run test files of each language, the first the default. */
const BY_LANGUAGE: [RegExp, DetectedFramework[]][] = [
  [/^\.py$/, ['pytest']],
  [/^\.(js|mjs|cjs|jsx|ts|tsx)$/, ['jest', 'mocha']],
  [/^\.go$/, ['go']],
  [/^\.rs$/, ['cargo']],
  [/^\.(java|kt)$/, ['maven', 'gradle']],
  [/^\.(c|cc|cpp|cxx|h|hpp)$/, ['ctest']],
];

/** Without a hint: build tools before test runners, a Python test file alone last. */
const PRIORITY: DetectedFramework[] = ['go', 'cargo', 'maven', 'gradle', 'jest', 'mocha', 'ctest', 'pytest'];

/** Merges the per-class JUnit XML files Surefire and Gradle write into one report. */
const mergeJUnit = (glob: string, out: string) => `{ echo '<testsuites>'; for f in ${glob}; do [ -f "$f" ] && sed '/^<?xml/d' "$f"; done; echo '</testsuites>'; } > ${out}`;

/** The evaluator's command for a framework, running `testFiles` where the runner takes files. */
export function testCommand(fw: DetectedFramework, testFiles: readonly string[] = []): DetectedTests['evaluator'] {
  switch (fw) {
    case 'pytest': return { framework: 'pytest', command: ['python3', '-m', 'pytest', '-q', ...testFiles] };
    // jest runs only files its testMatch takes (task_tests.js is not *.test.js): the files are the testMatch.
    case 'jest': return { framework: 'jest', command: ['npx', 'jest', ...(testFiles.length ? ['--testMatch', ...testFiles.map((f) => `**/${f}`)] : [])] };
    case 'mocha': return { framework: 'mocha', command: ['npx', 'mocha', ...testFiles] };
    case 'go': {
      const pkgs = [...new Set(testFiles.map((f) => `./${dirname(f)}`.replace(/\/\.$/, '')))];
      return { framework: 'go', command: ['go', 'test', ...(pkgs.length ? pkgs : ['./...'])] };
    }
    // libtest writes no report on stable Rust: the cases are read from its console.
    case 'cargo': return { framework: 'cargo', command: ['cargo', 'test', '--offline'] };
    case 'ctest': return {
      framework: 'junit', report: 'build/ctest-junit.xml',
      command: ['sh', '-c', 'cmake -S . -B build >/dev/null && cmake --build build >/dev/null && ctest --test-dir build --output-junit /workspace/build/ctest-junit.xml'],
    };
    case 'maven': return {
      framework: 'junit', report: 'target/pwp-junit.xml',
      command: ['sh', '-c', `mvn -o -q test; s=$?; mkdir -p target; ${mergeJUnit('target/surefire-reports/TEST-*.xml', 'target/pwp-junit.xml')}; exit $s`],
    };
    case 'gradle': return {
      framework: 'junit', report: 'build/pwp-junit.xml',
      command: ['sh', '-c', `gradle test --offline -q; s=$?; mkdir -p build; ${mergeJUnit('build/test-results/test/TEST-*.xml', 'build/pwp-junit.xml')}; exit $s`],
    };
  }
}

/**
 * The repository's test framework and the evaluator that runs it, or undefined when nothing
 * shows one. `testFiles` (relative to the root) are the tests that will run: their language
 * chooses among the frameworks with evidence, and the runners that take files are given them.
 */
export function detectTestFramework(root: string, o: { testFiles?: readonly string[] } = {}): DetectedTests | undefined {
  const files = listFiles(root);
  const ev = gatherEvidence(root, [...files, ...(o.testFiles ?? [])]);
  const testFiles = o.testFiles ?? [];
  let chosen: DetectedFramework | undefined;
  let evidence: string | undefined;
  const ext = testFiles.length ? extname(testFiles[0]).toLowerCase() : '';
  const candidates = BY_LANGUAGE.find(([re]) => re.test(ext))?.[1];
  if (candidates) {
    chosen = candidates.find((c) => ev[c]) ?? candidates[0];
    evidence = ev[chosen] ?? `the test file ${basename(testFiles[0])}`;
  } else {
    chosen = PRIORITY.find((c) => ev[c]);
    evidence = chosen && ev[chosen];
  }
  if (!chosen || !evidence) return undefined;
  return { detected: chosen, evidence, evaluator: testCommand(chosen, testFiles) };
}
