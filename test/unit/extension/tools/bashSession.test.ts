import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BashSession, type BashResult } from '../../../../extension/src/tools/bashSession';

describe('tools: the persistent bash session', function () {
  this.timeout(180_000);
  let dir: string;
  let sh: BashSession;
  // For commands that must finish: a loaded machine can take seconds to start a shell.
  const quick = { softTimeoutMs: 60_000, hardTimeoutMs: 120_000 };
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pwp-bash-'));
    sh = new BashSession({ cwd: dir, env: { PATH: process.env.PATH, HOME: dir }, scratchDir: join(dir, '.scratch') });
  });
  afterEach(() => { sh.dispose(); rmSync(dir, { recursive: true, force: true }); });

  it('keeps cwd, variables and functions between commands, and reports exit codes', async () => {
    await sh.run('mkdir sub && cd sub && export X=42 && f() { echo "f:$1"; }', quick);
    const r = await sh.run('pwd; echo $X; f y', quick);
    assert.equal(r.output, `${join(dir, 'sub')}\n42\nf:y`);
    assert.equal(r.cwd, join(dir, 'sub'));
    const bad = await sh.run('echo oops >&2; false', quick);
    assert.deepEqual([bad.output, bad.exitCode, bad.status], ['oops', 1, 'done']);
  });

  it('survives a syntax error and reads no input', async () => {
    const r = await sh.run('echo "unclosed', quick);
    assert.match(r.output, /unexpected EOF|syntax error/);
    assert.equal((await sh.run('cat; echo after', quick)).output, 'after');
  });

  it('returns early on silence (soft timeout) and keeps the command running for wait', async () => {
    // The command goes on only once the test has made the file `go`.
    const soft = { softTimeoutMs: 300, hardTimeoutMs: 120_000 };
    let r = await sh.run('echo start; until [ -e go ]; do sleep 0.05; done; echo end', soft);
    let output = r.output;
    // A loaded machine can take longer than 300 ms to start the shell: that silence is a soft timeout too, with nothing yet.
    while (r.status === 'soft-timeout' && output === '') { r = await sh.wait(soft); output += r.output; }
    assert.deepEqual([r.status, output, r.running], ['soft-timeout', 'start\n', true]);
    await assert.rejects(sh.run('echo no', quick), /still running/);
    writeFileSync(join(dir, 'go'), '');
    const w = await sh.wait(quick);
    assert.deepEqual([w.status, w.output, w.running], ['done', 'end', false]);
  });

  it('interrupts at the hard timeout with the partial output, and the shell goes on', async () => {
    // The output has to come before the hard timeout. A machine too loaded to start the shell and
    // run the echo within it is given twice as long, so it only makes this test take longer.
    let r: BashResult;
    for (let hardTimeoutMs = 500; ; hardTimeoutMs *= 2) {
      r = await sh.run('echo before; sleep 30; echo never', { softTimeoutMs: 60_000, hardTimeoutMs });
      assert.equal(r.status, 'hard-timeout');
      if (r.output !== '' || hardTimeoutMs >= 32_000) break;
    }
    assert.match(r.output, /^before/);
    assert.doesNotMatch(r.output, /never/);
    assert.equal((await sh.run('echo alive', quick)).output, 'alive');
  });

  it('interrupts the whole command line, builtin loops included, keeping the shell', async () => {
    await sh.run('cd /', quick);
    const r = await sh.run('while true; do :; done', { softTimeoutMs: 200, hardTimeoutMs: 10_000 });
    assert.equal(r.status, 'soft-timeout');
    assert.equal(await sh.interrupt(), 'interrupted');
    assert.equal((await sh.run('pwd', quick)).output, '/');
    const line = await sh.run('sleep 30; echo after', { softTimeoutMs: 10_000, hardTimeoutMs: 300 });
    assert.equal(line.status, 'hard-timeout');
    assert.doesNotMatch(line.output, /after/);
    assert.equal((await sh.run('echo next', quick)).output, 'next');
  });

  it('starts afresh after the shell exits', async () => {
    const e = await sh.run('exit 3', quick);
    assert.equal(e.status, 'exited');
    assert.equal((await sh.run('pwd', quick)).output, dir);
  });
});
