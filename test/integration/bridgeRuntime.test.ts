// The Runtime through the bridge (runtime.* methods) in a real environment: what a host that
// reaches only the bridge's URL and token uses instead of the node's Docker API. The bridge runs
// as root without DAC_OVERRIDE or CHOWN, so it reads and writes as the files' owner; these tests
// check that the host sees the same results as through the engine, and that checkpoints and a
// task's grading work with nothing but the bridge.
import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Docker from 'dockerode';
import { InvalidParamsError, MethodNotFoundError, UnauthorizedError } from '../../bridge/protocol';
import { OracleAgent } from '../../host/agents/oracleAgent';
import { CheckpointStore } from '../../host/checkpoint/checkpointStore';
import { BridgeClient } from '../../host/client/bridgeClient';
import { BridgeRuntime } from '../../host/deployment/bridgeRuntime';
import { DockerDeployment } from '../../host/deployment/dockerDeployment';
import { ROOT } from '../../host/deployment/fileEntry';
import { archiveBuffer, type Runtime } from '../../host/deployment/runtime';
import { readTar, tarOfFiles } from '../../host/deployment/tarArchive';
import { Env } from '../../host/env/env';
import { startEnvironment, type RunningEnvironment } from '../../host/running/runningEnvironment';
import { resolveTasks } from '../../host/taskEnv/loadTask';
import { runTask } from '../../host/runs/runTask';
import { NullAgent } from '../../host/agents/nullAgent';
import { paths } from '../../host/common/paths';
import { testImage } from './environmentFixture';
import { checkExecUsers, checkTimeoutAndCap } from './runtimeChecks';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('Runtime through the bridge (runtime.*): exec, files and archives with only the bridge URL', function () {
  this.timeout(10 * 60_000);
  const deployment = new DockerDeployment({ runtime: 'bridge' });
  let env: RunningEnvironment;
  let rt: Runtime;

  before(async function () {
    this.timeout(30 * 60_000);
    env = await startEnvironment(deployment, { image: await testImage(), labels: { 'pwp.test': '1' } });
    rt = await deployment.runtime(env.info.id);
  });
  after(async () => {
    env?.client.close();
    if (env) await deployment.remove(env.info.id).catch(() => undefined);
  });

  it('is the bridge\'s Runtime, and refuses a wrong token before running anything', async () => {
    assert.ok(rt instanceof BridgeRuntime);
    await assert.rejects(BridgeClient.connect(env.info.bridgeUrl, 'not-the-token-at-all'), UnauthorizedError);
  });

  it('runs argv as the IDE user in /workspace by default, as root in another folder when asked, never through a shell', async () => {
    await checkExecUsers(rt);
    // The command's environment has no bridge secret or display cookie.
    const envOut = (await rt.exec(['env'], { user: 'root' })).stdout;
    assert.doesNotMatch(envOut, /PWP_TOKEN|XAUTHORITY|DISPLAY=/);
  });

  it('ends a command at its timeout with exit code 124 and keeps at most maxOutputBytes', () => checkTimeoutAndCap(rt));

  it('reads a file only its owner may read, and writes files as the IDE user with their modes', async () => {
    await rt.exec(['sh', '-c', 'umask 077; echo private > /workspace/secret.txt']);
    assert.equal((await rt.readFile('/workspace/secret.txt'))?.toString(), 'private\n');
    await rt.writeFiles('/workspace', [{ path: 'a/b.txt', content: 'hello' }, { path: 'run.sh', content: '#!/bin/sh\necho ran\n', mode: 0o755 }]);
    const st = await rt.exec(['stat', '-c', '%U %a %n', 'a', 'a/b.txt', 'run.sh']);
    assert.deepEqual(st.stdout.trim().split('\n'), ['pwp 755 a', 'pwp 644 a/b.txt', 'pwp 755 run.sh']);
    assert.equal((await rt.exec(['./run.sh'])).stdout, 'ran\n');
    assert.equal(await rt.readFile('/workspace/missing.txt'), undefined);
    assert.equal(await rt.readTree('/nowhere'), undefined);
    // What the IDE user makes unreadable to itself is left out of an archive, not a failure of it.
    await rt.exec(['sh', '-c', 'mkdir -p locked && echo open > locked/open.txt && echo shut > locked/shut.txt && chmod 000 locked/shut.txt']);
    assert.deepEqual([...(await rt.readTree('/workspace/locked'))!.keys()], ['open.txt']);
  });

  it('moves an archive larger than one message out and back in byte for byte', async () => {
    await rt.exec(['sh', '-c', 'mkdir -p /workspace/big && head -c 9437184 /dev/urandom > /workspace/big/blob.bin && echo small > /workspace/big/s.txt']);
    const tar = await archiveBuffer(rt, '/workspace/big');
    const files = await readTar(await rt.archiveOut('/workspace/big'), 1);
    assert.equal(files.get('blob.bin')?.length, 9437184);
    await rt.exec(['mkdir', '/tmp/copy']);
    await rt.archiveIn('/tmp/copy', tar);
    const [a, b] = await Promise.all(['/workspace/big/blob.bin', '/tmp/copy/big/blob.bin'].map(async (p) => (await rt.exec(['sha256sum', p])).stdout.split(' ')[0]));
    assert.equal(a, b);
    assert.equal(sha(files.get('blob.bin')!), a);
  });

  it('refuses bad input with typed errors and changes nothing', async () => {
    await assert.rejects(env.client.callUnchecked('runtime.exec', { argv: 'touch /workspace/ran' }), InvalidParamsError);
    await assert.rejects(env.client.callUnchecked('runtime.exec', { argv: ['touch', 'ran'], cwd: '../etc' }), InvalidParamsError);
    await assert.rejects(env.client.callUnchecked('runtime.exec', { argv: ['touch', 'ran'], user: 'nobody-here' }), InvalidParamsError);
    await assert.rejects(env.client.callUnchecked('runtime.readFile', { path: '/workspace/../etc/shadow' }), InvalidParamsError);
    // The IDE user cannot write into root's folders through the bridge either.
    await assert.rejects(rt.writeFiles('/etc', [{ path: 'pwned', content: 'x' }]), /cannot unpack into \/etc/);
    assert.equal(await rt.readFile('/workspace/ran'), undefined);
    assert.equal(await rt.readFile('/etc/pwned'), undefined);
  });
});

