// Synthetic twins of the SWE-bench rows pwp once graded wrong (test/support/sweBenchTwins.ts),
// converted by `pwp dataset swe-bench` and run for real (the IDE, the verifier):
// - pytest-dev__pytest-11143's twin: the repository is pytest itself, so the image's pytest
//   would run the hidden tests in its place. Through runTask (what `pwp run` calls) the oracle
//   scores 1 and the null agent 0. Planted: the task graded without its "repository's own code"
//   check (no import root on the tests' path, no package check), gold and null score the same.
// - pydicom__pydicom-1458's twin, through `pwp dataset check`: its tests download data as they
//   run, from a server here that the verifier reaches on its network (verifierNetwork) and the
//   agent's environment does not; ids with the harness's paths and ids cut at a space match;
//   gold 1, null 0. A second row naming a file only the harness had is flagged invalid and its
//   id counted failed, as SWE-bench counts it. Planted: the verifier without its network fails gold.
//   The same row as SWT-Bench (the gold tests the agent's): gold 1, null 0 with the verifier's
//   network; planted: without it, gold fails naming the host.
// - Django-like and SymPy-like twins (their own runners), through `pwp dataset check`: graded from
//   the result recorder in the runner's process, gold 1 and null 0; a deliverable that prints a
//   passing line for the failing test into the console scores 0 (tampering suspected).
import { strict as assert } from 'node:assert';
import { execFile, execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Docker from 'dockerode';
import { NullAgent } from '../../host/agents/nullAgent';
import { OracleAgent } from '../../host/agents/oracleAgent';
import { paths } from '../../host/common/paths';
import { convertDataset } from '../../host/converters/datasets';
import { bufferOf, tarOf } from '../../host/deployment/tarArchive';
import type { LogGraderSpec } from '../../host/converters/sweBenchLogGrader';
import type { SweInstance } from '../../host/converters/sweBench';
import { gradeState } from '../../host/taskEnv/gradeState';
import { loadTask, type Task } from '../../host/taskEnv/loadTask';
import { TaskEnv } from '../../host/taskEnv/taskEnv';
import { runTask } from '../../host/runs/runTask';
import {
  DJANGO_CONSOLE_FORGERY, DJANGO_TEST_READER, djangoTwin, filesUnder, PYDICOM_TWIN_DATA, pydicomTwin, pytestTwin, SYMPY_CONSOLE_FORGERY, SYMPY_TEST_READER, sympyTwin,
} from '../support/sweBenchTwins';
import { testImage, testPool } from './environmentFixture';

const root = join(__dirname, '../..');

/** A workspace state as the verifier receives it. */
const tarOfFiles = (files: Map<string, Buffer>) => bufferOf(tarOf([...files].map(([path, content]) => ({ path: `workspace/${path}`, content }))));

/** The task's workspace, and the same with its oracle's patch applied (SWE-bench's gold patch, SWT-Bench's gold tests). */
function states(task: Task, patch = 'gold.patch'): { initial: Map<string, Buffer>; gold: Map<string, Buffer> } {
  const scratch = mkdtempSync(join(tmpdir(), 'pwp-twin-gold-'));
  try {
    cpSync(task.workspaceDir!, scratch, { recursive: true });
    execFileSync('git', ['apply', '--whitespace=nowarn', join(task.dir, 'oracle', patch)], { cwd: scratch });
    return { initial: filesUnder(task.workspaceDir!), gold: filesUnder(scratch) };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Runs bin/pwp; a non-zero exit is a result here, not a failure. */
function pwp(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(join(root, 'bin/pwp'), args, { cwd: root, maxBuffer: 64 * 1024 * 1024, timeout: 30 * 60_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr });
    });
  });
}

