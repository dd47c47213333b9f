// The `pwp` commands that act on a running environment (key, type, click, xdotool, tool,
// checkpoint, restore) go through an Env attached to it, as a person at a shell would use them:
// `pwp up`, act, read the result back, and the environment is still there afterwards.
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Mark } from '../../bridge/protocol';
import { makeWorkspace, testImage } from './environmentFixture';
import { eventually, quickOpenShows } from './ideDriving';

const run = promisify(execFile);
const PWP = join(__dirname, '../../bin/pwp');
const root = join(__dirname, '../..');

async function pwp(...args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  try {
    const { stdout, stderr } = await run(PWP, args, { cwd: root, maxBuffer: 16 * 1024 * 1024 });
    return { stdout, stderr, code: 0 };
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; code?: number };
    return { stdout: e.stdout ?? '', stderr: e.stderr ?? '', code: e.code ?? -1 };
  }
}

async function ok(...args: string[]): Promise<string> {
  const r = await pwp(...args);
  assert.equal(r.code, 0, `pwp ${args.join(' ')} failed: ${r.stderr}`);
  return r.stdout;
}

describe('pwp CLI actions on a running environment (through an attached Env)', function () {
  this.timeout(600_000); // its before() starts an environment, which may take 5 min on a loaded machine
  let id = '';
  /** What `cat` prints of a workspace file, through the IDE's bash tool. */
  const readFile = async (path: string) => {
    const r = JSON.parse(await ok('tool', id, 'bash', JSON.stringify({ command: `cat ${path}` }), '--json')) as { content: { text: string }[] };
    return r.content.map((c) => c.text).join('');
  };

  before(async () => {
    const image = await testImage();
    const ws = makeWorkspace({ 'notes.txt': 'first line\n' });
    const up = await pwp('up', '--image', image, '--workspace', ws, '--json');
    assert.equal(up.code, 0, up.stderr);
    id = (JSON.parse(up.stdout) as { id: string }).id;
    // pwp up says what a cold start is waiting for, not tens of seconds of silence.
    assert.match(up.stderr, new RegExp(`environment ${id}: container started[^]*environment ${id}: bridge up; waiting for`));
    assert.ok(!('token' in (JSON.parse(up.stdout) as object)), 'up --json printed the token without --show-token');
  });
  after(async () => { if (id) await pwp('down', id); });

  it('key, type and xdotool reach the IDE: a file opened with quick open, typed into and saved', async () => {
    await ok('key', id, 'ctrl+p');
    await eventually(async () => JSON.parse(await ok('inspect', id, 'focused')) as { focused: { role?: string } | null }, (f) => f.focused?.role === 'combobox' || f.focused?.role === 'textbox', 60_000, 'the quick-open box taking the focus');
    await ok('type', id, 'notes.txt');
    // Enter picks the first entry: wait until the query is in and the file search listed notes.txt first.
    await eventually(async () => (JSON.parse(await ok('inspect', id, 'marks')) as { marks: Mark[] }).marks, (m) => quickOpenShows(m, 'notes.txt', 'notes.txt'), 60_000, 'notes.txt first in quick open');
    await ok('key', id, 'enter');
    await eventually(async () => JSON.parse(await ok('inspect', id, 'editors')) as { activeEditor?: { path?: string } | null }, (e) => !!e.activeEditor?.path?.endsWith('notes.txt'), 60_000, 'notes.txt becoming the active editor');
    await ok('key', id, 'ctrl+end');
    await ok('xdotool', id, "type --delay 5 'added by xdotool'");
    await ok('key', id, 'ctrl+s');
    await eventually(() => readFile('notes.txt'), (t) => t.includes('added by xdotool'), 60_000, 'the typed text on disk');
  });

  it('a bad key name is refused with its typed error and exit code 1, and the environment goes on', async () => {
    const r = await pwp('key', id, 'ctrl+nosuchkey');
    assert.equal(r.code, 1);
    assert.match(r.stderr, /InvalidParamsError: .*nosuchkey/);
    const r2 = await pwp('xdotool', id, 'mousemove 10 10; rm -rf /');
    assert.equal(r2.code, 1, r2.stderr);
    assert.match(r2.stderr, /InvalidParamsError/);
    assert.equal(await pwp('click', id, '5', '5').then((x) => x.code), 0);
  });

  it('while a person holds control, pwp key says so at once and waits for the hand-back; with --no-wait it fails with NotAvailableError', async () => {
    await ok('control', id, 'request', 'check the notes');
    try {
      const refused = await pwp('key', id, 'Escape', '--no-wait');
      assert.equal(refused.code, 1);
      assert.match(refused.stderr, /NotAvailableError.*a person holds control of environment .*--no-wait/s);
      const child = spawn(PWP, ['key', id, 'Escape'], { cwd: root });
      let stderr = '';
      const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
      await new Promise<void>((said, fail) => {
        child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); if (/waiting until they hand it back/.test(stderr)) said(); });
        void exited.then(() => fail(new Error(`pwp key ended without saying it waits: ${stderr}`)));
      });
      await ok('control', id, 'handback');
      assert.equal(await exited, 0, stderr);
    } finally {
      await pwp('control', id, 'handback');
    }
  });

  it('checkpoint and restore bring a changed file back; the environment is left running', async () => {
    const before = await readFile('notes.txt');
    await ok('checkpoint', id, 'cli-actions');
    await ok('tool', id, 'write_file', JSON.stringify({ file_path: 'notes.txt', contents: 'overwritten\n' }));
    assert.match(await readFile('notes.txt'), /overwritten/);
    await ok('restore', id, 'cli-actions');
    assert.equal(await readFile('notes.txt'), before);
    const ls = JSON.parse(await ok('ls', '--json')) as { id: string }[];
    assert.ok(ls.some((e) => e.id === id), 'the environment is still listed after the commands disconnected');
  });

  it('prints the token only when asked: pwp ls hides it, pwp url gives the link with it', async () => {
    const token = (await ok('url', id, '--token')).trim();
    assert.match(token, /^[A-Za-z0-9_-]{16,}$/);
    for (const listing of [await pwp('ls'), await pwp('ls', '--json')]) {
      assert.equal(listing.code, 0, listing.stderr);
      assert.ok(listing.stdout.includes(id));
      assert.ok(!(listing.stdout + listing.stderr).includes(token), 'pwp ls printed the bridge token');
      assert.match(listing.stdout, /token=…/);
    }
    assert.ok((await ok('url', id)).includes(`token=${token}`), 'pwp url prints the IDE link a browser can open');
    const wrong = await pwp('url', `${id.slice(0, -1)}x`);
    assert.equal(wrong.code, 2);
    assert.match(wrong.stderr, new RegExp(`unknown environment '${id.slice(0, -1)}x' \\(did you mean '${id}'\\?\\)`));
  });
});

