// What the host does inside an environment once a deployment has it running (the split
// SWE-ReX makes): run a command, read a file, write files, move archives in and out. Tasks'
// set-up, checkpoints, the verifier and the Env go through this; only a deployment knows how
// (the Docker engine's API today, the bridge where the host cannot reach the node's engine).
import { LimitExceededError } from '../../bridge/protocol';
import type { FileEntry, Owner } from './fileEntry';
import { bufferOf, packRuns, readTarEntries, spoolArchive, type PackEntry, type SpooledArchive, type TarEntry } from './tarArchive';

export interface ExecOptions {
  /** Working directory; /workspace unless given. */
  cwd?: string;
  /** Killed after this many seconds (exit code 124, timedOut true). */
  timeoutSec?: number;
  env?: Record<string, string>;
  /** The user it runs as; the IDE's user (pwp) unless given. */
  user?: string;
  /** Start it and return at once, leaving it running (servers). */
  detach?: boolean;
  /** Bytes kept of each of stdout and stderr (the rest is dropped); 20 MiB unless given. */
  maxOutputBytes?: number;
  /** Sees the output as it comes (all of it, whatever maxOutputBytes keeps). */
  onOutput?: (chunk: Buffer, stream: 'stdout' | 'stderr') => void;
}

export interface ExecResult { exitCode: number; stdout: string; stderr: string; timedOut: boolean; durationMs: number }


export interface ReadOptions { maxBytes?: number }

export interface WriteOptions {
  /** Who owns the files (and the folders made for them); the IDE's user unless given. */
  owner?: Owner;
  dirMode?: number;
  /** false: no folder entries, so existing folders keep their owner (missing ones are made). */
  withDirs?: boolean;
}

export interface Runtime {
  /**
   * Whether it works on a paused (frozen) container: the engine's API reads and writes from
   * outside, the bridge runs inside and is frozen with everything else.
   */
  readonly worksWhilePaused: boolean;
  /**
   * Whether archiveIn gives each entry its own owner (the engine's API). The bridge, which
   * cannot change owners, takes an archive of one owner only.
   */
  readonly ownerPerEntry?: boolean;
  /** Runs argv (never through a shell on the host) and waits for it, with its output. */
  exec(argv: string[], opts?: ExecOptions): Promise<ExecResult>;
  /**
   * One regular file, or undefined when there is none; a file larger than `maxBytes` is a
   * LimitExceededError, never read whole (what an agent wrote can be any size).
   */
  readFile(path: string, o?: ReadOptions): Promise<Buffer | undefined>;
  /** Regular files under a folder by relative path; undefined when the folder does not exist; past `maxBytes` in all, as readFile. */
  readTree(dir: string, o?: ReadOptions): Promise<Map<string, Buffer> | undefined>;
  /** Writes files under `dir`, which must exist (their own folders are made). */
  writeFiles(dir: string, files: readonly FileEntry[], opts?: WriteOptions): Promise<void>;
  /** Unpacks a tar archive into the existing folder `dir` (running or not yet started). */
  archiveIn(dir: string, tar: NodeJS.ReadableStream | Buffer): Promise<void>;
  /** A tar archive of `path` (entries prefixed with its base name). */
  archiveOut(path: string): Promise<NodeJS.ReadableStream>;
}

/** The whole archive of `path` in memory (for copying between environments), refused past `maxBytes`. */
export async function archiveBuffer(runtime: Runtime, path: string, o: { maxBytes?: number } = {}): Promise<Buffer> {
  return bufferOf(await runtime.archiveOut(path), o.maxBytes);
}

/**
 * The archive of `path` spooled to the host file `file` with its index (tarArchive.ts), cut
 * (LimitExceededError, file removed) past `maxBytes`: how what an agent wrote leaves its
 * environment, never whole in memory.
 */
export async function archiveToFile(runtime: Runtime, path: string, file: string, o: { maxBytes?: number } = {}): Promise<SpooledArchive> {
  return spoolArchive(await runtime.archiveOut(path), file, o);
}

/**
 * Unpacks entries at `/`, in order (a later entry replaces an earlier one of the same path):
 * one archive where the runtime gives each entry its owner, else one per run of entries of one
 * owner. Each archive the engine unpacks costs it a process of its own (half a CPU-second on a
 * slow host), so what goes in together goes in once. Entries may come one at a time with
 * streamed contents: the archive is packed as it goes in, never held whole.
 */
export async function archiveEntriesIn(runtime: Runtime, entries: readonly TarEntry[] | Iterable<PackEntry> | AsyncIterable<PackEntry>): Promise<void> {
  const all = Array.isArray(entries)
    ? (entries as readonly TarEntry[]).map((e) => ({ header: e.header, body: e.content }))
    : entries as Iterable<PackEntry> | AsyncIterable<PackEntry>;
  const owner = (e: PackEntry) => (runtime.ownerPerEntry ? '' : `${e.header.uid ?? 0}:${e.header.gid ?? 0}`);
  await packRuns(all, owner, (tar) => runtime.archiveIn('/', tar));
}

/**
 * The regular files among `paths` (absolute), read as root by one command where reading them
 * one by one costs an engine archive each: a path that is missing, a folder or a symlink maps
 * to undefined, as with readFile. Reads them one by one when the batch does not come back
 * whole (output over the exec cap). A file larger than `maxBytes` is a LimitExceededError, as
 * with readFile.
 */
export async function readRegularFiles(runtime: Runtime, paths: readonly string[], o: ReadOptions = {}): Promise<Map<string, Buffer | undefined>> {
  const out = new Map<string, Buffer | undefined>(paths.map((p) => [p, undefined]));
  if (paths.length === 0) return out;
  // A file past the bound stops the batch before tar reads it (exit code 3, its name on stderr).
  const script = 'set -o pipefail; max=$1; shift; for f; do if [ -f "$f" ] && [ ! -L "$f" ]; then'
    + ' if [ "$(stat -c %s -- "$f")" -gt "$max" ]; then printf "%s" "$f" >&2; exit 3; fi; printf "%s\\0" "$f"; fi; done'
    + ' | tar -c --null --no-recursion --absolute-names -T - -f - | base64 -w0';
  const max = o.maxBytes ?? Number.MAX_SAFE_INTEGER;
  const r = await runtime.exec(['bash', '-c', script, 'pwp-read', String(max), ...paths], { user: 'root', cwd: '/' });
  if (r.exitCode === 3 && paths.includes(r.stderr)) throw new LimitExceededError(`${r.stderr} is larger than ${max} bytes`, { limit: 'bytes', max });
  let batch: { header: { name: string; type?: string | null; size?: number }; content: Buffer }[] | undefined;
  try {
    if (r.exitCode === 0) batch = await readTarEntries(Buffer.from(r.stdout, 'base64'));
  } catch { /* read one by one below */ }
  if (!batch) {
    for (const p of paths) out.set(p, await runtime.readFile(p, o));
    return out;
  }
  for (const e of batch) {
    if (e.header.type !== 'file' || !out.has(e.header.name)) continue;
    if (o.maxBytes !== undefined && e.content.length > o.maxBytes) throw new LimitExceededError(`${e.header.name} is larger than ${o.maxBytes} bytes`, { limit: 'bytes', max: o.maxBytes });
    out.set(e.header.name, e.content);
  }
  return out;
}
