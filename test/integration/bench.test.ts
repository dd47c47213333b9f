// `pwp bench` as a user runs it, on two quick bundled tasks of two suites (one scored by its
// per-test pass rate): the null agent with two attempts and the baselines, two at a time.
// Checked: [i/n] progress lines, one results.jsonl line per run, the summary table per suite
// (success, pass@1/pass@2, test pass rate, null and oracle baselines), report.md and
// report.html; then an interrupted bench (a result line gone, the file's final newline too)
// re-run on a terminal: it runs only the missing run, with the progress bar; and Ctrl-C
// during a bench removes its containers.
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Docker from 'dockerode';
import { testImage } from './environmentFixture';

const execFileP = promisify(execFile);
const root = join(__dirname, '../..');
const TASKS = ['code-edit/py-roman', 'idebench-inventory/pagination'] as const;
const SUITES = ['code-edit', 'idebench-inventory'];

/** Runs a command; a failure carries its output (the bench's own account of what went wrong). */
async function run(file: string, args: string[]): Promise<{ stdout: string; stderr: string }> {
  const p = execFileP(file, args, { cwd: root, maxBuffer: 64 * 1024 * 1024, timeout: 20 * 60_000 });
  p.child.stdin?.end(); // nothing to read: `script` must not wait for input
  try {
    return await p;
  } catch (err) {
    const e = err as Error & { stdout?: string; stderr?: string };
    throw new Error(`${e.message}\nstdout:\n${e.stdout}\nstderr:\n${e.stderr}`, { cause: err });
  }
}

interface Line { task: string; agent: string; attempt: number; score: number; passed: boolean; status: string; tests?: { passed: number; total: number }; runDir: string }

/** Every line of results.jsonl, each of which must be a whole JSON object. */
function resultLines(file: string): Line[] {
  return readFileSync(file, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as Line);
}

/** The terminal summary table as rows keyed by its column names (cells are two or more spaces apart). */
function summaryRows(stdout: string): Record<string, string>[] {
  const lines = stdout.replace(/\r/g, '').split('\n');
  const h = lines.findIndex((l) => l.startsWith('suite ') && l.includes('pass@1'));
  assert.ok(h >= 0, `no summary table in:\n${stdout}`);
  const head = lines[h].trim().split(/\s{2,}/);
  const rows: Record<string, string>[] = [];
  for (const l of lines.slice(h + 2)) {
    if (!l.trim()) break;
    const cells = l.trim().split(/\s{2,}/);
    rows.push(Object.fromEntries(head.map((k, i) => [k, cells[i]])));
  }
  return rows;
}

/** The containers of the bench in folder `out` (they carry it as a label). */
const benchContainers = (out: string) => new Docker().listContainers({ all: true, filters: { label: [`pwp.bench=${out}`] } });

/** Only a failed or killed bench leaves containers: removes them, and the bench folder. */
async function removeBench(out: string): Promise<void> {
  const docker = new Docker();
  await Promise.all((await benchContainers(out)).map((c) => docker.getContainer(c.Id).remove({ force: true }).catch(() => undefined)));
  rmSync(out, { recursive: true, force: true });
}

