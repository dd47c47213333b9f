// `pwp k8s manifests`: every object checked against the Kubernetes API schemas (kubernetes-models,
// generated from the API's OpenAPI definitions), and what a cluster operator would check: no
// token anywhere, limits on every container, the verifier cut off from the network, hidden
// tests nowhere near the agent's pod, environments unable to reach each other.
import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import type { Pod } from 'kubernetes-types/core/v1';
import type { NetworkPolicy } from 'kubernetes-types/networking/v1';
import type { Job } from 'kubernetes-types/batch/v1';
import { parseAllDocuments } from 'yaml';
import { episodeManifests, namespaceDefaultDeny, type EpisodeObject } from '../../../../host/deployment/kubernetes/episodeManifests';
import { resolveTasks } from '../../../../host/taskEnv/loadTask';

const run = promisify(execFile);
const PWP = join(__dirname, '../../../../bin/pwp');

/** Validates one object with the kubernetes-models class of its apiVersion and kind; throws what the schema says. */
async function validate(obj: { apiVersion?: string; kind?: string }): Promise<void> {
  const group = obj.apiVersion === 'v1' ? 'v1' : obj.apiVersion!;
  const models = await import(`kubernetes-models/${group}`) as Record<string, new (o: unknown) => { validate(): void }>;
  const Model = models[obj.kind!];
  assert.ok(Model, `no schema for ${obj.apiVersion} ${obj.kind}`);
  new Model(obj).validate();
}

const files = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((e) => e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)]);

