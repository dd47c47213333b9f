// Putting an image where a cluster's nodes pull it: tagged under the registry and pushed,
// layer by layer with progress lines (a registry already holding a layer skips it).
import type Docker from 'dockerode';
import type { BuildProgress } from './buildImage';

export interface PushOptions {
  /** The registry as this host reaches it (host:port). */
  pushTo: string;
  /** The registry as the nodes name it, when that differs (default pushTo). */
  pullFrom?: string;
  progress?: BuildProgress;
}

/** The name of `image` under `registry` (its own registry part, if any, replaced). */
export function registryName(image: string, registry: string): string {
  const slash = image.indexOf('/');
  const first = slash < 0 ? '' : image.slice(0, slash);
  const local = first.includes('.') || first.includes(':') || first === 'localhost' ? image.slice(slash + 1) : image;
  return `${registry.replace(/\/+$/, '')}/${local}`;
}

/** Pushes local `image` to the registry; returns its name as the nodes pull it. */
export async function pushImage(docker: Docker, image: string, o: PushOptions): Promise<string> {
  const progress = o.progress ?? (() => undefined);
  const pushed = registryName(image, o.pushTo);
  const [repo, tag] = splitTag(pushed);
  await docker.getImage(image).tag({ repo, tag });
  progress(`pushing ${image} to ${o.pushTo} (layers the registry has are skipped)`);
  // The engine wants an X-Registry-Auth header even for a registry without authentication.
  const stream = await docker.getImage(pushed).push({ authconfig: { serveraddress: o.pushTo } } as Parameters<Docker.Image['push']>[0]);
  const layers = new Map<string, string>();
  let lastLine = 0;
  await new Promise<void>((resolve, reject) => {
    docker.modem.followProgress(stream, (err: Error | null, out: { error?: string }[]) => {
      const failed = err?.message ?? out?.find((e) => e.error)?.error;
      if (failed) reject(new Error(`push of ${pushed} failed: ${failed}`)); else resolve();
    }, (e: { id?: string; status?: string }) => {
      if (!e.id || !e.status) return;
      if (layers.get(e.id) !== e.status && /Pushed|Layer already exists|Mounted/.test(e.status)) {
        layers.set(e.id, e.status);
        progress(`  ${e.id}: ${e.status}`);
      } else if (Date.now() - lastLine > 15_000 && /Pushing/.test(e.status)) {
        lastLine = Date.now();
        progress(`  ${e.id}: pushing…`);
      }
    });
  });
  // The registry's name for it is not kept here: the image stays under its own tag.
  if (pushed !== image) await docker.getImage(pushed).remove({ noprune: true }).catch(() => undefined);
  return o.pullFrom ? registryName(image, o.pullFrom) : pushed;
}

function splitTag(ref: string): [string, string] {
  const colon = ref.lastIndexOf(':');
  return colon > ref.lastIndexOf('/') ? [ref.slice(0, colon), ref.slice(colon + 1)] : [ref, 'latest'];
}
