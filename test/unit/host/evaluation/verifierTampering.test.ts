// The pure parts of the verifier's defences: which files are test infrastructure and what
// putting the task's copy back does, the tampering detector (and that no bundled task's
// oracle trips it), and the cross-check of a report against the runner's own output.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { goRunOf, graderRunFlags, imageRunner, innerSealBroker, innerSealedTests, JEST_SCRIPT, MOCHA_SCRIPT, NODE_BINARY, SEAL_PRELOAD, sealBrokerFor, sealedTests, testsEnv } from '../../../../host/evaluation/isolatedRunner';
import { cargoRunOf } from '../../../../host/evaluation/cargoRun';
import { crossCheck, jestSummary, pytestSummary, tapSummary } from '../../../../host/evaluation/runnerOutput';
import { findJsTampering } from '../../../../host/evaluation/jsCodeCheck';
import { pythonCheckInput, pythonFindings } from '../../../../host/evaluation/pythonCodeCheck';
import { findTampering, type TamperFinding } from '../../../../host/evaluation/tamperCheck';
import { commandFiles, planRestore, restoreRulesOf, type WorkspaceEntry } from '../../../../host/evaluation/testInfrastructure';
import type { TestCase } from '../../../../host/evaluation/testReports';
import { withReportFlags } from '../../../../host/evaluation/testsGrader';
import { resolveTasks, type Task } from '../../../../host/taskEnv/loadTask';

const b = (s: string) => Buffer.from(s);
const file = (path: string, content: string): WorkspaceEntry => ({ path, type: 'file', content: b(content) });
const NO_RULES = { restore: [], agentFiles: [], commandFiles: [] };

describe('test infrastructure put back before grading', () => {
  it('replaces the agent\'s test files, runner config, hooks and shims with the task\'s copies, and lists the changes', () => {
    const baseline = new Map([['conftest.py', b('task')], ['run_tests.sh', b('#!/bin/sh\n')], ['app.py', b('old')], ['package.json', b('{}')]]);
    const final = [
      file('conftest.py', 'hooked'), file('app.py', 'new'), file('pytest.py', 'shadow'), file('tests/test_extra.py', 'x'),
      file('sub/sitecustomize.py', 'x'), file('x.pth', 'x'), file('node_modules/.bin/jest', 'x'), file('pytest.ini', '[pytest]'),
      file('package.json', '{}'), { path: 'lib', type: 'symlink' }, file('tests/__pycache__/t.cpython-311.pyc', 'x'),
    ];
    const plan = planRestore(final, baseline, new Set(['tests/test_hidden.py']), NO_RULES);
    assert.deepEqual([...plan.restore.keys()].sort(), ['conftest.py', 'package.json', 'run_tests.sh']);
    assert.deepEqual(plan.changes, [
      { path: 'conftest.py', change: 'modified' },
      { path: 'node_modules/.bin/jest', change: 'added' },
      { path: 'pytest.ini', change: 'added' },
      { path: 'pytest.py', change: 'added' },
      { path: 'run_tests.sh', change: 'deleted' },
      { path: 'sub/sitecustomize.py', change: 'added' },
      { path: 'tests/test_extra.py', change: 'added' },
      { path: 'x.pth', change: 'added' },
    ]);
    assert.ok(!plan.drop.has('app.py') && !plan.drop.has('lib') && plan.drop.has('package.json') && plan.drop.has('tests/__pycache__/t.cpython-311.pyc'));
    assert.deepEqual([...plan.deliverable.keys()], ['app.py']);
  });

  it('drops a symlink or a folder standing where the task puts a file back', () => {
    const baseline = new Map([['tests/test_a.py', b('t')], ['conftest.py', b('c')]]);
    const final: WorkspaceEntry[] = [{ path: 'tests', type: 'symlink' }, { path: 'conftest.py', type: 'directory' }, file('conftest.py/x', 'x')];
    const plan = planRestore(final, baseline, new Set(['spec/hidden.py']), NO_RULES);
    assert.ok(plan.drop.has('tests') && plan.drop.has('conftest.py') && plan.drop.has('conftest.py/x'));
    assert.deepEqual([...plan.restore.keys()].sort(), ['conftest.py', 'tests/test_a.py']);
  });

  it('keeps files a task declares as the agent\'s, restores the ones it adds, and the files its tests command names', () => {
    const baseline = new Map([['tests/test_old.py', b('old')], ['check.sh', b('task')]]);
    const final = [file('tests/test_new.py', 'agent test'), file('tests/test_old.py', 'edited'), file('check.sh', 'forged'), file('data/fixture.json', 'x')];
    const rules = { restore: ['data/**'], agentFiles: ['tests/test_new.py'], commandFiles: ['check.sh'] };
    const plan = planRestore(final, baseline, new Set(), rules);
    assert.deepEqual(plan.changes.map((c) => `${c.path} ${c.change}`), ['check.sh modified', 'data/fixture.json added', 'tests/test_old.py modified']);
    assert.deepEqual([...plan.deliverable.keys()], ['tests/test_new.py']);
  });

  it('finds the files a tests command names (not options, not the runner, pytest ids without ::)', () => {
    const rules = restoreRulesOf({
      kind: 'tests',
      framework: 'pytest',
      command: ['bash', 'run_tests.sh', 'tests/hidden/test_x.py::test_a', '-k', 'x', '--foo=bar', './ci/check.py', '/etc/passwd'],
      scoring: 'all',
      timeoutSec: 1,
      env: {},
    });
    assert.deepEqual(rules?.commandFiles, ['run_tests.sh', 'tests/hidden/test_x.py', 'x', 'ci/check.py']);
    assert.equal(restoreRulesOf({ kind: 'files', checks: [{ path: 'package.json', exists: true, ignoreTrailingWhitespace: false }], scoring: 'all' }), undefined, 'nothing is put back for a task that runs no tests');
    assert.deepEqual(commandFiles({ kind: 'command', command: ['python3', 'app.py'], exitCode: 0, timeoutSec: 1 }), []);
  });
});

