// File operations that cannot be led out of the workspace while they run. WorkspacePaths
// checks a path when a tool receives it; between that check and the open, the agent's shell
// could swap a folder for a link to /. So every open here walks the real path one component
// at a time from a handle on the workspace root, through /proc/self/fd/N/name (Linux's stand-in
// for openat, which Node lacks) with O_NOFOLLOW: a component that became a link fails the walk
// instead of being followed. Writes go to a new file in the verified folder, renamed over the
// target, so they never write through an existing name.
//
// Hard links: a regular file with more than one link may have its other names outside the
// workspace (the agent can link /etc/passwd into it: same filesystem). Finding the other names
// would mean searching the filesystem, so such files are refused, for reading and writing.
// Pure node (no vscode), unit-tested with real links.
import {
  closeSync, constants, fchmodSync, fstatSync, lstatSync, mkdirSync, openSync, readFileSync, readdirSync,
  renameSync, statSync, unlinkSync, writeSync, type Dirent, type Stats,
} from 'node:fs';
import { randomBytes } from 'node:crypto';
import { ToolError } from './toolError';
import type { WorkspacePaths } from './workspacePaths';

const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW, O_DIRECTORY, O_NONBLOCK } = constants;

/** The path of `name` inside the directory open as `dirFd`, resolved by the kernel from the handle. */
const at = (dirFd: number, name: string) => `/proc/self/fd/${dirFd}/${name}`;

function changed(abs: string): ToolError {
  return new ToolError(`${abs} changed while it was being opened (a folder or the file was replaced, e.g. by a link); refused`, 'PathChanged');
}

function hardLinked(abs: string, nlink: number): ToolError {
  return new ToolError(
    `${abs} is a hard link (${nlink} names for one file); its other names may be outside the workspace, so it is refused. ` +
      'Copy it to a new file (cp) to work on it.', 'HardLinkedFile');
}

/** Checks an opened (or lstat'ed) target: a regular file with one name, or a directory where allowed. */
function checkTarget(abs: string, st: Stats, allowDirectory: boolean): void {
  if (st.isSymbolicLink()) throw changed(abs);
  if (st.isDirectory()) {
    if (allowDirectory) return;
    throw new ToolError(`${abs} is a directory, not a file`, 'IsADirectory');
  }
  if (!st.isFile()) throw new ToolError(`${abs} is not a regular file (a device, pipe or socket); refused`, 'NotARegularFile');
  if (st.nlink > 1) throw hardLinked(abs, st.nlink);
}

export class ConfinedFs {
  private readonly rootId: { dev: number; ino: number };

  constructor(private readonly paths: WorkspacePaths) {
    const st = statSync(paths.realRoot);
    this.rootId = { dev: st.dev, ino: st.ino };
  }

  /** Reads a workspace file's bytes (refusing directories, devices and hard links). */
  readBytes(abs: string): Buffer {
    const fd = this.openFile(abs);
    try {
      return readFileSync(fd);
    } finally {
      closeSync(fd);
    }
  }

  /** What is at abs, not following a final link; undefined when nothing is there. */
  lstat(abs: string): Stats | undefined {
    const { parent, name } = this.split(abs);
    if (name === undefined) return statSync(this.paths.realRoot);
    let dirFd: number;
    try { dirFd = this.openDir(abs, parent, false); } catch (err) {
      if (err instanceof ToolError && err.kind === 'NotFound') return undefined;
      throw err;
    }
    try {
      return lstatSync(at(dirFd, name));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    } finally {
      closeSync(dirFd);
    }
  }

  /** Checks that abs is a regular workspace file with one name (or nothing yet), reached without links. */
  checkFile(abs: string): Stats | undefined {
    const st = this.lstat(abs);
    if (st) checkTarget(abs, st, false);
    return st;
  }

  /** Lists a workspace directory through a handle on it. */
  readdir(abs: string): Dirent[] {
    const { parent, name } = this.split(abs);
    const fd = this.openDir(abs, name === undefined ? parent : [...parent, name], false);
    try {
      return readdirSync(`/proc/self/fd/${fd}`, { withFileTypes: true });
    } finally {
      closeSync(fd);
    }
  }

