// The Runtime of an environment through its bridge (runtime.* methods): what a host uses when
// it reaches only the bridge's URL and token, never the node's Docker API (a cluster's other
// node). Differences from the Docker engine's Runtime, which acts from outside the container:
// - files are written as one owner per archive (the bridge has no CAP_CHOWN), who must be able
//   to write where they go; an archive with several owners is refused;
// - onOutput sees a command's output when it has ended, not as it comes;
// - nothing can go into a container that has not started or is paused (its bridge is not running).
import { Readable } from 'node:stream';
import { RUNTIME_CHUNK_BYTES, RUNTIME_MAX_OUTPUT_BYTES } from '../../bridge/protocol';
import { BridgeClient } from '../client/bridgeClient';
import type { EnvironmentInfo } from './deployment';
import { IDE_USER, type FileEntry, type Owner } from './fileEntry';
import type { ExecOptions, ExecResult, Runtime, WriteOptions } from './runtime';
import { bufferOf, readTar, readTarEntries, tarOf } from './tarArchive';

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

  async readFile(path: string): Promise<Buffer | undefined> {
    const r = await this.client.call('runtime.readFile', { path });
    return r.exists && r.content !== null ? Buffer.from(r.content, 'base64') : undefined;
  }

  async readTree(dir: string): Promise<Map<string, Buffer> | undefined> {
    const tar = await this.archive(dir);
    return tar ? readTar(Readable.from([tar]), 1) : undefined;
  }

  async writeFiles(dir: string, files: readonly FileEntry[], o: WriteOptions = {}): Promise<void> {
    if (files.length === 0) return;
    await this.unpack(dir, await bufferOf(tarOf(files, o.owner, o.dirMode, o.withDirs)), o.owner ?? IDE_USER);
  }

  async archiveIn(dir: string, tar: NodeJS.ReadableStream | Buffer): Promise<void> {
    const bytes = Buffer.isBuffer(tar) ? tar : await bufferOf(tar);
    const owners = new Set((await readTarEntries(bytes)).map((e) => `${e.header.uid ?? 0}:${e.header.gid ?? 0}`));
    if (owners.size > 1) throw new Error(`the bridge unpacks an archive as one owner, and this one has ${owners.size} (${[...owners].join(', ')})`);
    const [uid, gid] = (owners.values().next().value ?? `${IDE_USER.uid}:${IDE_USER.gid}`).split(':').map(Number);
    await this.unpack(dir, bytes, { uid, gid });
  }

  async archiveOut(path: string): Promise<NodeJS.ReadableStream> {
    const tar = await this.archive(path);
    if (!tar) throw new Error(`${path}: no such file or folder in the environment`);
    return Readable.from([tar]);
  }

  /** The archive of `path`, read in chunks; undefined when nothing is there. */
  private async archive(path: string): Promise<Buffer | undefined> {
    const out = await this.client.call('runtime.archiveOut', { path });
    if (!out.exists || !out.transfer) return undefined;
    const chunks: Buffer[] = [];
    try {
      for (let offset = 0, eof = out.bytes === 0; !eof;) {
        const r = await this.client.call('runtime.transferRead', { transfer: out.transfer, offset });
        const chunk = Buffer.from(r.data, 'base64');
        chunks.push(chunk);
        offset += chunk.length;
        eof = r.eof;
      }
    } finally {
      await this.client.call('runtime.transferClose', { transfer: out.transfer }).catch(() => undefined);
    }
    return Buffer.concat(chunks);
  }

  private async unpack(dir: string, tar: Buffer, owner: Owner): Promise<void> {
    const { transfer } = await this.client.call('runtime.transferOpen', {});
    try {
      for (let offset = 0; offset < tar.length; offset += RUNTIME_CHUNK_BYTES) {
        await this.client.call('runtime.transferWrite', { transfer, offset, data: tar.subarray(offset, offset + RUNTIME_CHUNK_BYTES).toString('base64') });
      }
    } catch (err) {
      await this.client.call('runtime.transferClose', { transfer }).catch(() => undefined);
      throw err;
    }
    await this.client.call('runtime.archiveIn', { transfer, dir, owner });
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