describe('isolated runners', () => {
  it('uses the image\'s runners, never the workspace\'s', () => {
    assert.deepEqual(imageRunner(['npx', 'jest', 'tests/']), ['jest', 'tests/']);
    assert.deepEqual(imageRunner(['./node_modules/.bin/mocha', 'x']), ['mocha', 'x']);
    assert.deepEqual(imageRunner(['/usr/bin/python3', '-m', 'pytest']), ['python3', '-m', 'pytest']);
    assert.deepEqual(withReportFlags({ framework: 'node', command: ['node', '--test', 'a.test.ts'] }, '/r.xml'),
      ['node', '--test-reporter=junit', '--test-reporter-destination=/r.xml', '--test-reporter=tap', '--test-reporter-destination=stdout', '--test', 'a.test.ts']);
    const env = testsEnv({ env: { PATH: '/workspace/bin', FOO: '1' } });
    assert.equal(env.PATH.split(':').some((p) => p.startsWith('/workspace')), false, 'no task or agent puts a workspace folder on PATH');
    assert.equal(env.FOO, '1');
    assert.equal(env.PYTEST_DISABLE_PLUGIN_AUTOLOAD, '1');
    assert.equal(env.GOENV, 'off', 'no Go settings file the tests\' code can write');
  });

  it('seals the hidden test modules and conftest.py files a pytest command or a script running pytest runs (--assert=plain too), and nothing another runner reads', () => {
    const hidden = [
      'tests/test_roman_hidden.py', 'tests/conftest.py', 'tests/helpers.py', 'other/test_else.py', '.swebench/test_swebench.py', '.swebench/runner_canary.py', 'size_test.go',
    ];
    const seal = (command: string[], framework = 'pytest') => sealedTests({ framework: framework as 'pytest', command }, hidden);
    assert.deepEqual(seal(['python3', '-m', 'pytest', '-q', '-o', 'faulthandler_timeout=20', 'tests/test_roman_hidden.py']),
      ['/workspace/tests/test_roman_hidden.py', '/workspace/tests/conftest.py']);
    assert.deepEqual(seal(['pytest', 'tests/']), ['/workspace/tests/test_roman_hidden.py', '/workspace/tests/conftest.py']);
    assert.deepEqual(seal(['python3', '-m', 'pytest', '.swebench/test_swebench.py::test_result']),
      ['/workspace/.swebench/test_swebench.py'], "a grader's own run, which loads no conftest.py");
    assert.deepEqual(seal(['python3', '-m', 'pytest']),
      ['/workspace/tests/test_roman_hidden.py', '/workspace/tests/conftest.py', '/workspace/other/test_else.py', '/workspace/.swebench/test_swebench.py'],
      'all of them when it names none');
    assert.deepEqual(seal(['python3', '-m', 'pytest', '--assert=plain', 'tests']), ['/workspace/tests/test_roman_hidden.py', '/workspace/tests/conftest.py'],
      "without rewriting the plugin's loader takes them");
    assert.deepEqual(seal(['bash', 'run_tests.sh', 'tests/test_roman_hidden.py']),
      ['/workspace/tests/test_roman_hidden.py', '/workspace/tests/conftest.py', '/workspace/tests/helpers.py', '/workspace/other/test_else.py'],
      'a script that runs pytest: every hidden Python file outside the grader\'s dot-folders, whatever it is given');
    assert.ok(sealBrokerFor({ framework: 'pytest', command: ['bash', 'run_tests.sh'] }), 'a script gets them from the broker');
    assert.ok(!sealBrokerFor({ framework: 'pytest', command: ['python3', '-m', 'pytest'] }), 'pytest itself on its descriptor');
    assert.ok(!sealBrokerFor({ framework: 'exitCode', command: ['python3', '-I', '.resq/run_resq.py'], completionMark: true }), 'a completion-mark script: its launcher takes them on its descriptor');
    assert.deepEqual(seal(['go', 'test', './...'], 'go'), ['/workspace/size_test.go'], "go test seals the hidden _test.go files");
    assert.deepEqual(seal(['go', 'test', '-exec', 'x', './...'], 'go'), [], 'an argument it does not know runs go test as given');
    assert.deepEqual(sealedTests({ framework: 'go', command: ['go', 'test', './...'], env: { CGO_ENABLED: '1' } }, hidden), [], 'cgo could include a sealed file');
    assert.deepEqual(seal(['go', 'test', '-race', './...'], 'go'), [], '-race needs cgo, which the sealed build turns off');
  });

  it('seals the hidden Rust sources of a cargo test it can run in two builds, and reads its options as cargo does', () => {
    const hidden = ['tests/hidden.rs', 'tasks/t1/task_tests.rs', '.swebench/x.rs', 'tests/data.txt', 'tests/test_x.py'];
    assert.deepEqual(sealedTests({ framework: 'cargo', command: ['cargo', 'test', '--no-fail-fast'] }, hidden),
      ['/workspace/tests/hidden.rs', '/workspace/tasks/t1/task_tests.rs']);
    assert.deepEqual(sealedTests({ framework: 'cargo', command: ['cargo', 'test', '--doc'] }, hidden), [], 'an option it does not know runs cargo test as given');
    assert.deepEqual(cargoRunOf(['cargo', 'test', '--no-fail-fast', '-p', 'core', '--features=a,b', 'parses', '--', '--test-threads', '1']),
      { buildArgs: ['--no-fail-fast', '-p', 'core', '--features', 'a,b'], testArgs: ['parses', '--test-threads', '1'] }, 'the name filter goes to the test binaries');
    assert.deepEqual(cargoRunOf(['cargo', 'test', '--test', 'api']), { buildArgs: ['--test', 'api'], testArgs: [] });
    const unknowns = [['cargo', 'test', '--no-run'], ['cargo', 'test', '-q'], ['cargo', 'test', '--message-format', 'json'], ['cargo', 'test', '-p'], ['cargo', 'build']];
    for (const unknown of [...unknowns, ['cargo', 'test', 'a', 'b']]) {
      assert.equal(cargoRunOf(unknown), undefined, unknown.join(' '));
    }
  });

  it('seals every hidden JavaScript source outside dot-folders and node_modules for a script that runs node\'s runners, through the broker', () => {
    const hidden = [
      'test/sum.test.js', 'test/helper.ts', 'tasks/t1/task_tests.mjs', 'node_modules/x/index.js', '.pwp-idebench/run-tests.sh', '.grader/check.js', 'tests/test_x.py', 'data.json',
    ];
    const js = ['/workspace/test/sum.test.js', '/workspace/test/helper.ts', '/workspace/tasks/t1/task_tests.mjs'];
    for (const framework of ['exitCode', 'mocha', 'jest'] as const) {
      const e = { framework, command: ['bash', 'run_tests.sh'] };
      assert.deepEqual(sealedTests(e, hidden), js, framework);
      assert.deepEqual(sealBrokerFor(e)?.node, { preload: SEAL_PRELOAD, binary: NODE_BINARY, runners: [MOCHA_SCRIPT, JEST_SCRIPT] }, `${framework}: node's broker`);
    }
    assert.equal(sealBrokerFor({ framework: 'mocha', command: ['npx', 'mocha', 'test/'] }), undefined, 'mocha itself: on its descriptor');
    assert.deepEqual(sealedTests({ framework: 'mocha', command: ['npx', 'mocha', 'test/'] }, hidden), [...js, '/workspace/.grader/check.js'], 'the runner itself seals every hidden source, as before');
    assert.equal(sealBrokerFor({ framework: 'pytest', command: ['bash', 'run_tests.sh'] })?.node, undefined, "a pytest script's broker serves pytest's launch");
  });

  it('the broker takes a node asker for the runner by its script\'s real path, node --test among its options or a sealed program, nothing else', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pwp-broker-'));
    const runner = join(dir, 'mocha.js');
    writeFileSync(runner, '');
    symlinkSync(runner, join(dir, 'mocha'));
    writeFileSync(join(dir, 'evil.js'), '');
    const broker = join(__dirname, '../../../../host/evaluation/verifierScripts/pwp_seal_broker.py');
    const sealed = ['/workspace/tasks/t1/task_tests.js'];
    const check = (argv: string[], runners = [runner]) => execFileSync('/usr/bin/python3', ['-I', '-c',
      'import importlib.util, json, sys\nspec = importlib.util.spec_from_file_location("b", sys.argv[1]); b = importlib.util.module_from_spec(spec); spec.loader.exec_module(b)\n'
      + 'print(json.dumps(b.node_runner(*map(json.loads, sys.argv[2:5]))))', broker, JSON.stringify(argv), JSON.stringify(runners), JSON.stringify(sealed)], { encoding: 'utf8' }).trim();
    assert.equal(check(['node', join(dir, 'mocha'), 'test/']), 'true', 'through its link on PATH');
    assert.equal(check(['/opt/node/bin/node', '--test-reporter=tap', '--test', 'test/x.js']), 'true');
    assert.equal(check(['node', join(dir, 'evil.js'), '--test']), 'false', '--test after the script is the script\'s');
    assert.equal(check(['node', 'mocha.js']), 'false', 'a relative script could be anything');
    assert.equal(check(['python3', runner]), 'false');
    assert.equal(check(['node', 'tasks/t1/task_tests.js']), 'true', 'a sealed file as the program, named from its folder');
    assert.equal(check(['node', '/workspace/tasks/t1/task_tests.js']), 'true');
    assert.equal(check(['node', 'task_tests.js']), 'true', 'or from its own');
    assert.equal(check(['node', '../t1/task_tests.js']), 'false', 'a path out of the folder it is run from names nothing sure');
    assert.equal(check(['node', 'tasks/t1/other.js']), 'false', 'a file that is not sealed');
    assert.equal(check(['node', join(dir, 'mocha')], []), 'false', 'a pytest script\'s broker takes no node');
    rmSync(dir, { recursive: true, force: true });
  });

  it('hands the repository\'s hidden Python files to the pytest run a grader starts (innerPytest), its own file on its descriptor', () => {
    const hidden = ['.swebench/test_swebench.py', '.swebench/runner_canary.py', '.swebench/spec.json', 'tests/test_calc.py', 'tests/conftest.py', 'tests/data.json'];
    const e = { framework: 'pytest' as const, command: ['python3', '-m', 'pytest', '-q', '.swebench/test_swebench.py'] };
    assert.deepEqual(sealedTests(e, hidden), ['/workspace/.swebench/test_swebench.py'], 'the grader itself, on its descriptor');
    assert.deepEqual(innerSealedTests({ ...e, innerPytest: true }, hidden), ['/workspace/tests/test_calc.py', '/workspace/tests/conftest.py']);
    assert.deepEqual(innerSealedTests(e, hidden), [], 'only where the task says its grader runs pytest');
    assert.deepEqual(innerSealedTests({ framework: 'pytest', command: ['bash', 'run.sh'], innerPytest: true }, hidden), [], 'a script gets them all from the broker already');
  });

  it('seals a grader\'s C, C++ and Java build (innerBuild): every hidden source and header outside its dot-folder, emptied rather than closed', () => {
    const hidden = ['.swebench/test_swebench.py', '.swebench/runner_canary.py', 'tests/CMakeLists.txt', 'tests/test_x.c', 'tests/util.hpp', 'tests/in.txt', 'src/test/XTest.java'];
    const e = { framework: 'pytest' as const, command: ['python3', '-m', 'pytest', '-q', '.swebench/test_swebench.py'] };
    assert.deepEqual(innerSealedTests({ ...e, innerBuild: true }, hidden), ['/workspace/tests/test_x.c', '/workspace/tests/util.hpp', '/workspace/src/test/XTest.java']);
    assert.deepEqual(innerSealBroker({ innerBuild: true }).empty, true, 'CMake takes an unreadable source for a missing one');
    assert.equal(innerSealBroker({}).empty, undefined);
  });

  it('runs the grader\'s own pytest file without the workspace\'s conftest.py and ini file', () => {
    const hidden = ['.swebench/test_swebench.py', '.swebench/spec.json', 'tests/test_calc.py'];
    const flags = (command: string[], framework = 'pytest') => graderRunFlags({ framework, command } as never, hidden);
    const isolated = ['--noconftest', '-c', '/dev/null', '--rootdir=/workspace', '--pwp-grader-run'];
    assert.deepEqual(flags(['python3', '-m', 'pytest', '-q', '.swebench/test_swebench.py']), isolated);
    assert.deepEqual(flags(['pytest', '-o', 'faulthandler_timeout=20', '/workspace/.swebench/test_swebench.py::test_result']), isolated, 'option values and node ids');
    assert.deepEqual(flags(['python3', '-m', 'pytest', '-q', 'tests/test_calc.py']), [], "the repository's tests keep their conftest");
    assert.deepEqual(flags(['python3', '-m', 'pytest', '.swebench/test_swebench.py', 'tests/test_calc.py']), [], 'not the grader alone');
    assert.deepEqual(flags(['python3', '-m', 'pytest', '.github/test_ci.py']), [], 'a dot-folder file the task does not hide is the repository\'s');
    assert.deepEqual(flags(['python3', '-m', 'pytest']), [], 'names nothing');
    assert.deepEqual(flags(['bash', 'run.sh', '.swebench/test_swebench.py']), [], 'a script');
  });

  it('seals the hidden Python files of a test script run for its completion mark, not the grader\'s own dot-folders', () => {
    const hidden = ['resq_test_script.py', 'helpers/data.py', '.resq/run_resq.py', '.resq/resq.json', 'fixtures/input.txt'];
    const command = ['python3', '-I', '.resq/run_resq.py'];
    assert.deepEqual(sealedTests({ framework: 'exitCode', command, completionMark: true }, hidden), ['/workspace/resq_test_script.py', '/workspace/helpers/data.py']);
    assert.deepEqual(sealedTests({ framework: 'exitCode', command }, hidden), [], 'without the mark the launcher is not what runs the script');
    assert.deepEqual(sealedTests({ framework: 'exitCode', command, completionMark: true }, ['.canitedit/canitedit_tests.py', '.canitedit/run_canitedit.py']), [],
      "CanItEdit's tests are in its own folder, read by its wrapper");
  });

  it('splits a go test command into packages, build flags and the test binary\'s flags', () => {
    const argv = ['go', 'test', '-json', '-count=1', '-run', 'TestA|TestB', '-tags', 'x', '-race', '-overlay=/c/o.json', './pkg/...', '-v'];
    assert.deepEqual(goRunOf(argv), {
      patterns: ['./pkg/...'], buildFlags: ['-tags=x', '-race', '-overlay=/c/o.json'], testFlags: ['-test.count=1', '-test.run=TestA|TestB', '-test.v'],
    });
    assert.deepEqual(goRunOf(['go', 'test']), { patterns: ['.'], buildFlags: [], testFlags: [] });
    assert.equal(goRunOf(['go', 'test', '-toolexec', '/workspace/x', '.']), undefined);
    assert.equal(goRunOf(['go', 'test', '-run']), undefined, 'a flag without its value');
    assert.equal(goRunOf(['go', 'vet', '.']), undefined);
  });

  it('seals every hidden JavaScript and TypeScript source of a node --test, mocha (--parallel too) or jest command, or of a script running them but the script itself', () => {
    const hidden = [
      'test/sum.test.js', 'test/helper.mjs', 'tests/chunk.hidden.test.ts', 'src/view.tsx', 'package.json', 'test/fixture.json', 'node_modules/x/index.js', 'tests/test_a.py',
    ];
    const js = ['/workspace/test/sum.test.js', '/workspace/test/helper.mjs', '/workspace/tests/chunk.hidden.test.ts', '/workspace/src/view.tsx'];
    const seal = (framework: string, command: string[]) => sealedTests({ framework: framework as 'node', command }, hidden);
    assert.deepEqual(seal('node', ['node', '--test', 'test/']), js);
    assert.deepEqual(seal('mocha', ['npx', 'mocha', 'test/']), js);
    assert.deepEqual(seal('jest', ['node_modules/.bin/jest']), js);
    assert.deepEqual(seal('mocha', ['mocha', '--parallel', 'test/']), js, 'mocha --parallel is sealed too, and run serially');
    // A script: the same files, through the broker (sealBrokerFor), but the one the command runs.
    assert.deepEqual(seal('node', ['node', 'test/sum.test.js']), js.slice(1), 'node without --test runs its script as a plain program');
    assert.deepEqual(seal('jest', ['bash', 'run.sh']), js);
  });
});

