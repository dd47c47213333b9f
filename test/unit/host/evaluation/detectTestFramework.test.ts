import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { detectTestFramework } from '../../../../host/evaluation/detectTestFramework';
import { EvaluatorSchema } from '../../../../host/evaluation/evaluatorSchema';

describe('test-framework detection from a repository\'s files', () => {
  const roots: string[] = [];
  const tree = (files: Record<string, string>) => {
    const root = mkdtempSync(join(tmpdir(), 'pwp-detect-'));
    roots.push(root);
    for (const [p, c] of Object.entries(files)) { mkdirSync(dirname(join(root, p)), { recursive: true }); writeFileSync(join(root, p), c); }
    return root;
  };
  after(() => { for (const r of roots) rmSync(r, { recursive: true, force: true }); });

  const detect = (files: Record<string, string>, testFiles?: string[]) => {
    const found = detectTestFramework(tree(files), { testFiles });
    // Whatever it finds is a valid tests evaluator.
    if (found) EvaluatorSchema.parse({ kind: 'tests', ...found.evaluator });
    return found;
  };

  it('finds pytest by its configuration or by Python test files alone', () => {
    assert.deepEqual(detect({ 'pytest.ini': '[pytest]\n', 'app.py': '' })?.evidence, 'pytest.ini');
    assert.equal(detect({ 'conftest.py': '', 'app.py': '' })?.evidence, 'conftest.py');
    assert.equal(detect({ 'pyproject.toml': '[project]\nname = "x"\n\n[tool.pytest.ini_options]\naddopts = "-q"\n' })?.detected, 'pytest');
    assert.equal(detect({ 'setup.cfg': '[tool:pytest]\ntestpaths = tests\n' })?.detected, 'pytest');
    assert.equal(detect({ 'requirements-dev.txt': 'black\npytest==8.0\n' })?.evidence, 'requirements-dev.txt lists pytest');
    const byFile = detect({ 'src/calc.py': '', 'tests/test_calc.py': 'def test_x(): pass\n' });
    assert.deepEqual(
      [byFile?.detected, byFile?.evidence, byFile?.evaluator],
      ['pytest', 'Python test file tests/test_calc.py', { framework: 'pytest', command: ['python3', '-m', 'pytest', '-q'] }],
    );
    assert.equal(detect({ 'pyproject.toml': '[project]\nname = "x"\n', 'app.py': '' }), undefined, 'a Python project without tests is not a pytest one');
  });

  it('finds jest and mocha from package.json or their configuration files', () => {
    const jest = detect({ 'package.json': JSON.stringify({ devDependencies: { jest: '^29' } }) });
    assert.deepEqual([jest?.detected, jest?.evidence, jest?.evaluator.framework], ['jest', 'package.json depends on jest', 'jest']);
    assert.equal(detect({ 'package.json': '{"name":"x"}', 'jest.config.js': 'module.exports = {};\n' })?.evidence, 'jest.config.js');
    assert.equal(detect({ 'package.json': JSON.stringify({ scripts: { test: 'jest --runInBand' } }) })?.detected, 'jest');
    const mocha = detect({ 'package.json': JSON.stringify({ scripts: { test: 'mocha test/' } }) });
    assert.deepEqual([mocha?.detected, mocha?.evidence, mocha?.evaluator.command], ['mocha', 'package.json\'s test script runs mocha', ['npx', 'mocha']]);
    assert.equal(detect({ '.mocharc.yml': 'spec: test/**/*.js\n' })?.detected, 'mocha');
    assert.equal(detect({ 'package.json': JSON.stringify({ dependencies: { express: '^4' } }) }), undefined, 'a Node project without a test runner');
  });

  it('finds go, cargo, maven and gradle by their build files, with commands that leave a report', () => {
    assert.deepEqual(detect({ 'go.mod': 'module x\n', 'x.go': 'package x\n' })?.evaluator, { framework: 'go', command: ['go', 'test', './...'] });
    assert.deepEqual(detect({ 'Cargo.toml': '[package]\nname = "x"\n' })?.evaluator, { framework: 'cargo', command: ['cargo', 'test', '--offline'] });
    const maven = detect({ 'pom.xml': '<project/>\n' });
    assert.deepEqual([maven?.detected, maven?.evaluator.framework, maven?.evaluator.report], ['maven', 'junit', 'target/pwp-junit.xml']);
    assert.match(maven!.evaluator.command.join(' '), /^sh -c mvn -o -q test; .*target\/surefire-reports\/TEST-\*\.xml.*> target\/pwp-junit\.xml; exit \$s$/);
    const gradle = detect({ 'build.gradle.kts': 'plugins { java }\n' });
    assert.deepEqual([gradle?.detected, gradle?.evidence, gradle?.evaluator.report], ['gradle', 'build.gradle.kts', 'build/pwp-junit.xml']);
  });

  it('finds ctest only where CMakeLists.txt registers tests', () => {
    const ctest = detect({ 'CMakeLists.txt': 'project(x)\nenable_testing()\nadd_test(NAME t COMMAND t)\n' });
    assert.deepEqual([ctest?.detected, ctest?.evaluator.framework, ctest?.evaluator.report], ['ctest', 'junit', 'build/ctest-junit.xml']);
    assert.match(ctest!.evaluator.command[2], /ctest --test-dir build --output-junit \/workspace\/build\/ctest-junit\.xml$/);
    assert.equal(detect({ 'CMakeLists.txt': 'project(x)\nadd_executable(x main.cpp)\n' }), undefined);
  });

  it('lets the language of the tests to run choose, and gives them to the runner', () => {
    // IDE-Bench's C++ repository graded by Python tests.
    const cpp = { 'project/CMakeLists.txt': 'project(x)\n', 'CMakeLists.txt': 'project(x)\nenable_testing()\n', 'tests/base/test_deps.py': '' };
    assert.equal(detect(cpp)?.detected, 'ctest', 'without a hint the build tool wins');
    const py = detect(cpp, ['tasks/task-1/task_tests.py']);
    assert.deepEqual([py?.detected, py?.evaluator.command], ['pytest', ['python3', '-m', 'pytest', '-q', 'tasks/task-1/task_tests.py']]);
    const node = { 'package.json': JSON.stringify({ devDependencies: { mocha: '^10', jest: '^29' } }) };
    assert.equal(detect(node)?.detected, 'jest');
    assert.deepEqual(detect(node, ['tasks/task-2/task_tests.js'])?.evaluator.command, ['npx', 'jest', '--testMatch', '**/tasks/task-2/task_tests.js']);
    assert.equal(detect({ 'package.json': JSON.stringify({ devDependencies: { mocha: '^10' } }) }, ['tasks/task-2/task_tests.js'])?.evaluator.command.join(' '), 'npx mocha tasks/task-2/task_tests.js');
    const goPkg = detect({ 'go.mod': 'module x\n' }, ['tasks/task-3/task_test.go']);
    assert.deepEqual(goPkg?.evaluator.command, ['go', 'test', './tasks/task-3']);
    // A test file whose language has no evidence still names its framework's default.
    const java = detect({ 'README.md': '' }, ['tasks/task-1/TaskTests.java']);
    assert.deepEqual([java?.detected, java?.evidence], ['maven', 'the test file TaskTests.java']);
  });

  it('looks past dependency and build folders, and finds nothing in a repository without tests', () => {
    assert.equal(detect({ 'README.md': '# x\n', 'node_modules/lib/test_x.py': '', 'build/test_gen.py': '' }), undefined);
    assert.equal(detect({ 'go.mod': 'module x\n', 'scripts/test_tool.py': '' })?.detected, 'go');
  });
});
