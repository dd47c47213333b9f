// The Runtime of an environment through its bridge (runtime.* methods): what a host uses when
// it reaches only the bridge's URL and token, never the node's Docker API (a cluster's other
// node). Differences from the Docker engine's Runtime, which acts from outside the container:
// - files are written as one owner per archive (the bridge has no CAP_CHOWN), who must be able
//   to write where they go; an archive with several owners is refused;
// - onOutput sees a command's output when it has ended, not as it comes;
// - nothing can go into a container that has not started or is paused (its bridge is not running).
import { Readable } from 'node:stream';
import { LimitExceededError, RUNTIME_CHUNK_BYTES, RUNTIME_MAX_OUTPUT_BYTES } from '../../bridge/protocol';
import { BridgeClient } from '../client/bridgeClient';
import type { EnvironmentInfo } from './deployment';
import { IDE_USER, type FileEntry } from './fileEntry';
import type { ExecOptions, ExecResult, ReadOptions, Runtime, WriteOptions } from './runtime';
import { headerWatcher, readTar, tarOf, writeChunk } from './tarArchive';

export class BridgeRuntime implements Runtime {
  readonly worksWhilePaused = false;
  constructor(private readonly client: BridgeClient) {}

  async exec(argv: string[], o: ExecOptions = {}): Promise<ExecResult> {
    const r = await this.client.call('runtime.exec', {
      argv, user: o.user, cwd: o.cwd, env: o.env, timeoutSec: o.timeoutSec, detach: o.detach,
      maxOutputBytes: Math.min(o.maxOutputBytes ?? RUNTIME_MAX_OUTPUT_BYTES, RUNTIME_MAX_OUTPUT_BYTES),
    }, { timeoutMs: ((o.timeoutSec ?? 3600) + 30) * 1000 });
    if (o.onOutput) {
      if (r.stdout) o.onOutput(Buffer.from(r.stdout), 'stdout');
      if (r.stderr) o.onOutput(Buffer.from(r.stderr), 'stderr');
    }
    return { exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr, timedOut: r.timedOut, durationMs: r.durationMs };
  }

  async readFile(path: string, o: ReadOptions = {}): Promise<Buffer | undefined> {
    const r = await this.client.call('runtime.readFile', { path });
    const content = r.exists && r.content !== null ? Buffer.from(r.content, 'base64') : undefined;
    if (content && o.maxBytes !== undefined && content.length > o.maxBytes) throw new LimitExceededError(`${path} is larger than ${o.maxBytes} bytes`, { limit: 'bytes', max: o.maxBytes });
    return content;
  }

  async readTree(dir: string, o: ReadOptions = {}): Promise<Map<string, Buffer> | undefined> {
    const tar = await this.archive(dir);
    return tar ? readTar(tar, 1, o.maxBytes) : undefined;
  }

  async writeFiles(dir: string, files: readonly FileEntry[], o: WriteOptions = {}): Promise<void> {
    if (files.length === 0) return;
    await this.archiveIn(dir, tarOf(files, o.owner ?? IDE_USER, o.dirMode, o.withDirs));
  }

