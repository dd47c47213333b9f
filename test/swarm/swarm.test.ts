// The swarm backend for real (npm run test:swarm): a manager and two workers, each a Docker
// engine in its own container on this machine, and a registry (swarmCluster.ts). Environments
// are services placed by Swarm, reached through their bridges on the workers' addresses; the
// host never talks to a worker's engine.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Docker from 'dockerode';
import { EnvironmentLostError, UnauthorizedError } from '../../bridge/protocol';
import { BridgeClient } from '../../host/client/bridgeClient';
import { OracleAgent } from '../../host/agents/oracleAgent';
import { NullAgent } from '../../host/agents/nullAgent';
import { stepAction, type Agent } from '../../host/agents/agent';
import { CheckpointStore } from '../../host/checkpoint/checkpointStore';
import { startFromCheckpoint } from '../../host/checkpoint/restore';
import { SwarmDeployment } from '../../host/deployment/swarm/swarmDeployment';
import { Env } from '../../host/env/env';
import { paths, REPO_ROOT } from '../../host/common/paths';
import { resolveTasks } from '../../host/taskEnv/loadTask';
import { runTask } from '../../host/runs/runTask';
import { TRAJECTORY_FILE } from '../../host/trajectory/trajectoryFile';
import { removeLeftoverClusters, startSwarmCluster, type SwarmCluster } from './swarmCluster';

const pwp = join(REPO_ROOT, 'bin', 'pwp');
const run = promisify(execFile);
const labels = { 'pwp.test': 'swarm' };

