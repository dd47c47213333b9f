// The swarm backend's pure parts: the service specs it sends a manager, the loss detector's
// decisions (fake manager and network), backend and registry names. The real swarm is in
// test/swarm/swarm.test.ts.
import assert from 'node:assert/strict';
import { EnvironmentLostError } from '../../../../bridge/protocol';
import { engineAt, parseBackend, swarmOptionsFromEnv } from '../../../../host/deployment/backends';
import type { EnvironmentInfo } from '../../../../host/deployment/deployment';
import { confirmLoss, watchEnvironment, type WatchedPlacement } from '../../../../host/deployment/swarm/nodeWatch';
import { environmentService, verifierService } from '../../../../host/deployment/swarm/serviceSpecs';
import { registryName } from '../../../../host/imageBuild/pushImage';

const limits = { cpus: 2, memoryMb: 2048, pids: 2048, reserve: 0.25 };
const secret = { id: 'sec1', name: 'pwp-abc-token' };

describe('swarm service specs', () => {
  const env = environmentService({
    id: 'abc', image: 'registry:5000/pwp-ide:1', display: { width: 1280, height: 800 }, labels: { 'pwp.test': '1' },
    token: 'tok-tok-tok-tok-tok-tok', secret, limits, constraints: ['node.role==worker'], view: false, held: true,
  });
  const c = (env.TaskTemplate as { ContainerSpec: Record<string, unknown> }).ContainerSpec as {
    Env: string[];
    CapabilityDrop: string[];
    CapabilityAdd: string[];
    Secrets: { File: { UID: string; Mode: number; Name: string } }[];
    Labels: Record<string, string>;
    User: string;
  };

  it('an environment: the bridge as root with three capabilities, the token as a root-only secret, limits and reservations, no restart', () => {
    assert.equal(c.User, 'root');
    assert.deepEqual(c.CapabilityDrop, ['ALL']);
    assert.deepEqual(c.CapabilityAdd, ['CAP_SETUID', 'CAP_SETGID', 'CAP_KILL']);
    assert.deepEqual(c.Secrets[0].File, { Name: 'pwp-token', UID: '0', GID: '0', Mode: 0o400 });
    assert.ok(c.Env.includes('PWP_TOKEN_FILE=/run/secrets/pwp-token'));
    assert.ok(c.Env.includes('PWP_START=held'));
    assert.ok(!c.Env.some((e) => e.includes('tok-tok')), 'no token in the container\'s environment');
    assert.ok(!JSON.stringify(c.Labels).includes('tok-tok'), 'no token in the container\'s labels');
    assert.equal(env.Labels?.['pwp.token'], 'tok-tok-tok-tok-tok-tok', 'the token is on the service, for the host');
    const t = env.TaskTemplate as {
      Resources: { Limits: Record<string, number>; Reservations: Record<string, number> };
      RestartPolicy: { Condition: string };
      Placement: { Constraints: string[] };
    };
    assert.deepEqual(t.Resources.Limits, { NanoCPUs: 2e9, MemoryBytes: 2048 * 2 ** 20, Pids: 2048 });
    assert.deepEqual(t.Resources.Reservations, { NanoCPUs: 0.5e9, MemoryBytes: 512 * 2 ** 20 });
    assert.equal(t.RestartPolicy.Condition, 'none');
    assert.deepEqual(t.Placement.Constraints, ['node.role==worker']);
    assert.deepEqual(env.EndpointSpec?.Ports, [{ Protocol: 'tcp', TargetPort: 7000, PublishMode: 'host' }]);
  });

  it('a verifier: a job whose bridge serves runtime.* only', () => {
    const v = verifierService({ id: 'v1', image: 'registry:5000/task:1', labels: {}, secret, limits, constraints: [] });
    const vc = (v.TaskTemplate as { ContainerSpec: { Env: string[]; CapabilityAdd: string[] } }).ContainerSpec;
    assert.ok(vc.Env.includes('PWP_BRIDGE_MODE=runtime'));
    assert.ok(!vc.CapabilityAdd.includes('CAP_SYS_ADMIN') && !vc.CapabilityAdd.includes('CAP_NET_ADMIN'));
    assert.deepEqual(v.Mode, { ReplicatedJob: { MaxConcurrent: 1, TotalCompletions: 1 } });
  });
});

