// Writes converted tasks as ordinary task folders (tasks/<suite>/<id>/task.json with its
// workspace, hidden and oracle folders), so a dataset becomes a suite like any other and
// the user's copy of the dataset is only read. Every folder written is loaded back, so a
// converter bug fails at conversion with the task loader's message.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { loadTask, type Task } from '../taskEnv/loadTask';

export type FileMap = Record<string, string | Buffer>;

/** A dataset that cannot be converted as given (a missing file, a layout not the dataset's); nothing is written. */
export class DatasetError extends Error {
  constructor(message: string) { super(message); this.name = 'DatasetError'; }
}

export interface TaskFolder {
  /** task.json as written (id and suite included). */
  task: Record<string, unknown> & { id: string; suite: string };
  workspace?: FileMap;
  hidden?: FileMap;
  oracle?: FileMap;
  /** Other files of the task folder. */
  extra?: FileMap;
}

/** A task id from a dataset's own id: lower case, [a-z0-9._-], at most 100 characters. */
export function taskId(raw: string): string {
  const id = raw.toLowerCase().replace(/[^a-z0-9._-]+/g, '-').replace(/^[^a-z0-9]+/, '').replace(/-+$/, '').slice(0, 100);
  if (!id) throw new Error(`cannot make a task id from ${JSON.stringify(raw)}`);
  return id;
}

/** Writes files under root, making their folders. */
export function writeFiles(root: string, files: FileMap | undefined): void {
  for (const [p, content] of Object.entries(files ?? {})) {
    const full = join(root, p);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, content);
  }
}

/** Writes <outRoot>/<suite>/<id>/ (replacing an earlier conversion of it) and loads it back. */
export function writeTaskFolder(outRoot: string, f: TaskFolder): Task {
  const dir = join(outRoot, f.task.suite, f.task.id);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFiles(join(dir, 'workspace'), f.workspace);
  writeFiles(join(dir, 'hidden'), f.hidden);
  writeFiles(join(dir, 'oracle'), f.oracle);
  writeFiles(dir, f.extra);
  if (f.workspace && Object.keys(f.workspace).length === 0) mkdirSync(join(dir, 'workspace'), { recursive: true });
  writeFileSync(join(dir, 'task.json'), `${JSON.stringify(f.task, null, 2)}\n`);
  return loadTask(dir);
}

/** Reads JSON Lines, naming the line of a broken record. */
export function parseJsonLines<T>(text: string, file: string): T[] {
  return text.split('\n').map((l, i) => [l, i] as const).filter(([l]) => l.trim()).map(([l, i]) => {
    try { return JSON.parse(l) as T; } catch (err) { throw new Error(`${file}:${i + 1}: not JSON (${(err as Error).message})`, { cause: err }); }
  });
}

/** Reads a dataset file that is either a JSON list of records or JSON Lines (as `datasets` exports them); `what` names the records in errors. */
export function parseRecords<T>(text: string, file: string, what: string): T[] {
  if (!text.trimStart().startsWith('[')) return parseJsonLines<T>(text, file);
  let v: unknown;
  try { v = JSON.parse(text); } catch (err) { throw new Error(`${file}: not JSON (${(err as Error).message})`, { cause: err }); }
  if (!Array.isArray(v)) throw new Error(`${file}: expected JSON Lines or a JSON list of ${what}`);
  return v as T[];
}

/** An oracle that applies a patch the converter wrote to oracle/<name> (the dataset's gold change). */
export function applyPatchOracle(name: string, note: string): { steps: [{ writeFile: string; from: string; note: string }, { exec: string[] }] } {
  return { steps: [
    { writeFile: `/tmp/${name}`, from: `oracle/${name}`, note },
    { exec: ['git', 'apply', '--whitespace=nowarn', `/tmp/${name}`] },
  ] };
}

/** Fails, naming the record and the field, unless each field is a string (or, for `optional`, absent). */
export function requireStrings(record: unknown, fields: readonly string[], where: string, optional: readonly string[] = []): void {
  if (typeof record !== 'object' || record === null || Array.isArray(record)) throw new Error(`${where}: expected an object, got ${JSON.stringify(record)?.slice(0, 60)}`);
  const r = record as Record<string, unknown>;
  for (const k of fields) {
    if (r[k] === undefined || r[k] === null) throw new Error(`${where}: missing field "${k}"`);
    if (typeof r[k] !== 'string') throw new Error(`${where}: field "${k}" must be a string, got ${typeof r[k]}`);
  }
  for (const k of optional) if (r[k] !== undefined && r[k] !== null && typeof r[k] !== 'string') throw new Error(`${where}: field "${k}" must be a string, got ${typeof r[k]}`);
}
