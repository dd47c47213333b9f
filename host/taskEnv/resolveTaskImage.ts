// Which image a task runs in, and the one function that turns that into an image tag for a
// deployment: its environments and its verifier use the same. A task names the IDE image
// (`default`), an image tag, a toolchain (images/toolchains/<name>/Dockerfile) or a Dockerfile
// of its own; a suite can name one for all its tasks in suite.json. Toolchains and task
// Dockerfiles build FROM the IDE image and are built before the run, cached by content hash
// (host/imageBuild/buildTaskImage.ts).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import type { Deployment } from '../deployment/deployment';
import type { BuildProgress } from '../imageBuild/buildImage';
import { contextOf, dockerfileProblems, type TaskImageRecipe } from '../imageBuild/buildTaskImage';
import { paths } from '../common/paths';
import type { TaskImage } from './taskSchema';

export const TOOLCHAINS_DIR = join(paths.images, 'toolchains');

/** Where a task's image comes from: the IDE image, a tag as it is, or a Dockerfile built on the IDE image. */
export type ImageSource =
  | { kind: 'ide' }
  | { kind: 'tag'; tag: string }
  | ({ kind: 'build'; requires?: ToolchainRequirement[] } & TaskImageRecipe);

/** A toolchain a task image's Dockerfile copies from its build context (taskSchema.ts `requires`). */
export interface ToolchainRequirement { toolchain: string; path: string; how: string }

/**
 * A task image whose toolchain no package source has and the user has not supplied: the one
 * case a bundled task may go unrun (test/tasks/allTasks.test.ts reports it as pending).
 */
export class MissingToolchainError extends Error {
  constructor(readonly toolchain: string, message: string) {
    super(message);
    this.name = 'MissingToolchainError';
  }
}

/**
 * Fails with MissingToolchainError unless every required toolchain is there: the first missing
 * one named with the file looked for and how to supply it, then every other one missing.
 */
export function checkToolchains(s: ImageSource): void {
  if (s.kind !== 'build') return;
  const context = contextOf(s);
  const missing = (s.requires ?? []).filter((r) => !existsSync(join(context, r.path)));
  if (!missing.length) return;
  const [r, ...more] = missing;
  const also = more.length ? `; also missing: ${more.map((m) => `${m.toolchain} (no ${join(context, m.path)})`).join(', ')}` : '';
  throw new MissingToolchainError(r.toolchain, `toolchain missing: ${r.toolchain} (no ${join(context, r.path)}); ${r.how}${also}`);
}

/** The toolchains pwp ships (folders of images/toolchains/ with a Dockerfile). */
export function listToolchains(dir = TOOLCHAINS_DIR): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((n) => existsSync(join(dir, n, 'Dockerfile'))).sort();
}

const inside = (folder: string, p: string): boolean => {
  const r = relative(folder, p);
  return r === '' || (!r.startsWith('..') && !r.startsWith(sep) && !/^[a-zA-Z]:/.test(r));
};

/**
 * The source of a declared image. `dir` is the folder of the file that declares it (task.json's
 * or suite.json's), `name` names a Dockerfile's image, `field` prefixes problems; `hiddenDirs`
 * must stay out of a Dockerfile's build context (it is sent to the engine and could be copied
 * into the agent's image).
 */
