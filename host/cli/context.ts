// Shared wiring for commands: the deployment and connecting to an environment by id.
import { DockerDeployment } from '../deployment/dockerDeployment';
import { removeOwnedContainersOnInterrupt } from '../deployment/ownedContainers';
import { connectEnvironment } from '../env/running/runningEnvironment';
import type { BridgeClient } from '../client/bridgeClient';

let deployment: DockerDeployment | undefined;
export function docker(): DockerDeployment {
  deployment ??= new DockerDeployment();
  return deployment;
}

/** Runs `fn` with a client connected to environment `id`, closing it afterwards. */
export async function withEnvironment<T>(id: string, fn: (client: BridgeClient) => Promise<T>): Promise<T> {
  const info = await docker().get(id);
  const { client } = await connectEnvironment(info, 60_000);
  try { return await fn(client); } finally { client.close(); }
}

/**
 * For commands whose containers should not outlive them: Ctrl-C removes what they started.
 * The returned signal is aborted first, so work it cuts short can stop reporting.
 */
export function removeContainersOnInterrupt(): AbortSignal {
  const interrupted = new AbortController();
  removeOwnedContainersOnInterrupt(docker().docker, { onSignal: () => interrupted.abort() });
  return interrupted.signal;
}
