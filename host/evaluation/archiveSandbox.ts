// Grading without a container, for evaluators that only read the final state (`ide`, `files`,
// `diff`, `answer`, `metric`): nothing of the agent's runs there, so nothing needs a place to run,
// and the verifier container (created, loaded and removed per grading, most of a grading's CPU)
// is not started. It reads what the verifier would hold, from the same inputs: the spooled
// workspace archive (one entry at a time, each read bounded, the archive never whole in memory),
// the task's hidden workspace files over it, the task's hidden folder, the initial workspace's
// digests, the IDE state and the answer. Paths resolve as in the verifier: links in the folders
// on the way are followed inside the workspace, a path that leads out of it fails the grading with
// where it leads, and a link as the last part reads as no file (the engine archives the link
// itself, not its target).
import { createHash } from 'node:crypto';
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { join, posix, sep } from 'node:path';
import { Readable } from 'node:stream';
import { LimitExceededError } from '../../bridge/protocol';
import type { ExecResult, ReadOptions } from '../deployment/runtime';
import { spoolArchive, spooledEntries, type SpooledArchive } from '../deployment/tarArchive';
import type { Evaluator } from './evaluatorSchema';
import { leaves } from './evaluatorSchema';
import { hostFiles } from './hostFolder';
import type { IdeState } from './ideState';
import type { Sandbox } from './verifier';
import type { ArchiveInput } from './workspaceIntake';

/** Evaluator kinds that read the final state and run nothing of it. */
const READS_ONLY = new Set<Evaluator['kind']>(['ide', 'files', 'diff', 'answer', 'metric']);

/** Whether every part of `e` only reads the final state, so it can be graded without a verifier container. */
export function readsOnly(e: Evaluator): boolean {
  return leaves(e).every((l) => READS_ONLY.has(l.kind));
}

const WORKSPACE = '/workspace';
const HIDDEN = '/pwp/hidden';
/** Links followed on the way to a path before it is taken for a loop (the kernel's own limit). */
const MAX_LINKS = 40;

type Node =
  | { type: 'directory' }
  | { type: 'symlink'; target: string }
  /** A regular file: an entry of the archive (by its name there), or a host file of the task's. */
  | { type: 'file'; size: number; digest?: string; entry?: string; host?: string };

export interface ArchiveSandboxInputs {
  workspaceTar: ArchiveInput;
  /** The workspace right after set-up (what `diff` compares other files with); without it, as in the verifier, there is none. */
  initialTar?: ArchiveInput;
  hiddenDir?: string;
  ideState?: IdeState;
  answer?: string;
  /** Where an in-memory archive is spooled (a scratch folder the caller removes). */
  scratchDir: string;
}

const rel = (name: string) => name.replace(/^workspace\/?/, '').replace(/\/$/, '');
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

export class ArchiveSandbox implements Sandbox {
  private constructor(
    private readonly archive: SpooledArchive,
    private readonly tree: Map<string, Node>,
    private readonly initialDigests: Map<string, string> | undefined,
    private readonly o: ArchiveSandboxInputs,
  ) {}

  static async open(o: ArchiveSandboxInputs): Promise<ArchiveSandbox> {
    const spool = async (a: ArchiveInput, name: string) => (Buffer.isBuffer(a) ? spoolArchive(Readable.from([a]), join(o.scratchDir, name)) : a);
    const archive = await spool(o.workspaceTar, 'workspace.tar');
    const tree = new Map<string, Node>([['', { type: 'directory' }]]);
    const byName = new Map<string, Node>();
    for (const e of archive.entries) {
      const path = rel(e.header.name);
      const h = e.header;
      let node: Node | undefined;
      if (h.type === 'directory') node = { type: 'directory' };
      else if (h.type === 'symlink') node = { type: 'symlink', target: h.linkname ?? '' };
      else if (h.type === 'file') node = { type: 'file', size: h.size ?? 0, digest: e.digest, entry: h.name };
      // A hard link has its target's content.
      else if (h.type === 'link') node = byName.get(h.linkname ?? '');
      if (!node) continue; // FIFOs and devices: no content a grader reads (the verifier's intake drops them too)
      byName.set(h.name, node);
      if (path) tree.set(path, node);
    }
    // The task's hidden workspace files go over the agent's, as the verifier copies them; the
    // folders on their way become folders whatever the agent had there.
    if (o.hiddenDir) {
      for (const [p, host] of hostFiles(join(o.hiddenDir, 'workspace'))) {
        const parts = p.split('/');
        for (let i = 1; i < parts.length; i++) tree.set(parts.slice(0, i).join('/'), { type: 'directory' });
        tree.set(p, { type: 'file', size: statSync(host).size, host });
      }
    }
    let initialDigests: Map<string, string> | undefined;
    if (o.initialTar) {
      const initial = await spool(o.initialTar, 'initial.tar');
      initialDigests = new Map(initial.entries.filter((e) => e.header.type === 'file' && rel(e.header.name) && e.digest).map((e) => [rel(e.header.name), e.digest!]));
    }
    return new ArchiveSandbox(archive, tree, initialDigests, o);
  }

