// What the host does inside an environment once a deployment has it running (the split
// SWE-ReX makes): run a command, read a file, write files, move archives in and out. Tasks'
// set-up, checkpoints, the verifier and the Env go through this; only a deployment knows how
// (the Docker engine's API today, the bridge where the host cannot reach the node's engine).
import { bufferOf } from './tarArchive';

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

/** A file to write: path relative to the folder it goes into. */
export interface FileEntry { path: string; content: Buffer | string; mode?: number }
export interface Owner { uid: number; gid: number }
export const IDE_USER: Owner = { uid: 1000, gid: 1000 };
export const ROOT: Owner = { uid: 0, gid: 0 };

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

/** The whole archive of `path` in memory (for copying between environments). */
export async function archiveBuffer(runtime: Runtime, path: string): Promise<Buffer> {
  return bufferOf(await runtime.archiveOut(path));
}
