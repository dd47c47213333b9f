// The Runtime of a Docker container, through the engine's API (no `docker` CLI, no shell on
// the host): exec with a deadline and capped output, files in and out as tar archives. The
// same class serves an environment's container and the verifier's.
import { PassThrough } from 'node:stream';
import type Docker from 'dockerode';
import type { FileEntry } from './fileEntry';
import type { ExecOptions, ExecResult, ReadOptions, Runtime, WriteOptions } from './runtime';
import { readTar, tarOf } from './tarArchive';
import { whileThawed } from './freezeGate';

const MAX_OUTPUT = 20 * 1024 * 1024;

function collector(cap: number, onChunk?: (c: Buffer) => void): { stream: PassThrough; text: () => string } {
  const chunks: Buffer[] = [];
  let size = 0;
  const stream = new PassThrough();
  stream.on('data', (c: Buffer) => {
    onChunk?.(c);
    if (size >= cap) return;
    chunks.push(c.subarray(0, cap - size));
    size += Math.min(c.length, cap - size);
  });
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

const notFound = (err: unknown) => (err as { statusCode?: number }).statusCode === 404;

export class DockerRuntime implements Runtime {
  readonly worksWhilePaused = true;
  readonly ownerPerEntry = true;
  constructor(private readonly docker: Docker, readonly container: Docker.Container) {}

  /** Never while the container is frozen by this process (freezeGate.ts says why). */
  exec(argv: string[], o: ExecOptions = {}): Promise<ExecResult> {
    return whileThawed(this.container.id, () => this.execNow(argv, o));
  }

  private async execNow(argv: string[], o: ExecOptions): Promise<ExecResult> {
    const t0 = Date.now();
    const timeout = o.timeoutSec ? ['timeout', '-k', '5', String(o.timeoutSec)] : [];
    // Detached: a shell starts argv in the background (argv passed as its arguments, never
    // parsed) and exits at once. Docker's own detached start keeps its HTTP connection open
    // until the process ends, which holds the host process for minutes after a run.
    const detach = o.detach ? ['sh', '-c', '"$@" </dev/null >>/tmp/pwp-detached.log 2>&1 &', 'pwp-detach'] : [];
    const ex = await this.container.exec({
      Cmd: [...detach, ...timeout, ...argv],
      User: o.user ?? 'pwp',
      WorkingDir: o.cwd ?? '/workspace',
      Env: Object.entries(o.env ?? {}).map(([k, v]) => `${k}=${v}`),
      AttachStdout: true,
      AttachStderr: true,
      Tty: false,
    });
    const stream = await ex.start({ hijack: true, stdin: false });
    const out = collector(o.maxOutputBytes ?? MAX_OUTPUT, o.onOutput && ((c) => o.onOutput!(c, 'stdout')));
    const err = collector(o.maxOutputBytes ?? MAX_OUTPUT, o.onOutput && ((c) => o.onOutput!(c, 'stderr')));
    this.docker.modem.demuxStream(stream, out.stream, err.stream);
    // The `timeout` wrapper ends the command; this only guards against a stuck stream.
    const guardMs = ((o.timeoutSec ?? 3600) + 30) * 1000;
    await new Promise<void>((resolve, reject) => {
      const guard = setTimeout(() => { stream.destroy(); reject(new Error(`${argv[0]} did not finish within ${guardMs / 1000} s`)); }, guardMs);
      stream.on('end', () => { clearTimeout(guard); resolve(); });
      stream.on('close', () => { clearTimeout(guard); resolve(); });
      stream.on('error', (e) => { clearTimeout(guard); reject(e); });
    });
    // The stream can end a moment before the engine records the exit code.
    let exitCode = -1;
    for (let i = 0; i < 50; i++) {
      const info = await ex.inspect();
      if (!info.Running && info.ExitCode !== null) { exitCode = info.ExitCode; break; }
      await new Promise((r) => setTimeout(r, 20));
    }
    return { exitCode, stdout: out.text(), stderr: err.text(), timedOut: timeout.length > 0 && exitCode === 124, durationMs: Date.now() - t0 };
  }

  async readFile(path: string, o: ReadOptions = {}): Promise<Buffer | undefined> {
    let stream: NodeJS.ReadableStream;
    try { stream = await this.container.getArchive({ path }); } catch (err) {
      if (notFound(err)) return undefined;
      throw err;
    }
    const files = await readTar(stream, 0, o.maxBytes);
    return files.get(path.split('/').filter(Boolean).pop() ?? '');
  }

  async readTree(dir: string, o: ReadOptions = {}): Promise<Map<string, Buffer> | undefined> {
    let stream: NodeJS.ReadableStream;
    try { stream = await this.container.getArchive({ path: dir }); } catch (err) {
      if (notFound(err)) return undefined;
      throw err;
    }
    return readTar(stream, 1, o.maxBytes);
  }

  async writeFiles(dir: string, files: readonly FileEntry[], o: WriteOptions = {}): Promise<void> {
    if (files.length === 0) return;
    await this.archiveIn(dir, tarOf(files, o.owner, o.dirMode, o.withDirs));
  }

  async archiveIn(dir: string, tar: NodeJS.ReadableStream | Buffer): Promise<void> {
    await this.container.putArchive(tar as unknown as NodeJS.ReadableStream, { path: dir });
  }

  archiveOut(path: string): Promise<NodeJS.ReadableStream> {
    return this.container.getArchive({ path });
  }
}