describe('Kubernetes manifests of an episode (designed on paper)', () => {
  const [task] = resolveTasks(['code-edit/py-roman']);
  const objects = episodeManifests(task, { episode: 'ep1', namespace: 'pwp', image: 'registry.local:5000/pwp-ide:abc' });
  const byKind = <T extends EpisodeObject>(kind: string, role?: string) =>
    objects.filter((o) => o.kind === kind && (!role || o.metadata?.labels?.['pwp.dev/role'] === role)) as T[];
  const pod = byKind<Pod>('Pod')[0];
  const job = byKind<Job>('Job')[0];

  it('validates every object against the Kubernetes API schemas', async () => {
    for (const o of [namespaceDefaultDeny('pwp'), ...objects]) await validate(o);
  });

  it('the schema check can fail: a malformed pod and a policy with a string port list are rejected', async () => {
    await assert.rejects(validate({ ...pod, spec: { ...pod.spec, containers: 'ide' } } as unknown as Pod), /containers must be array/);
    await assert.rejects(validate({ apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', metadata: { name: 'x' }, spec: { podSelector: {}, ingress: [{ ports: 'all' }] } } as never), /ports must be array/);
  });

  it('holds no token: the pod takes it from a Secret made apart, mounted only into the init container that copies it', () => {
    assert.equal(objects.some((o) => (o.kind as string) === 'Secret'), false);
    const env = pod.spec!.containers.flatMap((c) => c.env ?? []);
    assert.deepEqual(env.filter((e) => /TOKEN/.test(e.name)).map((e) => [e.name, e.value]), [['PWP_TOKEN_FILE', '/run/pwp-token/token']]);
    assert.equal(pod.spec!.containers.some((c) => c.volumeMounts?.some((m) => m.name === 'secret')), false, 'the IDE container mounts the Secret');
    assert.equal(pod.spec!.automountServiceAccountToken, false);
  });

  it('hardens the environment as the Docker backend does, with limits on every container', () => {
    const ide = pod.spec!.containers[0];
    assert.deepEqual(ide.securityContext?.capabilities, { drop: ['ALL'], add: ['SETUID', 'SETGID', 'KILL'] });
    assert.equal(ide.securityContext?.allowPrivilegeEscalation, false);
    assert.equal(ide.securityContext?.privileged, false);
    for (const c of [...pod.spec!.initContainers!, ...pod.spec!.containers, ...job.spec!.template.spec!.containers]) {
      assert.ok(c.resources?.limits?.cpu && c.resources.limits.memory, `${c.name} has no CPU or memory limit`);
    }
    assert.deepEqual(ide.resources?.limits, { cpu: '2', memory: '2048Mi' });
  });

  it('cuts the verifier off: its policy selects the job\'s pod and allows no egress, and only the controller in', () => {
    const policy = byKind<NetworkPolicy>('NetworkPolicy', 'verifier')[0];
    const podLabels = job.spec!.template.metadata!.labels!;
    for (const [k, v] of Object.entries(policy.spec!.podSelector.matchLabels!)) assert.equal(podLabels[k], v, `selector ${k} does not match the verifier pod`);
    assert.deepEqual(policy.spec!.policyTypes, ['Ingress', 'Egress']);
    assert.deepEqual(policy.spec!.egress, []);
    assert.deepEqual(policy.spec!.ingress![0].from, [{ podSelector: { matchLabels: { 'pwp.dev/role': 'controller' } } }]);
  });

  it('keeps environments apart: ingress only from the controller, no egress for a task without network, never private ranges or metadata with it', () => {
    const policy = byKind<NetworkPolicy>('NetworkPolicy', 'environment')[0];
    assert.deepEqual(policy.spec!.ingress, [{ from: [{ podSelector: { matchLabels: { 'pwp.dev/role': 'controller' } } }], ports: [{ protocol: 'TCP', port: 7000 }] }]);
    assert.deepEqual(policy.spec!.egress, []);
    const online = episodeManifests({ ...task, network: true }, { episode: 'ep2', namespace: 'pwp', image: 'x' });
    const egress = (online.find((o) => o.kind === 'NetworkPolicy' && o.metadata?.labels?.['pwp.dev/role'] === 'environment') as NetworkPolicy).spec!.egress!;
    const block = egress[0].to![0].ipBlock!;
    assert.equal(block.cidr, '0.0.0.0/0');
    for (const cidr of ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '169.254.0.0/16']) assert.ok(block.except!.includes(cidr), `egress reaches ${cidr}`);
  });

  it('puts nothing of the hidden tests into the agent\'s pod (they reach only the verifier, through its runtime)', () => {
    const text = JSON.stringify([pod, ...byKind('Service'), ...byKind('NetworkPolicy', 'environment')]);
    const hidden = files(task.hiddenDir!);
    assert.ok(hidden.length > 0);
    for (const f of hidden) {
      assert.equal(text.includes(relative(task.hiddenDir!, f)), false, `${f} named in the environment's manifests`);
      const content = readFileSync(f, 'utf8').trim().split('\n').find((l) => l.trim().length > 20);
      if (content) assert.equal(text.includes(content.trim()), false, `${f}'s content in the environment's manifests`);
    }
  });

  it('refuses an episode id that cannot name Kubernetes objects', () => {
    assert.throws(() => episodeManifests(task, { episode: 'Bad_Id', namespace: 'pwp', image: 'x' }), /episode id/);
  });

  it('pwp k8s manifests prints YAML documents that validate, and says on stderr how to make the Secrets without a value', async function () {
    // Two runs of the CLI: from the sources (a tree newer than its bundle) at a load of 50 on 2
    // cores, 56 s together.
    this.timeout(300_000);
    const { stdout, stderr } = await run(PWP, ['k8s', 'manifests', 'vscode-config/color-theme', '--namespace', 'lab', '--episode', 'e7']);
    const docs = parseAllDocuments(stdout).map((d) => d.toJS() as EpisodeObject);
    assert.deepEqual(docs.map((d) => d.kind), ['NetworkPolicy', 'Pod', 'Service', 'NetworkPolicy', 'Job', 'NetworkPolicy']);
    for (const d of docs) { assert.equal(d.metadata?.namespace, 'lab'); await validate(d); }
    assert.match(stderr, /kubectl -n lab create secret generic pwp-e7-bridge-token --from-literal=token="\$\(head -c 24 \/dev\/urandom/);
    await assert.rejects(run(PWP, ['k8s', 'manifests', 'vscode-config/color-theme', '--namespace', 'Not A Namespace']), /not a Kubernetes namespace name/);
  });
});
