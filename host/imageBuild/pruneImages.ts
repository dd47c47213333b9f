// Old IDE images go when a new one is built: each is several GB and every changed tree makes
// one. The newest `keep` images (by when they were tagged) stay, and so does any image a
// container (running or stopped) was made from; nothing is forced.
import type Docker from 'dockerode';

export interface RepoImage { id: string; tags: string[]; taggedAt: number }

/** Which images to remove: all but the newest `keep`, minus those a container uses. */
export function imagesToPrune(images: RepoImage[], inUse: ReadonlySet<string>, keep: number): RepoImage[] {
  return [...images].sort((a, b) => b.taggedAt - a.taggedAt).slice(keep).filter((i) => !inUse.has(i.id));
}

/** How many images to keep: PWP_IMAGE_KEEP (a number, or `all` to never prune), default 2. */
export function keepCount(env: NodeJS.ProcessEnv = process.env): number {
  const v = env.PWP_IMAGE_KEEP?.trim();
  if (!v) return 2;
  if (v === 'all') return Infinity;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new Error(`PWP_IMAGE_KEEP must be a positive integer or 'all', got '${v}'`);
  return n;
}

/** Removes `repository`'s old tags; returns the tags removed. Failures are reported, never thrown. */
export async function pruneOldImages(docker: Docker, repository: string, keep: number, progress: (line: string) => void = () => undefined): Promise<string[]> {
  if (!Number.isFinite(keep)) return [];
  const listed = await docker.listImages({ filters: { reference: [repository] } });
  const images: RepoImage[] = await Promise.all(listed.map(async (i) => {
    const tags = (i.RepoTags ?? []).filter((t) => t.startsWith(`${repository}:`));
    // When the tag was set, not when the layers were made (a cached build keeps an old Created).
    const meta = await docker.getImage(i.Id).inspect().then((x) => (x as { Metadata?: { LastTagTime?: string } }).Metadata?.LastTagTime).catch(() => undefined);
    const taggedAt = Math.max(i.Created * 1000, meta ? Date.parse(meta) || 0 : 0);
    return { id: i.Id, tags, taggedAt };
  }));
  const inUse = new Set((await docker.listContainers({ all: true })).map((c) => c.ImageID));
  const removed: string[] = [];
  for (const image of imagesToPrune(images, inUse, keep)) {
    for (const tag of image.tags) {
      try {
        await docker.getImage(tag).remove();
        removed.push(tag);
      } catch (err) {
        progress(`kept old image ${tag}: ${(err as Error).message.split('\n')[0]}`);
      }
    }
  }
  if (removed.length) progress(`removed ${removed.length} old image tag(s): ${removed.join(', ')}`);
  return removed;
}