  /**
   * Sends the archive in chunks as it comes (never whole), noting its entries' owners on the
   * way; unpacked once all of it is there, and only when it has one owner.
   */
  async archiveIn(dir: string, tar: NodeJS.ReadableStream | Buffer): Promise<void> {
    const source = Buffer.isBuffer(tar) ? Readable.from([tar]) : tar;
    const owners = new Set<string>();
    const watch = headerWatcher((h) => owners.add(`${h.uid ?? 0}:${h.gid ?? 0}`));
    const { transfer } = await this.client.call('runtime.transferOpen', {});
    try {
      let pending: Buffer[] = [];
      let size = 0;
      let offset = 0;
      const send = async (part: Buffer) => {
        await this.client.call('runtime.transferWrite', { transfer, offset, data: part.toString('base64') });
        offset += part.length;
      };
      for await (const c of source as AsyncIterable<Buffer>) {
        await writeChunk(watch.input, c);
        pending.push(c);
        size += c.length;
        if (size < RUNTIME_CHUNK_BYTES) continue;
        let all = Buffer.concat(pending);
        for (; all.length >= RUNTIME_CHUNK_BYTES; all = all.subarray(RUNTIME_CHUNK_BYTES)) await send(all.subarray(0, RUNTIME_CHUNK_BYTES));
        pending = [all];
        size = all.length;
      }
      if (size) await send(Buffer.concat(pending));
      watch.input.end();
      await watch.done;
    } catch (err) {
      await this.client.call('runtime.transferClose', { transfer }).catch(() => undefined);
      throw err;
    }
    if (owners.size > 1) {
      await this.client.call('runtime.transferClose', { transfer }).catch(() => undefined);
      throw new Error(`the bridge unpacks an archive as one owner, and this one has ${owners.size} (${[...owners].join(', ')})`);
    }
    const [uid, gid] = (owners.values().next().value ?? `${IDE_USER.uid}:${IDE_USER.gid}`).split(':').map(Number);
    await this.client.call('runtime.archiveIn', { transfer, dir, owner: { uid, gid } });
  }

  async archiveOut(path: string): Promise<NodeJS.ReadableStream> {
    const out = await this.client.call('runtime.archiveOut', { path });
    if (!out.exists || !out.transfer) throw new Error(`${path}: no such file or folder in the environment`);
    return Readable.from(this.chunks(out.transfer, out.bytes === 0));
  }

  /** A transfer's chunks, read as they are wanted (the archive is never whole here); closed at the end or when the reader stops. */
  private async *chunks(transfer: string, empty: boolean): AsyncGenerator<Buffer> {
    try {
      for (let offset = 0, eof = empty; !eof;) {
        const r = await this.client.call('runtime.transferRead', { transfer, offset });
        const chunk = Buffer.from(r.data, 'base64');
        offset += chunk.length;
        eof = r.eof;
        if (chunk.length) yield chunk;
      }
    } finally {
      await this.client.call('runtime.transferClose', { transfer }).catch(() => undefined);
    }
  }

  /** The archive of `path` as a stream; undefined when nothing is there. */
  private async archive(path: string): Promise<NodeJS.ReadableStream | undefined> {
    const out = await this.client.call('runtime.archiveOut', { path });
    if (!out.exists || !out.transfer) return undefined;
    return Readable.from(this.chunks(out.transfer, out.bytes === 0));
  }
}

/**
 * The BridgeRuntimes a deployment hands out: one connection per environment, opened on first
 * use and opened again when it has closed (the bridge restarted), unreferenced so that a CLI
 * command that used one still exits when done.
 */
export class BridgeRuntimes {
  private readonly clients = new Map<string, Promise<BridgeClient>>();
  constructor(private readonly lookup: (id: string) => Promise<EnvironmentInfo>) {}

  async runtime(id: string): Promise<BridgeRuntime> {
    return new BridgeRuntime(await this.client(id));
  }

  private async client(id: string): Promise<BridgeClient> {
    const cached = this.clients.get(id);
    if (cached) {
      const c = await cached.catch(() => undefined);
      if (c && !c.closed) return c;
      if (this.clients.get(id) === cached) this.clients.delete(id);
      return this.client(id);
    }
    const opened = this.lookup(id).then(async (info) => {
      const c = await BridgeClient.connect(info.bridgeUrl, info.token, { retryForMs: 30_000 });
      c.unref();
      return c;
    });
    this.clients.set(id, opened);
    opened.catch(() => { if (this.clients.get(id) === opened) this.clients.delete(id); });
    return opened;
  }

  close(id: string): void {
    void this.clients.get(id)?.then((c) => c.close(), () => undefined);
    this.clients.delete(id);
  }

  closeAll(): void {
    for (const id of [...this.clients.keys()]) this.close(id);
  }
}
