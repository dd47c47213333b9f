// The one place tar archives are built and read: files into a tar for a runtime's archiveIn,
// a runtime's archiveOut back into files or entries. What an agent wrote goes through here as
// streams with bounds: spooled to a host file with an index of digests (spoolArchive), read back
// entry by entry (spooledEntries, readSpooled), packed from streams (packStream, packRuns);
// only the small helpers (readTar, readTarEntries, bufferOf) hold a whole archive.
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, rmSync } from 'node:fs';
import { once } from 'node:events';
import { PassThrough, Readable } from 'node:stream';
import { finished, pipeline } from 'node:stream/promises';
import { pack as packFolder } from 'tar-fs';
import { extract, pack, type Header, type Pack } from 'tar-stream';
import { LimitExceededError } from '../../bridge/protocol';
import { IDE_USER, type FileEntry, type Owner } from './fileEntry';

export type { Header };

/** An entry of a tar archive to write: its header (name required), and its content for a regular file. */
export interface TarEntry { header: Partial<Header> & Pick<Header, 'name'>; content: Buffer }

/**
 * Tar entries of files (paths relative to the extraction point, after `prefix`) owned by
 * `owner`, with entries for their folders unless `withDirs` is false (then existing folders
 * keep their owner and missing ones are created by the engine).
 */
export function fileEntries(files: readonly FileEntry[], owner: Owner = IDE_USER, o: { dirMode?: number; withDirs?: boolean; prefix?: string } = {}): TarEntry[] {
  const out: TarEntry[] = [];
  const dirs = new Set<string>();
  for (const f of files) {
    const parts = [...(o.prefix ?? '').split('/'), ...f.path.split('/')].filter(Boolean);
    for (let i = 1; (o.withDirs ?? true) && i < parts.length; i++) {
      const d = parts.slice(0, i).join('/');
      if (!dirs.has(d)) { dirs.add(d); out.push({ header: { name: `${d}/`, type: 'directory', mode: o.dirMode ?? 0o755, ...owner }, content: Buffer.alloc(0) }); }
    }
    const content = typeof f.content === 'string' ? Buffer.from(f.content) : f.content;
    out.push({ header: { name: parts.join('/'), mode: f.mode ?? 0o644, ...owner }, content });
  }
  return out;
}

/** A tar of files: fileEntries packed. */
export function tarOf(files: readonly FileEntry[], owner: Owner = IDE_USER, dirMode = 0o755, withDirs = true): Readable {
  return packEntries(fileEntries(files, owner, { dirMode, withDirs }));
}

/**
 * The whole stream in memory, or, past `maxBytes`, a LimitExceededError with the stream
 * destroyed: what an agent wrote is never read past the bound its task sets.
 */
export async function bufferOf(tar: NodeJS.ReadableStream, maxBytes = Infinity): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const c of tar as AsyncIterable<Buffer>) {
    bytes += c.length;
    if (bytes > maxBytes) {
      (tar as Readable).destroy?.();
      throw new LimitExceededError(`archive larger than ${maxBytes} bytes`, { limit: 'bytes', max: maxBytes });
    }
    chunks.push(c);
  }
  return Buffer.concat(chunks);
}

/** tarOf for a map of path -> content. */
export function tarOfFiles(files: Record<string, string | Buffer>, owner: Owner = IDE_USER, mode = 0o644): Readable {
  return tarOf(Object.entries(files).map(([path, content]) => ({ path, content, mode })), owner);
}

/**
 * Reads a tar stream into a map of regular files (paths relative to the archive root, minus
 * `strip` leading parts); past `maxBytes` of file content, a LimitExceededError with the stream
 * destroyed.
 */
