// The image build lock: a second build of the same image waits for the first (and says so), other
// images do not wait, a lock whose holder was killed is taken over, and where no lock can be
// taken the build still runs. The build itself is a stand-in here; test/integration/taskImage
// has two processes resolve one real task image.
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildLockPath, withBuildLock } from '../../../../host/imageBuild/buildLock';

const until = async (cond: () => boolean, what: string): Promise<void> => {
  for (let i = 0; i < 3000 && !cond(); i++) await new Promise((r) => setTimeout(r, 20));
  assert.ok(cond(), `never: ${what}`);
};

describe('the image build lock', function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(() => { dir = join(mkdtempSync(join(tmpdir(), 'pwp-build-lock-')), 'locks'); });
  afterEach(() => rmSync(join(dir, '..'), { recursive: true, force: true }));

  it('runs a second build of the same image after the first has finished, saying it waits', async () => {
    const events: string[] = [];
    const lines: string[] = [];
    let finishFirst!: () => void;
    const first = withBuildLock('engine', 'pwp-task-x:1', (l) => lines.push(`1: ${l}`), async () => {
      events.push('first starts');
      await new Promise<void>((r) => { finishFirst = r; });
      events.push('first ends');
      return 'one';
    }, { dir, pollMs: 50 });
    await until(() => events.length === 1, 'the first build started');
    const second = withBuildLock('engine', 'pwp-task-x:1', (l) => lines.push(`2: ${l}`), async () => {
      events.push('second starts');
      return 'two';
    }, { dir, pollMs: 50 });
    await until(() => lines.includes('2: another pwp process is building pwp-task-x:1; waiting for it'), 'the second said it waits');
    assert.deepEqual(events, ['first starts']);
    finishFirst();
    assert.deepEqual(await Promise.all([first, second]), ['one', 'two']);
    assert.deepEqual(events, ['first starts', 'first ends', 'second starts']);
    assert.deepEqual(lines, ['2: another pwp process is building pwp-task-x:1; waiting for it']);
  });

  it('lets builds of other images, or of the same tag on another engine, run at once', async () => {
    let open = 0;
    let most = 0;
    let go!: () => void;
    const gate = new Promise<void>((r) => { go = r; });
    const build = async () => { open++; most = Math.max(most, open); await gate; open--; };
    const all = Promise.all([
      withBuildLock('engine', 'pwp-task-a:1', () => undefined, build, { dir }),
      withBuildLock('engine', 'pwp-task-b:1', () => undefined, build, { dir }),
      withBuildLock('other-engine', 'pwp-task-a:1', () => undefined, build, { dir }),
    ]);
    await until(() => open === 3, 'all three builds running');
    go();
    await all;
    assert.equal(most, 3);
  });

  it('takes over the lock of a process that was killed while it held it', async () => {
    const file = buildLockPath('engine', 'pwp-ide:dead', dir);
    mkdirSync(dir, { recursive: true });
    // Another process takes the lock as pwp does, then dies without releasing it.
    const holder = spawn(process.execPath, ['-e', `
      require(${JSON.stringify(require.resolve('proper-lockfile'))})
        .lock(${JSON.stringify(file)}, { realpath: false, stale: 2000 })
        .then(() => { console.log('locked'); setInterval(() => {}, 1000); });
    `], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    holder.stdout.on('data', (d: Buffer) => { out += d; });
    await until(() => out.includes('locked'), 'the other process holds the lock');
    holder.kill('SIGKILL');
    await new Promise((r) => holder.once('exit', r));
    const lines: string[] = [];
    const result = await withBuildLock('engine', 'pwp-ide:dead', (l) => lines.push(l), async () => 'built', { dir, staleMs: 2000, pollMs: 100 });
    assert.equal(result, 'built');
    assert.ok(lines.every((l) => l === 'another pwp process is building pwp-ide:dead; waiting for it'), lines.join('\n'));
  });

  it('builds without the lock where its folder cannot be made, saying so', async () => {
    writeFileSync(join(dir, '..', 'locks'), 'a file where the folder would be');
    const lines: string[] = [];
    assert.equal(await withBuildLock('engine', 'pwp-ide:x', (l) => lines.push(l), async () => 'built', { dir }), 'built');
    assert.equal(lines.length, 1);
    assert.match(lines[0], /^building pwp-ide:x without the build lock \(EEXIST/);
  });
});
