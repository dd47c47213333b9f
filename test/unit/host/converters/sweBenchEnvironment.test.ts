// SWE-bench instances in their repository's own environment, on synthetic twins of published
// rows (no published data here): the repository's code is what the tests import (checked when
// grading), the harness's pins met by Debian or pending on a named wheel, test ids matched as
// the harness's parsers wrote them, the verifier's network for tests that download data, and
// the workspace a git repository at the base commit holding nothing later.
import { strict as assert } from 'node:assert';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestsEvaluator } from '../../../../host/evaluation/evaluatorSchema';
import { parseJUnitXml, tally } from '../../../../host/evaluation/testReports';
import { gitWorkspaceSetup } from '../../../../host/converters/repoCheckout';
import { convertSweBench, type SweInstance } from '../../../../host/converters/sweBench';
import { convertSwtBench } from '../../../../host/converters/swtBench';
import { mappingNotes, mapTestIds } from '../../../../host/converters/sweBenchIds';
import { debianMeets, pinsOnDebian } from '../../../../host/converters/sweBenchImage';
import { logCaseId, logGraderFiles, logGraderSpec, type LogGraderSpec } from '../../../../host/converters/sweBenchLogGrader';
import { checkToolchains, MissingToolchainError } from '../../../../host/taskEnv/resolveTaskImage';
import { git, repoWith, write } from '../../../support/sweBenchTwins';

const BUGGY = 'def span(a, b):\n    return b - a\n';
const FIXED = 'def span(a, b):\n    return abs(b - a)\n';
const TESTS = 'from spanlib import span\n\n\ndef test_forward():\n    assert span(1, 3) == 2\n\n\ndef test_backward():\n    assert span(3, 1) == 2\n';

