// Test reports of real runners (fixtures/reports: pytest, node --test, mocha (JSON and xunit)
// and jest 30 outputs as those tools wrote them; jest.json and go test -json in their
// documented formats) as cases.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { findCase, parseCargoTest, parseGoTestJson, parseJestJson, parseJUnitXml, parseMochaJson, tally } from '../../../../host/evaluation/testReports';
import { crossCheck } from '../../../../host/evaluation/runnerOutput';
import { withReportFlags } from '../../../../host/evaluation/testsGrader';

const fixture = (f: string) => readFileSync(join(__dirname, '../../../support/fixtures/reports', f), 'utf8');

describe('test reports', () => {
  it('reads pytest JUnit XML (xunit1) with pytest ids, parametrized cases, failures and skips', () => {
    const cases = parseJUnitXml(fixture('pytest-xunit1.xml'), { pythonIds: true });
    assert.deepEqual(cases.map((c) => [c.id, c.status]), [
      ['tests/test_calc.py::test_add', 'passed'],
      ['tests/test_calc.py::test_sub', 'failed'],
      ['tests/test_calc.py::test_skip', 'skipped'],
      ['tests/test_calc.py::TestMul::test_mul[2-3]', 'passed'],
      ['tests/test_calc.py::TestMul::test_mul[1-0]', 'failed'],
    ]);
    assert.match(cases[1].message!, /one minus one\nassert \(1 - 1\) == 1/);
    assert.deepEqual(tally(cases), { passed: 2, failed: 2, skipped: 1, total: 5, missing: [] }, 'a skipped test counts, as not passed');
  });

  it('gives the same ids to a pytest report without file attributes (xunit2)', () => {
    const one = parseJUnitXml(fixture('pytest-xunit1.xml'), { pythonIds: true }).map((c) => c.id);
    const two = parseJUnitXml(fixture('pytest-xunit2.xml'), { pythonIds: true }).map((c) => c.id);
    assert.deepEqual(two, one);
  });

  it('scores a passing test whose captured output holds failure markup (escaped or CDATA) as passed', () => {
    const cases = parseJUnitXml(fixture('junit-captured-failure-text.xml'), { pythonIds: true });
    assert.deepEqual(cases.map((c) => [c.id, c.status]), [
      ['tests/test_log.py::test_prints_markup', 'passed'],
      ['tests/test_log.py::test_cdata_markup', 'passed'],
      ['tests/test_log.py::test_really_fails', 'failed'],
    ]);
    assert.equal(cases[2].message, 'assert 1 == 2');
    assert.deepEqual(tally(cases), { passed: 2, failed: 1, skipped: 0, total: 3, missing: [] });
  });

  it('reads entities and numeric character references in names and messages', () => {
    const cases = parseJUnitXml('<testsuite name="s &amp; t"><testcase name="caf&#233; &lt;&#x41;&gt;"><failure>a &amp;&amp; b</failure></testcase></testsuite>');
    assert.deepEqual(cases.map((c) => [c.id, c.status, c.message]), [['s & t > café <A>', 'failed', 'a && b']]);
  });

  it('counts expected tests by id or alias, and missing ones as failed', () => {
    const cases = parseJUnitXml(fixture('pytest-xunit1.xml'), { pythonIds: true });
    assert.equal(findCase(cases, 'tests.test_calc.TestMul::test_mul[2-3]')?.status, 'passed');
    assert.equal(findCase(cases, 'test_add')?.status, 'passed');
    const t = tally(cases, ['tests/test_calc.py::test_add', 'tests/test_calc.py::TestMul::test_mul[2-3]', 'tests/test_calc.py::test_gone']);
    assert.deepEqual(t, { passed: 2, failed: 1, skipped: 0, total: 3, missing: ['tests/test_calc.py::test_gone'] });
  });

  it('reads node --test JUnit output with suite-qualified names', () => {
    const cases = parseJUnitXml(fixture('node-test.xml'));
    assert.deepEqual(cases.map((c) => [c.id, c.status]), [['math > adds', 'passed'], ['math > fails', 'failed'], ['top level', 'passed'], ['skipped', 'skipped']]);
    assert.equal(cases[1].message, '1 == 2');
    assert.equal(findCase(cases, 'adds')?.status, 'passed');
  });

  it('names other runners\' JUnit cases classname::name, not by a suite that only names the runner', () => {
    // mocha --reporter xunit: one <testsuite name="Mocha Tests">, the describe title as classname.
    const mocha = parseJUnitXml(fixture('mocha-xunit.xml'));
    assert.deepEqual(mocha.map((c) => [c.id, c.status]), [['sum::adds', 'passed'], ['sum::adds negatives', 'passed'], ['sum::is wrong', 'failed']]);
    assert.match(mocha[2].message!, /2 !== 3/);
    assert.equal(findCase(mocha, 'sum is wrong'), mocha[2], 'the full title mocha itself prints');
    assert.equal(findCase(mocha, 'Mocha Tests > adds'), mocha[0]);
    // pytest's report read as plain JUnit (framework `junit`): <testsuite name="pytest">.
    const py = parseJUnitXml(fixture('pytest-xunit2.xml'));
    assert.equal(py[3].id, 'tests.test_calc.TestMul::test_mul[2-3]');
    assert.equal(findCase(py, 'tests.test_calc.TestMul.test_mul[2-3]'), py[3]);
  });

  it('reads mocha JSON', () => {
    const cases = parseMochaJson(fixture('mocha.json'));
    assert.deepEqual(cases.map((c) => [c.id, c.status]).sort(), [['cart adds items', 'passed'], ['cart later', 'skipped'], ['cart totals', 'failed']]);
    assert.equal(findCase(cases, 'cart totals')?.message, '1 == 2');
  });

  it('reads mocha JSON printed after other output on stdout', () => {
    const cases = parseMochaJson(`some console.log line\n${fixture('mocha.json')}`);
    assert.equal(cases.length, 3);
  });

  it('reads jest JSON', () => {
    const cases = parseJestJson(fixture('jest.json'));
    assert.deepEqual(cases.map((c) => [c.id, c.status]), [
      ['slugify lowercases', 'passed'], ['slugify joins words with dashes', 'passed'],
      ['slugify collapses repeated dashes', 'failed'], ['slugify handles unicode', 'skipped'],
    ]);
    assert.match(cases[2].message!, /Expected: "a-b"/);
    assert.equal(findCase(cases, 'slugify > lowercases')?.status, 'passed');
  });

  it('reads jest 30 JSON, with ids relative to the workspace as aliases', () => {
    const cases = parseJestJson(fixture('jest-30.json'));
    assert.deepEqual(cases.map((c) => [c.id, c.status]), [['sum adds', 'passed'], ['sum adds negatives', 'passed'], ['sum is wrong', 'failed']]);
    assert.match(cases[2].message!, /Expected: 3\nReceived: 2/);
    assert.equal(findCase(cases, 'jest/sum.test.js::sum is wrong'), cases[2]);
    assert.equal(findCase(cases, '/workspace/jest/sum.test.js::sum adds'), cases[0]);
  });

  it('reads go test -json, subtests included', () => {
    const cases = parseGoTestJson(fixture('go-test.jsonl'));
    assert.deepEqual(cases.map((c) => [c.id, c.status]), [
      ['example.com/shop/cart::TestTotal', 'passed'],
      ['example.com/shop/cart::TestDiscount/ten_percent', 'failed'],
      ['example.com/shop/cart::TestDiscount', 'failed'],
      ['example.com/shop/cart::TestLater', 'skipped'],
    ]);
    assert.match(cases[1].message!, /got 100, want 90/);
    assert.equal(findCase(cases, 'TestTotal')?.status, 'passed');
  });

  it('counts a bare go test name two packages share as passed only when both pass', () => {
    const event = (pkg: string, action: string) => JSON.stringify({ Action: action, Package: pkg, Test: 'TestParse', Elapsed: 0 });
    const both = parseGoTestJson([event('m/a', 'pass'), event('m/b', 'pass')].join('\n'));
    assert.equal(findCase(both, 'TestParse')?.status, 'passed');
    for (const order of [['fail', 'pass'], ['pass', 'fail']]) {
      const one = parseGoTestJson([event('m/a', order[0]), event('m/b', order[1])].join('\n'));
      assert.equal(findCase(one, 'TestParse')?.status, 'failed', order.join(' then '));
    }
    assert.equal(findCase(both, 'm/b::TestParse')?.id, 'm/b::TestParse', 'a full id names one');
  });

  it('switches on each framework\'s machine-readable report', () => {
    assert.deepEqual(withReportFlags({ framework: 'pytest', command: ['python3', '-m', 'pytest', 'tests'] }, '/r.xml').slice(4), [
      '--junitxml=/r.xml',
      '-o',
      'junit_family=xunit1',
      '-p',
      'no:cacheprovider',
    ]);
    assert.deepEqual(withReportFlags({ framework: 'node', command: ['node', '--test', 'test/'] }, '/r.xml'), [
      'node',
      '--test-reporter=junit',
      '--test-reporter-destination=/r.xml',
      '--test-reporter=tap',
      '--test-reporter-destination=stdout',
      '--test',
      'test/',
    ]);
    // Sealed: node's own --require loads the sealing preload before the runner, in one process.
    assert.deepEqual(withReportFlags({ framework: 'node', command: ['node', '--test', 'test/'] }, '/r.xml', false, [], true).slice(0, 4),
      ['node', '--test-reporter=junit', '--test-reporter-destination=/r.xml', '--test-reporter=tap']);
    assert.deepEqual(withReportFlags({ framework: 'node', command: ['node', '--test', 'test/'] }, '/r.xml', false, [], true).slice(-5),
      ['--require', '/pwp/runner/node/pwp_seal.js', '--test-isolation=none', '--test', 'test/']);
    assert.deepEqual(withReportFlags({ framework: 'mocha', command: ['npx', 'mocha', 'test/'] }, '/r.json', false, [], true).slice(0, 6),
      ['node', '--require', '/pwp/runner/node/pwp_seal.js', '/opt/test-runners/node_modules/mocha/bin/mocha.js', '--no-parallel', 'test/']);
    // Serial whatever the command says (a .mocharc's parallel is overridden by --no-parallel).
    assert.deepEqual(withReportFlags({ framework: 'mocha', command: ['mocha', '-p', '--parallel', '--parallel=true', '-j', '2', 'test/'] }, '/r.json', false, [], true).slice(3, 8),
      ['/opt/test-runners/node_modules/mocha/bin/mocha.js', '--no-parallel', '-j', '2', 'test/']);
    assert.deepEqual(withReportFlags({ framework: 'jest', command: ['npx', 'jest'] }, '/r.json', false, [], true).slice(0, 6),
      ['node', '--require', '/pwp/runner/node/pwp_seal.js', '/opt/test-runners/node_modules/jest/bin/jest.js', '--runInBand', '--no-cache']);
    assert.deepEqual(withReportFlags({ framework: 'go', command: ['go', 'test', './...'] }), ['go', 'test', '-json', './...']);
    assert.deepEqual(
      withReportFlags({ framework: 'jest', command: ['npx', 'jest'] }, '/r.json'),
      ['jest', '--json', '--outputFile=/r.json'],
      "the image's jest, not the workspace's",
    );
    assert.deepEqual(withReportFlags({ framework: 'mocha', command: ['npx', 'mocha'] }, '/r.json'), ['mocha', '--reporter', 'json', '--reporter-option', 'output=/r.json']);
    assert.deepEqual(withReportFlags({ framework: 'go', command: ['go', 'test', '-json', './...'] }), ['go', 'test', '-json', './...']);
    assert.deepEqual(withReportFlags({ framework: 'junit', command: ['gradle', 'test'] }), ['gradle', 'test'], 'a junit command writes its own report');
  });

  // cargo test as the rust toolchain image's cargo 1.65 prints it: the binaries named on stderr, their results on stdout.
  const CARGO_STDOUT = '\nrunning 1 test\ntest tests::inside ... ok\n\ntest result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n\n\n'
    + 'running 3 tests\ntest inside ... ok\ntest low ... FAILED\ntest slow ... ignored\n\nfailures:\n\n---- low stdout ----\ntrying low\nthread \'low\' panicked at \'assertion failed\', tests/clamp.rs:4:36\n\n\n'
    + 'failures:\n    low\n\ntest result: FAILED. 1 passed; 1 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.00s\n\n\n'
    + 'running 1 test\ntest src/lib.rs - clamp (line 1) ... ok\n\ntest result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.33s\n\n';
  const CARGO_STDERR = '   Compiling gauge v0.1.0 (/w)\n    Finished test [unoptimized + debuginfo] target(s) in 1.47s\n'
    + '     Running unittests src/lib.rs (target/debug/deps/gauge-06e687143e0d44c0)\n     Running tests/clamp.rs (target/debug/deps/clamp-25c76e87b0c267b8)\n'
    + 'error: test failed, to rerun pass `--test clamp`\n   Doc-tests gauge\nerror: 1 target failed:\n    `--test clamp`\n';

  it('reads cargo test\'s console: each case by its test binary\'s source and name, the same name in two binaries apart, a failure with its output', () => {
    const cases = parseCargoTest(CARGO_STDOUT, CARGO_STDERR);
    assert.deepEqual(cases.map((c) => [c.id, c.status]), [
      ['src/lib.rs::tests::inside', 'passed'], ['tests/clamp.rs::inside', 'passed'], ['tests/clamp.rs::low', 'failed'], ['tests/clamp.rs::slow', 'skipped'],
      ['doctests gauge::src/lib.rs - clamp (line 1)', 'passed'],
    ]);
    assert.match(cases[2].message!, /^trying low\nthread 'low' panicked at 'assertion failed', tests\/clamp\.rs:4:36$/);
    assert.deepEqual(cases[1].aliases, ['inside']);
    // The same run with both streams as one (a command that sends stderr to stdout): the same ids.
    const merged = CARGO_STDOUT.split('\n\n\n').map((block, i) => `${CARGO_STDERR.split('\n').filter((l) => /Running|Doc-tests/.test(l))[i]}\n${block}`).join('\n\n\n');
    assert.deepEqual(parseCargoTest(merged).map((c) => c.id), cases.map((c) => c.id));
    // The binary's hash changes with the build: a binary cargo names without its source is named without the hash.
    assert.deepEqual(parseCargoTest('running 1 test\ntest a ... ok\n', '     Running target/debug/deps/clamp-25c76e87b0c267b8\n').map((c) => c.id), ['clamp::a']);
    assert.equal(crossCheck('cargo', cases, { exitCode: 101, stdout: CARGO_STDOUT, stderr: CARGO_STDERR, timedOut: false }), undefined);
    assert.match(crossCheck('cargo', cases, { exitCode: 0, stdout: CARGO_STDOUT, stderr: CARGO_STDERR, timedOut: false })!, /^cargo test exited with 0 after 1 failures \(3 test result lines\)/);
  });

  it('runs every test binary of cargo test, so a failing one does not hide the tests of those after it', () => {
    assert.deepEqual(withReportFlags({ framework: 'cargo', command: ['cargo', 'test', '--offline'] }), ['cargo', 'test', '--no-fail-fast', '--offline']);
    assert.deepEqual(withReportFlags({ framework: 'cargo', command: ['cargo', 'test', '--no-fail-fast'] }), ['cargo', 'test', '--no-fail-fast']);
  });
});
