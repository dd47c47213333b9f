// Archives on their way in or out of the environment, staged as files in the bridge's own
// run folder (root's, mode 0700: the IDE user cannot read or swap them). Chunked reads and
// in-order appends keep every message under the protocol's size limit.
import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readSync, rmSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { InvalidParamsError, LimitExceededError, NotAvailableError } from '../protocol';

/** Transfers open at once, and the largest staged archive. */
const MAX_OPEN = 16;
const MAX_BYTES = 4 * 1024 ** 3;
/** A transfer nobody touched for this long is dropped (its caller died or forgot it). */
const IDLE_MS = 10 * 60_000;

interface Transfer { path: string; bytes: number; usedAt: number }

export class Transfers {
  private readonly open = new Map<string, Transfer>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly dir: string) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    this.sweeper = setInterval(() => this.sweep(), 60_000).unref();
  }

  /** A new empty transfer and its file's path (for a process to write the archive into). */
  create(): { id: string; path: string } {
    this.sweep();
    if (this.open.size >= MAX_OPEN) throw new LimitExceededError(`${MAX_OPEN} transfers are open; close some with runtime.transferClose`, { limit: 'transfers', max: MAX_OPEN });
    const id = `t${randomBytes(8).toString('hex')}`;
    const path = join(this.dir, id);
    closeSync(openSync(path, 'wx', 0o600));
    this.open.set(id, { path, bytes: 0, usedAt: Date.now() });
    return { id, path };
  }

  /** Records the size of a transfer whose file a process has written. */
  sealed(id: string): number {
    const t = this.get(id);
    t.bytes = statSync(t.path).size;
    return t.bytes;
  }

  read(id: string, offset: number, length: number): { data: Buffer; eof: boolean } {
    const t = this.get(id);
    if (offset > t.bytes) throw new InvalidParamsError(`offset ${offset} is past the transfer's end (${t.bytes} bytes)`, { field: 'offset' });
    const data = Buffer.alloc(Math.min(length, t.bytes - offset));
    const fd = openSync(t.path, 'r');
    try { readSync(fd, data, 0, data.length, offset); } finally { closeSync(fd); }
    return { data, eof: offset + data.length >= t.bytes };
  }

  append(id: string, offset: number, data: Buffer): number {
    const t = this.get(id);
    if (offset !== t.bytes) throw new InvalidParamsError(`offset ${offset} is not the transfer's size (${t.bytes}): chunks go in order`, { field: 'offset' });
    if (t.bytes + data.length > MAX_BYTES) throw new LimitExceededError(`a transfer holds at most ${MAX_BYTES} bytes`, { limit: 'transferBytes', max: MAX_BYTES });
    const fd = openSync(t.path, 'a');
    try { writeSync(fd, data); } finally { closeSync(fd); }
    t.bytes += data.length;
    return t.bytes;
  }

  /** The staged file of a transfer (for a process to read the archive from). */
  path(id: string): string { return this.get(id).path; }

  close(id: string): void {
    const t = this.open.get(id);
    this.open.delete(id);
    if (t) rmSync(t.path, { force: true });
  }

  dispose(): void {
    clearInterval(this.sweeper);
    for (const id of [...this.open.keys()]) this.close(id);
  }

  private get(id: string): Transfer {
    const t = this.open.get(id);
    if (!t) throw new NotAvailableError(`no open transfer '${id}' (closed, used by runtime.archiveIn, or idle for ${IDLE_MS / 60_000} minutes)`);
    t.usedAt = Date.now();
    return t;
  }

  private sweep(): void {
    const before = Date.now() - IDLE_MS;
    for (const [id, t] of this.open) if (t.usedAt < before) this.close(id);
  }
}