describe('tampering detector', () => {
  const find = (path: string, text: string, before?: string, agentFiles?: string[]) =>
    findTampering(new Map([[path, b(text)]]), new Map(before === undefined ? [] : [[path, b(before)]]), { agentFiles, pythonModules: new Set(['json', 'pytest']) });

  it('flags code that patches the runner, exits from a handler or names the report', () => {
    assert.match(find('a.py', 'import atexit\n')[0].reason, /exit handler/);
    assert.match(find('a.py', 'from _pytest.reports import TestReport\n')[0].reason, /_pytest/);
    assert.match(find('a.py', 'sys.modules["pytest"] = fake\n')[0].reason, /sys.modules/);
    assert.match(find('a.py', 'def pytest_runtest_makereport(item, call):\n')[0].reason, /hook/);
    assert.match(find('a.py', '    os._exit(0)\n')[0].reason, /os._exit/);
    assert.match(find('a.ts', "import assert from 'node:assert/strict';\n")[0].reason, /test framework/);
    assert.match(find('a.js', "const a = require('assert');\n")[0].reason, /test framework/);
    assert.match(find('a.ts', "process.on('exit', () => {});\n")[0].reason, /exit handler/);
    assert.match(find('a.mjs', 'assert.deepEqual = () => {};\n')[0].reason, /assertion/);
    assert.match(find('a.go', 'func init() { os.Exit(0) }\n')[0].reason, /os.Exit/);
    assert.match(find('json.py', 'x = 1\n')[0].reason, /shadows the installed Python module "json"/);
  });

  it('counts only lines the agent added, lets declared test files use (not patch) the framework', () => {
    assert.deepEqual(find('a.py', 'import atexit\nx = 2\n', 'import atexit\nx = 1\n'), []);
    assert.deepEqual(find('json.py', 'x = 2\n', 'x = 1\n'), [], 'a module the task already had is not a shadow');
    assert.deepEqual(find('tests/test_a.py', 'import pytest\n', undefined, ['tests/**']), []);
    assert.equal(find('tests/test_a.py', 'import pytest\n').length, 1);
    assert.equal(find('tests/test_a.py', 'import atexit\n', undefined, ['tests/**']).length, 1);
    assert.deepEqual(find('a.py', 'def slugify(text):\n    return text.lower()\n'), []);
    const inPytestItself = findTampering(new Map([['src/_pytest/runner.py', b('from _pytest.reports import TestReport\n')]]), new Map([['src/_pytest/main.py', b('')]]));
    assert.deepEqual(inPytestItself, [], "a change to pytest's own source (a SWE-bench task on pytest) names pytest's modules");
  });

  // Every bundled task's oracle must still score 1: nothing it writes may look like tampering.
  it('finds nothing in what any bundled task\'s oracle writes', () => {
    const stdlib = new Set(execFileSync('python3', ['-I', '-c', 'import sys; print("\\n".join(sys.stdlib_module_names))'], { encoding: 'utf8' }).split('\n').filter(Boolean));
    const tasks = resolveTasks([]);
    assert.ok(tasks.length >= 40, `${tasks.length} tasks`);
    let scanned = 0;
    for (const t of tasks) {
      const written = oracleWrites(t);
      scanned += written.size;
      const baseline = workspaceFiles(t);
      const found = [
        ...findTampering(written, baseline, { agentFiles: t.grading.agentFiles, pythonModules: stdlib }),
        ...findJsTampering(written, baseline),
        ...pythonCodeFindings(written, baseline),
      ];
      assert.deepEqual(found, [], `${t.suite}/${t.id}`);
    }
    assert.ok(scanned >= 20, `oracle files scanned: ${scanned}`);
  });
});

