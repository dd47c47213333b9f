// A repository at one commit, for converters of datasets whose instances name a repository and
// a commit (SWE-bench, SWT-Bench, Res-Q). The user's copy is only read: a local clone
// (<repos>/<owner>__<name>, <repos>/<owner>/<name> or <repos>/<name>) or a git bundle beside
// them (<owner>__<name>.bundle or <name>.bundle, how the bundled datasets carry theirs). The
// commit is extracted with git archive into a scratch folder, never checked out in the clone.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { Step } from '../taskEnv/stepSchema';
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

/**
 * The lines a unified diff changes: removed lines by their number in the old file (keyed by its
 * old path), added lines by their number in the new file (keyed by its new path), as SWT-Bench's
 * change coverage counts them. A hunk is read by its header's counts, so a removed line that
 * reads like a file header (`--- x`) stays a line.
 */
export function changedLines(diff: string): { removed: Record<string, number[]>; added: Record<string, number[]> } {
  const removed: Record<string, number[]> = {};
  const added: Record<string, number[]> = {};
  const lines = diff.split('\n');
  let from = '';
  let to = '';
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    const path = (prefix: string, side: string) => {
      const p = l.slice(prefix.length).replace(/\t.*$/, '').trimEnd();
      return p === '/dev/null' ? '' : p.startsWith(`${side}/`) ? p.slice(2) : p;
    };
    if (l.startsWith('--- ')) { from = path('--- ', 'a'); continue; }
    if (l.startsWith('+++ ')) { to = path('+++ ', 'b'); continue; }
    const h = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(l);
    if (!h) continue;
    let oldNo = Number(h[1]);
    let newNo = Number(h[3]);
    let oldLeft = h[2] === undefined ? 1 : Number(h[2]);
    let newLeft = h[4] === undefined ? 1 : Number(h[4]);
    while ((oldLeft > 0 || newLeft > 0) && i + 1 < lines.length) {
      const body = lines[++i];
      if (body.startsWith('\\')) continue; // "\ No newline at end of file"
      if (body.startsWith('-')) { (removed[from] ??= []).push(oldNo++); oldLeft--; }
      else if (body.startsWith('+')) { (added[to] ??= []).push(newNo++); newLeft--; }
      else { oldNo++; newNo++; oldLeft--; newLeft--; }
    }
  }
  return { removed, added };
}

/** A commit's author, committer (name, email, ISO date) and message, to make the workspace's commit the same. */
export interface CommitInfo { author: [string, string, string]; committer: [string, string, string]; message: string }

export interface Checkout {
  /** The scratch folder holding the commit's files. */
  dir: string;
  /** The commit's author, committer and message. */
  info: CommitInfo;
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
  let info: CommitInfo;
  try {
    let source = clone;
    if (clone.endsWith('.bundle')) {
      source = join(scratch, 'clone.git');
      git(scratch, ['clone', '-q', '--bare', clone, source]);
    }
    let tar: Buffer;
    try {
      tar = git(source, ['archive', '--format=tar', commit]);
      const f = git(source, ['show', '-s', '--format=%an%x00%ae%x00%aI%x00%cn%x00%ce%x00%cI%x00%B', commit]).toString('utf8').split('\0');
      info = { author: [f[0], f[1], f[2]], committer: [f[3], f[4], f[5]], message: f.slice(6).join('\0').trim() || commit };
    } catch (err) {
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
    info,
    files: () => readTree(dir),
    apply(diff, what) {
      try { git(dir, ['apply', '--whitespace=nowarn', '-'], diff); } catch (err) {
        throw new Error(`${repo}@${commit.slice(0, 12)}: the ${what} does not apply: ${String((err as { stderr?: Buffer }).stderr ?? err).trim()}`, { cause: err });
      }
    },
    close: () => rmSync(scratch, { recursive: true, force: true }),
  };
}

/**
 * Set-up that makes /workspace a git repository at the base commit, as the harnesses' are
 * (agents run `git status` and `git diff`): one commit holding the workspace's files, with the
 * base commit's author, committer, dates and message, and nothing else. No history is carried
 * over, so no later commit, tag, branch, reflog entry, stash or loose object of the fix is
 * there to find (`git log --all`, `git fsck --lost-found`, `git cat-file --batch-all-objects`);
 * the commit's id is therefore not base_commit's (its parents are left out). Files an install
 * wrote into the checkout (`untracked`) are left out of the commit.
 */
export function gitWorkspaceSetup(repo: string, commit: string, info: CommitInfo, untracked: readonly string[] = []): Step[] {
  const [an, ae, ad] = info.author;
  const [cn, ce, cd] = info.committer;
  const env = {
    GIT_AUTHOR_NAME: an || 'unknown', GIT_AUTHOR_EMAIL: ae || 'unknown', GIT_AUTHOR_DATE: ad || '1970-01-01T00:00:00Z',
    GIT_COMMITTER_NAME: cn || 'unknown', GIT_COMMITTER_EMAIL: ce || 'unknown', GIT_COMMITTER_DATE: cd || '1970-01-01T00:00:00Z',
  };
  // Variables and the message go in as arguments ($1…), never spliced into the script.
  const script = [
    'set -e',
    'for kv in "$@"; do case "$kv" in GIT_*=*) export "$kv";; esac; done',
    'git init -q -b main .',
    // Files the repository ignores but tracks at the commit are the commit's all the same.
    'git add -A -f .',
    // What an install wrote (not the commit's) stays untracked, as in the harness's checkout.
    ...(untracked.length ? [`git rm -q --cached --ignore-unmatch -- ${untracked.map((f) => `'${f.replace(/'/g, "'\\''")}'`).join(' ')}`] : []),
    'git -c commit.gpgsign=false commit -q --no-verify --allow-empty -m "$PWP_MSG"',
    // The repository holds the one commit: nothing loose, nothing in a reflog but it.
    'git gc -q --prune=now',
  ].join('\n');
  const args = Object.entries(env).map(([k, v]) => `${k}=${v}`);
  return [{
    exec: ['env', `PWP_MSG=${info.message}`, 'bash', '-c', script, 'git-workspace', ...args],
    cwd: '/workspace', timeoutSec: 600, exitCode: 0,
    note: `/workspace as a git repository at ${repo}@${commit.slice(0, 12)} (one commit, no later history)`,
  }];
}