  /** Nothing runs here: an evaluator that runs commands is graded in the verifier container. */
  exec(argv: string[]): Promise<ExecResult> {
    return Promise.reject(new Error(`grading on the host runs no commands (${argv[0]}): this evaluator needs the verifier container`));
  }

  async readFile(path: string, o: ReadOptions = {}): Promise<Buffer | undefined> {
    if (path === '/pwp/ide/state.json') return Buffer.from(JSON.stringify(this.o.ideState ?? null, null, 1));
    if (path === '/pwp/answer.txt') return Buffer.from(this.o.answer ?? '');
    const hidden = this.hiddenPath(path);
    if (hidden !== undefined) return this.readHost(hidden, o.maxBytes);
    const ws = this.workspacePath(path);
    if (ws === undefined) return undefined;
    const node = this.tree.get(ws);
    return node?.type === 'file' ? this.content(node, o.maxBytes) : undefined;
  }

  async readTree(dir: string, o: ReadOptions = {}): Promise<Map<string, Buffer> | undefined> {
    const hidden = this.hiddenPath(dir);
    if (hidden !== undefined) {
      let isDir = false;
      try { isDir = statSync(hidden).isDirectory(); } catch { /* no such folder */ }
      if (!isDir) return undefined;
      const out = new Map<string, Buffer>();
      let total = 0;
      for (const [p, host] of hostFiles(hidden)) {
        const b = this.readHost(host, (o.maxBytes ?? Infinity) - total)!;
        total += b.length;
        out.set(p, b);
      }
      return out;
    }
    const ws = this.workspacePath(dir, true);
    if (ws === undefined || this.tree.get(ws)?.type !== 'directory') return undefined;
    const out = new Map<string, Buffer>();
    let total = 0;
    for (const [p, node] of this.under(ws)) {
      const b = await this.content(node, (o.maxBytes ?? Infinity) - total);
      total += b.length;
      out.set(p, b);
    }
    return out;
  }

  async digests(dir: string): Promise<Map<string, string> | undefined> {
    if (dir === '/pwp/initial/workspace') return this.initialDigests && new Map(this.initialDigests);
    const hidden = this.hiddenPath(dir);
    if (hidden !== undefined) {
      const files = hostFiles(hidden);
      return files.size ? new Map([...files].map(([p, host]) => [p, sha256(readFileSync(host))])) : undefined;
    }
    const ws = this.workspacePath(dir, true);
    if (ws === undefined || this.tree.get(ws)?.type !== 'directory') return undefined;
    const out = new Map<string, string>();
    for (const [p, node] of this.under(ws)) out.set(p, node.digest ?? sha256(readFileSync(node.host!)));
    return out;
  }

  /** Nothing to remove: the archives are the caller's. */
  remove(): Promise<void> {
    return Promise.resolve();
  }

  /** The regular files under a workspace folder (links not followed), by path relative to it. */
  private under(dir: string): [string, Extract<Node, { type: 'file' }>][] {
    const prefix = dir ? `${dir}/` : '';
    return [...this.tree].filter((e): e is [string, Extract<Node, { type: 'file' }>] => e[0].startsWith(prefix) && e[0] !== dir && e[1].type === 'file')
      .map(([p, n]) => [p.slice(prefix.length), n]);
  }

