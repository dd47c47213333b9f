// What of the agent's final workspace enters the verifier, and how, without ever holding the
// workspace: it comes as a spooled archive (a host file and an index of digests,
// deployment/tarArchive.ts), the plan (testInfrastructure.ts) is made from the index, the few
// contents the checks read are read with bounds (the agent's code files, build files with
// parts declared as its own), and the entries stream from the file into the verifier.
//
// It also decides who owns the folders the verifier puts the task's files into. The agent made
// most of the workspace's folders, so their owner is the tests' user, who may rename or remove
// anything in them: a hidden test or a restored conftest.py in such a folder could be swapped by
// the deliverable while the tests run. Every folder on the way to a file the verifier puts in is
// therefore root's with the sticky bit (01777), the agent's and those the task's files bring
// alike: the tests may still add files there (build output, a grader's canary beside a hidden
// test), but no longer replace or remove the task's.
import { createReadStream, createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ROOT } from '../deployment/fileEntry';
import { readSpooled, spoolArchive, spooledEntries, tarOfFolder, type Header, type IndexedEntry, type PackEntry, type SpooledArchive } from '../deployment/tarArchive';
import { jsLoadedFiles } from './jsCodeCheck';
import type { TamperFinding } from './tamperCheck';
import { partsCandidates, planRestore, type FileFacts, type InfrastructureChange, type RestoreRules, type WorkspaceEntry } from './testInfrastructure';

/** An archive of a workspace (entries under `workspace/`): in memory (small ones, tests) or spooled. */
export type ArchiveInput = Buffer | SpooledArchive;

/** The most of one added or changed code file the checks read, and of all of them together. */
export const CODE_FILE_MAX = 4 * 1024 * 1024;
export const CODE_TOTAL_MAX = 32 * 1024 * 1024;
/** The most of a build file with declared parts that is read to compare its parts. */
const PARTS_FILE_MAX = 1024 * 1024;
/** The task's JavaScript the JS check reads to learn what the task's own code does (jsCodeCheck.ts). */
const JS_SCAN_MAX = 2_000_000;

/** Code the checks read (tamperCheck.ts, jsCodeCheck.ts, pyCodeCheck.py). */
const CHECKED = /\.(?:pyi?|[cm]?[jt]sx?|go)$/;
const JS = /\.(?:[cm]?[jt]sx?)$/;
const KEPT_TYPES = new Set(['file', 'link', 'symlink', 'directory']);
const STICKY_ROOT = { ...ROOT, uname: 'root', gname: 'root', mode: 0o1777 };

const rel = (name: string) => name.replace(/^workspace\/?/, '').replace(/\/$/, '');
const ancestorsOf = (paths: Iterable<string>) => new Set(['', ...[...paths].flatMap((p) => p.split('/').slice(0, -1).map((_, i, parts) => parts.slice(0, i + 1).join('/')))]);

/** Host temp files of one intake, removed with it. */
class Scratch {
  readonly dir = mkdtempSync(join(tmpdir(), 'pwp-intake-'));
  private n = 0;
  file(name: string): string { return join(this.dir, `${++this.n}-${name}`); }
  remove(): void { rmSync(this.dir, { recursive: true, force: true }); }
}

/** An archive as a spooled one (an in-memory archive is written to a scratch file first). */
async function spooled(a: ArchiveInput, scratch: Scratch): Promise<SpooledArchive> {
  return Buffer.isBuffer(a) ? spoolArchive(Readable.from([a]), scratch.file('archive.tar')) : a;
}

export interface Intake {
  /** The workspace's entries for the verifier, in order: the agent's (less what goes), then the task's copies, root's. */
  entries(): AsyncIterable<PackEntry>;
  /** The initial workspace under pwp/initial/, root's (when one was given as an archive). */
  initialEntries(): AsyncIterable<PackEntry>;
  /** Whether the workspace was planned against the task's (a task that runs its workspace); without, it is taken as it comes. */
  planned: boolean;
  /** The agent's added or changed code files the checks read, with their content. */
  code: Map<string, Buffer>;
  /** Those of `code` whose names do not say JavaScript but that the agent's JavaScript loads as code (jsLoadedFiles). */
  asJs: ReadonlySet<string>;
  /** Every path of the task's workspace, with the content of those the checks compare with (the rest empty). */
  baseline: Map<string, Buffer>;
  changes: InfrastructureChange[];
  /** Code files too large for the checks to read: findings, as code they cannot see must not run. */
  findings: TamperFinding[];
  /** Removes the intake's scratch files. */
  close(): void;
}