/** The verifier's Python code check, run by Debian's python3 as the verifier runs it. */
function pythonCodeFindings(changed: Map<string, Buffer>, baseline: Map<string, Buffer>): TamperFinding[] {
  const input = pythonCheckInput(changed, baseline);
  if (!input) return [];
  const file = join(mkdtempSync(join(tmpdir(), 'pwp-oracle-')), 'input.json');
  writeFileSync(file, JSON.stringify(input));
  const stdout = execFileSync('/usr/bin/python3', ['-I', join(__dirname, '../../../../host/evaluation/verifierScripts/pyCodeCheck.py'), file], { encoding: 'utf8' });
  return pythonFindings({ exitCode: 0, stdout, stderr: '' });
}

/** What a task's oracle writes into the workspace: write_file contents, writeFile steps, typed text, and the + lines of patches it applies. */
function oracleWrites(t: Task): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  let open = 'typed.txt';
  for (const s of t.oracle.steps as Record<string, unknown>[]) {
    if (typeof s.openFile === 'string') open = s.openFile;
    if (s.tool === 'write_file') { const a = s.args as { file_path: string; contents: string }; out.set(a.file_path, b(a.contents)); }
    if (typeof s.type === 'string') out.set(open, Buffer.concat([out.get(open) ?? b(''), b(`${s.type}\n`)]));
    if (typeof s.writeFile === 'string') {
      const content = typeof s.from === 'string' ? readFileSync(join(t.dir, s.from)) : b(String(s.content ?? ''));
      if (!String(s.writeFile).startsWith('/')) out.set(String(s.writeFile), content);
      else if (String(s.writeFile).endsWith('.diff')) {
        let target = '';
        for (const line of content.toString('utf8').split('\n')) {
          if (line.startsWith('+++ ')) target = line.slice(4).replace(/^b\//, '');
          else if (line.startsWith('+') && target) out.set(target, Buffer.concat([out.get(target) ?? b(''), b(`${line.slice(1)}\n`)]));
        }
      }
    }
  }
  return out;
}

