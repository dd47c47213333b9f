import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BashSession } from '../../../../extension/src/tools/bashSession';

describe('tools: the persistent bash session', function () {
  this.timeout(20_000);
  let dir: string;
  let sh: BashSession;
  const quick = { softTimeoutMs: 5000, hardTimeoutMs: 10_000 };
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
    const r = await sh.run('echo start; sleep 1; echo end', { softTimeoutMs: 300, hardTimeoutMs: 5000 });
    assert.deepEqual([r.status, r.output, r.running], ['soft-timeout', 'start\n', true]);
    await assert.rejects(sh.run('echo no', quick), /still running/);
    const w = await sh.wait(quick);
    assert.deepEqual([w.status, w.output, w.running], ['done', 'end', false]);
  });

  it('interrupts at the hard timeout with the partial output, and the shell goes on', async () => {
    const r = await sh.run('echo before; sleep 30; echo never', { softTimeoutMs: 10_000, hardTimeoutMs: 500 });
    assert.equal(r.status, 'hard-timeout');
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
