// What `pwp build-image` builds, on this host's engine whichever backend runs environments:
// the IDE image, the toolchain images asked for on it, each pushed to a registry when asked.
import Docker from 'dockerode';
import { ensureImage, type BuildProgress } from './buildImage';
import { ensureTaskImage } from './buildTaskImage';
import { pushImage } from './pushImage';

export interface ImageSetOptions {
  /** Toolchain images to build on the IDE image: a name and its Dockerfile. */
  toolchains?: { name: string; dockerfile: string }[];
  force?: boolean;
  /** A registry (host:port) to push every image to. */
  push?: string;
  progress: BuildProgress;
}

export interface ImageSet {
  /** The IDE image's local tag. */
  image: string;
  /** Its name in the registry, when pushed. */
  pushed?: string;
  /** Toolchain name -> its tag (the registry's name when pushed). */
  toolchains: Record<string, string>;
}

export async function buildImageSet(o: ImageSetOptions): Promise<ImageSet> {
  const local = new Docker();
  const image = await ensureImage({ docker: local, force: o.force, progress: o.progress });
  const pushed = o.push ? await pushImage(local, image, { pushTo: o.push, progress: o.progress }) : undefined;
  const toolchains: Record<string, string> = {};
  for (const t of o.toolchains ?? []) {
    const tag = await ensureTaskImage(local, t, { ide: image, force: o.force, progress: o.progress });
    toolchains[t.name] = o.push ? await pushImage(local, tag, { pushTo: o.push, progress: o.progress }) : tag;
  }
  return { image, ...(pushed ? { pushed } : {}), toolchains };
}
