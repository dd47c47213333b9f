// The Kubernetes objects one episode of a task would need: the design of docs/scale-out.md
// as data. Nothing here talks to a cluster (none runs on these machines); `pwp k8s manifests`
// prints these for review or `kubectl apply`, and the tests validate them against the
// Kubernetes API schemas. The same limits and hardening as the Docker backend
// (dockerDeployment.ts, verifierContainer.ts), in Kubernetes' terms:
// - the environment: one Pod, its bridge the only port, reached through a ClusterIP Service (or
//   `kubectl port-forward`); root for the bridge with only SETUID, SETGID and KILL, no privilege
//   escalation, CPU and memory limits, no service-account token, no service links;
// - the bridge's token: a Secret created apart (never in these manifests or pwp's output),
//   copied by an init container into a memory volume the bridge reads and deletes;
// - networks: the namespace denies everything by default; the environment takes connections
//   only from the controller (the host running pwp) and reaches nothing, or only the internet
//   for tasks with `network`; never another environment, the cluster's services or metadata;
// - the verifier: a Job of the same image with no egress at all, which the controller fills
//   and reads through runtime.* (no `kubectl exec`); hidden tests go only there.
import type { Job } from 'kubernetes-types/batch/v1';
import type { Container, Pod, PodSecurityContext, Service } from 'kubernetes-types/core/v1';
import type { NetworkPolicy, NetworkPolicyPeer } from 'kubernetes-types/networking/v1';

export interface EpisodeManifestOptions {
  /** The episode's id (a-z0-9, the environment id); names every object. */
  episode: string;
  namespace: string;
  /** The IDE image as the cluster pulls it (a registry reference). */
  image: string;
  /** The verifier's image (the task's image); default `image`. */
  verifierImage?: string;
  cpus?: number;
  memoryMb?: number;
}

export type EpisodeObject = Pod | Service | NetworkPolicy | Job;

/** What of a task the manifests need (a loaded Task has it): a deployment knows no task format. */
export interface EpisodeTask {
  suite: string;
  id: string;
  network?: boolean;
  environment: { memoryMb?: number; display?: { width: number; height: number } };
}

const BRIDGE_PORT = 7000;
const ROLE = 'pwp.dev/role';
const EPISODE = 'pwp.dev/episode';
const TASK = 'pwp.dev/task';
/** Label of the pods allowed to reach bridges: where the pwp host (controller) runs. */
export const CONTROLLER_SELECTOR = { [ROLE]: 'controller' };
/** Private, link-local and metadata ranges a task with `network` still never reaches. */
const NOT_THE_INTERNET = ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '169.254.0.0/16', '100.64.0.0/10'];

/** The Secret's name holding the bridge's token of `episode` (created with `kubectl create secret`, not by pwp's output). */
export const tokenSecretName = (episode: string) => `pwp-${episode}-bridge-token`;

/** A label value from any text: at most 63 of [A-Za-z0-9._-], starting and ending alphanumeric. */
export function labelValue(text: string): string {
  return text.replace(/[^A-Za-z0-9._-]+/g, '.').slice(0, 63).replace(/^[^A-Za-z0-9]+|[^A-Za-z0-9]+$/g, '');
}