  /**
   * Writes data as the whole content of abs: a new file in the verified folder (missing folders
   * are created), renamed over the old name, keeping its mode.
   */
  writeBytes(abs: string, data: Buffer | string): { created: boolean } {
    const { parent, name } = this.split(abs);
    if (name === undefined) throw new ToolError(`${abs} is a directory, not a file`, 'IsADirectory');
    const dirFd = this.openDir(abs, parent, true);
    const tmp = `.${name.slice(0, 100)}.pwp-${randomBytes(4).toString('hex')}`;
    try {
      let old: Stats | undefined;
      try { old = lstatSync(at(dirFd, name)); } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      }
      if (old) checkTarget(abs, old, false);
      const fd = openSync(at(dirFd, tmp), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, old ? old.mode & 0o7777 : 0o644);
      try {
        const buf = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
        for (let off = 0; off < buf.length;) off += writeSync(fd, buf, off, buf.length - off);
        if (old) fchmodSync(fd, old.mode & 0o7777);
      } finally {
        closeSync(fd);
      }
      renameSync(at(dirFd, tmp), at(dirFd, name));
      return { created: !old };
    } catch (err) {
      try { unlinkSync(at(dirFd, tmp)); } catch { /* not created, or already renamed */ }
      throw err;
    } finally {
      closeSync(dirFd);
    }
  }

  /** Removes one file (not a directory) by its name in the verified folder. */
  unlinkFile(abs: string): void {
    const { parent, name } = this.split(abs);
    if (name === undefined) throw new ToolError('the workspace root cannot be deleted', 'InvalidPath');
    const dirFd = this.openDir(abs, parent, false);
    try {
      unlinkSync(at(dirFd, name));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new ToolError(`file not found: ${abs}`, 'NotFound');
      throw err;
    } finally {
      closeSync(dirFd);
    }
  }

  /** Opens a regular workspace file for reading; the caller closes the descriptor. */
  private openFile(abs: string): number {
    const { parent, name } = this.split(abs);
    if (name === undefined) throw new ToolError(`${abs} is a directory, not a file`, 'IsADirectory');
    const dirFd = this.openDir(abs, parent, false);
    let fd: number;
    try {
      // O_NONBLOCK: a FIFO planted in the workspace must not hang the tool before fstat refuses it.
      fd = openSync(at(dirFd, name), O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
    } catch (err) {
      throw this.openError(abs, err);
    } finally {
      closeSync(dirFd);
    }
    try {
      checkTarget(abs, fstatSync(fd), false);
    } catch (err) {
      closeSync(fd);
      throw err;
    }
    return fd;
  }

  /** The real path of abs as components under the real root, and its last one (none for the root). */
  private split(abs: string): { parent: string[]; name?: string } {
    const parts = this.paths.realComponents(abs);
    return parts.length === 0 ? { parent: [] } : { parent: parts.slice(0, -1), name: parts[parts.length - 1] };
  }

  /** Opens the directory reached by `parts` from the root, never through a link. */
  private openDir(abs: string, parts: string[], create: boolean): number {
    let fd = openSync(this.paths.realRoot, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
    const st = fstatSync(fd);
    if (st.dev !== this.rootId.dev || st.ino !== this.rootId.ino) {
      closeSync(fd);
      throw new ToolError(`the workspace folder ${this.paths.realRoot} was replaced; refused`, 'PathChanged');
    }
    for (const part of parts) {
      let next: number;
      try {
        if (create) {
          try { mkdirSync(at(fd, part), 0o755); } catch (err) {
            if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
          }
        }
        next = openSync(at(fd, part), O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
      } catch (err) {
        throw this.openError(abs, err);
      } finally {
        closeSync(fd);
      }
      fd = next;
    }
    return fd;
  }

  private openError(abs: string, err: unknown): Error {
    const code = (err as NodeJS.ErrnoException).code;
    // ELOOP: a component is a link now (it was not when the path was resolved).
    if (code === 'ELOOP') return changed(abs);
    if (code === 'ENOENT') return new ToolError(`file not found: ${abs}`, 'NotFound');
    if (code === 'ENOTDIR') return new ToolError(`${abs}: a part of the path is not a folder (or was just replaced by a link)`, 'NotADirectory');
    if (code === 'EACCES') return new ToolError(`${abs}: permission denied`, 'PermissionDenied');
    return err as Error;
  }
}
