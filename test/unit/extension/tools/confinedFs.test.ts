import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { linkSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfinedFs } from '../../../../extension/src/tools/confinedFs';
import { ToolError } from '../../../../extension/src/tools/toolError';
import { WorkspacePaths } from '../../../../extension/src/tools/workspacePaths';

const kind = (k: string) => (e: unknown) => e instanceof ToolError && e.kind === k;

describe('tools: files opened without following a link, hard links refused', () => {
  let base: string;
  let ws: string;
  let outside: string;
  let paths: WorkspacePaths;
  let fs: ConfinedFs;
  beforeEach(() => {
    base = mkdtempSync(join(tmpdir(), 'pwp-confined-'));
    ws = join(base, 'ws');
    outside = join(base, 'outside');
    mkdirSync(join(ws, 'src'), { recursive: true });
    mkdirSync(outside);
    writeFileSync(join(outside, 'passwd'), 'SECRET\n');
    writeFileSync(join(ws, 'src', 'passwd'), 'workspace copy\n');
    symlinkSync(join(ws, 'src'), join(ws, 'link-in'));
    paths = new WorkspacePaths(ws);
    fs = new ConfinedFs(paths);
  });
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  it('reads, writes, lists and deletes workspace files, following links that stay inside', () => {
    assert.equal(fs.readBytes(paths.resolve('src/passwd')).toString(), 'workspace copy\n');
    assert.equal(fs.readBytes(paths.resolve('link-in/passwd')).toString(), 'workspace copy\n');
    assert.deepEqual(fs.writeBytes(paths.resolve('new/deep/file.txt'), 'hi'), { created: true });
    assert.equal(readFileSync(join(ws, 'new/deep/file.txt'), 'utf8'), 'hi');
    assert.deepEqual(fs.writeBytes(paths.resolve('src/passwd'), 'changed'), { created: false });
    assert.equal(readFileSync(join(ws, 'src/passwd'), 'utf8'), 'changed');
    assert.deepEqual(fs.readdir(paths.resolve('src')).map((d) => d.name), ['passwd']);
    fs.unlinkFile(paths.resolve('new/deep/file.txt'));
    assert.equal(fs.lstat(paths.resolve('new/deep/file.txt')), undefined);
    assert.throws(() => fs.readBytes(paths.resolve('src')), kind('IsADirectory'));
    assert.throws(() => fs.readBytes(paths.resolve('nope.txt')), kind('NotFound'));
  });

  it('refuses to read or write a hard-linked file, and leaves the other name untouched', () => {
    linkSync(join(outside, 'passwd'), join(ws, 'src', 'linked'));
    assert.throws(() => fs.readBytes(paths.resolve('src/linked')), (e: unknown) => kind('HardLinkedFile')(e) && /2 names/.test((e as Error).message));
    assert.throws(() => fs.writeBytes(paths.resolve('src/linked'), 'pwned'), kind('HardLinkedFile'));
    assert.throws(() => fs.checkFile(paths.resolve('src/linked')), kind('HardLinkedFile'));
    assert.equal(readFileSync(join(outside, 'passwd'), 'utf8'), 'SECRET\n');
  });

  it('keeps the mode of a file it replaces', () => {
    writeFileSync(join(ws, 'run.sh'), 'echo 1\n', { mode: 0o755 });
    fs.writeBytes(paths.resolve('run.sh'), 'echo 2\n');
    assert.equal(statSync(join(ws, 'run.sh')).mode & 0o777, 0o755);
  });

  it('refuses a path whose folder became a link after the check', () => {
    const abs = paths.resolve('src/passwd');
    rmSync(join(ws, 'src'), { recursive: true });
    symlinkSync(outside, join(ws, 'src'));
    // WorkspacePaths sees the link now (PathOutsideWorkspace); between its check and the open,
    // the walk without links refuses it.
    assert.throws(() => fs.readBytes(abs), (e: unknown) => e instanceof ToolError && /PathOutsideWorkspace|PathChanged/.test(e.kind));
    assert.throws(() => fs.writeBytes(abs, 'x'), ToolError);
    assert.equal(readFileSync(join(outside, 'passwd'), 'utf8'), 'SECRET\n');
  });

  it('never returns the outside file while a folder is swapped for a link in a tight loop', async function () {
    this.timeout(120_000);
    // Another process swaps ws/src for a link to the outside folder and back, as fast as it can.
    const swapper = spawn('bash', ['-c', `cd ${JSON.stringify(ws)}; while :; do mv src src.real; ln -s ${JSON.stringify(outside)} src; rm src; mv src.real src; done`], { stdio: 'ignore', detached: true });
    const exited = new Promise((r) => swapper.once('exit', r));
    try {
      let read = 0;
      let refused = 0;
      // 600 calls, and on until one has found the workspace file in place: on a loaded machine the
      // swapper can be held up with the link in place for the whole of a quick burst of calls.
      const end = Date.now() + 60_000;
      let i = 0;
      for (; i < 600 || (read === 0 && Date.now() < end); i++) {
        try {
          const text = fs.readBytes(paths.resolve('src/passwd')).toString();
          assert.notEqual(text, 'SECRET\n', `call ${i} returned the outside file`);
          read++;
        } catch (err) {
          if (err instanceof assert.AssertionError || !(err instanceof ToolError)) throw err;
          refused++;
        }
        if (i % 50 === 0) await new Promise((r) => setImmediate(r));
      }
      assert.equal(read + refused, i);
      assert.ok(read > 0, 'some reads found the workspace file in place');
    } finally {
      // The whole process group: a mv or ln the loop is running would otherwise outlive bash
      // and recreate a folder while afterEach removes the tree.
      process.kill(-swapper.pid!, 'SIGKILL');
      await exited;
    }
  });
});