describe('choosing a backend', () => {
  it('takes docker or swarm and refuses anything else', () => {
    assert.equal(parseBackend(undefined), 'docker');
    assert.equal(parseBackend('swarm'), 'swarm');
    assert.throws(() => parseBackend('k8s'), /docker, swarm/);
  });
  it('a swarm needs a manager and a registry, and says where to read how', () => {
    assert.throws(() => swarmOptionsFromEnv({}), /PWP_SWARM_MANAGER.*PWP_SWARM_REGISTRY.*scale-out/);
    const o = swarmOptionsFromEnv({ PWP_SWARM_MANAGER: 'unix:///tmp/m.sock', PWP_SWARM_REGISTRY: 'reg:5000', PWP_SWARM_CONSTRAINTS: 'node.role==worker, node.labels.pwp==1' });
    assert.equal(o.registry, 'reg:5000');
    assert.deepEqual(o.constraints, ['node.role==worker', 'node.labels.pwp==1']);
    assert.throws(() => engineAt('ftp://x'), /unix:\/\/\/path/);
  });
  it('names an image under a registry, replacing a registry part it has', () => {
    assert.equal(registryName('pwp-ide:abc', '127.0.0.1:5000'), '127.0.0.1:5000/pwp-ide:abc');
    assert.equal(registryName('registry:5000/pwp-ide:abc', 'other:5000/'), 'other:5000/pwp-ide:abc');
    assert.equal(registryName('library/python:3', 'r.lab'), 'r.lab/library/python:3');
  });
});

describe('noticing a lost swarm environment', () => {
  const info = { id: 'e1' } as EnvironmentInfo;
  const placed = (o: Partial<WatchedPlacement> = {}): WatchedPlacement => ({ nodeId: 'n1', node: 'worker1', address: '10.0.0.2', port: 30001, state: 'running', error: '', ...o });

  it('a dropped connection to a bridge that no longer answers is a lost node, named', async () => {
    const lost = await confirmLoss(info, { placement: async () => placed(), nodeState: async () => 'ready', reachable: async () => false }, { unreachableAfterMs: 1500 });
    assert.ok(lost instanceof EnvironmentLostError);
    assert.match(lost.message, /node worker1: its bridge at 10\.0\.0\.2:30001 has not answered/);
    assert.deepEqual(lost.data, { node: 'worker1', environment: 'e1' });
  });

  it('what the manager says decides at once: a node down, a task that stopped, a service gone', async () => {
    const down = await confirmLoss(info, { placement: async () => placed(), nodeState: async () => 'down', reachable: async () => true });
    assert.match(down?.message ?? '', /node worker1: the swarm reports the node down/);
    const failed = await confirmLoss(info, { placement: async () => placed({ state: 'failed', error: 'task: non-zero exit (137)' }), nodeState: async () => 'ready' });
    assert.match(failed?.message ?? '', /its task is failed \(task: non-zero exit \(137\)\)/);
    const gone = await confirmLoss(info, { placement: async () => undefined, nodeState: async () => 'ready' });
    assert.match(gone?.message ?? '', /its service is gone/);
  });

  it('a bridge that answers is not lost, and a manager that does not answer is not a loss', async () => {
    assert.equal(await confirmLoss(info, { placement: async () => placed(), nodeState: async () => 'ready', reachable: async () => true }), undefined);
    let calls = 0;
    const flaky = await confirmLoss(info, {
      placement: async () => { if (calls++ === 1) throw new Error('manager busy'); return placed(); },
      nodeState: async () => { throw new Error('manager busy'); }, reachable: async () => true,
    });
    assert.equal(flaky, undefined);
  });

  it('the background watch calls onLost once and stops; a stopped watch calls nothing', async () => {
    const seen: Error[] = [];
    await new Promise<void>((resolve) => {
      watchEnvironment(
        info,
        (e) => {
          seen.push(e);
          resolve();
        },
        { placement: async () => placed(), nodeState: async () => 'down', reachable: async () => true },
        { intervalMs: 10 },
      );
    });
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(seen.length, 1);
    let called = false;
    const stop = watchEnvironment(info, () => { called = true; }, { placement: async () => placed(), nodeState: async () => 'down' }, { intervalMs: 10 });
    stop();
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(called, false);
  });
});
