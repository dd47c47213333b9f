// Task images: a Dockerfile that builds on the IDE image (`ARG PWP_IDE_IMAGE` then
// `FROM ${PWP_IDE_IMAGE}`) with what a task family needs beside it (a JDK, a C++ toolchain…).
// Named like the IDE image by a hash of its inputs: every file of its build context (the
// Dockerfile's folder) and the IDE image it builds on (tag and image id), so an unchanged task
// image is never rebuilt and a new IDE image gives new task images. Built on this host's engine
// with a line per build step; old tags of the same task image go as the IDE image's do.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import type Docker from 'dockerode';
import { listFiles } from './buildContext';
import { buildTagged, imageExists, type BuildProgress } from './buildImage';
import { engineId, withBuildLock } from './buildLock';
import { keepCount, pruneOldImages } from './pruneImages';

/** The build argument that carries the IDE image's tag into a task image's Dockerfile. */
export const IDE_IMAGE_ARG = 'PWP_IDE_IMAGE';
/** Task images are tagged `pwp-task-<name>:<hash>`. */
export const TASK_IMAGE_PREFIX = 'pwp-task-';

/** What a task image is built from: its Dockerfile, whose folder is the build context. */
export interface TaskImageRecipe {
  /** Names the image (`pwp-task-<name>`): the toolchain, or the suite or task that has the Dockerfile. */
  name: string;
  /** Absolute path of the Dockerfile. */
  dockerfile: string;
}

export class TaskImageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TaskImageError';
  }
}

/** The build context of a recipe: the Dockerfile's folder. */
export const contextOf = (r: TaskImageRecipe): string => dirname(r.dockerfile);

interface Instruction { line: number; keyword: string; args: string }

/** A Dockerfile's instructions with their first line (continuations joined, comments dropped). */
export function dockerfileInstructions(text: string): Instruction[] {
  const out: Instruction[] = [];
  let buf = '';
  let start = 0;
  const push = () => {
    const m = /^\s*(\S+)\s*([\s\S]*)$/.exec(buf);
    if (m) out.push({ line: start, keyword: m[1].toUpperCase(), args: m[2].trim() });
    buf = '';
  };
  text.split(/\r?\n/).forEach((raw, i) => {
    const trimmed = raw.trim();
    if (trimmed.startsWith('#') || (!buf && !trimmed)) return;
    if (!buf) start = i + 1;
    if (/\\\s*$/.test(raw)) { buf += `${raw.replace(/\\\s*$/, '')} `; return; }
    buf += raw;
    push();
  });
  if (buf.trim()) push();
  return out;
}

const IDE_REFS = new Set([`\${${IDE_IMAGE_ARG}}`, `$${IDE_IMAGE_ARG}`]);

/**
 * Why a Dockerfile cannot be a task image, one line each (none when it can): every stage starts
 * FROM the IDE image (or an earlier stage), so nothing is pulled from a registry and the image
 * keeps the bridge, the IDE and the verifier's runners; the final stage keeps the IDE image's
 * entrypoint (the bridge) and ends as its user.
 */
export function dockerfileProblems(text: string): string[] {
  const problems: string[] = [];
  const ins = dockerfileInstructions(text);
  const firstFrom = ins.findIndex((i) => i.keyword === 'FROM');
  if (firstFrom < 0) return [`no FROM: a task image starts with "ARG ${IDE_IMAGE_ARG}" and "FROM \${${IDE_IMAGE_ARG}}"`];
  const declared = ins.slice(0, firstFrom).some((i) => i.keyword === 'ARG' && new RegExp(`^${IDE_IMAGE_ARG}(=|$)`).test(i.args));
  if (!declared) problems.push(`line ${ins[firstFrom].line}: "ARG ${IDE_IMAGE_ARG}" must come before the first FROM (pwp passes the IDE image's tag in it)`);
  const stages: string[] = [];
  let finalStage = 0;
  ins.forEach((i, n) => {
    if (i.keyword !== 'FROM') return;
    const words = i.args.split(/\s+/).filter((w) => !w.startsWith('--'));
    const image = words[0] ?? '';
    if (!IDE_REFS.has(image) && !stages.includes(image.toLowerCase())) {
      problems.push(`line ${i.line}: FROM ${image}: a task image builds on the IDE image: every stage starts FROM \${${IDE_IMAGE_ARG}} (or an earlier stage)`);
    }
    if (words[1]?.toLowerCase() === 'as' && words[2]) stages.push(words[2].toLowerCase());
    finalStage = n;
  });
  let lastUser: Instruction | undefined;
  for (const i of ins.slice(finalStage + 1)) {
    if (i.keyword === 'ENTRYPOINT' || i.keyword === 'CMD') problems.push(`line ${i.line}: ${i.keyword}: a task image keeps the IDE image's entrypoint (the bridge starts the IDE)`);
    if (i.keyword === 'USER') lastUser = i;
  }
  if (lastUser && !/^(pwp|1000)(:(pwp|1000))?$/.test(lastUser.args)) {
    problems.push(`line ${lastUser.line}: USER ${lastUser.args}: a task image ends as the IDE user ("USER pwp" after steps that need root)`);
  }
  return problems;
}

