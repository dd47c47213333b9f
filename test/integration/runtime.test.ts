// The Docker Runtime (exec, files, archives) on a real container: the verifier's, which has
// no IDE and starts at once. What checkpoints, tasks, the verifier and the Env build on.
import { strict as assert } from 'node:assert';
import { DockerDeployment } from '../../host/deployment/dockerDeployment';
import { IDE_USER, ROOT } from '../../host/deployment/fileEntry';
import { archiveBuffer, archiveEntriesIn, readRegularFiles, type Runtime } from '../../host/deployment/runtime';
import { fileEntries, readTar, readTarEntries, tarOf } from '../../host/deployment/tarArchive';
import type { VerifierContainer } from '../../host/deployment/verifierContainer';
import { testImage } from './environmentFixture';
import { checkExecUsers, checkTimeoutAndCap } from './runtimeChecks';

describe('Runtime (Docker): exec, files and archives in a container', function () {
  this.timeout(180_000);
  let box: VerifierContainer;
  let rt: Runtime;

  before(async () => {
    box = await new DockerDeployment().startVerifier({ image: await testImage(), labels: { 'pwp.test': '1' } });
    rt = box.runtime;
  });
  after(async () => { await box?.remove(); });

  it('runs argv as the IDE user in /workspace by default, as another user and folder when asked, and never through a shell', async () => {
    await checkExecUsers(rt);
  });

  it('ends a command at its timeout with exit code 124, and keeps at most maxOutputBytes of output while onOutput sees it all', async () => {
    await checkTimeoutAndCap(rt);
    let seen = 0;
    const big = await rt.exec(['head', '-c', '100000', '/dev/zero'], { maxOutputBytes: 1000, onOutput: (c) => { seen += c.length; } });
    assert.equal(big.exitCode, 0);
    assert.equal(big.stdout.length, 1000);
    assert.equal(seen, 100000);
  });

  it('writes files with their owner and mode, reads them and folders back, and says undefined for what is not there', async () => {
    await rt.exec(['mkdir', '/tmp/w'], { cwd: '/' });
    await rt.writeFiles('/tmp/w', [{ path: 'a/b.txt', content: 'hello' }, { path: 'run.sh', content: '#!/bin/sh\n', mode: 0o755 }], { owner: ROOT });
    const st = await rt.exec(['stat', '-c', '%U %a %n', '/tmp/w/a', '/tmp/w/a/b.txt', '/tmp/w/run.sh'], { cwd: '/' });
    assert.deepEqual(st.stdout.trim().split('\n'), ['root 755 /tmp/w/a', 'root 644 /tmp/w/a/b.txt', 'root 755 /tmp/w/run.sh']);
    assert.equal((await rt.readFile('/tmp/w/a/b.txt'))?.toString(), 'hello');
    assert.equal(await rt.readFile('/tmp/w/missing.txt'), undefined);
    assert.equal(await rt.readTree('/tmp/nowhere'), undefined);
    const tree = await rt.readTree('/tmp/w');
    assert.deepEqual([...tree!.keys()].sort(), ['a/b.txt', 'run.sh']);
  });

  it('moves an archive out and into another folder intact', async () => {
    await rt.exec(['mkdir', '/tmp/src'], { cwd: '/' });
    await rt.writeFiles('/tmp/src', [{ path: 'x/y.txt', content: 'deep' }, { path: 'z.bin', content: Buffer.from([0, 1, 2, 255]) }]);
    const tar = await archiveBuffer(rt, '/tmp/src');
    const names = (await readTarEntries(tar)).map((e) => e.header.name).sort();
    assert.deepEqual(names, ['src/', 'src/x/', 'src/x/y.txt', 'src/z.bin']);
    await rt.exec(['mkdir', '-p', '/tmp/copy'], { cwd: '/' });
    await rt.archiveIn('/tmp/copy', tar);
    const copy = await readTar(await rt.archiveOut('/tmp/copy/src'), 1);
    assert.equal(copy.get('x/y.txt')?.toString(), 'deep');
    assert.deepEqual([...copy.get('z.bin')!], [0, 1, 2, 255]);
    await rt.archiveIn('/tmp', tarOf([{ path: 'streamed.txt', content: 'from a stream' }]));
    assert.equal((await rt.readFile('/tmp/streamed.txt'))?.toString(), 'from a stream');
  });

  it('unpacks entries of several owners as one archive, in order: a later entry replaces an earlier one', async () => {
    await rt.exec(['mkdir', '/tmp/mixed'], { cwd: '/' });
    await archiveEntriesIn(rt, [
      ...fileEntries([{ path: 'mine.txt', content: 'first' }], IDE_USER, { withDirs: false, prefix: 'tmp/mixed' }),
      { header: { name: 'tmp/mixed/open/', type: 'directory', mode: 0o777, ...ROOT }, content: Buffer.alloc(0) },
      ...fileEntries([{ path: 'root.txt', content: 'r' }, { path: 'mine.txt', content: 'second' }], ROOT, { withDirs: false, prefix: 'tmp/mixed' }),
    ]);
    const st = await rt.exec(['stat', '-c', '%U %a %n', '/tmp/mixed', '/tmp/mixed/open', '/tmp/mixed/root.txt', '/tmp/mixed/mine.txt'], { cwd: '/' });
    assert.deepEqual(st.stdout.trim().split('\n'), ['pwp 755 /tmp/mixed', 'root 777 /tmp/mixed/open', 'root 644 /tmp/mixed/root.txt', 'root 644 /tmp/mixed/mine.txt']);
    assert.equal((await rt.readFile('/tmp/mixed/mine.txt'))?.toString(), 'second');
  });

  it('reads several regular files in one command, bytes intact; a missing path, a folder or a symlink is undefined, as with readFile', async () => {
    await rt.exec(['mkdir', '/tmp/r'], { cwd: '/' });
    await rt.writeFiles('/tmp/r', [{ path: 'a.json', content: '{"x": 1}' }, { path: 'b.bin', content: Buffer.from([0, 10, 255, 0]) }, { path: 'sub/c.txt', content: 'c' }]);
    await rt.exec(['ln', '-s', '/tmp/r/a.json', '/tmp/r/link.json'], { cwd: '/' });
    const paths = ['/tmp/r/a.json', '/tmp/r/b.bin', '/tmp/r/missing', '/tmp/r/sub', '/tmp/r/link.json', '/tmp/r/sub/c.txt', "/tmp/r/it's; $(x)"];
    const got = await readRegularFiles(rt, paths);
    assert.deepEqual([...got.keys()], paths);
    assert.equal(got.get('/tmp/r/a.json')?.toString(), '{"x": 1}');
    assert.deepEqual([...got.get('/tmp/r/b.bin')!], [0, 10, 255, 0]);
    assert.equal(got.get('/tmp/r/sub/c.txt')?.toString(), 'c');
    for (const p of ['/tmp/r/missing', '/tmp/r/sub', '/tmp/r/link.json', "/tmp/r/it's; $(x)"]) {
      assert.equal(got.get(p), undefined, p);
      assert.equal(await rt.readFile(p), undefined, p);
    }
  });
});
