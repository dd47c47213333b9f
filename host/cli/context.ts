// Shared wiring for commands: the deployment, and an Env attached to an environment by id.
// Commands that act (input, tools, checkpoints) go through the Env like every other driver;
// those that only look use its bridge connection.
// The Env and the wire are imported when a command first acts, so a command that only lists
// (pwp ls) loads the deployment and no more.
import { createDeployment } from '../deployment/backends';
import type { Deployment } from '../deployment/deployment';
import { removeOwnedOnInterrupt } from '../deployment/ownedContainers';
import type { Action } from '../env/actions';
import type { Env, EnvOptions, StepInfo } from '../env/env';
import type { BridgeClient } from '../client/bridgeClient';

let current: Deployment | undefined;
/** The deployment of the backend chosen with --backend (or PWP_BACKEND): this host's Docker engine unless told. */
export function deployment(): Deployment {
  current ??= createDeployment();
  return current;
}

/** Runs `fn` with an Env attached to the running environment `id` (left running), disconnecting afterwards. */
export async function withEnv<T>(id: string, fn: (env: Env) => Promise<T>, o: EnvOptions = {}): Promise<T> {
  const { Env } = await import('../env/env');
  // No observation after a step: a CLI call prints what the action answered, not the screen.
  const env = await Env.attach(id, { deployment: deployment(), observe: [], ...o });
  try { return await fn(env); } finally { await env.close(); }
}

/** Runs `fn` with the bridge connection of environment `id` (for commands that only look). */
export function withEnvironment<T>(id: string, fn: (client: BridgeClient) => Promise<T>): Promise<T> {
  return withEnv(id, (env) => fn(env.client));
}

/**
 * Performs one action on environment `id` as a step of an attached Env; a refused or failed action throws its typed error.
 * While a person holds control the input waits for them, and says so at once on stderr (`wait: false` fails instead).
 */
export function actOn(id: string, action: Action, o: { wait?: boolean } = {}): Promise<StepInfo> {
  return withEnv(id, async (env) => {
    const [{ isBridgeInput }, { stepError }, { NotAvailableError }] = await Promise.all([
      import('../env/actionTable'), import('../env/env'), import('../../bridge/protocol'),
    ]);
    const control = isBridgeInput(action) ? await env.client.call('control.status', {}) : null;
    if (control?.holder === 'human') {
      const who = `a person holds control of environment ${id}${control.message ? ` (asked: ${JSON.stringify(control.message)})` : ''}`;
      if (o.wait === false) throw new NotAvailableError(`${who}: not acting (--no-wait); the input goes through once they hand it back (live view, or pwp control ${id} handback)`);
      console.error(`pwp: ${who}: waiting until they hand it back (live view, or pwp control ${id} handback)…`);
    }
    await env.reset(); // begins the episode in place: nothing in the environment changes
    const { info } = await env.step(action);
    const failed = stepError(info);
    if (failed) throw failed;
    return info;
  });
}

/**
 * For commands whose containers should not outlive them: Ctrl-C removes what they started.
 * The returned signal is aborted first (its reason the signal's name), so work it cuts short
 * can stop reporting; what settle() returns is awaited before the removal (a run's result).
 */
export function removeContainersOnInterrupt(o: { settle?: () => Promise<unknown> } = {}): AbortSignal {
  const interrupted = new AbortController();
  const d = deployment();
  removeOwnedOnInterrupt(() => d.removeOwned(), { onSignal: (signal) => { interrupted.abort(signal); return o.settle?.(); } });
  return interrupted.signal;
}