/**
 * Plans the intake of `workspace` against the task's initial workspace (`initial`, or its
 * folder `baselineDir`), with `hidden` the paths of the hidden overlay and `overlayDirs` the
 * folders it writes into. Without rules nothing is compared, only the folders are protected.
 */
export async function planIntake(o: {
  workspace: ArchiveInput; initial?: ArchiveInput; baselineDir?: string; hidden: ReadonlySet<string>; rules?: RestoreRules;
}): Promise<Intake> {
  const scratch = new Scratch();
  try {
    return await plan(o, scratch);
  } catch (err) {
    scratch.remove();
    throw err;
  }
}

async function plan(o: Parameters<typeof planIntake>[0], scratch: Scratch): Promise<Intake> {
  const final = await spooled(o.workspace, scratch);
  const initial = o.initial ? await spooled(o.initial, scratch) : undefined;
  const base = initial ?? (o.rules && o.baselineDir
    ? await spoolArchive(tarOfFolder(o.baselineDir, ROOT, 'workspace'), scratch.file('baseline.tar')) : undefined);
  const kept = final.entries.filter((e) => KEPT_TYPES.has(e.header.type ?? 'file'));
  const files = new Map(kept.filter((e) => e.header.type === 'file').map((e) => [e.header.name, e]));
  // A hard link is planned and sent as a copy of its target: nothing in the verifier shares an inode with a file of the task.
  const asFile = (e: IndexedEntry): IndexedEntry => (e.header.type === 'link' ? { ...files.get(e.header.linkname ?? ''), header: e.header } : e);
  const baseFacts = new Map<string, FileFacts>();
  for (const e of base?.entries ?? []) {
    if (e.header.type === 'file' && rel(e.header.name) && e.digest) baseFacts.set(rel(e.header.name), { digest: e.digest, head: e.head ?? Buffer.alloc(0) });
  }

  let drop = new Set<string>();
  let restore = new Set<string>();
  let changes: InfrastructureChange[] = [];
  let deliverable = new Set<string>();
  if (o.rules) {
    const entries: WorkspaceEntry[] = kept.filter((e) => rel(e.header.name)).map((e) => {
      const f = asFile(e);
      const type = e.header.type === 'link' ? 'file' : e.header.type ?? 'file';
      return { path: rel(e.header.name), type, digest: f.digest ?? (type === 'file' ? EMPTY_DIGEST : undefined), head: f.head };
    });
    const candidates = partsCandidates(entries, baseFacts, o.hidden, o.rules).filter((p) => sizeOf(files, `workspace/${p}`) <= PARTS_FILE_MAX);
    const parts = new Map<string, { before: Buffer; after: Buffer }>();
    if (candidates.length && base) {
      const want = new Set(candidates.map((p) => `workspace/${p}`));
      const [before, after] = await Promise.all([readSpooled(base.file, (n) => want.has(n)), readSpooled(final.file, (n) => want.has(n))]);
      for (const p of candidates) {
        const b = before.get(`workspace/${p}`);
        const a = after.get(`workspace/${p}`);
        if (b && a && b.length <= PARTS_FILE_MAX) parts.set(p, { before: b, after: a });
      }
    }
    const p = planRestore(entries, baseFacts, o.hidden, o.rules, parts);
    ({ drop, changes, deliverable } = p);
    restore = new Set(p.restore.keys());
  }

  // The code the checks read: the agent's added or changed code files (a hard link read as its
  // target), and a code file that is a symlink to another workspace file (roman.py ->
  // notes.txt), read under its own name.
  const findings: TamperFinding[] = [];
  const byPath = new Map(kept.map((e) => [rel(e.header.name), e]));
  // The archive entry that holds a path's content: a hard link's target.
  const archiveName = (e: IndexedEntry) => (e.header.type === 'link' ? e.header.linkname ?? '' : e.header.name);
  const wanted: [name: string, path: string][] = [];
  if (o.rules) {
    for (const path of deliverable) {
      const e = byPath.get(path);
      if (CHECKED.test(path) && e) wanted.push([archiveName(e), path]);
    }
    for (const e of kept) {
      const path = rel(e.header.name);
      if (e.header.type !== 'symlink' || drop.has(path) || !CHECKED.test(path) || !e.header.linkname) continue;
      const t = files.get(`workspace/${linkTarget(path, e.header.linkname)}`);
      if (t && t.digest !== baseFacts.get(path)?.digest) wanted.push([t.header.name, path]);
    }
  }
  // Reads what fits within the bounds of the checks; a file past them is a finding.
  let total = 0;
  const readCode = async (pairs: [name: string, path: string][]): Promise<Map<string, Buffer>> => {
    const reading = pairs.filter(([name, path]) => {
      const size = sizeOf(files, name);
      total += size;
      if (size <= CODE_FILE_MAX && total <= CODE_TOTAL_MAX) return true;
      findings.push({ path, line: 0, reason: size > CODE_FILE_MAX ? `is ${size} bytes, more than the code check reads of one file (${CODE_FILE_MAX})` : `brings the agent's code past what the code check reads in all (${CODE_TOTAL_MAX} bytes)`, text: '' });
      return false;
    });
    const names = new Set(reading.map(([name]) => name));
    const read = names.size ? await readSpooled(final.file, (n) => names.has(n)) : new Map<string, Buffer>();
    return new Map(reading.flatMap(([name, path]) => { const c = read.get(name); return c ? [[path, c] as const] : []; }));
  };
  const code = await readCode(wanted);
  // Files of other names the agent's JavaScript loads as code (a `helper` it requires): read as
  // JavaScript too, and what they load in turn (each round reads only what the last one added).
  const asJs = new Set<string>();
  // A workspace path as the file it is (a symbolic link followed, once).
  const fileAt = (p: string): string => {
    const e = byPath.get(p);
    return e?.header.type === 'symlink' && e.header.linkname ? linkTarget(p, e.header.linkname) : p;
  };
  const isFile = (p: string) => files.has(`workspace/${fileAt(p)}`) || byPath.get(fileAt(p))?.header.type === 'link';
  for (let fresh: ReadonlyMap<string, Buffer> = code, round = 0; o.rules && fresh.size && round < 5; round++) {
    const more = jsLoadedFiles(fresh, isFile, asJs).map(fileAt).filter((p) => deliverable.has(p) && !drop.has(p) && !code.has(p));
    fresh = await readCode(more.map((p) => [archiveName(byPath.get(p)!), p]));
    for (const [path, content] of fresh) { code.set(path, content); asJs.add(path); }
  }

  // The task's side of the same files, and, when the agent's code has JavaScript, the task's
  // own JavaScript (the JS check learns from it what the task's code already does).
  const baseline = new Map<string, Buffer>([...baseFacts.keys()].map((p) => [p, Buffer.alloc(0)]));
  if (base && code.size) {
    const hasJs = [...code.keys()].some((p) => JS.test(p));
    const wanted = (n: string) => {
      const p = rel(n);
      return code.has(p) || (hasJs && JS.test(p) && !p.includes('node_modules/') && sizeOf(baseFiles(base), n) <= JS_SCAN_MAX);
    };
    for (const [n, c] of await readSpooled(base.file, wanted)) baseline.set(rel(n), c);
  }

  const protectedDirs = ancestorsOf([...restore, ...o.hidden]);
  return {
    planned: !!o.rules,
    code, asJs, baseline, changes, findings,
    entries: () => workspaceEntries(final, files, drop, protectedDirs, base, restore, scratch),
    initialEntries: () => initialEntries(initial),
    close: () => scratch.remove(),
  };
}