describe('the swarm backend on a real swarm (a manager, two workers, a registry)', function () {
  this.timeout(20 * 60_000);
  let cluster: SwarmCluster;
  let deployment: SwarmDeployment;
  let image: string;
  const workerNames = () => new Set(cluster.workers.map((w) => w.name));
  const cliEnv = () => ({ ...process.env, ...cluster.env() });

  before(async function () {
    this.timeout(40 * 60_000);
    await removeLeftoverClusters();
    cluster = await startSwarmCluster({ progress: (l) => console.log(`      ${l}`) });
    // The image goes to the cluster's registry the way a user puts it there.
    const pushed = await run(pwp, ['build-image', '--push', cluster.pushTo, '--json'], { maxBuffer: 1 << 24 });
    const out = JSON.parse(pushed.stdout) as { image: string; pushed: string };
    assert.equal(out.pushed, `${cluster.pushTo}/${out.image}`);
    deployment = new SwarmDeployment({ ...cluster.deploymentOptions(), local: new Docker() });
    image = await deployment.ensureImage();
    assert.equal(image, `${cluster.registry}/${out.image}`);
  });

  after(async function () {
    this.timeout(5 * 60_000);
    deployment?.closeRuntimes();
    await cluster?.remove();
  });

  it('places two environments on different workers, each reached only through its bridge with its own token', async () => {
    const a = await deployment.create({ image, labels, workspaceDir: join(REPO_ROOT, 'tasks', 'vscode-config', 'auto-save-delay') });
    const b = await deployment.create({ image, labels });
    try {
      const nodes = [a.labels['pwp.node'], b.labels['pwp.node']];
      assert.ok(nodes.every((n) => workerNames().has(n)), `placed on ${nodes.join(', ')}`);
      assert.notEqual(nodes[0], nodes[1], 'Swarm spreads the two environments over the two workers');
      // The CLI sees them through the manager (--backend swarm, PWP_SWARM_*), with their nodes and no token field or label.
      const ls = JSON.parse((await run(pwp, ['ls', '--backend', 'swarm', '--json'], { env: cliEnv() })).stdout) as { id: string; token?: string; labels: Record<string, string> }[];
      assert.deepEqual(new Set(ls.map((e) => e.id)), new Set([a.id, b.id]));
      assert.deepEqual(new Set(ls.map((e) => e.labels['pwp.node'])), new Set(nodes));
      assert.ok(ls.every((e) => e.token === undefined && !JSON.stringify(e.labels).includes(a.token) && !JSON.stringify(e.labels).includes(b.token)));
      const ra = await deployment.runtime(a.id);
      // The token is a root-only secret; the IDE user cannot read it, nor find a set-uid program to become root.
      const secret = await ra.exec(['sh', '-c', 'cat /run/secrets/pwp-token; echo "exit $?"; find / -xdev -perm /6000 -type f 2>/dev/null | wc -l']);
      assert.match(secret.stdout, /exit 1\n0\n$/);
      assert.doesNotMatch(secret.stdout + secret.stderr, new RegExp(a.token));
      // The folder given at create time went in (before the IDE started, PWP_START=held).
      assert.equal((await ra.readFile('/workspace/task.json'))?.toString(), readFileSync(join(REPO_ROOT, 'tasks', 'vscode-config', 'auto-save-delay', 'task.json'), 'utf8'));
      // Nothing else of the cluster is reachable from inside: not A's node (its swarm ports),
      // not B's bridge, not the registry.
      const nodeOf = (e: typeof a) => new URL(e.bridgeUrl.replace(/^ws/, 'http'));
      // The probe that must connect gets a long bound (a wait that succeeds costs nothing); the ones
      // that must not connect keep 5 s: a slow machine can only weaken those, never fail them.
      const own = await ra.exec(['timeout', '60', 'bash', '-c', 'echo > /dev/tcp/127.0.0.1/7000']);
      assert.equal(own.exitCode, 0, `the probe works: ${own.stderr}`);
      for (const [host, port] of [[nodeOf(a).hostname, '7946'], [nodeOf(a).hostname, nodeOf(b).port], [nodeOf(b).hostname, nodeOf(b).port], ['registry', '5000']]) {
        const probe = await ra.exec(['timeout', '5', 'bash', '-c', `echo > /dev/tcp/${host}/${port}`]);
        assert.notEqual(probe.exitCode, 0, `${host}:${port} reachable from inside an environment`);
      }
      // B's token does not open A's bridge.
      await assert.rejects(BridgeClient.connect(a.bridgeUrl, b.token), UnauthorizedError);
    } finally {
      await deployment.remove(a.id);
      await deployment.remove(b.id);
    }
    assert.deepEqual((await deployment.list()).filter((e) => e.id === a.id || e.id === b.id), []);
    assert.deepEqual((await cluster.manager.listSecrets({ filters: { label: [`pwp.environment=${a.id}`] } })), []);
  });

  it('restores a checkpoint taken on one worker into a new environment on the other', async () => {
    const store = new CheckpointStore(join(mkdtempSync(join(tmpdir(), 'pwp-swarm-ckpt-')), 'checkpoints'));
    const env = new Env({ image, deployment, labels, checkpoints: store, observe: [] });
    try {
      await env.reset({ options: { files: { 'app.py': 'print(1)\n', 'sub/notes.txt': 'notes\n' }, settings: { 'editor.fontSize': 15 }, open: ['app.py'] } });
      await env.exec(['sh', '-c', 'echo second >> app.py']);
      await env.checkpoint('across');
      const from = (await deployment.get(env.info.id)).labels['pwp.node'];
      // With the first environment still on its worker, Swarm's spread puts the new one on the other.
      const restored = await startFromCheckpoint(deployment, 'across', { labels }, store);
      try {
        const to = restored.info.labels['pwp.node'];
        assert.ok(workerNames().has(from) && workerNames().has(to));
        assert.notEqual(to, from, 'restored on the other worker');
        const rt = await deployment.runtime(restored.info.id);
        assert.equal((await rt.readFile('/workspace/app.py'))?.toString(), 'print(1)\nsecond\n');
        assert.equal((await rt.readFile('/workspace/sub/notes.txt'))?.toString(), 'notes\n');
        assert.equal((await restored.client.call('ide.settings.get', { key: 'editor.fontSize' })).value, 15);
        const editors = await restored.client.call('ide.editors', { maxTextChars: 0 });
        assert.ok(JSON.stringify(editors).includes('app.py'), 'app.py is open again');
      } finally {
        restored.client.close();
        await deployment.remove(restored.info.id);
      }
    } finally { await env.close(); }
  });

  it('scores a bundled task 1 with its oracle and 0 with the null agent, graded by a verifier job on the swarm', async () => {
    const [task] = resolveTasks(['vscode-config/color-theme']);
    const base = join(paths.state, 'test-runs', 'swarm');
    const oracle = await runTask(task, { agent: new OracleAgent(), runDir: join(base, 'oracle'), deployment, labels });
    assert.equal(oracle.score, 1, oracle.error ?? oracle.evaluation?.summary);
    assert.equal(oracle.image, image);
    const nothing = await runTask(task, { agent: new NullAgent(), runDir: join(base, 'null'), deployment, labels });
    assert.equal(nothing.score, 0, nothing.error ?? nothing.evaluation?.summary);
    assert.deepEqual(await cluster.manager.listServices({ filters: { label: ['pwp.test=swarm'] } }), [], 'environments and verifiers removed');
  });

  it('ends an episode whose worker is killed with EnvironmentLostError naming it, keeps the trajectory, and runs the next on a live worker', async () => {
    const [task] = resolveTasks(['vscode-config/color-theme']);
    const runDir = join(paths.state, 'test-runs', 'swarm', 'lost');
    let killedAt = 0;
    let killed = '';
    const agent: Agent = {
      name: 'kills-its-node',
      run: async (env) => {
        for (let i = 0; ; i++) {
          await stepAction(env, { type: 'key', keys: 'escape' });
          if (i === 2) {
            killed = (await deployment.get(env.unwrapped.id!)).labels['pwp.node'];
            killedAt = Date.now();
            await cluster.killNode(killed);
          }
        }
      },
    };
    const result = await runTask(task, { agent, runDir, deployment, labels, video: false });
    const lostAfterMs = Date.now() - killedAt;
    console.log(`      the run ended ${lostAfterMs} ms after ${killed} was killed: ${result.error}`);
    assert.equal(result.status, 'error');
    assert.equal(result.score, 0);
    assert.match(result.error ?? '', new RegExp(`^${EnvironmentLostError.name}: .*${killed}`));
    // No bound on the time: the agent presses keys until the run ends, so a loss never noticed
    // ends it by the task's limit with another error, which the match above refuses.
    const records = readFileSync(join(runDir, TRAJECTORY_FILE), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { type: string; status?: string });
    assert.ok(records.filter((r) => r.type === 'step').length >= 3, 'the steps before the loss are recorded');
    assert.equal(records.at(-1)?.type, 'end');
    assert.equal(records.at(-1)?.status, 'error');
    assert.ok(existsSync(join(runDir, 'result.json')));

    let ranOn: Promise<string> | undefined;
    const next = await runTask(task, {
      agent: new OracleAgent(), runDir: join(runDir, '..', 'after-loss'), deployment, labels,
      onEnvironment: (e) => { ranOn = deployment.get(e.id).then((i) => i.labels['pwp.node']); },
    });
    assert.equal(next.score, 1, next.error ?? next.evaluation?.summary);
    const live = cluster.workers.find((w) => w.name !== killed)!.name;
    assert.equal(await ranOn, live, 'the next episode ran on the live worker');
  });
});
