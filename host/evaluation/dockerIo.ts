// Files and commands in a container through the Docker API (no `docker` CLI, no shell on the
// host): exec with a deadline, files in and out as tar archives. Used for the agent's
// environment (set-up, oracle) and for the verifier.
import { PassThrough, Readable } from 'node:stream';
import type Docker from 'dockerode';
import { pack, extract, type Header } from 'tar-stream';

export interface ExecOptions {
  cwd?: string;
  /** Killed after this many seconds (exit code 124, timedOut true). */
  timeoutSec?: number;
  env?: Record<string, string>;
  user?: string;
  /** Start it and return at once, leaving it running (servers). */
  detach?: boolean;
}
export interface ExecResult { exitCode: number; stdout: string; stderr: string; timedOut: boolean; durationMs: number }

const MAX_OUTPUT = 20 * 1024 * 1024;

function collector(): { stream: PassThrough; text: () => string } {
  const chunks: Buffer[] = [];
  let size = 0;
  const stream = new PassThrough();
  stream.on('data', (c: Buffer) => { if (size < MAX_OUTPUT) { chunks.push(c); size += c.length; } });
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

/** Runs argv (never through a shell) in the container and waits for it, with its output. */
export async function execIn(docker: Docker, container: Docker.Container, argv: string[], o: ExecOptions = {}): Promise<ExecResult> {
  const t0 = Date.now();
  const timeout = o.timeoutSec ? ['timeout', '-k', '5', String(o.timeoutSec)] : [];
  // Detached: a shell starts argv in the background (argv passed as its arguments, never
  // parsed) and exits at once. Docker's own detached start keeps its HTTP connection open
  // until the process ends, which holds the host process for minutes after a run.
  const detach = o.detach ? ['sh', '-c', '"$@" </dev/null >>/tmp/pwp-detached.log 2>&1 &', 'pwp-detach'] : [];
  const ex = await container.exec({
    Cmd: [...detach, ...timeout, ...argv],
    User: o.user ?? 'pwp',
    WorkingDir: o.cwd ?? '/workspace',
    Env: Object.entries(o.env ?? {}).map(([k, v]) => `${k}=${v}`),
    AttachStdout: true,
    AttachStderr: true,
    Tty: false,
  });
  const stream = await ex.start({ hijack: true, stdin: false });
  const out = collector();
  const err = collector();
  docker.modem.demuxStream(stream, out.stream, err.stream);
  // The `timeout` wrapper ends the command; this only guards against a stuck stream.
  const guardMs = ((o.timeoutSec ?? 3600) + 30) * 1000;
  await new Promise<void>((resolve, reject) => {
    const guard = setTimeout(() => { stream.destroy(); reject(new Error(`${argv[0]} did not finish within ${guardMs / 1000} s`)); }, guardMs);
    stream.on('end', () => { clearTimeout(guard); resolve(); });
    stream.on('close', () => { clearTimeout(guard); resolve(); });
    stream.on('error', (e) => { clearTimeout(guard); reject(e); });
  });
  let exitCode = -1;
  for (let i = 0; i < 50; i++) {
    const info = await ex.inspect();
    if (!info.Running && info.ExitCode !== null) { exitCode = info.ExitCode; break; }
    await new Promise((r) => setTimeout(r, 20));
  }
  return { exitCode, stdout: out.text(), stderr: err.text(), timedOut: timeout.length > 0 && exitCode === 124, durationMs: Date.now() - t0 };
}

/** Reads a tar stream into a map of regular files (paths relative to the archive root, minus `strip` leading parts). */
export function readTar(stream: NodeJS.ReadableStream, strip = 0): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    const files = new Map<string, Buffer>();
    const ex = extract();
    ex.on('entry', (header, body, next) => {
      const chunks: Buffer[] = [];
      body.on('data', (c: unknown) => chunks.push(c as Buffer));
      body.on('end', () => {
        if (header.type === 'file') {
          const rel = header.name.split('/').filter(Boolean).slice(strip).join('/');
          if (rel) files.set(rel, Buffer.concat(chunks));
        }
        next();
      });
      body.resume();
    });
    ex.on('finish', () => resolve(files));
    ex.on('error', reject);
    stream.pipe(ex);
  });
}

