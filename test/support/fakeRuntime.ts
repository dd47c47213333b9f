// The Runtime of a fake environment (fakeDeployment.ts): the environment's file system is a
// temporary folder on the host, so /workspace is <root>/workspace. Files and archives go in and
// out of that folder for real. Commands run for real too, as this test process's user, with
// their working folder mapped into the root; an argument that is an absolute path under one of
// the root's top folders (/workspace/x, /home/pwp/…) is mapped the same way. What a command makes
// of paths it builds itself (a shell script's) is not mapped: the fake is no container, and a
// test that needs one uses the real deployment.
import { spawn } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, normalize, relative } from 'node:path';
import { InvalidParamsError } from '../../bridge/protocol';
import type { FileEntry } from '../../host/deployment/fileEntry';
import type { ExecOptions, ExecResult, Runtime, WriteOptions } from '../../host/deployment/runtime';
import { bufferOf, packEntries, readTarEntries, type TarEntry } from '../../host/deployment/tarArchive';

const MAX_OUTPUT = 20 * 1024 * 1024;

export class FolderRuntime implements Runtime {
  /** It acts on the folder from outside, as the engine's API does on a frozen container. */
  readonly worksWhilePaused = true;
  readonly ownerPerEntry = false;
  /** Every command run, in order (argv as given, before mapping). */
  readonly commands: string[][] = [];

  constructor(readonly root: string) {}

  /** The host path of an environment path (absolute, `..` kept inside the root). */
  hostPath(path: string): string {
    if (!path.startsWith('/')) throw new InvalidParamsError(`expected an absolute path in the environment, got ${path}`);
    return join(this.root, normalize(path));
  }

  private mapArg(arg: string): string {
    if (!arg.startsWith('/')) return arg;
    const top = arg.split('/')[1];
    return top && existsSync(join(this.root, top)) ? this.hostPath(arg) : arg;
  }

  exec(argv: string[], o: ExecOptions = {}): Promise<ExecResult> {
    this.commands.push([...argv]);
    const cwd = this.hostPath(o.cwd ?? '/workspace');
    if (!existsSync(cwd)) return Promise.reject(new InvalidParamsError(`cwd ${o.cwd ?? '/workspace'} does not exist in the environment`, { field: 'cwd' }));
    const t0 = Date.now();
    const [cmd, ...args] = argv.map((a) => this.mapArg(a));
    const child = spawn(cmd, args, { cwd, env: { ...process.env, ...o.env, HOME: this.hostPath('/home/pwp') }, detached: o.detach, stdio: o.detach ? 'ignore' : 'pipe' });
    if (o.detach) {
      child.on('error', () => undefined);
      child.unref();
      return Promise.resolve({ exitCode: 0, stdout: '', stderr: '', timedOut: false, durationMs: Date.now() - t0 });
    }
    const max = o.maxOutputBytes ?? MAX_OUTPUT;
    const out = { stdout: [] as Buffer[], stderr: [] as Buffer[] };
    const keep = (stream: 'stdout' | 'stderr') => (c: Buffer) => {
      o.onOutput?.(c, stream);
      if (Buffer.concat(out[stream]).length < max) out[stream].push(c);
    };
    child.stdout!.on('data', keep('stdout'));
    child.stderr!.on('data', keep('stderr'));
    let timedOut = false;
    const timer = o.timeoutSec ? setTimeout(() => { timedOut = true; child.kill('SIGKILL'); }, o.timeoutSec * 1000) : undefined;
    return new Promise((resolve) => {
      const done = (exitCode: number, spawnError?: string) => {
        clearTimeout(timer);
        const text = (b: Buffer[]) => Buffer.concat(b).subarray(0, max).toString('utf8');
        resolve({ exitCode: timedOut ? 124 : exitCode, stdout: text(out.stdout), stderr: spawnError ?? text(out.stderr), timedOut, durationMs: Date.now() - t0 });
      };
      // A program that does not exist: the shell's answer in a container (exit 127), not a throw.
      child.on('error', (err) => done(127, `${argv[0]}: ${err.message}\n`));
      child.on('close', (code) => done(code ?? 137));
    });
  }

  async readFile(path: string): Promise<Buffer | undefined> {
    const p = this.hostPath(path);
    return lstatOrUndefined(p)?.isFile() ? readFileSync(p) : undefined;
  }

  async readTree(dir: string): Promise<Map<string, Buffer> | undefined> {
    const d = this.hostPath(dir);
    if (!lstatOrUndefined(d)?.isDirectory()) return undefined;
    const files = new Map<string, Buffer>();
    for (const f of walk(d)) if (f.isFile) files.set(f.rel, readFileSync(join(d, f.rel)));
    return files;
  }

  async writeFiles(dir: string, files: readonly FileEntry[], _o?: WriteOptions): Promise<void> {
    const d = this.hostPath(dir);
    if (!lstatOrUndefined(d)?.isDirectory()) throw new InvalidParamsError(`${dir} is not a folder of the environment`);
    for (const f of files) {
      const p = join(d, normalize(f.path));
      if (relative(d, p).startsWith('..')) throw new InvalidParamsError(`${f.path} leaves ${dir}`);
      mkdirSync(dirname(p), { recursive: true });
      writeFileSync(p, f.content, { mode: f.mode });
    }
  }

  async archiveIn(dir: string, tar: NodeJS.ReadableStream | Buffer): Promise<void> {
    const d = this.hostPath(dir);
    if (!lstatOrUndefined(d)?.isDirectory()) throw new InvalidParamsError(`${dir} is not a folder of the environment`);
    for (const e of await readTarEntries(Buffer.isBuffer(tar) ? tar : await bufferOf(tar))) {
      const p = join(d, normalize(e.header.name));
      if (relative(d, p).startsWith('..')) throw new InvalidParamsError(`archive entry ${e.header.name} leaves ${dir}`);
      if (e.header.type === 'directory') mkdirSync(p, { recursive: true });
      else if (e.header.type === 'file') { mkdirSync(dirname(p), { recursive: true }); writeFileSync(p, e.content); }
    }
  }

  async archiveOut(path: string): Promise<NodeJS.ReadableStream> {
    const p = this.hostPath(path);
    const st = lstatOrUndefined(p);
    if (!st) throw new Error(`${path}: no such file or folder in the environment`);
    const base = basename(p);
    const entries: TarEntry[] = [];
    if (st.isFile()) entries.push({ header: { name: base, type: 'file', mode: 0o644 }, content: readFileSync(p) });
    else {
      entries.push({ header: { name: `${base}/`, type: 'directory', mode: 0o755 }, content: Buffer.alloc(0) });
      for (const f of walk(p)) {
        entries.push(f.isFile
          ? { header: { name: `${base}/${f.rel}`, type: 'file', mode: 0o644 }, content: readFileSync(join(p, f.rel)) }
          : { header: { name: `${base}/${f.rel}/`, type: 'directory', mode: 0o755 }, content: Buffer.alloc(0) });
      }
    }
    return packEntries(entries);
  }
}

function lstatOrUndefined(p: string) {
  try { return lstatSync(p); } catch { return undefined; }
}

/** Files and folders under `dir`, parents first, by path relative to it. */
function* walk(dir: string, prefix = ''): Generator<{ rel: string; isFile: boolean }> {
  for (const e of readdirSync(join(dir, prefix), { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory()) { yield { rel, isFile: false }; yield* walk(dir, rel); } else if (e.isFile()) yield { rel, isFile: true };
  }
}