export function readTar(stream: NodeJS.ReadableStream, strip = 0, maxBytes = Infinity): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    const files = new Map<string, Buffer>();
    const ex = extract();
    let bytes = 0;
    ex.on('entry', (header, body, next) => {
      const chunks: Buffer[] = [];
      body.on('data', (c: unknown) => {
        bytes += (c as Buffer).length;
        if (bytes > maxBytes) {
          const err = new LimitExceededError(`files larger than ${maxBytes} bytes`, { limit: 'bytes', max: maxBytes });
          (stream as Readable).destroy?.();
          ex.destroy(err);
          reject(err);
          return;
        }
        chunks.push(c as Buffer);
      });
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
export function readTarEntries(tar: Buffer | NodeJS.ReadableStream): Promise<{ header: Header; content: Buffer }[]> {
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
    (Buffer.isBuffer(tar) ? Readable.from([tar]) : tar).pipe(ex);
  });
}

/** A tar of entries as readTarEntries gives them. */
export function packEntries(entries: readonly TarEntry[]): Readable {
  const tar = pack();
  for (const e of entries) {
    if (e.header.type === 'file' || e.header.type === undefined) tar.entry(e.header, e.content);
    else tar.entry({ ...e.header, size: 0 });
  }
  tar.finalize();
  return tar as unknown as Readable;
}

/**
 * Entry `name` of a tar stream (read to the end, other contents skipped), or undefined; its
 * content only with `withContent`, and only when it has at most `maxBytes`.
 */
export function tarEntry(tar: NodeJS.ReadableStream, name: string, withContent = false, maxBytes = Infinity): Promise<{ header: Header; content?: Buffer } | undefined> {
  return new Promise((resolve, reject) => {
    let found: { header: Header; content?: Buffer } | undefined;
    const ex = extract();
    ex.on('entry', (h, body, next) => {
      const chunks: Buffer[] = [];
      if (h.name === name) {
        found = { header: h };
        if (withContent && (h.size ?? 0) <= maxBytes) body.on('data', (c: unknown) => { chunks.push(c as Buffer); });
      }
      body.on('end', () => { if (found?.header === h && withContent) found.content = Buffer.concat(chunks); next(); });
      body.resume();
    });
    ex.on('finish', () => resolve(found));
    ex.on('error', reject);
    tar.pipe(ex);
  });
}

/**
 * The entries of a tar stream for which `keep` says yes, as a new tar stream, streaming (the
 * archive is never held whole); `entries()` counts the kept ones once the output has ended.
 */
export function filterTar(source: NodeJS.ReadableStream, keep: (header: Header) => boolean): { tar: Readable; entries: () => number } {
  const ex = extract();
  const out = pack();
  let entries = 0;
  ex.on('entry', (header, body, next) => {
    if (!keep(header)) { body.on('end', next); body.resume(); return; }
    entries++;
    body.pipe(out.entry(header, (err) => next(err ?? undefined)));
  });
  ex.on('finish', () => out.finalize());
  ex.on('error', (err) => out.destroy(err));
  source.on('error', (err: Error) => out.destroy(err));
  source.pipe(ex);
  return { tar: out as unknown as Readable, entries: () => entries };
}

/** A tar of a host folder's contents, every entry owned by `owner` (the IDE's user unless given), names under `prefix` when given. */
export function tarOfFolder(dir: string, owner: Owner = IDE_USER, prefix?: string): Readable {
  const names = owner.uid === 0 ? { uname: 'root', gname: 'root' } : { uname: 'pwp', gname: 'pwp' };
  return packFolder(dir, { map: (h) => ({ ...h, uid: owner.uid, gid: owner.gid, ...names, ...(prefix ? { name: `${prefix}/${h.name}` } : {}) }) }) as unknown as Readable;
}

/** An entry of a spooled archive, as indexed while it was written: its header and, for a regular file, its digest and first bytes. */
export interface IndexedEntry { header: Header; digest?: string; head?: Buffer }

/**
 * A tar archive in a host file with its index: what grading plans with (which files changed,
 * which are compiled) without holding the archive. The index costs a header and a digest per
 * entry, whatever the files hold.
 */
export interface SpooledArchive { file: string; entries: IndexedEntry[]; bytes: number }

/** Bytes of each file kept in the index: magic numbers, and a PE header's offset and signature. */
const HEAD_BYTES = 8;
const PE_HEAD_BYTES = 1024;

