// What a Swarm service of pwp is, in the Engine API's terms: an environment (the IDE image's
// bridge with the Docker backend's limits and capabilities, its bridge port published on the
// node that runs it) and a verifier (a job of the task's image whose bridge serves only
// runtime.*). Pure functions, so the specs can be read and tested without a cluster.
import type Docker from 'dockerode';
import { BRIDGE_PORT, LABEL, TOKEN_LABEL } from '../environmentLabels';

/** Where the token secret appears in the container: root's, mode 0400 (the bridge reads it; the IDE user cannot). */
export const TOKEN_PATH = '/run/secrets/pwp-token';
export const VERIFIER_LABEL = 'pwp.verifier';

/** The bridge's capabilities, as on the Docker backend (dockerDeployment.ts says why these three). */
const BRIDGE_CAPABILITIES = ['CAP_SETUID', 'CAP_SETGID', 'CAP_KILL'];
/** The verifier's root writes the hidden tests into the agent's folders and starts the tests as the IDE user. */
const VERIFIER_CAPABILITIES = ['CAP_SETUID', 'CAP_SETGID', 'CAP_CHOWN', 'CAP_DAC_OVERRIDE', 'CAP_FOWNER'];

export interface ServiceLimits {
  cpus: number;
  memoryMb: number;
  pids: number;
  /** Share of the limits Swarm reserves on the node it places the service on (it places no more than a node has). */
  reserve: number;
}

export interface EnvironmentServiceSpec {
  id: string;
  image: string;
  display: { width: number; height: number };
  labels: Record<string, string>;
  token: string;
  secret: { id: string; name: string };
  limits: ServiceLimits;
  constraints: string[];
  view: boolean;
  /** Start the IDE only on proc.start (the host puts files in first through runtime.*). */
  held: boolean;
}

const secretRef = (s: { id: string; name: string }) => ({
  SecretID: s.id, SecretName: s.name, File: { Name: TOKEN_PATH.split('/').pop()!, UID: '0', GID: '0', Mode: 0o400 },
});

function resources(l: ServiceLimits) {
  const memory = l.memoryMb * 1024 * 1024;
  return {
    Limits: { NanoCPUs: Math.round(l.cpus * 1e9), MemoryBytes: memory, Pids: l.pids },
    Reservations: { NanoCPUs: Math.round(l.cpus * l.reserve * 1e9), MemoryBytes: Math.round(memory * l.reserve) },
  };
}

/** The bridge's port on the node that runs the task, not the routing mesh: the host reaches it at that node's address. */
const publishedBridge = { Ports: [{ Protocol: 'tcp' as const, TargetPort: BRIDGE_PORT, PublishMode: 'host' as const }] };

export function environmentService(s: EnvironmentServiceSpec): Docker.CreateServiceOptions {
  return {
    Name: `pwp-${s.id}`,
    // The token on the service only (the manager's API), never on the container: what `pwp` needs to reach the bridge again.
    Labels: { ...s.labels, [LABEL]: s.id, [TOKEN_LABEL]: s.token },
    TaskTemplate: {
      ContainerSpec: {
        Image: s.image,
        // The bridge runs as root with three capabilities; it starts the IDE as pwp.
        User: 'root',
        Env: [
          `PWP_TOKEN_FILE=${TOKEN_PATH}`, `PWP_DISPLAY_SIZE=${s.display.width}x${s.display.height}`,
          ...(s.held ? ['PWP_START=held'] : []), ...(s.view ? ['PWP_VIEW=1'] : []),
        ],
        Labels: { [LABEL]: s.id },
        Secrets: [secretRef(s.secret)],
        CapabilityDrop: ['ALL'],
        CapabilityAdd: BRIDGE_CAPABILITIES,
        Mounts: [{ Type: 'tmpfs', Source: '', Target: '/dev/shm', TmpfsOptions: { SizeBytes: 256 * 1024 * 1024, Mode: 0o1777 } }],
        StopGracePeriod: 5e9,
      },
      Resources: resources(s.limits),
      // An environment's state lives in its container: a task restarted elsewhere would be an
      // empty IDE under the same name, so a lost one stays lost and its episode ends (typed error).
      RestartPolicy: { Condition: 'none' },
      Placement: { Constraints: s.constraints },
    },
    Mode: { Replicated: { Replicas: 1 } },
    EndpointSpec: publishedBridge,
  } as Docker.CreateServiceOptions;
}

export interface VerifierServiceSpec {
  id: string;
  image: string;
  labels: Record<string, string>;
  secret: { id: string; name: string };
  limits: ServiceLimits;
  constraints: string[];
}

/**
 * The verifier: a job (one task, run to completion, never restarted) of the task's image whose
 * bridge serves runtime.* only; the host fills it, runs the tests and reads the report through
 * it, then removes it.
 */
export function verifierService(s: VerifierServiceSpec): Docker.CreateServiceOptions {
  return {
    Name: `pwp-verifier-${s.id}`,
    Labels: { ...s.labels, [VERIFIER_LABEL]: s.id },
    TaskTemplate: {
      ContainerSpec: {
        Image: s.image,
        User: 'root',
        Env: [`PWP_TOKEN_FILE=${TOKEN_PATH}`, 'PWP_BRIDGE_MODE=runtime'],
        Labels: { [VERIFIER_LABEL]: s.id },
        Secrets: [secretRef(s.secret)],
        CapabilityDrop: ['ALL'],
        CapabilityAdd: VERIFIER_CAPABILITIES,
        StopGracePeriod: 2e9,
      },
      Resources: resources(s.limits),
      RestartPolicy: { Condition: 'none' },
      Placement: { Constraints: s.constraints },
    },
    Mode: { ReplicatedJob: { MaxConcurrent: 1, TotalCompletions: 1 } },
    EndpointSpec: publishedBridge,
  } as Docker.CreateServiceOptions;
}