function workspaceFiles(t: Task): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  if (!t.workspaceDir || !existsSync(t.workspaceDir)) return out;
  const walk = (d: string) => {
    for (const e of readdirSync(d)) {
      const p = join(d, e);
      if (statSync(p).isDirectory()) walk(p);
      else out.set(relative(t.workspaceDir!, p), readFileSync(p));
    }
  };
  walk(t.workspaceDir);
  return out;
}

describe('report against the runner\'s own output', () => {
  const cases = (passed: number, failed: number): TestCase[] => [
    ...Array.from({ length: passed }, (_, i) => ({ id: `p${i}`, aliases: [], status: 'passed' as const })),
    ...Array.from({ length: failed }, (_, i) => ({ id: `f${i}`, aliases: [], status: 'failed' as const })),
  ];
  const run = (exitCode: number, stdout: string, stderr = '') => ({ exitCode, stdout, stderr, timedOut: false });

  it('reads pytest\'s summary line, node\'s TAP totals and jest\'s Tests line', () => {
    assert.deepEqual(pytestSummary('FF.\n- generated xml file: /x\n2 failed, 1 passed, 1 xpassed in 0.03s\n'), { passed: 2, failed: 2, source: '2 failed, 1 passed, 1 xpassed in 0.03s' });
    assert.equal(pytestSummary('==== 1 failed, 2 errors in 1.20s ====')?.failed, 3);
    assert.equal(pytestSummary('no tests ran in 0.01s')?.passed, 0);
    assert.deepEqual(tapSummary('TAP version 13\n# tests 3\n# pass 2\n# fail 1\n# cancelled 0\n'), { passed: 2, failed: 1, source: '# pass 2, # fail 1' });
    assert.deepEqual(jestSummary('Tests:       1 failed, 2 passed, 3 total\n'), { passed: 2, failed: 1, source: 'Tests: 1 failed, 2 passed, 3 total' });
  });

  it('agrees with an honest run and names the disagreement of a forged one', () => {
    assert.equal(crossCheck('pytest', cases(2, 1), run(1, '.F.\n1 failed, 2 passed in 0.01s\n')), undefined);
    assert.match(crossCheck('pytest', cases(4, 0), run(0, 'FFFF\n4 failed in 0.02s\n'))!, /the report has 4 passing tests, pytest counted 0/);
    assert.match(crossCheck('pytest', cases(0, 4), run(0, 'FFFF\n4 failed in 0.02s\n'))!, /exited with 0 after 4 failures/);
    assert.match(crossCheck('pytest', cases(2, 0), run(0, ''))!, /printed no summary/);
    assert.equal(crossCheck('pytest', cases(2, 0), run(0, ''), true), undefined, 'a task that asks for no summary (-qq) is not suspected');
    assert.match(crossCheck('node', cases(3, 0), run(1, '# pass 1\n# fail 2\n'))!, /node --test counted 1/);
    assert.match(crossCheck('jest', cases(3, 0), run(1, '', 'Tests:       3 failed, 3 total\n'))!, /jest counted 0/);
    assert.match(crossCheck('mocha', cases(3, 0), run(2, ''))!, /mocha exited with 2/);
    assert.match(crossCheck('go', cases(1, 1), run(0, ''))!, /go test exited with 0/);
    assert.equal(crossCheck('go', cases(2, 0), run(0, '')), undefined);
  });
});