async function write(w: NodeJS.WritableStream, chunk: Buffer): Promise<void> {
  if (!w.write(chunk)) await once(w as unknown as NodeJS.EventEmitter, 'drain');
}

/**
 * Writes a tar stream to `file` (nowhere for '') and indexes it as it passes; past `maxBytes`,
 * a LimitExceededError, the stream destroyed and the file removed. The archive is never in memory.
 */
export async function spoolArchive(source: NodeJS.ReadableStream, file: string, o: { maxBytes?: number } = {}): Promise<SpooledArchive> {
  const max = o.maxBytes ?? Infinity;
  const out: NodeJS.WritableStream = file ? createWriteStream(file, { mode: 0o600 }) : new PassThrough().resume();
  const ex = extract();
  const entries: IndexedEntry[] = [];
  ex.on('entry', (header, body, next) => {
    const hash = header.type === 'file' ? createHash('sha256') : undefined;
    const head: Buffer[] = [];
    let kept = 0;
    body.on('data', (d: unknown) => {
      const c = d as Buffer;
      if (!hash) return;
      hash.update(c);
      if (kept < PE_HEAD_BYTES) { head.push(c.subarray(0, PE_HEAD_BYTES - kept)); kept += Math.min(c.length, PE_HEAD_BYTES - kept); }
    });
    body.on('end', () => {
      const first = Buffer.concat(head);
      const keep = first.subarray(0, 2).toString('latin1') === 'MZ' ? first : Buffer.from(first.subarray(0, HEAD_BYTES));
      entries.push(hash ? { header, digest: hash.digest('hex'), head: keep } : { header });
      next();
    });
    body.resume();
  });
  const indexed = new Promise<void>((resolve, reject) => { ex.on('finish', resolve); ex.on('error', reject); });
  indexed.catch(() => undefined);
  let bytes = 0;
  try {
    for await (const chunk of source as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      if (bytes > max) {
        (source as Readable).destroy?.();
        throw new LimitExceededError(`archive larger than ${max} bytes`, { limit: 'bytes', max });
      }
      await Promise.all([write(out, chunk), write(ex as unknown as NodeJS.WritableStream, chunk)]);
    }
    (ex as unknown as NodeJS.WritableStream).end();
    out.end();
    await Promise.all([indexed, finished(out)]);
  } catch (err) {
    ex.destroy();
    (out as unknown as Readable).destroy();
    if (file) rmSync(file, { force: true });
    throw err;
  }
  return { file, entries, bytes };
}

/** The index of a tar stream (as spoolArchive makes it), the stream itself kept nowhere. */
export async function indexArchive(source: NodeJS.ReadableStream, o: { maxBytes?: number } = {}): Promise<IndexedEntry[]> {
  return (await spoolArchive(source, '', o)).entries;
}

/**
 * One digest of an archive's content as indexed: each entry's name, type, mode, owner, link
 * target and (a file's) content digest, in name order, times left out: two captures of the same
 * files at other times digest alike.
 */
export function contentDigest(entries: readonly IndexedEntry[]): string {
  const h = createHash('sha256');
  for (const { header: x, digest } of [...entries].sort((a, b) => (a.header.name < b.header.name ? -1 : a.header.name > b.header.name ? 1 : 0))) {
    h.update(JSON.stringify([x.name, x.type, x.mode, x.uid, x.gid, x.linkname ?? null, digest ?? null])).update('\n');
  }
  return h.digest('hex');
}

/**
 * The entries of a tar file, one at a time, each with its content as a stream that must be
 * read (or is drained) before the next comes: a file of any size passes in bounded memory.
 */
export async function* spooledEntries(file: string): AsyncGenerator<{ header: Header; body: Readable }> {
  const ex = extract();
  const source = createReadStream(file);
  source.on('error', (err) => ex.destroy(err));
  source.pipe(ex as unknown as NodeJS.WritableStream);
  try {
    for await (const body of ex as unknown as AsyncIterable<Readable & { header: Header }>) {
      yield { header: body.header, body };
      if (!body.readableEnded) {
        body.resume();
        await finished(body).catch(() => undefined);
      }
    }
  } finally {
    // A reader that stops early (an archive that failed to go in) leaves no file open.
    source.destroy();
  }
}

