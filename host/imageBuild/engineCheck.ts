// One sentence, at once, when there is no Docker engine to talk to: before anything that needs
// one (an image build would otherwise start bootstrapping a base image, a start would wait out
// its timeouts) the engine is pinged, and a failed connection becomes NoEngineError: a
// NotAvailableError on the wire, so an Env server's client (Python) gets that sentence as it is.
import type Docker from 'dockerode';
import { NotAvailableError } from '../../bridge/protocol/errors';

export class NoEngineError extends NotAvailableError {}

/**
 * Where `docker` talks to, as a person would write it (unix:///var/run/docker.sock, tcp://host:port).
 * Without DOCKER_HOST the client's socket is a function that picks the user's socket or the
 * system's when asked: its answer is the address, never the function.
 */
export async function engineAddress(docker: Docker): Promise<string> {
  const modem = docker.modem as { socketPath?: string | (() => unknown); getSocketPath?: () => Promise<string | undefined>; host?: string; port?: number; protocol?: string };
  if (modem.socketPath) {
    const path = typeof modem.socketPath === 'function' ? await modem.getSocketPath?.().catch(() => undefined) : modem.socketPath;
    return `unix://${path ?? 'the default socket'}`;
  }
  return `${modem.protocol ?? 'http'}://${modem.host}:${modem.port ?? ''}`;
}

const CONNECTION_FAILURES = new Set(['ENOENT', 'ECONNREFUSED', 'EACCES', 'EPERM', 'ENOTFOUND', 'EHOSTUNREACH', 'ETIMEDOUT', 'ECONNRESET']);

/** The sentence for a failed connection to the engine, or null when `err` is something else. */
export function noEngineMessage(err: unknown, address: string): string | null {
  const code = (err as { code?: string } | null)?.code;
  if (!code || !CONNECTION_FAILURES.has(code)) return null;
  if (code === 'EACCES' || code === 'EPERM') {
    return `the Docker engine at ${address} refuses this user (${code}): run pwp as root or as a member of the docker group, or \`npm run setup\` as root`;
  }
  return `no Docker engine at ${address}: \`npm run setup\` installs and starts one, or start yours (${code})`;
}

const checked = new WeakMap<Docker, Promise<void>>();

/** Resolves once the engine has answered a ping (asked once per client); NoEngineError when nothing answers. */
export function requireEngine(docker: Docker): Promise<void> {
  let p = checked.get(docker);
  if (!p) {
    p = docker.ping().then(() => undefined, async (err: unknown) => {
      checked.delete(docker); // a later call may find an engine started meanwhile
      const message = noEngineMessage(err, await engineAddress(docker));
      throw message ? new NoEngineError(message) : err;
    });
    checked.set(docker, p);
  }
  return p;
}