export function imageSourceOf(declared: TaskImage, o: { dir: string; name: string; field: string; hiddenDirs?: string[] }, problems: string[]): ImageSource {
  if (typeof declared === 'string') return declared === 'default' ? { kind: 'ide' } : { kind: 'tag', tag: declared };
  let recipe: TaskImageRecipe & { requires?: ToolchainRequirement[] };
  if ('toolchain' in declared) {
    const dockerfile = join(TOOLCHAINS_DIR, declared.toolchain, 'Dockerfile');
    if (!existsSync(dockerfile)) {
      problems.push(`${o.field}.toolchain: no toolchain "${declared.toolchain}" (toolchains: ${listToolchains().join(', ') || 'none'})`);
      return { kind: 'ide' };
    }
    recipe = { name: declared.toolchain, dockerfile };
  } else {
    const dockerfile = resolve(o.dir, declared.dockerfile);
    if (!existsSync(dockerfile) || !statSync(dockerfile).isFile()) {
      problems.push(`${o.field}.dockerfile: "${declared.dockerfile}" not found (it is relative to this file's folder)`);
      return { kind: 'ide' };
    }
    recipe = { name: o.name, dockerfile, ...(declared.requires ? { requires: declared.requires } : {}) };
    const context = contextOf(recipe);
    const leak = (o.hiddenDirs ?? []).find((h) => inside(context, h));
    for (const r of declared.requires ?? []) if (!inside(context, resolve(context, r.path))) problems.push(`${o.field}.requires: "${r.path}" is outside the Dockerfile's folder (the build context)`);
    if (leak) problems.push(`${o.field}.dockerfile: its folder (the build context) holds the hidden folder "${relative(o.dir, leak) || '.'}": put the Dockerfile in a folder of its own (image/Dockerfile)`);
  }
  for (const p of dockerfileProblems(readFileSync(recipe.dockerfile, 'utf8'))) problems.push(`${o.field}: ${relative(o.dir, recipe.dockerfile)}: ${p}`);
  return { kind: 'build', ...recipe };
}

/** A key that is the same for tasks whose images are the same. */
export function imageSourceKey(s: ImageSource): string {
  return s.kind === 'ide' ? 'ide' : s.kind === 'tag' ? `tag:${s.tag}` : `build:${s.name}:${s.dockerfile}`;
}

export interface ResolveImageOptions {
  deployment: Deployment;
  /** The IDE image: what `default` means and what Dockerfiles build on (default: the deployment's, built from this tree). */
  ideImage?: string;
  progress?: BuildProgress;
}

/** The image a task's environments and verifier run, as the deployment runs it (built first where the task has a Dockerfile). */
export async function resolveTaskImage(task: { imageSource: ImageSource }, o: ResolveImageOptions): Promise<string> {
  const s = task.imageSource;
  if (s.kind === 'tag') return s.tag;
  if (s.kind === 'ide') return o.ideImage ?? o.deployment.ensureImage({ progress: o.progress });
  checkToolchains(s);
  return o.deployment.ensureTaskImage({ name: s.name, dockerfile: s.dockerfile }, { ide: o.ideImage, progress: o.progress });
}

/**
 * The images of many tasks, each as a promise that settles when that task's image is ready:
 * sources are resolved one after another (one build at a time: builds compete for the CPU and
 * the package mirror), each once, the IDE image at most once, so a runner can start the tasks
 * on the IDE image while the toolchain images build. A source that cannot be built gives its
 * tasks the error (resolved, not rejected: their runs record it) rather than stopping the others.
 */
export function taskImagesAsBuilt<T extends { imageSource: ImageSource }>(tasks: readonly T[], o: ResolveImageOptions): Map<T, Promise<string | Error>> {
  let ide: Promise<string> | undefined;
  const ideImage = () => (ide ??= o.ideImage ? Promise.resolve(o.ideImage) : o.deployment.ensureImage({ progress: o.progress }));
  const bySource = new Map<string, Promise<string | Error>>();
  let queue: Promise<unknown> = Promise.resolve();
  const out = new Map<T, Promise<string | Error>>();
  for (const t of tasks) {
    const key = imageSourceKey(t.imageSource);
    let image = bySource.get(key);
    if (!image) {
      const resolve = async () => resolveTaskImage(t, { ...o, ideImage: t.imageSource.kind === 'tag' ? undefined : await ideImage() });
      // Only builds wait their turn: the IDE image and a given tag are ready at once.
      if (t.imageSource.kind === 'build') queue = image = queue.then(resolve).catch((err: Error) => err);
      else image = resolve().catch((err: Error) => err);
      bySource.set(key, image);
    }
    out.set(t, image);
  }
  return out;
}

/** The images of many tasks (a bench), all resolved (see taskImagesAsBuilt). */
export async function resolveTaskImages<T extends { imageSource: ImageSource }>(tasks: readonly T[], o: ResolveImageOptions): Promise<Map<T, string | Error>> {
  const pending = taskImagesAsBuilt(tasks, o);
  const out = new Map<T, string | Error>();
  for (const [t, image] of pending) out.set(t, await image);
  return out;
}
