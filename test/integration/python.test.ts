// The Python package's pytest suite (python/tests: a real `pwp serve`, real containers), run
// once from mocha with one `it` per pytest test, so its passes, failures and skips are counted
// with the rest of `npm test`. The Python is PWP_PYTHON, else Debian's /usr/bin/python3 (where
// scripts/setup.sh installs python3-venv, python3-pytest, python3-numpy, python3-pil).
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { XMLParser } from 'fast-xml-parser';

const ROOT = resolve(__dirname, '..', '..');
const PYTHON = process.env.PWP_PYTHON ?? (existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3');
const collect = spawnSync(PYTHON, ['-m', 'pytest', '--collect-only', '-q', '-p', 'no:cacheprovider', 'python/tests'], { cwd: ROOT, encoding: 'utf8' });
const ids = (collect.stdout ?? '').split('\n').map((l) => l.trim()).filter((l) => l.includes('::'));

interface Outcome { status: 'passed' | 'failed' | 'skipped'; message: string }
type Node = Record<string, unknown>;
const list = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

function readJunit(file: string): Map<string, Outcome> {
  const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(readFileSync(file, 'utf8')) as Node;
  const suites = list((xml.testsuites as Node | undefined)?.testsuite as Node | Node[] | undefined ?? xml.testsuite as Node);
  const out = new Map<string, Outcome>();
  for (const s of suites) {
    for (const c of list(s.testcase as Node | Node[])) {
      const bad = (c.failure ?? c.error) as Node | string | undefined;
      const skipped = c.skipped as Node | string | undefined;
      const text = (n: Node | string | undefined) => (typeof n === 'string' ? n : `${n?.message ?? ''}\n${n?.['#text'] ?? ''}`);
      out.set(String(c.name), bad !== undefined ? { status: 'failed', message: text(bad) } : skipped !== undefined ? { status: 'skipped', message: text(skipped) } : { status: 'passed', message: '' });
    }
  }
  return out;
}

describe('Python package: pytest against a real Env server and real containers', function () {
  this.timeout(45 * 60_000);
  let outcomes = new Map<string, Outcome>();
  let log = '';

  before(function () {
    if (!ids.length) return;
    const dir = mkdtempSync(join(tmpdir(), 'pwp-pytest-'));
    try {
      const run = spawnSync(PYTHON, ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', '-rs', `--junitxml=${join(dir, 'junit.xml')}`, 'python/tests'], {
        cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' },
      });
      log = `${run.stdout}\n${run.stderr}`;
      if (existsSync(join(dir, 'junit.xml'))) outcomes = readJunit(join(dir, 'junit.xml'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the pytest suite is found and collected', () => {
    assert.ok(ids.length >= 3, `pytest collected nothing with ${PYTHON} (run scripts/setup.sh for python3-pytest and friends):\n${collect.stdout}\n${collect.stderr}`);
  });

  for (const id of ids) {
    // JUnit names a parametrized test with its parameters, as the id's last part does.
    const name = id.split('::').pop()!;
    it(`pytest ${id}`, function () {
      const o = outcomes.get(name);
      assert.ok(o, `no result for ${id} (did pytest run?):\n${log.slice(-4000)}`);
      if (o.status === 'skipped') { this.test!.title += ` (skipped: ${o.message.trim().split('\n')[0]})`; this.skip(); }
      assert.equal(o.status, 'passed', o.message.slice(-4000));
    });
  }
});
