// Confines every path a tool touches to the workspace. The lexical check stops `..`; the real
// path check (through every existing ancestor, and a dangling symlink's target) stops symlinks
// that lead out. ConfinedFs then opens what they name without following links, so that a
// swap after the check cannot lead out either. Pure node, unit-tested.
import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, normalize, relative, resolve, sep } from 'node:path';
import { ToolError } from './toolError';

function inside(root: string, p: string): boolean {
  const rel = relative(root, p);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

export class WorkspacePaths {
  readonly root: string;
  readonly realRoot: string;

  constructor(root: string) {
    this.root = normalize(resolve(root));
    this.realRoot = realpathSync(this.root);
  }

  /**
   * The absolute path a tool argument names, after checking that it and what it resolves to
   * stay in the workspace. `field` names the argument in the error.
   */
  resolve(arg: string, field = 'path'): string {
    if (typeof arg !== 'string' || arg.length === 0) throw new ToolError(`${field}: a path is required`, 'InvalidPath');
    if (arg.includes('\0')) throw new ToolError(`${field}: the path contains a NUL byte`, 'InvalidPath');
    const stripped = arg.startsWith('file://') ? decodeURIComponent(arg.slice('file://'.length)) : arg;
    const abs = normalize(isAbsolute(stripped) ? stripped : join(this.root, stripped));
    if (!inside(this.root, abs) && !inside(this.realRoot, abs)) {
      throw new ToolError(`${field}: '${arg}' is outside the workspace (${this.root}); only paths inside it are allowed`, 'PathOutsideWorkspace');
    }
    const real = this.realPath(abs, 0);
    if (!inside(this.realRoot, real)) {
      throw new ToolError(`${field}: '${arg}' leads outside the workspace through a symbolic link (to ${real}); refused`, 'PathOutsideWorkspace');
    }
    return abs;
  }

  /** The real path of abs (links inside the workspace followed) as components under realRoot. */
  realComponents(abs: string): string[] {
    const real = this.realPath(abs, 0);
    if (!inside(this.realRoot, real)) {
      throw new ToolError(`'${abs}' leads outside the workspace through a symbolic link (to ${real}); refused`, 'PathOutsideWorkspace');
    }
    return relative(this.realRoot, real).split(sep).filter((p) => p !== '');
  }

  /** A path relative to the workspace root, for display ("." for the root). */
  display(abs: string): string {
    const rel = relative(this.root, abs);
    return rel === '' ? '.' : rel;
  }

  /** Where abs really leads: realpath of the longest existing ancestor plus the rest, following dangling links. */
  private realPath(abs: string, depth: number): string {
    try {
      return this.followPath(abs, depth);
    } catch (err) {
      if (err instanceof ToolError) throw err;
      // Something on the path vanished or changed between two looks at it (another process).
      throw new ToolError(`${abs} changed while it was being resolved (${(err as Error).message}); refused`, 'PathChanged');
    }
  }

  private followPath(abs: string, depth: number): string {
    if (depth > 40) throw new ToolError(`too many levels of symbolic links at ${abs}`, 'InvalidPath');
    let existing = abs;
    const rest: string[] = [];
    for (;;) {
      let st;
      try { st = lstatSync(existing); } catch { st = undefined; }
      if (st?.isSymbolicLink()) {
        try { return join(realpathSync(existing), ...rest); } catch {
          // A dangling link: writing through it would create its target.
          const target = readlinkSync(existing);
          return this.followPath(normalize(isAbsolute(target) ? join(target, ...rest) : join(dirname(existing), target, ...rest)), depth + 1);
        }
      }
      if (st) return join(realpathSync(existing), ...rest);
      const parent = dirname(existing);
      if (parent === existing) return join(existing, ...rest);
      rest.unshift(basename(existing));
      existing = parent;
    }
  }
}