/** Removes what a check's bench left (its pools are removed at its end; this is for a check cut short). */
async function removeLeft(out: string): Promise<void> {
  const docker = new Docker();
  const left = await docker.listContainers({ all: true, filters: { label: [`pwp.bench=${out}`] } });
  await Promise.all(left.map((c) => docker.getContainer(c.Id).remove({ force: true }).catch(() => undefined)));
}

/** Grades a state of `task` in a fresh verifier. */
async function grade(task: Task, image: string, s: { initial: Map<string, Buffer>; state: Map<string, Buffer> }) {
  return gradeState(task, { image, workspaceTar: await tarOfFiles(s.state), initialTar: await tarOfFiles(s.initial) });
}

describe('SWE-bench twins of published rows, run for real', function () {
  this.timeout(40 * 60_000);
  const scratch = mkdtempSync(join(tmpdir(), 'pwp-swe-twins-'));
  let image: string;
  before(async function () {
    this.timeout(30 * 60_000);
    image = await testImage();
  });
  after(() => rmSync(scratch, { recursive: true, force: true }));

  describe('pytest-dev__pytest-11143: the repository is the test runner the image also has', () => {
    let task: Task;
    before(async () => {
      const { repos, instance } = pytestTwin(join(scratch, 'pytest'));
      const input = join(scratch, 'pytest.jsonl');
      writeFileSync(input, `${JSON.stringify(instance)}\n`);
      // The real row is pending on wheels only PyPI has; the twin runs on the IDE image (--image), whose Debian pytest 7.2 is the one that masks.
      [task] = await convertDataset('swe-bench', input, { outRoot: join(scratch, 'pytest-tasks'), repos, image });
    });

    it('through runTask the oracle scores 1 and the null agent 0: the repository\'s own pytest ran the tests', async () => {
      const base = join(paths.state, 'test-runs', 'swe-twins', task.id);
      const run = async (agent: OracleAgent | NullAgent) => runTask(task, {
        agent, runDir: join(base, agent.name), defaultImage: image, pool: await testPool(), video: false, screenshots: false, labels: { 'pwp.test': '1' },
      });
      const gold = await run(new OracleAgent());
      assert.deepEqual([gold.score, gold.passed], [1, true], gold.error ?? gold.evaluation?.summary);
      const nul = await run(new NullAgent());
      assert.deepEqual([nul.score, nul.status], [0, 'finished'], nul.evaluation?.summary);
      const f2p = nul.evaluation?.tests?.cases.find((c) => c.id.includes('test_number_is_not_a_docstring'));
      assert.equal(f2p?.status, 'failed', JSON.stringify(nul.evaluation?.tests?.cases));
      assert.match(f2p?.message ?? '', /test_number_is_not_a_docstring: failed/);
    });

    it('planted: graded without the check that the repository\'s own code runs, gold and null score the same', async () => {
      // The same task with its grader's spec as a grader without the check would have it.
      const planted = join(scratch, 'planted', task.suite, task.id);
      cpSync(task.dir, planted, { recursive: true });
      const specFile = join(planted, 'hidden/workspace/.swebench/spec.json');
      const spec = JSON.parse(readFileSync(specFile, 'utf8')) as LogGraderSpec;
      assert.deepEqual([spec.module, spec.env.PYTHONPATH], ['_pytest', '/workspace/src'], 'the check is there to remove');
      delete spec.module;
      spec.env = {};
      writeFileSync(specFile, JSON.stringify(spec));
      const t = loadTask(planted);
      const s = states(t);
      const [gold, nul] = await Promise.all([grade(t, image, { initial: s.initial, state: s.gold }), grade(t, image, { initial: s.initial, state: s.initial })]);
      assert.equal(gold.score, nul.score, `gold ${gold.summary}; null ${nul.summary}`);
      assert.equal(nul.score, 1, `the image's pytest ran the tests, without the bug: ${nul.summary}`);
    });
  });

  describe('pydicom__pydicom-1458: tests that download data, ids with the harness\'s paths', () => {
    let server: Server;
    const served: string[] = [];
    let input: string;
    let repos: string;
    let out: string;
    let check: { code: number; stdout: string; stderr: string };
    let swtRow: SweInstance;
    const swtOut = join(scratch, 'pydicom-swt-check');

    before(async function () {
      this.timeout(30 * 60_000);
      // The data server, on this machine: reached from Docker's default bridge at its gateway.
      server = createServer((req, res) => {
        const name = (req.url ?? '').split('/').pop() ?? '';
        served.push(name);
        const body = PYDICOM_TWIN_DATA[name];
        res.writeHead(body ? 200 : 404).end(body ?? '');
      });
      await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve));
      // Docker names the gateway, or (20.10's default bridge) only the subnet, whose first address it is.
      const bridge = await new Docker().getNetwork('bridge').inspect() as { IPAM: { Config: { Gateway?: string; Subnet: string }[] } };
      const { Gateway, Subnet } = bridge.IPAM.Config[0];
      const gateway = Gateway || Subnet.replace(/\.0\/\d+$/, '.1');
      const url = `http://${gateway}:${(server.address() as AddressInfo).port}/data/`;
      const twin = pydicomTwin(join(scratch, 'pydicom'), url);
      repos = twin.repos;
      swtRow = twin.instances[0];
      input = join(scratch, 'pydicom.jsonl');
      writeFileSync(input, twin.instances.map((i) => JSON.stringify(i)).join('\n'));
      out = join(scratch, 'pydicom-check');
      check = await pwp(['dataset', 'check', 'swe-bench', input, '--repos', repos, '--out', out, '--parallel', '2', '--json']);
    });
    after(async () => {
      server?.close();
      await removeLeft(out);
      await removeLeft(swtOut);
    });

    interface Row { task: string; verdict: string; quirks: string[]; notes: string[]; gold: { score: number; runDir: string } | null; null: { score: number } | null }

    it('pwp dataset check: gold 1 and null 0 with the data fetched by the verifier; the unmatchable id flagged and counted failed', () => {
      const parsed = JSON.parse(check.stdout) as { rows: Row[]; summary: { ok: boolean } };
      const rows = Object.fromEntries(parsed.rows.map((r) => [r.task, r]));
      const shown = `${check.stderr}\n${JSON.stringify(parsed.rows, null, 1)}`;
      const sound = rows['swe-bench/pydicom__pydicom-90001'];
      assert.deepEqual([sound.verdict, sound.gold?.score, sound.null?.score], ['ok', 1, 0], shown);
      assert.ok(sound.quirks.includes('verifier-network'), shown);
      assert.ok(sound.notes.some((n) => /6 expected test ids carry absolute paths of the harness's machine/.test(n)), shown);
      assert.ok(sound.notes.some((n) => /1 expected test ids were cut at a space/.test(n)), shown);
      assert.ok(sound.notes.some((n) => /verifier may reach the outside network/.test(n)), shown);
      assert.ok(served.includes('remote_a.dat') && served.includes('remote_b.dat'), `the verifier fetched the data: ${served.join(', ')}`);
      // The row naming a file of the harness's checkout: left out as invalid, and the id counted failed.
      const gone = rows['swe-bench/pydicom__pydicom-90002'];
      assert.deepEqual([gone.verdict, gone.quirks], ['left-out', ['invalid:1 expected test ids can match nothing', 'verifier-network', 'gold-fails']], shown);
      assert.ok(gone.notes.some((n) => /test_read\[\/n\/fs\/p-swe-bench\/temp\/tmpab12cd\/pydicom__pydicom__2\.2\/pydicom\/data\/test_files\/gone\.dat\]: a path of the harness's run naming no file/.test(n)), shown);
      const evaluation = JSON.parse(readFileSync(join(gone.gold!.runDir, 'evaluation.json'), 'utf8')) as { tests: { cases: { id: string; status: string; message?: string }[] } };
      const failed = evaluation.tests.cases.filter((c) => c.status !== 'passed');
      assert.deepEqual(failed.map((c) => c.id.includes('gone.dat')), [true], JSON.stringify(failed));
      assert.match(failed[0].message ?? '', /not in the runner's log/);
      assert.equal(check.code, 0, `the one valid row is ok: ${check.stderr}`);
      assert.equal(parsed.summary.ok, true);
    });

    it('the network is the verifier\'s, not the agent\'s: the agent\'s environment cannot reach the server', async () => {
      const task = loadTask(join(out, 'tasks/swe-bench/pydicom__pydicom-90001'));
      assert.deepEqual([task.network, task.verifierNetwork], [false, true]);
      const url = JSON.parse(readFileSync(join(task.workspaceDir!, 'pydicom/data/urls.json'), 'utf8'))['remote_a.dat'] as string;
      const env = new TaskEnv(task, { image, pool: await testPool(), labels: { 'pwp.test': '1' } });
      try {
        await env.reset();
        const r = await env.exec(['python3', '-c', `import urllib.request; urllib.request.urlopen(${JSON.stringify(url)}, timeout=10)`], { cwd: '/workspace' });
        assert.notEqual(r.exitCode, 0, 'the agent reached the data server');
        assert.match(r.stderr, /URLError|unreachable|timed out/i);
      } finally {
        await env.close();
      }
    });

    it('planted: the same row graded without the verifier\'s network fails gold, naming the host it could not reach', async () => {
      const task = { ...loadTask(join(out, 'tasks/swe-bench/pydicom__pydicom-90001')), verifierNetwork: false };
      const s = states(task);
      const r = await grade(task, image, { initial: s.initial, state: s.gold });
      assert.equal(r.score, 0, r.summary);
      const failure = r.tests?.cases.find((c) => c.status === 'failed');
      assert.match(failure?.message ?? '', /the tests download data from github\.com, which this verifier could not reach/);
    });

    it('SWT-Bench on the same row: pwp dataset check gives gold 1 and null 0, the gold tests\' data fetched through the verifier\'s network', async () => {
      const swtInput = join(scratch, 'pydicom-swt.jsonl');
      writeFileSync(swtInput, `${JSON.stringify(swtRow)}\n`);
      served.length = 0;
      const r = await pwp(['dataset', 'check', 'swt-bench', swtInput, '--repos', repos, '--out', swtOut, '--parallel', '2', '--json']);
      const parsed = JSON.parse(r.stdout) as { rows: Row[] };
      const shown = `${r.stderr}\n${JSON.stringify(parsed.rows, null, 1)}`;
      const [row] = parsed.rows;
      assert.deepEqual([row.task, row.verdict, row.gold?.score, row.null?.score], ['swt-bench/pydicom__pydicom-90001', 'ok', 1, 0], shown);
      assert.ok(row.quirks.includes('verifier-network'), shown);
      assert.ok(row.notes.some((n) => /verifier may reach the outside network/.test(n)), shown);
      assert.ok(served.includes('remote_a.dat'), `the verifier fetched the data: ${served.join(', ')}`);
      assert.equal(r.code, 0, shown);
    });

    it('planted: SWT grading of the gold tests without the verifier\'s network fails gold, naming the host it could not reach', async () => {
      const task = { ...loadTask(join(swtOut, 'tasks/swt-bench/pydicom__pydicom-90001')), verifierNetwork: false };
      const s = states(task, 'test.patch');
      const r = await grade(task, image, { initial: s.initial, state: s.gold });
      assert.equal(r.score, 0, r.summary);
      const failure = r.tests?.cases.find((c) => c.status === 'failed');
      assert.match(failure?.message ?? '', /these tests do not pass with the gold patch/);
      assert.match(failure?.message ?? '', /the tests download data from github\.com, which this verifier could not reach/);
    });
  });
  describe('Django and SymPy: their runners\' results recorded in their process', () => {
    let out: string;
    let check: { code: number; stdout: string; stderr: string };
    before(async function () {
      this.timeout(30 * 60_000);
      const dir = join(scratch, 'own-runners');
      const twins = [djangoTwin(dir), sympyTwin(dir)];
      const input = join(scratch, 'own-runners.jsonl');
      writeFileSync(input, twins.map((t) => JSON.stringify(t.instance)).join('\n'));
      out = join(scratch, 'own-runners-check');
      check = await pwp(['dataset', 'check', 'swe-bench', input, '--repos', twins[0].repos, '--out', out, '--parallel', '2', '--json']);
    });
    after(() => removeLeft(out));

    it('pwp dataset check: gold 1 and null 0 on both', () => {
      const parsed = JSON.parse(check.stdout) as { rows: { task: string; verdict: string; gold: { score: number } | null; null: { score: number } | null }[] };
      const shown = `${check.stderr}\n${JSON.stringify(parsed.rows, null, 1)}`;
      assert.deepEqual(parsed.rows.map((r) => [r.task, r.verdict, r.gold?.score, r.null?.score]).sort(), [
        ['swe-bench/django__django-90001', 'ok', 1, 0], ['swe-bench/sympy__sympy-90001', 'ok', 1, 0],
      ], shown);
      assert.equal(check.code, 0, shown);
    });

    for (const [id, file, forgery] of [
      ['django__django-90001', 'django/__init__.py', DJANGO_CONSOLE_FORGERY], ['sympy__sympy-90001', 'sympy/__init__.py', SYMPY_CONSOLE_FORGERY],
    ] as const) {
      it(`${id}: a passing line printed into the console for the failing test scores 0, tampering suspected`, async () => {
        const task = loadTask(join(out, 'tasks/swe-bench', id));
        const s = states(task);
        const forged = new Map(s.initial);
        forged.set(file, Buffer.from(forgery));
        const r = await grade(task, image, { initial: s.initial, state: forged });
        assert.equal(r.score, 0, r.summary);
        const f2p = r.tests?.cases.find((c) => c.status === 'failed');
        assert.match(f2p?.message ?? '', /^AssertionError: tampering suspected \(result recorder\): the console shows .* passing, the result recorder failed/);
        // The grade quotes the recorder's evidence as it quotes the runner canary's.
        assert.match(r.tampering?.reason ?? '', /^tampering suspected: result recorder: the console shows .* passing, the result recorder failed/, r.summary);
      });
    }

    for (const [id, file, reader] of [
      ['django__django-90001', 'django/utils/text.py', DJANGO_TEST_READER], ['sympy__sympy-90001', 'sympy/core/numbers.py', SYMPY_TEST_READER],
    ] as const) {
      it(`${id}: a deliverable reading the hidden test file for its expected values finds it sealed (the recorder has it from the broker) and scores 0; unsealed it scores 1`, async () => {
        const task = loadTask(join(out, 'tasks/swe-bench', id));
        assert.equal((task.evaluator as { innerRecorder?: string }).innerRecorder, '.swebench/pwp_recorder.py');
        const s = states(task);
        const read = new Map(s.initial);
        read.set(file, Buffer.from(reader));
        const r = await grade(task, image, { initial: s.initial, state: read });
        assert.equal(r.score, 0, `${r.summary}\n${r.tests?.stdoutTail ?? ''}`);
        assert.equal(r.tampering, undefined, `sealing, not a check, stops it: ${r.summary}`);
        // The same reader with the tests left on disk (no innerRecorder) takes their values and passes: what sealing stops.
        const unsealed = { ...task, evaluator: { ...task.evaluator, innerRecorder: undefined } } as Task;
        const open = await grade(unsealed, image, { initial: s.initial, state: read });
        assert.equal(open.score, 1, `unsealed, the reader passes: ${open.summary}`);
      });
    }
  });
});