describe('pwp bench (CLI, real containers): progress, results, summary, reports, resume', function () {
  this.timeout(25 * 60_000); // a hang detector: with two CIs on 2 cores the 6 runs, 2 at a time, did not end within 8-10 min
  const out = mkdtempSync(join(tmpdir(), 'pwp-bench-'));
  const args = ['bench', ...TASKS, '--agent', 'null', '--attempts', '2', '--baselines', '--parallel', '2', '--no-video', '--out', out];
  const results = join(out, 'results.jsonl');
  let first: { stdout: string; stderr: string };

  before(async () => {
    await testImage();
    first = await run(join(root, 'bin/pwp'), args);
  });
  after(async () => {
    await removeBench(out);
  });

  it('appends one line per run: 2 attempts of the null agent and 1 oracle run per task, null 0, oracle 1', () => {
    const lines = resultLines(results);
    assert.equal(lines.length, 6, JSON.stringify(lines, null, 1));
    const key = (l: Line) => `${l.task} ${l.agent}#${l.attempt}`;
    assert.deepEqual(lines.map(key).sort(), TASKS.flatMap((t) => [`${t} null#1`, `${t} null#2`, `${t} oracle#1`]).sort());
    for (const l of lines) {
      const why = JSON.stringify(l);
      assert.equal(l.status, 'finished', why);
      assert.equal(l.score, l.agent === 'oracle' ? 1 : 0, why);
      assert.equal(l.passed, l.agent === 'oracle', why);
      assert.ok(l.tests && l.tests.total > 0, `hidden tests ran: ${why}`);
      assert.equal(l.tests.passed, l.agent === 'oracle' ? l.tests.total : 0, why);
      assert.ok(existsSync(join(l.runDir, 'result.json')), `run folder ${l.runDir}`);
    }
  });

  it('prints an [i/n] line on stderr as each run ends when stderr is not a terminal', () => {
    const progress = first.stderr.split('\n').filter((l) => /^\[\d+\/6\] /.test(l));
    assert.deepEqual(progress.map((l) => l.match(/^\[(\d+)\//)![1]), ['1', '2', '3', '4', '5', '6'], first.stderr);
    assert.ok(progress.some((l) => /^\[\d\/6\] idebench-inventory\/pagination oracle#1: 1\.00$/.test(l)), first.stderr);
    assert.ok(progress.some((l) => /^\[\d\/6\] code-edit\/py-roman null#2: 0\.00$/.test(l)), first.stderr);
    assert.doesNotMatch(first.stderr, /runs \| solved/, 'no progress bar without a terminal');
  });

  it('prints per suite: success, mean score, pass@1 and pass@2, the test pass rate, and the null and oracle baselines', () => {
    assert.match(first.stdout, /^6 runs now, 0 already done$/m);
    const rows = summaryRows(first.stdout);
    assert.deepEqual(rows.map((r) => `${r.suite} ${r.agent}`), SUITES.flatMap((s) => [`${s} null`, `${s} oracle`]));
    for (const r of rows) {
      const nul = r.agent === 'null';
      assert.deepEqual(
        [r.tasks, r.runs, r['success [95%]'], r['mean score [95%]'], r['pass@1'], r['pass@2'], r['test pass rate'], r.null, r.oracle, r.errors],
        nul ? ['1', '2', '0.0% [0.0–65.8]', '0.000 [0.000–0.000]', '0.0%', '0.0%', '0.0%', '0.0%', '100.0%', '0']
          : ['1', '1', '100.0% [20.7–100.0]', '1.000 [1.000–1.000]', '100.0%', '–', '100.0%', '0.0%', '100.0%', '0'],
        `${JSON.stringify(r)}\n${first.stdout}`,
      );
    }
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
    assert.deepEqual(summary.baselines, Object.fromEntries(SUITES.map((s) => [s, { null: 0, oracle: 1 }])));
  });

  it('writes report.md and report.html with the summary columns and every task\'s runs and scores', () => {
    const md = readFileSync(join(out, 'report.md'), 'utf8');
    assert.match(md, /\| suite \| agent \| tasks \| runs \| success \[95%\] \| mean score \[95%\] \| pass@1 \| pass@2 \| test pass rate \| null \| oracle \| errors \|/);
    assert.match(md, /\| idebench-inventory \| null \| 1 \| 2 \| 0\.0% \[0\.0–65\.8\] \| 0\.000 \[0\.000–0\.000\] \| 0\.0% \| 0\.0% \| 0\.0% \| 0\.0% \| 100\.0% \| 0 \|/);
    for (const t of TASKS) {
      for (const a of [1, 2]) assert.match(md, new RegExp(`\\| ${t} \\| null \\| ${a} \\| 0\\.00 \\| ✗ \\| 0/\\d+ \\|`));
      assert.match(md, new RegExp(`\\| ${t} \\| oracle \\| 1 \\| 1\\.00 \\| ✓ \\| (\\d+)/\\1 \\|`));
    }
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    for (const th of ['pass@2', 'test pass rate', 'null', 'oracle']) assert.ok(html.includes(`<th>${th}</th>`), th);
    for (const t of TASKS) {
      assert.ok(html.includes(`<td>${t}</td><td>oracle</td><td>1</td><td>1.00</td>`), `${t} oracle in report.html`);
      assert.ok(html.includes(`<td>${t}</td><td>null</td><td>2</td><td>0.00</td>`), `${t} null #2 in report.html`);
      assert.ok(html.includes(`href="runs/${t}/oracle-1/trajectory.jsonl"`), `${t}: a link to the run's trajectory`);
    }
  });

  it('a re-run of an interrupted bench runs only the missing run, with a progress bar on a terminal, and completes the results', async () => {
    const lines = readFileSync(results, 'utf8').split('\n').filter((l) => l.trim());
    const gone = lines.findIndex((l) => { const r = JSON.parse(l) as Line; return r.task === TASKS[0] && r.agent === 'null' && r.attempt === 2; });
    assert.ok(gone >= 0);
    // The line of a run that never ended, and a final newline lost to a hand edit.
    writeFileSync(results, lines.filter((_, i) => i !== gone).join('\n'));
    // `script` gives the bench a terminal (stdout and stderr both arrive on its stdout).
    const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
    const { stdout } = await run('script', ['-qefc', [join(root, 'bin/pwp'), ...args].map(quote).join(' '), '/dev/null']);
    assert.match(stdout, /^1 runs now, 5 already done\r?$/m, stdout);
    assert.match(stdout, /1\/1 runs \| solved 0 \| errors 0 \| code-edit\/py-roman null#2: 0\.00/, 'the progress bar');
    assert.doesNotMatch(stdout, /\[\d+\/1\] code-edit/, 'no progress lines on a terminal');
    const after = resultLines(results);
    assert.equal(after.length, 6);
    assert.equal(new Set(after.map((l) => `${l.task} ${l.agent}#${l.attempt}`)).size, 6, 'each run once');
    const redone = after.filter((l) => l.task === TASKS[0] && l.agent === 'null' && l.attempt === 2);
    assert.deepEqual(redone.map((l) => [l.status, l.score]), [['finished', 0]]);
    assert.deepEqual(summaryRows(stdout), summaryRows(first.stdout), 'the same summary');
  });

  it('Ctrl-C removes the containers the bench started and keeps the results written so far', async () => {
    const docker = new Docker();
    const out2 = mkdtempSync(join(tmpdir(), 'pwp-bench-int-'));
    const child = spawn(join(root, 'bin/pwp'), ['bench', TASKS[0], '--agent', 'oracle', '--attempts', '2', '--parallel', '1', '--no-video', '--out', out2], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
    let exitCode: number | null | undefined;
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => { exitCode = code; resolve(code); }));
    try {
      // Interrupt once the first run has ended and the second one's environment exists (a start
      // may take minutes on a loaded machine: the suite's timeout bounds the wait).
      while (!(existsSync(join(out2, 'results.jsonl')) && (await benchContainers(out2)).length > 0)) {
        assert.equal(exitCode, undefined, `the bench ended before its second run:\n${stderr}`);
        await new Promise((r) => setTimeout(r, 200));
      }
      const owned = async () => (await docker.listContainers({ all: true, filters: { label: ['pwp.owner'] } }))
        .filter((c) => c.Labels['pwp.owner'].startsWith(`${hostname()}:${child.pid}:`));
      assert.ok((await owned()).length > 0, 'its containers carry its owner label');
      child.kill('SIGINT');
      assert.equal(await exited, 130, stderr);
      assert.match(stderr, /SIGINT: removing the environments this run started/);
      assert.deepEqual(await owned(), [], 'no container of the bench is left');
      const networks = (await docker.listNetworks({ filters: { label: ['pwp.owner'] } })).filter((n) => n.Labels?.['pwp.owner'].startsWith(`${hostname()}:${child.pid}:`));
      assert.deepEqual(networks.map((n) => n.Name), [], 'nor a network (one made by a start under way included)');
      assert.deepEqual(resultLines(join(out2, 'results.jsonl')).map((l) => [l.agent, l.attempt, l.score]), [['oracle', 1, 1]], 'the finished run stays');
    } finally {
      child.kill('SIGKILL');
      await removeBench(out2);
    }
  });
});
