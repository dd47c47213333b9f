// SWE-bench Multimodal (JSON or JSON Lines): SWE-bench's instances (sweBench.ts) of JavaScript
// front-end repositories, plus `image_assets`, a JSON object (or its JSON encoding) whose
// `problem_statement` list holds the URLs of the screenshots the issue shows. There is no
// network where tasks run, so the screenshots come from a local folder (--images, by default
// images/ beside the instances file) holding each under its URL's file name; they are put in
// the workspace under .issue/, each URL in the issue's text is replaced by its local path, and
// the instruction lists them. A missing screenshot is an error: the issue without the picture
// it describes is not the instance. A repository the spec table (sweBenchSpecs.ts) does not
// know runs its test files under `node --test` (the converter says so; --test-command otherwise).
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Task } from '../taskEnv/loadTask';
import { sweTask, type SweInstance, type SweOptions } from './sweBench';
import { NODE_TEST } from './sweBenchSpecs';
import { parseRecords, requireStrings, type FileMap } from './taskWriter';

export interface SweMmInstance extends SweInstance {
  image_assets?: string | { problem_statement?: unknown };
}

export interface SweMmOptions extends SweOptions {
  /** The folder of the screenshots, by their URLs' file names (default: images/ beside the instances file). */
  images?: string;
}

/** Where the screenshots are in the workspace. */
export const ISSUE_IMAGES_DIR = '.issue';

const FIELDS = ['instance_id', 'repo', 'base_commit', 'patch', 'test_patch', 'problem_statement'] as const;
const OPTIONAL = ['hints_text', 'created_at', 'version', 'environment_setup_commit'];

/** The URLs of the issue's screenshots. */
export function issueImageUrls(inst: SweMmInstance, where: string): string[] {
  let assets: unknown = inst.image_assets;
  if (assets === undefined || assets === null) return [];
  if (typeof assets === 'string') {
    try { assets = JSON.parse(assets); } catch { throw new Error(`${where}: image_assets is not JSON`); }
  }
  const urls = (assets as { problem_statement?: unknown } | null)?.problem_statement ?? [];
  if (!Array.isArray(urls) || urls.some((u) => typeof u !== 'string')) throw new Error(`${where}: image_assets.problem_statement must be a list of URLs`);
  return urls as string[];
}

/** The file name a screenshot is kept under: the last segment of its URL's path. */
export function imageFileName(url: string): string {
  let path = url;
  try { path = new URL(url).pathname; } catch { /* not a URL: a path already */ }
  const name = decodeURIComponent(basename(path));
  if (!name || name === '.' || name === '..') throw new Error(`${url}: no file name in this URL`);
  return name;
}

interface Issue { statement: string; files: FileMap }

/** The screenshots read from `images` and the issue text naming them by their workspace paths. */
function issueWithImages(inst: SweMmInstance, images: string, where: string): Issue {
  const files: FileMap = {};
  let statement = inst.problem_statement;
  const names: string[] = [];
  for (const url of issueImageUrls(inst, where)) {
    const name = imageFileName(url);
    const local = join(images, name);
    if (!existsSync(local)) throw new Error(`${where}: the issue's screenshot ${url} is not in ${images} (as ${name}); download it there`);
    const rel = `${ISSUE_IMAGES_DIR}/${name}`;
    files[rel] = readFileSync(local);
    statement = statement.split(url).join(rel);
    if (!names.includes(rel)) names.push(rel);
  }
  if (names.length) statement = `${statement.trim()}\n\nThe issue's screenshots are in the workspace: ${names.join(', ')}.`;
  return { statement, files };
}

export function convertSweBenchMm(file: string, o: SweMmOptions): Task[] {
  const instances = parseRecords<SweMmInstance>(readFileSync(file, 'utf8'), file, 'SWE-bench Multimodal instances');
  const chosen = instances.slice(0, o.limit ?? instances.length);
  const images = o.images ?? join(dirname(file), 'images');
  // Every instance and screenshot is checked before any task is written.
  const issues = chosen.map((inst, i) => {
    const where = `${file}: instance ${i + 1}`;
    requireStrings(inst, FIELDS, where, OPTIONAL);
    return issueWithImages(inst, images, where);
  });
  return chosen.map((inst, i) => sweTask(inst, o, `${file}: instance ${i + 1}`, {
    dataset: 'swe-bench-mm', problemStatement: issues[i].statement, workspace: issues[i].files, fallbackSpec: NODE_TEST,
  }));
}