/** The contents of the regular files of a tar file for which `want` says yes, by entry name; files larger than `maxEach` are left out. */
export async function readSpooled(file: string, want: (name: string) => boolean, maxEach = Infinity): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  for await (const { header, body } of spooledEntries(file)) {
    if (header.type !== 'file' || !want(header.name) || (header.size ?? 0) > maxEach) continue;
    const chunks: Buffer[] = [];
    for await (const c of body) chunks.push(c as Buffer);
    out.set(header.name, Buffer.concat(chunks));
  }
  return out;
}

/** An entry to pack: its header (with the size of a streamed body) and its content, in memory or as a stream. */
export interface PackEntry { header: Partial<Header> & Pick<Header, 'name'>; body?: Buffer | NodeJS.ReadableStream }

async function addEntry(p: Pack, e: PackEntry): Promise<void> {
  const isFile = e.header.type === 'file' || e.header.type === undefined;
  if (!isFile || e.body === undefined || Buffer.isBuffer(e.body)) {
    const content = isFile ? (e.body as Buffer | undefined) ?? Buffer.alloc(0) : undefined;
    await new Promise<void>((resolve, reject) => {
      const done = (err?: Error | null) => (err ? reject(err) : resolve());
      if (content) p.entry({ ...e.header, size: content.length }, content, done);
      else p.entry({ ...e.header, size: 0 }, done);
    });
    return;
  }
  const body = e.body;
  await new Promise<void>((resolve, reject) => {
    const sink = p.entry(e.header, (err) => (err ? reject(err) : resolve()));
    pipeline(body, sink as unknown as NodeJS.WritableStream).catch(reject);
  });
}

/** A tar of entries that come one at a time (bodies streamed in order): never the whole archive in memory. */
export function packStream(entries: Iterable<PackEntry> | AsyncIterable<PackEntry>): Readable {
  const p = pack();
  void (async () => {
    for await (const e of entries) await addEntry(p, e);
    p.finalize();
  })().catch((err: Error) => p.destroy(err));
  return p as unknown as Readable;
}

/**
 * Packs entries into one archive per run of consecutive entries with the same `key` (their
 * owner, for a runtime that unpacks an archive as one owner), each handed to `sink` and
 * finished before the next starts.
 */
export async function packRuns(
  entries: Iterable<PackEntry> | AsyncIterable<PackEntry>, key: (e: PackEntry) => string, sink: (tar: Readable) => Promise<void>,
): Promise<void> {
  let run: { key: string; pack: Pack; done: Promise<void> } | undefined;
  const close = async () => {
    if (!run) return;
    run.pack.finalize();
    await run.done;
    run = undefined;
  };
  for await (const e of entries) {
    if (run && run.key !== key(e)) await close();
    if (!run) {
      const p = pack();
      run = { key: key(e), pack: p, done: sink(p as unknown as Readable) };
      run.done.catch(() => undefined);
    }
    const current = run;
    // A sink that fails stops the run at once rather than leaving an entry waiting on it.
    await Promise.race([addEntry(current.pack, e), current.done.then(() => new Promise<never>(() => undefined))]);
  }
  await close();
}

/**
 * Watches a tar stream's headers as it passes (the stream's bytes are written to it by the
 * caller); `done` resolves once the archive has ended.
 */
export function headerWatcher(onHeader: (h: Header) => void): { input: NodeJS.WritableStream; done: Promise<void> } {
  const ex = extract();
  ex.on('entry', (header, body, next) => { onHeader(header); body.on('end', next); body.resume(); });
  const done = new Promise<void>((resolve, reject) => { ex.on('finish', resolve); ex.on('error', reject); });
  done.catch(() => undefined);
  return { input: ex as unknown as NodeJS.WritableStream, done };
}

/** Writes a chunk to a stream, waiting while it is full. */
export { write as writeChunk };
