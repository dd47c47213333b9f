// The grader scripts under host/converters/graders/ are tested by pytest, run here with Debian's
// Python (/usr/bin/python3, which has pytest) so that `npm test` runs them; a failure shows
// pytest's output. Every script a converter copies is listed in graderScripts.ts, and each is
// named by one of those tests.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { REPO_ROOT } from '../../../../host/common/paths';
import { GRADER_SCRIPTS, GRADERS_DIR, graderScript, type GraderScript } from '../../../../host/converters/graderScripts';

const TESTS = join(__dirname, 'graders');

const filesUnder = (dir: string): string[] => readdirSync(dir, { recursive: true, withFileTypes: true })
  .filter((e) => e.isFile()).map((e) => relative(dir, join(e.parentPath, e.name))).sort();

describe('grader scripts (host/converters/graders/)', () => {
  it('pass their pytest tests under Debian\'s python3', function () {
    this.timeout(300_000); // they run pytest and the graders for real: about 15 s
    const r = spawnSync('/usr/bin/python3', ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', relative(REPO_ROOT, TESTS)], {
      cwd: REPO_ROOT, encoding: 'utf8', env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' },
    });
    assert.equal(r.status, 0, `pytest failed (exit ${r.status}):\n${r.stdout}${r.stderr}`);
    assert.match(r.stdout, /\d+ passed/);
  });

  it('are each listed for the converters and named by a test', () => {
    const listed = Object.values(GRADER_SCRIPTS).sort();
    assert.deepEqual(filesUnder(GRADERS_DIR).filter((f) => !f.includes('__pycache__')), listed);
    const tests = filesUnder(TESTS).filter((f) => f.endsWith('.py')).map((f) => readFileSync(join(TESTS, f), 'utf8')).join('\n');
    for (const rel of listed) assert.ok(tests.includes(`"${rel}"`), `${rel}: no test under ${relative(REPO_ROOT, TESTS)} names it`);
    for (const name of Object.keys(GRADER_SCRIPTS) as GraderScript[]) assert.match(graderScript(name), /^(#!.*\n)?# /, `${name}: the script starts with its header comment`);
  });
});
