// Dataset adapters on tiny samples in each benchmark's real format, made here: HumanEval JSONL,
// SWE-bench instances over a local git clone, BIRD questions with a SQLite database,
// Design2Code pages with screenshots, ChartMimic charts with their matplotlib scripts.
// Images and databases are made inside the IDE image (its Chromium, matplotlib, sqlite), as
// the verifier will read them. Each converted suite loads; one task of each is run for real:
// the oracle scores 1 and the null agent 0 (left to the task stage in CI, below). The user's
// copy is never changed.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { convertDataset } from '../../host/converters/datasets';
import { oracleScript } from '../../host/converters/chartMimic';
import { patchedFiles } from '../../host/converters/sweBench';
import { renderArgv } from '../../host/evaluation/imageGrader';
import { Verifier } from '../../host/evaluation/verifier';
import { taskName, type Task } from '../../host/taskEnv/loadTask';
import { testImage } from './environmentFixture';
import { describeBaselines, inParallel, taskBaselines, type Baselines } from './taskBaselines';

function write(root: string, files: Record<string, string | Buffer>): void {
  for (const [p, c] of Object.entries(files)) { mkdirSync(dirname(join(root, p)), { recursive: true }); writeFileSync(join(root, p), c); }
}

/** A digest of every file under a folder (to show a conversion left the input alone). */
function digest(dir: string): string {
  const h = createHash('sha256');
  const walk = (d: string) => {
    for (const e of readdirSync(d).sort()) {
      const p = join(d, e);
      if (statSync(p).isDirectory()) walk(p);
      else {
        h.update(relative(dir, p));
        h.update(readFileSync(p));
      }
    }
  };
  walk(dir);
  return h.digest('hex');
}

const HUMANEVAL = [
  {
    task_id: 'HumanEval/0',
    prompt: 'from typing import List\n\n\ndef below_zero(operations: List[int]) -> bool:\n    """ Given deposits and withdrawals on an account that starts at zero, return True if the\n    balance ever falls below zero, otherwise False.\n    >>> below_zero([1, 2, -4, 5])\n    True\n    """\n',
    canonical_solution: '    balance = 0\n    for op in operations:\n        balance += op\n        if balance < 0:\n            return True\n    return False\n',
    test: "\n\nMETADATA = {\n    'author': 'pwp',\n    'dataset': 'test'\n}\n\n\ndef check(candidate):\n    assert candidate([]) == False\n    assert candidate([1, 2, -3, 1, 2, -3]) == False\n    assert candidate([1, 2, -4, 5, 6]) == True\n    assert candidate([1, -1, 2, -2, 5, -5, 4, -5]) == True\n",
    entry_point: 'below_zero',
  },
  {
    task_id: 'HumanEval/1',
    prompt: 'def poly(xs: list, x: float):\n    return sum(c * x ** i for i, c in enumerate(xs))\n\n\ndef derivative(xs: list):\n    """ xs are the coefficients of a polynomial, xs[0] + xs[1] * x + ...; return its derivative in the same form.\n    >>> derivative([3, 1, 2])\n    [1, 4]\n    """\n',
    canonical_solution: '    return [(i * x) for i, x in enumerate(xs)][1:]\n',
    test: '\n\ndef check(candidate):\n    assert candidate([3, 1, 2, 4, 5]) == [1, 4, 12, 20]\n    assert poly(candidate([1, 1]), 2.0) == 1\n',
    entry_point: 'derivative',
  },
];

// PWP_ALL_TASKS_NEXT=1 says every bundled task runs next (npm run test:tasks after npm test); the
// bundled tasks of these five families are what these converters make of datasets/
// (test/unit/host/converters/bundledDatasets.test.ts), so their real runs there stand for these.
const allTasksNext = process.env.PWP_ALL_TASKS_NEXT === '1';