describe('checkpoints and a task with the bridge as the only runtime (PWP_RUNTIME=bridge)', function () {
  this.timeout(15 * 60_000);
  let image: string;
  before(async function () { this.timeout(30 * 60_000); image = await testImage(); });

  it('restores a checkpoint\'s files exactly through the bridge', async () => {
    const store = new CheckpointStore(join(mkdtempSync(join(tmpdir(), 'pwp-bridge-ckpt-')), 'checkpoints'));
    const env = new Env({ image, deployment: new DockerDeployment({ runtime: 'bridge' }), labels: { 'pwp.test': '1' }, checkpoints: store, observe: [] });
    try {
      await env.reset({ options: { files: { 'app.py': 'print(1)\n', 'sub/notes.txt': 'notes\n' }, settings: { 'editor.fontSize': 15 }, open: ['app.py'] } });
      await env.exec(['sh', '-c', 'echo second >> app.py']);
      await env.checkpoint('bridged');
      await env.exec(['sh', '-c', 'echo later > app.py; rm sub/notes.txt; echo new > extra.txt']);
      await env.client.call('ide.settings.update', { key: 'editor.fontSize', value: 21 });
      const r = await env.restore('bridged');
      assert.equal(r.how, 'in-place', r.reloadReason);
      assert.equal((await env.readFile('app.py'))?.toString(), 'print(1)\nsecond\n');
      assert.equal((await env.readFile('sub/notes.txt'))?.toString(), 'notes\n');
      assert.equal(await env.readFile('extra.txt'), undefined);
      assert.equal((await env.client.call('ide.settings.get', { key: 'editor.fontSize' })).value, 15);
    } finally { await env.close(); }
  });

  it('a bundled task scores 1 with its oracle and 0 with the null agent', async () => {
    const before = process.env.PWP_RUNTIME;
    process.env.PWP_RUNTIME = 'bridge';
    try {
      const [task] = resolveTasks(['vscode-config/color-theme']);
      const base = join(paths.state, 'test-runs', 'bridge-runtime');
      const oracle = await runTask(task, { agent: new OracleAgent(), runDir: join(base, 'oracle'), defaultImage: image, labels: { 'pwp.test': '1' } });
      assert.equal(oracle.score, 1, oracle.error ?? oracle.evaluation?.summary);
      const nothing = await runTask(task, { agent: new NullAgent(), runDir: join(base, 'null'), defaultImage: image, labels: { 'pwp.test': '1' } });
      assert.equal(nothing.score, 0, nothing.error ?? nothing.evaluation?.summary);
    } finally {
      if (before === undefined) delete process.env.PWP_RUNTIME; else process.env.PWP_RUNTIME = before;
    }
  });
});

