// A repository at one commit, for converters of datasets whose instances name a repository and
// a commit (SWE-bench, SWT-Bench, Res-Q). The user's copy is only read: a local clone
// (<repos>/<owner>__<name>, <repos>/<owner>/<name> or <repos>/<name>) or a git bundle beside
// them (<owner>__<name>.bundle or <name>.bundle, how the bundled datasets carry theirs). The
// commit is extracted with git archive into a scratch folder, never checked out in the clone.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { FileMap } from './taskWriter';

function git(cwd: string, args: string[], input?: string): Buffer {
  return execFileSync('git', args, { cwd, input, maxBuffer: 1 << 30, stdio: ['pipe', 'pipe', 'pipe'] });
}

/** The clone (a folder) or bundle (a file) of `repo` (owner/name) under `repos`. */
export function findClone(repos: string, repo: string): string {
  const [owner, name] = repo.split('/');
  const candidates = [join(repos, `${owner}__${name}`), join(repos, owner, name ?? ''), join(repos, name ?? owner)];
  const found = candidates.find((c) => existsSync(join(c, '.git')) || existsSync(join(c, 'HEAD')))
    ?? candidates.map((c) => `${c}.bundle`).find((c) => existsSync(c) && statSync(c).isFile());
  if (!found) throw new Error(`no clone of ${repo} under ${repos} (looked for ${candidates.map((c) => relative(repos, c)).join(', ')}, or one of them with .bundle)`);
  return found;
}

/** Every file under a folder, by relative path. */
export function readTree(dir: string, base = dir, out: FileMap = {}): FileMap {
  for (const e of readdirSync(dir)) {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) readTree(p, base, out);
    else out[relative(base, p)] = readFileSync(p);
  }
  return out;
}

/** Paths a unified diff creates or changes (deletions cannot be overlaid and are left out). */
export function patchedFiles(diff: string): string[] {
  const out = new Set<string>();
  for (const m of diff.matchAll(/^\+\+\+ (?:b\/)?(.+?)\s*$/gm)) if (m[1] !== '/dev/null') out.add(m[1]);
  return [...out];
}

/** Paths a unified diff deletes. */
export function deletedFiles(diff: string): string[] {
  const out = new Set<string>();
  for (const m of diff.matchAll(/^--- (?:a\/)?(.+?)\s*\n\+\+\+ \/dev\/null/gm)) out.add(m[1]);
  return [...out];
}

export interface Checkout {
  /** The scratch folder holding the commit's files. */
  dir: string;
  /** The files as they are now, by path. */
  files(): FileMap;
  /** Applies a unified diff to the scratch copy; `what` names it in the error. */
  apply(diff: string, what: string): void;
  close(): void;
}

export function checkout(repos: string, repo: string, commit: string): Checkout {
  const clone = findClone(repos, repo);
  const scratch = mkdtempSync(join(tmpdir(), 'pwp-checkout-'));
  const dir = join(scratch, 'work');
  try {
    let source = clone;
    if (clone.endsWith('.bundle')) {
      source = join(scratch, 'clone.git');
      git(scratch, ['clone', '-q', '--bare', clone, source]);
    }
    let tar: Buffer;
    try { tar = git(source, ['archive', '--format=tar', commit]); } catch (err) {
      throw new Error(`${repo}: commit ${commit} not found in ${clone} (${String((err as { stderr?: Buffer }).stderr ?? err).trim()})`, { cause: err });
    }
    mkdirSync(dir);
    execFileSync('tar', ['-x', '-C', dir], { input: tar, maxBuffer: 1 << 30 });
  } catch (err) {
    rmSync(scratch, { recursive: true, force: true });
    throw err;
  }
  return {
    dir,
    files: () => readTree(dir),
    apply(diff, what) {
      try { git(dir, ['apply', '--whitespace=nowarn', '-'], diff); } catch (err) {
        throw new Error(`${repo}@${commit.slice(0, 12)}: the ${what} does not apply: ${String((err as { stderr?: Buffer }).stderr ?? err).trim()}`, { cause: err });
      }
    },
    close: () => rmSync(scratch, { recursive: true, force: true }),
  };
}
