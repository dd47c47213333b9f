// Which backend runs environments: this host's Docker engine (the default) or a Swarm cluster.
// `--backend` on the CLI, the Env's and the Env server's `backend` option, or PWP_BACKEND; a
// swarm is described by PWP_SWARM_* (docs/scale-out.md).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Docker from 'dockerode';
import type { Backend, Deployment } from './deployment';
import { DockerDeployment } from './dockerDeployment';
import { SwarmDeployment, type SwarmDeploymentOptions } from './swarm/swarmDeployment';
import { parseBackend } from './backendNames';

export { BACKENDS, parseBackend } from './backendNames';

/** An Engine API client for an address: unix:///path, tcp://host:port (plain) or https://host:port (TLS from tlsDir). */
export function engineAt(address: string, tlsDir?: string): Docker {
  const url = new URL(address);
  if (url.protocol === 'unix:') return new Docker({ socketPath: url.pathname });
  if (url.protocol !== 'tcp:' && url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new Error(`a Docker API address is unix:///path, tcp://host:port or https://host:port, not '${address}'`);
  }
  const tls = url.protocol === 'https:' || Boolean(tlsDir);
  const files = tls && tlsDir ? { ca: readFileSync(join(tlsDir, 'ca.pem')), cert: readFileSync(join(tlsDir, 'cert.pem')), key: readFileSync(join(tlsDir, 'key.pem')) } : {};
  return new Docker({ protocol: tls ? 'https' : 'http', host: url.hostname, port: Number(url.port || (tls ? 2376 : 2375)), ...files });
}

/** The swarm as PWP_SWARM_MANAGER, PWP_SWARM_REGISTRY, PWP_SWARM_PUSH and PWP_SWARM_CONSTRAINTS describe it. */
export function swarmOptionsFromEnv(env = process.env): SwarmDeploymentOptions {
  const manager = env.PWP_SWARM_MANAGER;
  const registry = env.PWP_SWARM_REGISTRY;
  if (!manager || !registry) {
    throw new Error('the swarm backend needs PWP_SWARM_MANAGER (a manager\'s Docker API: unix:///path, tcp://host:port or https://host:port with PWP_SWARM_TLS_DIR) and PWP_SWARM_REGISTRY (host:port of the registry the nodes pull from); see docs/scale-out.md');
  }
  return {
    manager: engineAt(manager, env.PWP_SWARM_TLS_DIR),
    registry,
    pushTo: env.PWP_SWARM_PUSH || undefined,
    constraints: (env.PWP_SWARM_CONSTRAINTS ?? '').split(',').map((c) => c.trim()).filter(Boolean),
  };
}

/** The deployment of `backend` (PWP_BACKEND, else docker). */
export function createDeployment(backend: Backend | string | undefined = process.env.PWP_BACKEND): Deployment {
  return parseBackend(backend) === 'swarm' ? new SwarmDeployment(swarmOptionsFromEnv()) : new DockerDeployment();
}