describe('SWE-bench in the repository\'s own environment', () => {
  let root: string;
  beforeEach(() => { root = mkdtempSync(join(tmpdir(), 'pwp-swe-env-')); });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('maps the ids the harness\'s parsers wrote: its paths to this run\'s files, cut ids kept for prefix matching, the test\'s own paths kept, unmatchable ones reported', () => {
    const files = new Set(['pkg/data/test_files/a b.dcm', 'pkg/data/test_files/rgb.dcm', 'pkg/data/test_files/rgb_expb.dcm', 'pkg/tests/test_x.py', 'setup.py']);
    const harness = '/n/fs/p-swe-bench/temp/tmpq/acme__pkg__2.2';
    const m = mapTestIds([
      'pkg/tests/test_x.py::test_plain',
      `pkg/tests/test_x.py::test_read[${harness}/pkg/data/test_files/rgb.dcm-data0]`,
      'pkg/tests/test_x.py::test_read[/n/fs/guest/someone/.pkgdata/data/emri.dcm-data4]',
      // Two files in one parameter (pydicom's test_big_endian_datasets): both paths are the harness's.
      `pkg/tests/test_x.py::test_pair[${harness}/pkg/data/test_files/rgb.dcm-${harness}/pkg/data/test_files/rgb_expb.dcm]`,
      'pkg/tests/test_x.py::test_pair[/n/fs/guest/someone/.pkgdata/data/l.dcm-/n/fs/guest/someone/.pkgdata/data/l_expb.dcm]',
      // The test's own constants (pytest-dev__pytest-11143's test_get_cache_dir): the same in every run.
      'pkg/tests/test_x.py::test_cache[/tmp/pycs-/home/projects/src/setup.py-/tmp/pycs/home/projects/src]',
      // The harness's container checkout.
      'pkg/tests/test_x.py::test_read[/testbed/pkg/data/test_files/rgb.dcm]',
      // Cut at a space, with a path before the cut.
      `pkg/tests/test_x.py::test_read[${harness}/pkg/data/test_files/a`,
      'pkg/tests/test_x.py::test_unpack[',
      // Names nothing here: a file of the harness's checkout we do not have, a tmp_path of its run.
      `pkg/tests/test_x.py::test_read[${harness}/pkg/data/gone.dcm-data9]`,
      'pkg/tests/test_x.py::test_tmp[/tmp/pytest-of-root/pytest-0/test_tmp0/a.txt]',
    ], { files, repo: 'acme/pkg', homeData: ['.pkgdata/data'] });
    assert.deepEqual(m.ids, [
      'pkg/tests/test_x.py::test_plain',
      'pkg/tests/test_x.py::test_read[/workspace/pkg/data/test_files/rgb.dcm-data0]',
      'pkg/tests/test_x.py::test_read[/home/pwp/.pkgdata/data/emri.dcm-data4]',
      'pkg/tests/test_x.py::test_pair[/workspace/pkg/data/test_files/rgb.dcm-/workspace/pkg/data/test_files/rgb_expb.dcm]',
      'pkg/tests/test_x.py::test_pair[/home/pwp/.pkgdata/data/l.dcm-/home/pwp/.pkgdata/data/l_expb.dcm]',
      'pkg/tests/test_x.py::test_cache[/tmp/pycs-/home/projects/src/setup.py-/tmp/pycs/home/projects/src]',
      'pkg/tests/test_x.py::test_read[/workspace/pkg/data/test_files/rgb.dcm]',
      'pkg/tests/test_x.py::test_read[/workspace/pkg/data/test_files/a',
      'pkg/tests/test_x.py::test_unpack[',
      `pkg/tests/test_x.py::test_read[${harness}/pkg/data/gone.dcm-data9]`,
      'pkg/tests/test_x.py::test_tmp[/tmp/pytest-of-root/pytest-0/test_tmp0/a.txt]',
    ]);
    assert.deepEqual(m.unmatchable, [`pkg/tests/test_x.py::test_read[${harness}/pkg/data/gone.dcm-data9]`, 'pkg/tests/test_x.py::test_tmp[/tmp/pytest-of-root/pytest-0/test_tmp0/a.txt]']);
    assert.deepEqual(m.cut, [`pkg/tests/test_x.py::test_read[${harness}/pkg/data/test_files/a`, 'pkg/tests/test_x.py::test_unpack[']);
    assert.equal(m.mapped.length, 6);
    const notes = mappingNotes(m);
    assert.equal(notes.length, 4, notes.join('\n'));
    assert.match(notes[0], /^6 expected test ids carry absolute paths of the harness's machine/);
    assert.match(notes[1], /^2 expected test ids were cut at a space .* as SWE-bench's grading resolves them$/);
    assert.match(notes[2], /gone\.dcm-data9\]: a path of the harness's run naming no file .* counts as failed/);
    // A cut id stands for the cases it begins, passed only when they agree (SWE-bench's _resolve_case).
    const cases = (statuses: ('passed' | 'failed')[]) => statuses.map((status, i) => ({ id: `pkg/tests/test_x.py::test_unpack[ ${i} ]`, aliases: [], status }));
    assert.equal(tally(cases(['passed', 'passed']), ['pkg/tests/test_x.py::test_unpack[']).passed, 1);
    assert.equal(tally(cases(['passed', 'failed']), ['pkg/tests/test_x.py::test_unpack[']).passed, 0);
    assert.deepEqual(tally([], ['pkg/tests/test_x.py::test_unpack[']).missing, ['pkg/tests/test_x.py::test_unpack[']);
  });

  it('meets the harness\'s pins with Debian only where Debian\'s version is as new in the same major version', () => {
    assert.ok(debianMeets('23.1', '23.0'));
    assert.ok(!debianMeets('1.0.0', '1.3.0'));
    assert.ok(!debianMeets('1.0.0', '0.13.1'), 'another major version is another API');
    const p = pinsOnDebian(['pluggy==1.3.0', 'tomli==2.0.1', 'pytest', 'left-pad==1.0']);
    assert.deepEqual(p.debs, ['python3-tomli', 'python3-pytest']);
    assert.deepEqual(p.missing.map((m) => `${m.pin}: ${m.why}`), ['pluggy==1.3.0: Debian has 1.0.0', 'left-pad==1.0: no Debian package']);
  });

  it('a pytest-dev/pytest twin: its own pytest runs from src/, its version file written as the install does, pending on the pins Debian cannot meet', () => {
    const repo = repoWith(join(root, 'repos/pytest-dev__pytest'), {
      'src/_pytest/__init__.py': 'from ._version import version as __version__\n', 'src/_pytest/rewrite.py': BUGGY, '.gitignore': 'src/_pytest/_version.py\n',
      'testing/test_rewrite.py': 'def test_old():\n    pass\n',
    });
    const inst: SweInstance = {
      instance_id: 'pytest-dev__pytest-90001', repo: 'pytest-dev/pytest', base_commit: repo.base, version: '8.0',
      patch: repo.diff({ 'src/_pytest/rewrite.py': FIXED }),
      test_patch: repo.diff({ 'testing/test_rewrite.py': 'def test_old():\n    pass\n\n\ndef test_new():\n    pass\n' }),
      problem_statement: 'spans go negative', FAIL_TO_PASS: ['testing/test_rewrite.py::test_new'], PASS_TO_PASS: ['testing/test_rewrite.py::test_old'],
    };
    writeFileSync(join(root, 'in.jsonl'), `${JSON.stringify(inst)}\n`);
    const notes: string[] = [];
    const [task] = convertSweBench(join(root, 'in.jsonl'), { outRoot: join(root, 'out'), repos: join(root, 'repos'), onNote: (n) => notes.push(n) });
    const spec = JSON.parse(readFileSync(join(task.hiddenDir!, 'workspace/.swebench/spec.json'), 'utf8')) as LogGraderSpec;
    assert.equal(spec.log, 'junit');
    assert.equal(spec.module, '_pytest');
    assert.deepEqual(spec.env, { PYTHONPATH: '/workspace/src' });
    // Its own runner is the agent's deliverable: the verifier would put the task's copy of a "pytest" folder back otherwise.
    assert.deepEqual(task.grading?.agentFiles, ['src/_pytest/**', 'src/pytest/**', 'src/py.py']);
    assert.deepEqual((task.evaluator as TestsEvaluator).expected, ['testing/test_rewrite.py::test_new', 'testing/test_rewrite.py::test_old'].map(logCaseId));
    assert.match(readFileSync(join(task.workspaceDir!, 'src/_pytest/_version.py'), 'utf8'), /__version__ = version = '8\.0\.0\.dev0'/);
    assert.match(JSON.stringify(task.setup), /git rm -q --cached --ignore-unmatch -- 'src\/_pytest\/_version.py'/);
    assert.ok(notes.some((n) => /Python 3\.9; here it is Debian's 3\.11/.test(n)), notes.join('\n'));
    assert.ok(notes.some((n) => /pluggy==1\.3\.0 \(Debian has 1\.0\.0\).*pending/.test(n)), notes.join('\n'));
    // Pending, naming the pin, until its wheel is supplied; never built on Debian's older pluggy.
    assert.throws(() => checkToolchains(task.imageSource), (e: Error) => e instanceof MissingToolchainError && /iniconfig==2\.0\.0.*Debian has 1\.1\.1/.test(e.message) && /pip download/.test(e.message)
      && /also missing: .*packaging==23\.1.*pluggy==1\.3\.0.*exceptiongroup==1\.1\.3/.test(e.message));
    const dockerfile = readFileSync(join(task.dir, 'image/Dockerfile'), 'utf8');
    assert.match(dockerfile, /pip install --no-deps --no-index --break-system-packages \/tmp\/pwp-wheels/);
    for (const w of ['iniconfig-2.0.0', 'packaging-23.1', 'pluggy-1.3.0', 'exceptiongroup-1.1.3']) mkdirSync(join(task.dir, 'image/wheels', w), { recursive: true });
    checkToolchains(task.imageSource);
  });

  it('a pydicom twin: absolute-path ids mapped, an unmatchable one flagged invalid, the verifier\'s network allowed and said', () => {
    const repo = repoWith(join(root, 'repos/pydicom__pydicom'), {
      'pydicom/__init__.py': '', 'pydicom/handler.py': BUGGY, 'pydicom/data/test_files/rgb.dcm': 'DICM',
      'pydicom/tests/test_handler.py': 'def test_old():\n    pass\n',
    });
    const inst: SweInstance = {
      instance_id: 'pydicom__pydicom-90002', repo: 'pydicom/pydicom', base_commit: repo.base, version: '2.2',
      patch: repo.diff({ 'pydicom/handler.py': FIXED }),
      test_patch: repo.diff({ 'pydicom/tests/test_handler.py': 'def test_old():\n    pass\n\n\ndef test_new():\n    pass\n' }),
      problem_statement: 'spans go negative', FAIL_TO_PASS: ['pydicom/tests/test_handler.py::test_new'],
      PASS_TO_PASS: [
        'pydicom/tests/test_handler.py::test_read[/n/fs/p-swe-bench/temp/tmpx/pydicom__pydicom__2.2/pydicom/data/test_files/rgb.dcm-data0]',
        'pydicom/tests/test_handler.py::test_read[/n/fs/guest/u/.pydicom/data/emri.dcm-data1]',
        'pydicom/tests/test_handler.py::test_read[/n/fs/p-swe-bench/temp/nowhere.dcm-data2]',
      ],
    };
    writeFileSync(join(root, 'in.jsonl'), `${JSON.stringify(inst)}\n`);
    const notes: string[] = [];
    const [task] = convertSweBench(join(root, 'in.jsonl'), { outRoot: join(root, 'out'), repos: join(root, 'repos'), onNote: (n) => notes.push(n) });
    assert.equal(task.verifierNetwork, true);
    assert.equal(task.network, false, 'the agent\'s environment stays without the network');
    assert.ok(notes.some((n) => /verifier may reach the outside network .* pydicom downloads test data/.test(n)), notes.join('\n'));
    const spec = JSON.parse(readFileSync(join(task.hiddenDir!, 'workspace/.swebench/spec.json'), 'utf8')) as LogGraderSpec;
    assert.deepEqual(spec.tests, [
      'pydicom/tests/test_handler.py::test_new',
      'pydicom/tests/test_handler.py::test_read[/workspace/pydicom/data/test_files/rgb.dcm-data0]',
      'pydicom/tests/test_handler.py::test_read[/home/pwp/.pydicom/data/emri.dcm-data1]',
      'pydicom/tests/test_handler.py::test_read[/n/fs/p-swe-bench/temp/nowhere.dcm-data2]',
    ]);
    assert.equal(spec.passToPassFrom, 1);
    assert.ok(task.tags.includes('invalid:1 expected test ids can match nothing'), task.tags.join(', '));
    assert.ok(notes.some((n) => /nowhere\.dcm.*can match nothing and counts as failed/.test(n)), notes.join('\n'));
  });

  it('SWT-Bench on a pydicom twin: the verifier\'s network from the same spec fact, said, and its host handed to the grader; a repository that downloads nothing gets none', () => {
    const repos = join(root, 'repos');
    const repo = repoWith(join(repos, 'pydicom__pydicom'), {
      'pydicom/__init__.py': '', 'pydicom/handler.py': BUGGY, 'pydicom/tests/test_handler.py': 'def test_old():\n    pass\n',
    });
    const row = (repoName: string, id: string): SweInstance => ({
      instance_id: id, repo: repoName, base_commit: repo.base, version: '2.2', patch: repo.diff({ 'pydicom/handler.py': FIXED }),
      test_patch: repo.diff({ 'pydicom/tests/test_handler.py': 'def test_old():\n    pass\n\n\ndef test_new():\n    pass\n' }),
      problem_statement: 'spans go negative', FAIL_TO_PASS: [], PASS_TO_PASS: [],
    });
    // The same clone under another name: a repository the spec table gives no data download.
    cpSync(join(repos, 'pydicom__pydicom'), join(repos, 'pallets__flask'), { recursive: true });
    const rows = [row('pydicom/pydicom', 'pydicom__pydicom-90003'), row('pallets/flask', 'pallets__flask-90001')];
    writeFileSync(join(root, 'swt.jsonl'), rows.map((r) => JSON.stringify(r)).join('\n'));
    const notes: string[] = [];
    const [pydicom, flask] = convertSwtBench(join(root, 'swt.jsonl'), { outRoot: join(root, 'swt-out'), repos, onNote: (n) => notes.push(n) });
    assert.deepEqual([pydicom.verifierNetwork, pydicom.network], [true, false]);
    assert.deepEqual(notes, [
      'pydicom__pydicom-90003: the verifier may reach the outside network while it grades (verifierNetwork): pydicom downloads test data files (pydicom-data, the URLs in pydicom/data/urls.json) while its tests run; where github.com cannot be reached, the tests that need the data fail and the grade says so',
    ]);
    assert.equal(JSON.parse(readFileSync(join(pydicom.hiddenDir!, 'swt/swt.json'), 'utf8')).fetchHost, 'github.com');
    assert.equal(flask.verifierNetwork, false);
    assert.equal(JSON.parse(readFileSync(join(flask.hiddenDir!, 'swt/swt.json'), 'utf8')).fetchHost, undefined);
  });

  describe('the JUnit grader (run here with Debian\'s python3 and pytest)', function () {
    this.timeout(300_000);
    /** Grades a workspace with the hidden grader; the status of each expected case. */
    function grade(ws: string, spec: Partial<LogGraderSpec>, tests: string[]): Record<string, string> {
      write(ws, {
        ...logGraderFiles(''),
        '.swebench/spec.json': logGraderSpec({
          instance_id: 'x', log: 'junit', command: ['python3', '-m', 'pytest', '-rA', 'tests/test_span.py'], env: { PYTHONPATH: join(ws, 'src') }, runner: null,
          tests, timeoutSec: 120, initial: ws, module: 'spanlib', parser: 'pytest', passToPassFrom: 1, ...spec,
        }),
      });
      const report = join(root, 'outer.xml');
      const outer = ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', '.swebench/test_swebench.py', `--junitxml=${report}`, '-o', 'junit_family=xunit1'];
      spawnSync('/usr/bin/python3', outer, { cwd: ws });
      const cases = parseJUnitXml(readFileSync(report, 'utf8'), { pythonIds: true });
      return Object.fromEntries(tests.map((t) => {
        const c = cases.find((x) => x.id === logCaseId(t));
        return [t, c ? `${c.status}${c.message ? `: ${c.message}` : ''}` : 'missing'];
      }));
    }
    const tests = ['tests/test_span.py::test_backward', 'tests/test_span.py::test_forward'];
    const status = (r: Record<string, string>) => Object.values(r).map((s) => s.split(':')[0]);

    it('grades the workspace\'s package, not one installed elsewhere with the same name (pytest-dev__pytest-11143: the image\'s pytest ran)', () => {
      // The "installed" package is the fixed one, as the image's pytest 7.2.1 was newer than the repository's bug.
      write(join(root, 'site'), { 'spanlib/__init__.py': FIXED });
      const ws = join(root, 'ws');
      write(ws, { 'src/spanlib/__init__.py': BUGGY, 'tests/test_span.py': TESTS });
      const gold = join(root, 'gold');
      cpSync(ws, gold, { recursive: true });
      write(gold, { 'src/spanlib/__init__.py': FIXED });
      assert.deepEqual(status(grade(ws, {}, tests)), ['failed', 'passed'], 'null: the repository\'s bug shows');
      assert.deepEqual(status(grade(gold, {}, tests)), ['passed', 'passed'], 'gold');
      // Planted: the tests' path finds the installed package first. Gold and null would score
      // alike; grading fails instead, saying where the package came from.
      const wrong = grade(ws, { env: { PYTHONPATH: join(root, 'site') } }, tests);
      assert.deepEqual(status(wrong), ['failed', 'failed']);
      assert.match(Object.values(wrong)[0], /package spanlib is not the workspace's \(imported from .*site\/spanlib\/__init__\.py\)/);
    });

    it('a conftest that turns every outcome into a pass is caught by the grader\'s canary', () => {
      const ws = join(root, 'ws');
      write(ws, {
        'src/spanlib/__init__.py': BUGGY, 'tests/test_span.py': TESTS,
        // In tests/, where it reaches the repository's tests (and the canary beside them) but not the grader itself.
        'tests/conftest.py': 'import pytest\n\n\n@pytest.hookimpl(hookwrapper=True)\ndef pytest_runtest_makereport(item, call):\n    out = yield\n    out.get_result().outcome = "passed"\n',
      });
      const r = grade(ws, {}, tests);
      assert.deepEqual(status(r), ['failed', 'failed']);
      assert.match(Object.values(r)[0], /^failed: AssertionError: tampering suspected \(pytest report\): the grader's canary is not in pytest's report as it must be/);
    });
  });

  it('the workspace is a git repository at the base commit, with no object of the fix anywhere in it', () => {
    const origin = join(root, 'origin');
    const repo = repoWith(origin, { 'lib.py': BUGGY, 'notes.txt': 'x\n' });
    // Later history the harness's clone would carry: the fix, as a commit, a tag and a stash.
    write(origin, { 'lib.py': FIXED }); git(origin, ['commit', '-qam', 'fix']); git(origin, ['tag', 'v2']);
    const fixBlob = execFileSync('git', ['hash-object', '--stdin'], { input: FIXED }).toString().trim();
    const objects = (dir: string) => [
      git(dir, ['log', '--all', '--format=%H %T']), git(dir, ['fsck', '--lost-found', '--no-progress']),
      git(dir, ['cat-file', '--batch-all-objects', '--batch-check']),
    ].join('\n');
    // Planted: a clone at the base commit still reaches the fix (the check below sees it).
    const clone = join(root, 'clone');
    git(root, ['clone', '-q', origin, clone]); git(clone, ['checkout', '-q', repo.base]);
    assert.ok(objects(clone).includes(fixBlob), 'the check finds the fix in a plain clone');

    const ws = join(root, 'ws');
    write(ws, { 'lib.py': BUGGY, 'notes.txt': 'x\n', 'gen.py': 'v = 1\n' });
    const info = { author: ['A', 'a@x', '2024-01-02T03:04:05Z'], committer: ['C', 'c@x', '2024-01-02T03:04:05Z'], message: 'base\n\nbody' } as const;
    const [step] = gitWorkspaceSetup('acme/lib', repo.base, { author: [...info.author], committer: [...info.committer], message: info.message }, ['gen.py']);
    const argv = (step as { exec: string[] }).exec;
    execFileSync(argv[0], argv.slice(1), { cwd: ws });
    assert.ok(!objects(ws).includes(fixBlob));
    assert.equal(git(ws, ['log', '--all', '--oneline']).trim().split('\n').length, 1);
    assert.equal(git(ws, ['log', '-1', '--format=%an|%cn|%aI|%B']).trim(), 'A|C|2024-01-02T03:04:05+00:00|base\n\nbody');
    assert.equal(git(ws, ['status', '--porcelain']).trim(), '?? gen.py', 'clean, the install\'s file untracked');
    assert.equal(git(ws, ['stash', 'list']).trim(), '');
    assert.equal(git(ws, ['tag']).trim(), '');
    assert.ok(!existsSync(join(ws, '.git/refs/stash')));
  });
});