describe('dataset adapters on samples in their real formats', function () {
  this.timeout(30 * 60_000);
  let image: string;
  const root = mkdtempSync(join(tmpdir(), 'pwp-datasets-'));
  const out = join(root, 'tasks');
  const converted: Record<string, Task[]> = {};
  const inputs: Record<string, { dir: string; before: string }> = {};
  const baselines = new Map<string, Baselines | Error>();

  before(async function () {
    this.timeout(40 * 60_000);
    image = await testImage();
    // Files that need the image's tools: a SQLite database, a page screenshot, a chart.
    const v = await Verifier.start({ image, labels: { 'pwp.test': '1' } });
    const page = '<!doctype html><html><body style="margin:0;font:20px sans-serif;background:#fafafa"><header style="background:#1d4ed8;color:#fff;padding:16px">Acme</header><main style="padding:16px"><h1 style="margin:0 0 8px">Plans</h1><div style="display:flex;gap:12px"><div style="flex:1;height:80px;background:#fde68a"></div><div style="flex:1;height:80px;background:#a7f3d0"></div></div></main></body></html>\n';
    const chart = 'import matplotlib.pyplot as plt\n\nfig, ax = plt.subplots(figsize=(4, 3), dpi=80)\nax.bar(["a", "b", "c"], [3, 7, 5], color="#4c72b0")\nax.set_title("Sales")\nplt.tight_layout()\nplt.savefig("bar_1.png")\n';
    let shop: Buffer; let pagePng: Buffer; let chartPng: Buffer;
    try {
      await v.load({ workspaceTar: Buffer.alloc(1024) });
      const py = await v.exec(['python3', '-c', 'import sqlite3; c = sqlite3.connect("/pwp/out/shop.sqlite"); c.executescript("create table customers(id integer primary key, name text, city text); create table orders(id integer primary key, customer_id int, amount real); insert into customers values (1,\'Ada\',\'Paris\'),(2,\'Bo\',\'Oslo\'),(3,\'Cy\',\'Paris\'); insert into orders values (1,1,10.5),(2,1,4.5),(3,2,7),(4,3,1);"); c.commit()'], { cwd: '/tmp' });
      assert.equal(py.exitCode, 0, py.stderr);
      shop = (await v.readFile('/pwp/out/shop.sqlite'))!;
      await v.exec(['bash', '-c', 'printf "%s" "$1" > /pwp/out/1.html', 'sh', page]);
      const shot = await v.exec(renderArgv('/pwp/out/1.html', 480, 260, '/pwp/out/1.png'), { timeoutSec: 60, env: { HOME: '/tmp' } });
      assert.equal(shot.exitCode, 0, shot.stderr);
      pagePng = (await v.readFile('/pwp/out/1.png'))!;
      await v.exec(['bash', '-c', 'printf "%s" "$1" > /pwp/out/bar_1.py', 'sh', chart]);
      const drawn = await v.exec(['python3', 'bar_1.py'], { cwd: '/pwp/out', env: { MPLBACKEND: 'Agg', MPLCONFIGDIR: '/tmp/mpl', HOME: '/tmp' } });
      assert.equal(drawn.exitCode, 0, drawn.stderr);
      chartPng = (await v.readFile('/pwp/out/bar_1.png'))!;
    } finally {
      await v.remove();
    }

    // HumanEval: JSONL as published.
    write(root, { 'humaneval/HumanEval.jsonl': `${HUMANEVAL.map((p) => JSON.stringify(p)).join('\n')}\n` });
    // SWE-bench: a local clone at a base commit, gold and test patches, JSON-encoded test lists.
    const repo = join(root, 'swe/repos/acme__mathlib');
    write(repo, {
      'mathlib/__init__.py': '',
      'mathlib/ops.py': 'def clamp(x, lo, hi):\n    """x limited to [lo, hi]."""\n    return max(lo, x)\n',
      'tests/__init__.py': '',
      'tests/test_ops.py': 'from mathlib.ops import clamp\n\n\ndef test_inside():\n    assert clamp(5, 0, 10) == 5\n',
      'conftest.py': '',
    });
    const g = (args: string[], input?: string) => execFileSync('git', args, { cwd: repo, input, env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' } }).toString();
    g(['init', '-q']); g(['add', '-A']); g(['commit', '-qm', 'base']);
    const base = g(['rev-parse', 'HEAD']).trim();
    writeFileSync(join(repo, 'mathlib/ops.py'), 'def clamp(x, lo, hi):\n    """x limited to [lo, hi]."""\n    return min(hi, max(lo, x))\n');
    const patch = g(['diff']);
    g(['checkout', '-q', '--', '.']);
    writeFileSync(join(repo, 'tests/test_ops.py'), 'from mathlib.ops import clamp\n\n\ndef test_inside():\n    assert clamp(5, 0, 10) == 5\n\n\ndef test_above():\n    assert clamp(50, 0, 10) == 10\n');
    const testPatch = g(['diff']);
    g(['checkout', '-q', '--', '.']);
    g(['commit', '-q', '--allow-empty', '-m', 'later work the task must not see']);
    assert.deepEqual(patchedFiles(testPatch), ['tests/test_ops.py']);
    write(root, { 'swe/instances.jsonl': `${JSON.stringify({
      repo: 'acme/mathlib', instance_id: 'acme__mathlib-1', base_commit: base, patch, test_patch: testPatch,
      problem_statement: 'clamp() ignores the upper bound: clamp(50, 0, 10) returns 50.', hints_text: '', created_at: '2024-01-01T00:00:00Z', version: '0.1',
      FAIL_TO_PASS: JSON.stringify(['tests/test_ops.py::test_above']), PASS_TO_PASS: JSON.stringify(['tests/test_ops.py::test_inside']), environment_setup_commit: base,
    })}\n` });
    // BIRD: dev.json and dev_databases/<db_id>/<db_id>.sqlite.
    write(root, {
      'bird/dev.json': JSON.stringify([
        { question_id: 0, db_id: 'shop', question: 'How much did customers from Paris spend in total?', evidence: 'spend refers to SUM(amount)', SQL: "SELECT SUM(o.amount) FROM orders o JOIN customers c ON c.id = o.customer_id WHERE c.city = 'Paris'", difficulty: 'simple' },
        { question_id: 1, db_id: 'shop', question: 'List the names of customers with more than one order.', evidence: '', SQL: 'SELECT c.name FROM customers c JOIN orders o ON o.customer_id = c.id GROUP BY c.id HAVING COUNT(*) > 1', difficulty: 'moderate' },
      ], null, 2),
      'bird/dev_databases/shop/shop.sqlite': shop,
    });
    // Design2Code: N.html with N.png; ChartMimic: name.py with name.png.
    write(root, { 'design2code/1.html': page, 'design2code/1.png': pagePng, 'chartmimic/bar_1.py': chart, 'chartmimic/bar_1.png': chartPng });

    for (const k of ['humaneval', 'swe', 'bird', 'design2code', 'chartmimic']) inputs[k] = { dir: join(root, k), before: digest(join(root, k)) };
    converted.humaneval = await convertDataset('humaneval', join(root, 'humaneval/HumanEval.jsonl'), { outRoot: out });
    converted.swe = await convertDataset('swe-bench', join(root, 'swe/instances.jsonl'), { outRoot: out, repos: join(root, 'swe/repos') });
    converted.bird = await convertDataset('bird', join(root, 'bird/dev.json'), { outRoot: out, databases: join(root, 'bird/dev_databases') });
    converted.design2code = await convertDataset('design2code', join(root, 'design2code'), { outRoot: out });
    converted.chartmimic = await convertDataset('chartmimic', join(root, 'chartmimic'), { outRoot: out });

    const runs = [converted.humaneval[0], converted.swe[0], converted.bird[0], converted.design2code[0], converted.chartmimic[0]];
    if (!allTasksNext) await inParallel(runs, 2, async (t) => { baselines.set(taskName(t), await taskBaselines(t, image).catch((err: Error) => err)); });
  });

  it('converts every sample into tasks that load, without changing the input', () => {
    assert.deepEqual(Object.fromEntries(Object.entries(converted).map(([k, ts]) => [k, ts.map(taskName)])), {
      humaneval: ['humaneval/humaneval-0', 'humaneval/humaneval-1'],
      swe: ['swe-bench/acme__mathlib-1'],
      bird: ['bird/shop-0', 'bird/shop-1'],
      design2code: ['design2code/page-1'],
      chartmimic: ['chartmimic/chart-bar_1'],
    });
    for (const [k, { dir, before }] of Object.entries(inputs)) assert.equal(digest(dir), before, `${k} input changed`);
  });

  it('keeps each answer out of the workspace: hidden tests, gold patches, gold queries and originals go elsewhere', () => {
    const he = converted.humaneval[0];
    assert.match(readFileSync(join(he.workspaceDir!, 'solution.py'), 'utf8'), /raise NotImplementedError\n$/);
    assert.ok(readFileSync(join(he.hiddenDir!, 'workspace/tests/test_hidden.py'), 'utf8').includes('def check(candidate)'));
    const swe = converted.swe[0];
    assert.match(readFileSync(join(swe.workspaceDir!, 'mathlib/ops.py'), 'utf8'), /return max\(lo, x\)/, 'the workspace is the base commit');
    assert.doesNotMatch(readFileSync(join(swe.workspaceDir!, 'tests/test_ops.py'), 'utf8'), /test_above/, 'the test patch is hidden');
    assert.match(readFileSync(join(swe.hiddenDir!, 'workspace/tests/test_ops.py'), 'utf8'), /test_above/);
    assert.equal(swe.evaluator.kind === 'tests' && swe.evaluator.expected?.join(','), 'tests/test_ops.py::test_above,tests/test_ops.py::test_inside');
    assert.deepEqual(readdirSync(converted.bird[0].workspaceDir!), ['shop.sqlite']);
    assert.equal(converted.bird[0].workspaceDir, converted.bird[1].workspaceDir, 'one copy of a database for its questions');
    assert.deepEqual(readdirSync(converted.design2code[0].workspaceDir!), ['reference.png']);
    assert.deepEqual(readdirSync(converted.chartmimic[0].workspaceDir!), ['target.png']);
    assert.match(oracleScript('plt.savefig("x.png", dpi=100)\n'), /savefig\("chart\.png", dpi=100\)/);
    assert.match(oracleScript('plt.show()\n'), /_pwp_plt\.savefig\("chart\.png"\)/);
  });

  for (const name of ['humaneval/humaneval-0', 'swe-bench/acme__mathlib-1', 'bird/shop-0', 'design2code/page-1', 'chartmimic/chart-bar_1']) {
    (allTasksNext ? it.skip : it)(`${name}: the oracle scores 1 and the null agent 0 in real environments${allTasksNext ? ': in npm run test:tasks, as the bundled conversions of these converters' : ''}`, () => {
      const b = baselines.get(name);
      if (b instanceof Error) throw b;
      assert.ok(b, 'not run');
      assert.equal(b.oracleResult.score >= 0.999 && b.oracleResult.passed, true, describeBaselines(b));
      assert.equal(b.nullResult.score, 0, describeBaselines(b));
      assert.deepEqual(b.hiddenLeaks, []);
    });
  }
});
