// The one place tar archives are built and read: files into a tar for a runtime's archiveIn,
// a runtime's archiveOut back into files or entries.
import { Readable } from 'node:stream';
import { pack as packFolder } from 'tar-fs';
import { extract, pack, type Header } from 'tar-stream';
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

/** A whole tar stream in memory. */
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
 * content only with `withContent`.
 */
export function tarEntry(tar: NodeJS.ReadableStream, name: string, withContent = false): Promise<{ header: Header; content?: Buffer } | undefined> {
  return new Promise((resolve, reject) => {
    let found: { header: Header; content?: Buffer } | undefined;
    const ex = extract();
    ex.on('entry', (h, body, next) => {
      const chunks: Buffer[] = [];
      if (h.name === name) {
        found = { header: h };
        if (withContent) body.on('data', (c: unknown) => { chunks.push(c as Buffer); });
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

/** A tar of a host folder's contents, every entry owned by `owner` (the IDE's user unless given). */
export function tarOfFolder(dir: string, owner: Owner = IDE_USER): Readable {
  const names = owner.uid === 0 ? { uname: 'root', gname: 'root' } : { uname: 'pwp', gname: 'pwp' };
  return packFolder(dir, { map: (h) => ({ ...h, uid: owner.uid, gid: owner.gid, ...names }) }) as unknown as Readable;
}