describe('Env.attach: an Env on an environment it did not start', function () {
  this.timeout(600_000);
  let id = '';
  before(async () => {
    const image = await testImage();
    id = (JSON.parse(await ok('up', '--image', image, '--json')) as { id: string }).id;
  });
  after(async () => { if (id) await pwp('down', id); });

  it('keeps the Env contract (checkEnv), begins its episode in place, and leaves the environment running when closed', async () => {
    const { Env } = await import('../../host/env/env');
    const { checkEnv } = await import('../../host/env/checkEnv');
    const env = await Env.attach(id);
    const r = await checkEnv(env, { files: { 'attached.txt': 'written by reset\n' } });
    assert.equal(r.envId, id, 'the episode ran on the environment it attached to, not a new one');
    const again = await Env.attach(id, { observe: [] });
    try {
      const reset = await again.reset();
      assert.equal(reset.info.attached, true);
      assert.equal(reset.info.envId, id);
      assert.equal((await again.readFile('attached.txt'))?.toString(), 'written by reset\n', 'the first episode\'s files are still there');
    } finally {
      await again.close();
    }
    const ls = JSON.parse(await ok('ls', '--json')) as { id: string }[];
    assert.ok(ls.some((e) => e.id === id), 'still running after both Envs closed');
  });
});