/** The recipe's Dockerfile, checked: a TaskImageError names the file and every problem. */
export function checkDockerfile(r: TaskImageRecipe): void {
  if (!existsSync(r.dockerfile) || !statSync(r.dockerfile).isFile()) throw new TaskImageError(`${r.dockerfile}: no such Dockerfile`);
  const problems = dockerfileProblems(readFileSync(r.dockerfile, 'utf8'));
  if (problems.length) throw new TaskImageError(problems.map((p) => `${r.dockerfile}: ${p}`).join('\n'));
}

/** A valid image repository name for a recipe name (lower-case, runs of other characters made one '-'). */
export function taskImageRepository(name: string): string {
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
  return `${TASK_IMAGE_PREFIX}${slug || 'task'}`;
}

/** The content hash of a task image: its context's files (names and bytes), the Dockerfile's place in it, and the IDE image. */
export function taskImageHash(r: TaskImageRecipe, ide: { tag: string; id?: string }): string {
  const context = contextOf(r);
  const h = createHash('sha256');
  h.update(JSON.stringify({ dockerfile: relative(context, r.dockerfile).split(sep).join('/'), ide: ide.tag, ideId: ide.id ?? null }));
  for (const f of listFiles(context)) {
    const bytes = readFileSync(join(context, f));
    h.update(`\0${f.split(sep).join('/')}\0${bytes.length}\0`);
    h.update(bytes);
  }
  return h.digest('hex').slice(0, 16);
}

export interface EnsureTaskImageOptions {
  /** The IDE image it builds on, on this engine. */
  ide: string;
  force?: boolean;
  progress?: BuildProgress;
}

/** The tag of the recipe's image on the IDE image `o.ide`, built on `docker` unless it exists. */
export async function ensureTaskImage(docker: Docker, r: TaskImageRecipe, o: EnsureTaskImageOptions): Promise<string> {
  const progress = o.progress ?? (() => undefined);
  checkDockerfile(r);
  const ideId = await docker.getImage(o.ide).inspect().then((i) => i.Id, () => undefined);
  if (!ideId) throw new TaskImageError(`the IDE image ${o.ide} that ${r.dockerfile} builds on is not on this engine (pwp build-image builds it)`);
  const hash = taskImageHash(r, { tag: o.ide, id: ideId });
  const tag = `${taskImageRepository(r.name)}:${hash}`;
  if (!o.force && (await imageExists(docker, tag))) {
    progress(`task image ${tag} is up to date`);
    return tag;
  }
  // Tasks of one image started together (a bench, `npm run test:tasks`) wait for one build.
  const pending = building.get(tag);
  if (pending) {
    progress(`task image ${tag} is being built; waiting for it`);
    return pending;
  }
  // Another process may be building it too (another CI run on this engine): one build, the other waits.
  const build = (async () => withBuildLock(await engineId(docker), tag, progress, async () => {
    if (!o.force && (await imageExists(docker, tag))) {
      progress(`task image ${tag} was built by another pwp process`);
      return tag;
    }
    return buildTaskImage(docker, r, { tag, hash, ide: o.ide, progress });
  }))().finally(() => building.delete(tag));
  building.set(tag, build);
  return build;
}

const building = new Map<string, Promise<string>>();

async function buildTaskImage(docker: Docker, r: TaskImageRecipe, o: { tag: string; hash: string; ide: string; progress: BuildProgress }): Promise<string> {
  const { tag, hash, progress } = o;
  const repository = tag.slice(0, tag.lastIndexOf(':'));
  const keep = keepCount();
  const context = contextOf(r);
  const shown = relative(process.cwd(), r.dockerfile);
  progress(`building task image ${tag} from ${shown && !shown.startsWith('..') ? shown : r.dockerfile} on ${o.ide}`);
  const started = Date.now();
  await buildTagged(docker, {
    context, src: listFiles(context).map((f) => f.split(sep).join('/')), tag,
    dockerfile: relative(context, r.dockerfile).split(sep).join('/'),
    buildargs: { [IDE_IMAGE_ARG]: o.ide },
    labels: { 'pwp.inputs-hash': hash, 'pwp.ide-image': o.ide },
  }, progress);
  if (!(await imageExists(docker, tag))) throw new TaskImageError(`task image build finished but ${tag} is missing`);
  progress(`built task image ${tag} in ${Math.round((Date.now() - started) / 1000)} s`);
  await pruneOldImages(docker, repository, keep, progress);
  return tag;
}
