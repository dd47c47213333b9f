// What the host does inside an environment once a deployment has it running (the split
// SWE-ReX makes): run a command, read a file, write files, move archives in and out. Tasks'
// set-up, checkpoints, the verifier and the Env go through this; only a deployment knows how
// (the Docker engine's API today, the bridge where the host cannot reach the node's engine).
import type { FileEntry, Owner } from './fileEntry';
import { bufferOf, packEntries, readTarEntries, type TarEntry } from './tarArchive';

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
  /** One regular file, or undefined when there is none. */
  readFile(path: string): Promise<Buffer | undefined>;
  /** Regular files under a folder by relative path; undefined when the folder does not exist. */
  readTree(dir: string): Promise<Map<string, Buffer> | undefined>;
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
 * Unpacks entries at `/`, in order (a later entry replaces an earlier one of the same path):
 * one archive where the runtime gives each entry its owner, else one per run of entries of one
 * owner. Each archive the engine unpacks costs it a process of its own (half a CPU-second on a
 * slow host), so what goes in together goes in once.
 */
export async function archiveEntriesIn(runtime: Runtime, entries: readonly TarEntry[]): Promise<void> {
  if (entries.length === 0) return;
  if (runtime.ownerPerEntry) return runtime.archiveIn('/', packEntries(entries));
  const owner = (e: TarEntry) => `${e.header.uid ?? 0}:${e.header.gid ?? 0}`;
  for (let i = 0; i < entries.length;) {
    let j = i + 1;
    while (j < entries.length && owner(entries[j]) === owner(entries[i])) j++;
    await runtime.archiveIn('/', packEntries(entries.slice(i, j)));
    i = j;
  }
}

/**
 * The regular files among `paths` (absolute), read as root by one command where reading them
 * one by one costs an engine archive each: a path that is missing, a folder or a symlink maps
 * to undefined, as with readFile. Reads them one by one when the batch does not come back
 * whole (output over the exec cap).
 */
export async function readRegularFiles(runtime: Runtime, paths: readonly string[]): Promise<Map<string, Buffer | undefined>> {
  const out = new Map<string, Buffer | undefined>(paths.map((p) => [p, undefined]));
  if (paths.length === 0) return out;
  const script = 'set -o pipefail; for f; do if [ -f "$f" ] && [ ! -L "$f" ]; then printf "%s\\0" "$f"; fi; done'
    + ' | tar -c --null --no-recursion --absolute-names -T - -f - | base64 -w0';
  const r = await runtime.exec(['bash', '-c', script, 'pwp-read', ...paths], { user: 'root', cwd: '/' });
  try {
    if (r.exitCode !== 0) throw new Error(r.stderr);
    for (const e of await readTarEntries(Buffer.from(r.stdout, 'base64'))) {
      if (e.header.type === 'file' && out.has(e.header.name)) out.set(e.header.name, e.content);
    }
  } catch {
    for (const p of paths) out.set(p, await runtime.readFile(p));
  }
  return out;
}