/** sha256 of nothing: a hard link whose target is not in the archive is sent empty. */
const EMPTY_DIGEST = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

/** Where a symbolic link at `path` points, as a workspace path. */
function linkTarget(path: string, linkname: string): string {
  return linkname.startsWith('/') ? posix.normalize(linkname).replace(/^\/workspace\//, '') : posix.join(posix.dirname(path), linkname);
}

function sizeOf(files: ReadonlyMap<string, IndexedEntry>, name: string): number {
  return files.get(name)?.header.size ?? 0;
}

const baseIndex = new WeakMap<SpooledArchive, Map<string, IndexedEntry>>();
function baseFiles(a: SpooledArchive): Map<string, IndexedEntry> {
  let m = baseIndex.get(a);
  if (!m) baseIndex.set(a, m = new Map(a.entries.filter((e) => e.header.type === 'file').map((e) => [e.header.name, e])));
  return m;
}

/**
 * The agent's entries in archive order, less those the plan drops; folders on the way to the
 * task's files root's and sticky; hard links as copies of their targets; then the task's
 * copies of its infrastructure (root's, from the initial workspace).
 */
async function* workspaceEntries(
  final: SpooledArchive, files: ReadonlyMap<string, IndexedEntry>, drop: ReadonlySet<string>, protectedDirs: ReadonlySet<string>,
  base: SpooledArchive | undefined, restore: ReadonlySet<string>, scratch: Scratch,
): AsyncGenerator<PackEntry> {
  const targets = new Set(final.entries.filter((e) => e.header.type === 'link').map((e) => e.header.linkname ?? ''));
  const copies = new Map<string, string>();
  const made = new Set<string>();
  for await (const { header, body } of spooledEntries(final.file)) {
    const type = header.type ?? 'file';
    const path = rel(header.name);
    if (!KEPT_TYPES.has(type) || (path && drop.has(path))) continue;
    if (type === 'directory') made.add(path);
    if (type === 'link') {
      const copy = copies.get(header.linkname ?? '');
      const size = sizeOf(files, header.linkname ?? '');
      yield { header: { ...plain(header), type: 'file', size: copy ? size : 0 }, body: copy ? createReadStream(copy) : Buffer.alloc(0) };
      continue;
    }
    if (type === 'directory' && protectedDirs.has(path)) {
      yield { header: { ...plain(header), ...STICKY_ROOT } };
      continue;
    }
    if (type === 'file' && targets.has(header.name)) {
      const copy = scratch.file('link-target');
      await pipeline(body, createWriteStream(copy, { mode: 0o600 }));
      copies.set(header.name, copy);
      yield { header: plain(header), body: createReadStream(copy) };
      continue;
    }
    yield { header: plain(header), body: type === 'file' ? body : undefined };
  }
  // The folders the task's files bring (the agent had none there), before those files go in.
  for (const path of [...protectedDirs].filter((d) => !made.has(d)).sort()) {
    yield { header: { name: path ? `workspace/${path}/` : 'workspace/', type: 'directory', ...STICKY_ROOT } };
  }
  if (!base || !restore.size) return;
  for await (const { header, body } of spooledEntries(base.file)) {
    if (header.type !== 'file' || !restore.has(rel(header.name))) continue;
    const executable = baseFiles(base).get(header.name)?.head?.subarray(0, 2).toString() === '#!';
    yield { header: { name: header.name, type: 'file', size: header.size, mode: executable ? 0o755 : 0o644, ...ROOT, uname: 'root', gname: 'root', mtime: header.mtime }, body };
  }
}

/** The initial workspace under pwp/initial/, root's: only graders read it. */
async function* initialEntries(initial: SpooledArchive | undefined): AsyncGenerator<PackEntry> {
  if (!initial) return;
  yield { header: { name: 'pwp/initial/', type: 'directory', mode: 0o755, ...ROOT } };
  for await (const { header, body } of spooledEntries(initial.file)) {
    const linkname = header.type === 'link' && header.linkname ? `pwp/initial/${header.linkname}` : header.linkname;
    yield { header: { ...plain(header), name: `pwp/initial/${header.name}`, linkname, ...ROOT, uname: 'root', gname: 'root' }, body: header.type === 'file' ? body : undefined };
  }
}

/** A header as read, for a new archive. */
const plain = (h: Header): Header => ({ ...h });