describe('the runtime-only bridge (PWP_BRIDGE_MODE=runtime): a cluster verifier\'s container', function () {
  this.timeout(10 * 60_000);
  const docker = new Docker();
  let container: Docker.Container | undefined;
  let client: BridgeClient | undefined;

  after(async () => {
    client?.close();
    await container?.remove({ force: true }).catch(() => undefined);
  });

  it('serves runtime.* behind its token and starts nothing else; root with the verifier\'s capabilities writes where grading needs', async () => {
    const token = 'runtime-only-test-token-0123456789';
    // The verifier Job of `pwp k8s manifests`, as a container: root with SETUID, SETGID, CHOWN, DAC_OVERRIDE, FOWNER.
    container = await docker.createContainer({
      Image: await testImage(),
      User: 'root',
      Env: ['PWP_BRIDGE_MODE=runtime', 'PWP_TOKEN_FILE=/tmp/.pwp-bridge-token'],
      Labels: { 'pwp.test': '1' },
      HostConfig: {
        CapDrop: ['ALL'], CapAdd: ['SETUID', 'SETGID', 'CHOWN', 'DAC_OVERRIDE', 'FOWNER'], SecurityOpt: ['no-new-privileges'],
        Memory: 1536 * 1024 * 1024, PidsLimit: 512,
      },
    });
    await container.putArchive(tarOfFiles({ '.pwp-bridge-token': token }, ROOT, 0o400) as unknown as NodeJS.ReadableStream, { path: '/tmp' });
    await container.start();
    const ip = (await container.inspect()).NetworkSettings.Networks.bridge.IPAddress;
    await assert.rejects(BridgeClient.connect(`ws://${ip}:7000/rpc`, 'wrong-token-wrong-token', { retryForMs: 60_000 }), UnauthorizedError);
    client = await BridgeClient.connect(`ws://${ip}:7000/rpc`, token, { retryForMs: 60_000 });
    await assert.rejects(client.call('proc.health', {}), MethodNotFoundError);
    const rt = new BridgeRuntime(client);
    // Hidden tests as root's, the agent's files into the IDE user's /workspace, as the verifier does.
    await rt.writeFiles('/', [{ path: 'pwp/hidden/test_x.py', content: 'def test_x(): pass\n' }], { owner: ROOT });
    await rt.writeFiles('/workspace', [{ path: 'x.py', content: 'X = 1\n' }], { owner: ROOT, withDirs: false });
    const st = await rt.exec(['stat', '-c', '%U %n', '/pwp/hidden/test_x.py', '/workspace/x.py'], { user: 'root', cwd: '/' });
    assert.deepEqual(st.stdout.trim().split('\n'), ['root /pwp/hidden/test_x.py', 'root /workspace/x.py']);
    const ps = await rt.exec(['ps', '-eo', 'comm'], { cwd: '/' });
    assert.doesNotMatch(ps.stdout, /Xvfb|chromium|code-server/);
    assert.equal(await rt.readFile('/tmp/.pwp-bridge-token'), undefined, 'the token file is still there');
  });
});