  /** A path of the task's hidden folder, as a host path inside it; undefined for any other path. */
  private hiddenPath(path: string): string | undefined {
    if (path !== HIDDEN && !path.startsWith(`${HIDDEN}/`)) return undefined;
    if (!this.o.hiddenDir) return join('/nonexistent', 'pwp-hidden');
    const p = join(this.o.hiddenDir, posix.normalize(path.slice(HIDDEN.length)));
    let real: string;
    try { real = realpathSync(p); } catch { return p; }
    const root = realpathSync(this.o.hiddenDir);
    if (real !== root && !real.startsWith(root + sep)) throw new Error(`${path} leads out of the task's hidden folder`);
    return real;
  }

  private readHost(host: string, maxBytes = Infinity): Buffer | undefined {
    let size: number;
    try {
      const st = statSync(host);
      if (!st.isFile()) return undefined;
      size = st.size;
    } catch { return undefined; }
    if (size > maxBytes) throw new LimitExceededError(`files larger than ${maxBytes} bytes`, { limit: 'bytes', max: maxBytes });
    return readFileSync(host);
  }

  /** A file's content: from the host, or the archive's entry read in bounded memory. */
  private async content(node: Extract<Node, { type: 'file' }>, maxBytes = Infinity): Promise<Buffer> {
    if (node.size > maxBytes) throw new LimitExceededError(`files larger than ${maxBytes} bytes`, { limit: 'bytes', max: maxBytes });
    if (node.host) return this.readHost(node.host, maxBytes) ?? Buffer.alloc(0);
    for await (const { header, body } of spooledEntries(this.archive.file)) {
      if (header.name !== node.entry) continue;
      const chunks: Buffer[] = [];
      for await (const c of body) chunks.push(c as Buffer);
      return Buffer.concat(chunks);
    }
    throw new Error(`the workspace archive has no ${node.entry}`);
  }

  /**
   * A workspace path as its place in the archive's tree: the links on the way followed inside
   * the workspace, the last part's too when `followLast` (a folder read whole) or only to check
   * where it leads (a file read: the link itself is what the engine reads, which is no file).
   * Undefined for a path outside /workspace; a path that leads out of it is an error, as in
   * the verifier (verifier.ts, insideWorkspace).
   */
  private workspacePath(path: string, followLast = false): string | undefined {
    if (path !== WORKSPACE && !path.startsWith(`${WORKSPACE}/`)) return undefined;
    const shown = path.slice(WORKSPACE.length + 1);
    const walk = (follow: boolean): string => {
      const todo = shown.split('/').filter(Boolean);
      const at: string[] = [];
      let links = 0;
      while (todo.length) {
        const part = todo.shift()!;
        if (part === '.') continue;
        if (part === '..') {
          if (!at.length) throw new Error(`${shown} leads out of the workspace, to ${posix.join('/', ...todo)}: the verifier reads the agent's files only inside it`);
          at.pop();
          continue;
        }
        const node = this.tree.get([...at, part].join('/'));
        if (node?.type !== 'symlink' || (!todo.length && !follow)) { at.push(part); continue; }
        if (++links > MAX_LINKS) throw new Error(`cannot resolve ${path}: too many levels of symbolic links`);
        const target = node.target;
        if (target.startsWith('/')) {
          const normal = posix.normalize(target);
          if (normal !== WORKSPACE && !normal.startsWith(`${WORKSPACE}/`)) {
            const to = posix.join(normal, ...todo);
            throw new Error(`${shown} leads out of the workspace, to ${to}: the verifier reads the agent's files only inside it`);
          }
          at.length = 0;
          todo.unshift(...normal.slice(WORKSPACE.length).split('/').filter(Boolean));
        } else {
          todo.unshift(...target.split('/').filter(Boolean));
        }
      }
      return at.join('/');
    };
    walk(true); // where it leads, the last link included: out of the workspace is an error
    return walk(followLast);
  }
}
