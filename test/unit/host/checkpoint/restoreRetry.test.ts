// The restore scripts' `again`: a removal that meets a file a live IDE process wrote meanwhile
// ("Directory not empty", seen in CI while the local history wrote) is run again; one that keeps
// failing fails the script (set -e) with each attempt's error, after 5 tries.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AGAIN } from '../../../../host/checkpoint/restore';

describe('restore scripts: again', () => {
  let dir: string;
  beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'pwp-again-')); writeFileSync(join(dir, 'tries'), '0'); });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  // A command that fails (saying so on stderr) until its `succeedOn`th run.
  const script = (succeedOn: number) => `set -e
${AGAIN}
flaky() { t=$(($(cat tries) + 1)); echo $t > tries; [ $t -ge ${succeedOn} ] || { echo "try $t: Directory not empty" >&2; return 1; }; }
again flaky
echo went on`;

  it('runs a failing command again until it succeeds, and the script goes on', () => {
    const r = spawnSync('sh', ['-c', script(3)], { cwd: dir, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, 'went on\n');
    assert.equal(readFileSync(join(dir, 'tries'), 'utf8').trim(), '3');
  });

  it('gives up after 5 tries: the script stops there with every try\'s error', () => {
    const r = spawnSync('sh', ['-c', script(99)], { cwd: dir, encoding: 'utf8' });
    assert.notEqual(r.status, 0);
    assert.equal(r.stdout, '');
    assert.equal(readFileSync(join(dir, 'tries'), 'utf8').trim(), '5');
    assert.deepEqual(r.stderr.trim().split('\n'), [1, 2, 3, 4, 5].map((t) => `try ${t}: Directory not empty`));
  });
});