export function episodeManifests(task: EpisodeTask, o: EpisodeManifestOptions): EpisodeObject[] {
  if (!/^[a-z0-9]([a-z0-9-]{0,40}[a-z0-9])?$/.test(o.episode)) throw new Error(`episode id '${o.episode}' must be 1-42 of a-z, 0-9 and '-'`);
  const name = `pwp-${o.episode}`;
  const labels = { 'app.kubernetes.io/name': 'pwp', [EPISODE]: o.episode, [TASK]: labelValue(`${task.suite}.${task.id}`) };
  const meta = (suffix: string, role: string) => ({ name: `${name}${suffix}`, namespace: o.namespace, labels: { ...labels, [ROLE]: role } });
  const memory = `${o.memoryMb ?? task.environment.memoryMb ?? 2048}Mi`;
  const cpu = String(o.cpus ?? 2);
  const display = task.environment.display ?? { width: 1280, height: 800 };

  const noServiceAccount = { automountServiceAccountToken: false, enableServiceLinks: false };
  const podSecurity: PodSecurityContext = { seccompProfile: { type: 'RuntimeDefault' } };
  const ide: Container = {
    name: 'ide',
    image: o.image,
    ports: [{ name: 'bridge', containerPort: BRIDGE_PORT, protocol: 'TCP' }],
    env: [
      { name: 'PWP_TOKEN_FILE', value: '/run/pwp-token/token' },
      { name: 'PWP_DISPLAY_SIZE', value: `${display.width}x${display.height}` },
    ],
    // The bridge is root with these three capabilities only, as in the Docker backend.
    securityContext: {
      runAsUser: 0, runAsNonRoot: false, privileged: false, allowPrivilegeEscalation: false,
      capabilities: { drop: ['ALL'], add: ['SETUID', 'SETGID', 'KILL'] },
    },
    resources: { limits: { cpu, memory }, requests: { cpu, memory } },
    // Ready when the bridge answers; the controller then waits on proc.waitReady as it does locally.
    readinessProbe: { tcpSocket: { port: 'bridge' }, periodSeconds: 2 },
    volumeMounts: [{ name: 'token', mountPath: '/run/pwp-token' }, { name: 'shm', mountPath: '/dev/shm' }],
  };
  // The Secret is mounted only here: the IDE's container gets a copy it deletes once read.
  const copyToken: Container = {
    name: 'token',
    image: o.image,
    command: ['sh', '-c', 'cp /secret/token /run/pwp-token/token && chmod 0400 /run/pwp-token/token'],
    securityContext: { runAsUser: 0, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
    resources: { limits: { cpu: '100m', memory: '64Mi' } },
    volumeMounts: [{ name: 'secret', mountPath: '/secret', readOnly: true }, { name: 'token', mountPath: '/run/pwp-token' }],
  };
  const pod: Pod = {
    apiVersion: 'v1', kind: 'Pod', metadata: meta('', 'environment'),
    spec: {
      ...noServiceAccount,
      restartPolicy: 'Never',
      securityContext: podSecurity,
      initContainers: [copyToken],
      containers: [ide],
      volumes: [
        { name: 'secret', secret: { secretName: tokenSecretName(o.episode), defaultMode: 0o400 } },
        { name: 'token', emptyDir: { medium: 'Memory', sizeLimit: '1Mi' } },
        { name: 'shm', emptyDir: { medium: 'Memory', sizeLimit: '256Mi' } },
      ],
    },
  };
  const service: Service = {
    apiVersion: 'v1', kind: 'Service', metadata: meta('', 'environment'),
    spec: { type: 'ClusterIP', selector: { [EPISODE]: o.episode, [ROLE]: 'environment' }, ports: [{ name: 'bridge', port: BRIDGE_PORT, targetPort: 'bridge', protocol: 'TCP' }] },
  };
  const fromController: NetworkPolicyPeer[] = [{ podSelector: { matchLabels: CONTROLLER_SELECTOR } }];
  const environmentPolicy: NetworkPolicy = {
    apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', metadata: meta('-network', 'environment'),
    spec: {
      podSelector: { matchLabels: { [EPISODE]: o.episode, [ROLE]: 'environment' } },
      policyTypes: ['Ingress', 'Egress'],
      ingress: [{ from: fromController, ports: [{ protocol: 'TCP', port: BRIDGE_PORT }] }],
      // No egress rule denies all egress; with `network` the internet only (DNS through the cluster's resolver).
      egress: task.network ? [
        { to: [{ ipBlock: { cidr: '0.0.0.0/0', except: NOT_THE_INTERNET } }] },
        { to: [{ namespaceSelector: {}, podSelector: { matchLabels: { 'k8s-app': 'kube-dns' } } }], ports: [{ protocol: 'UDP', port: 53 }, { protocol: 'TCP', port: 53 }] },
      ] : [],
    },
  };
  // The verifier: the task's image, no IDE, root that may also write the hidden tests and the
  // agent's files where they go (CHOWN, DAC_OVERRIDE, FOWNER: no agent code runs as root in it;
  // the tests run as the IDE user), served by the bridge in runtime-only mode for the controller.
  const verifier: Job = {
    apiVersion: 'batch/v1', kind: 'Job', metadata: meta('-verifier', 'verifier'),
    spec: {
      backoffLimit: 0,
      activeDeadlineSeconds: 3600,
      ttlSecondsAfterFinished: 600,
      template: {
        metadata: { labels: { ...labels, [ROLE]: 'verifier' } },
        spec: {
          ...noServiceAccount,
          restartPolicy: 'Never',
          securityContext: podSecurity,
          initContainers: [{ ...copyToken, image: o.verifierImage ?? o.image }],
          containers: [{
            name: 'verifier',
            image: o.verifierImage ?? o.image,
            ports: [{ name: 'bridge', containerPort: BRIDGE_PORT, protocol: 'TCP' }],
            env: [{ name: 'PWP_TOKEN_FILE', value: '/run/pwp-token/token' }, { name: 'PWP_BRIDGE_MODE', value: 'runtime' }],
            securityContext: {
              runAsUser: 0, runAsNonRoot: false, privileged: false, allowPrivilegeEscalation: false,
              capabilities: { drop: ['ALL'], add: ['SETUID', 'SETGID', 'CHOWN', 'DAC_OVERRIDE', 'FOWNER'] },
            },
            resources: { limits: { cpu: '1', memory: '1536Mi' }, requests: { cpu: '1', memory: '1536Mi' } },
            volumeMounts: [{ name: 'token', mountPath: '/run/pwp-token' }],
          }],
          volumes: [
            { name: 'secret', secret: { secretName: tokenSecretName(`${o.episode}-verifier`), defaultMode: 0o400 } },
            { name: 'token', emptyDir: { medium: 'Memory', sizeLimit: '1Mi' } },
          ],
        },
      },
    },
  };
  const verifierPolicy: NetworkPolicy = {
    apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', metadata: meta('-verifier-network', 'verifier'),
    spec: {
      podSelector: { matchLabels: { [EPISODE]: o.episode, [ROLE]: 'verifier' } },
      policyTypes: ['Ingress', 'Egress'],
      ingress: [{ from: fromController, ports: [{ protocol: 'TCP', port: BRIDGE_PORT }] }],
      egress: [],
    },
  };
  return [pod, service, environmentPolicy, verifier, verifierPolicy];
}

/** Once per namespace: nothing reaches or leaves any pod unless a policy above allows it. */
export function namespaceDefaultDeny(namespace: string): NetworkPolicy {
  return {
    apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy',
    metadata: { name: 'pwp-default-deny', namespace, labels: { 'app.kubernetes.io/name': 'pwp' } },
    spec: { podSelector: {}, policyTypes: ['Ingress', 'Egress'], ingress: [], egress: [] },
  };
}

/** How to make the token Secrets (their values never pass through pwp's output). */
export function tokenSecretCommands(o: Pick<EpisodeManifestOptions, 'episode' | 'namespace'>): string[] {
  return [tokenSecretName(o.episode), tokenSecretName(`${o.episode}-verifier`)].map((s) =>
    `kubectl -n ${o.namespace} create secret generic ${s} --from-literal=token="$(head -c 24 /dev/urandom | base64 | tr -d '/+=')"`);
}