/** Every entry of a tar (any type), with its header, in archive order. */
export function readTarEntries(tar: Buffer): Promise<{ header: Header; content: Buffer }[]> {
  return new Promise((resolve, reject) => {
    const out: { header: Header; content: Buffer }[] = [];
    const ex = extract();
    ex.on('entry', (header, body, next) => {
      const chunks: Buffer[] = [];
      body.on('data', (c: unknown) => chunks.push(c as Buffer));
      body.on('end', () => { out.push({ header, content: Buffer.concat(chunks) }); next(); });
      body.resume();
    });
    ex.on('finish', () => resolve(out));
    ex.on('error', reject);
    Readable.from([tar]).pipe(ex);
  });
}

/** A tar of entries as readTarEntries gives them. */
export function packEntries(entries: readonly { header: Header; content: Buffer }[]): Readable {
  const tar = pack();
  for (const e of entries) {
    if (e.header.type === 'file' || e.header.type === undefined) tar.entry(e.header, e.content);
    else tar.entry({ ...e.header, size: 0 });
  }
  tar.finalize();
  return tar as unknown as Readable;
}

/** Regular files under a directory of the container, by path relative to it; undefined when it does not exist. */
export async function readTreeFrom(container: Docker.Container, dir: string): Promise<Map<string, Buffer> | undefined> {
  let stream: NodeJS.ReadableStream;
  try { stream = await container.getArchive({ path: dir }); } catch (err) {
    if ((err as { statusCode?: number }).statusCode === 404) return undefined;
    throw err;
  }
  return readTar(stream, 1);
}

/** One file of the container, or undefined when there is none. */
export async function readFileFrom(container: Docker.Container, path: string): Promise<Buffer | undefined> {
  let stream: NodeJS.ReadableStream;
  try { stream = await container.getArchive({ path }); } catch (err) {
    if ((err as { statusCode?: number }).statusCode === 404) return undefined;
    throw err;
  }
  const files = await readTar(stream, 0);
  const base = path.split('/').filter(Boolean).pop() ?? '';
  return files.get(base);
}

/** The raw tar of a directory (entries prefixed with its base name), for copying between containers. */
export async function archiveOf(container: Docker.Container, dir: string): Promise<Buffer> {
  const stream = await container.getArchive({ path: dir });
  const chunks: Buffer[] = [];
  for await (const c of stream as AsyncIterable<Buffer>) chunks.push(c);
  return Buffer.concat(chunks);
}

export interface FileEntry { path: string; content: Buffer | string; mode?: number }
export interface Owner { uid: number; gid: number }
export const IDE_USER: Owner = { uid: 1000, gid: 1000 };
export const ROOT: Owner = { uid: 0, gid: 0 };

/**
 * A tar of files (paths relative to the extraction point) owned by `owner`, with entries for
 * their folders unless `withDirs` is false (then existing folders keep their owner and
 * missing ones are created by the engine).
 */
export function tarOf(files: readonly FileEntry[], owner: Owner = IDE_USER, dirMode = 0o755, withDirs = true): Readable {
  const tar = pack();
  const dirs = new Set<string>();
  for (const f of files) {
    const parts = f.path.split('/').filter(Boolean);
    for (let i = 1; withDirs && i < parts.length; i++) {
      const d = parts.slice(0, i).join('/');
      if (!dirs.has(d)) { dirs.add(d); tar.entry({ name: `${d}/`, type: 'directory', mode: dirMode, ...owner }); }
    }
    const content = typeof f.content === 'string' ? Buffer.from(f.content) : f.content;
    tar.entry({ name: parts.join('/'), mode: f.mode ?? 0o644, ...owner }, content);
  }
  tar.finalize();
  return tar as unknown as Readable;
}

export async function putFiles(container: Docker.Container, destDir: string, files: readonly FileEntry[], owner: Owner = IDE_USER, dirMode = 0o755): Promise<void> {
  if (files.length === 0) return;
  await container.putArchive(tarOf(files, owner, dirMode) as unknown as NodeJS.ReadableStream, { path: destDir });
}
