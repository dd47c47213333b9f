// A checkpoint's archives in and out of an environment through its Runtime: saved to tar
// files on the host (leaving out what a checkpoint does not keep) and unpacked back.
import { createReadStream, createWriteStream } from 'node:fs';
import { PassThrough } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Runtime } from '../deployment/runtime';
import { filterTar } from '../deployment/tarArchive';

/**
 * Saves `path` from the environment as a tar file, leaving out entries for which `keep` says
 * no (names are relative to the parent of `path`, e.g. `user-data/logs/…`).
 */
export async function saveArchive(runtime: Runtime, path: string, file: string, keep: (name: string) => boolean = () => true): Promise<{ bytes: number; entries: number }> {
  const filtered = filterTar(await runtime.archiveOut(path), (h) => keep(h.name));
  let bytes = 0;
  const counter = new PassThrough().on('data', (c: Buffer) => { bytes += c.length; });
  await pipeline(filtered.tar, counter, createWriteStream(file));
  return { bytes, entries: filtered.entries() };
}

/** Unpacks a tar file into `dir` in the environment (running or not yet started). */
export async function loadArchive(runtime: Runtime, file: string, dir: string): Promise<void> {
  await runtime.archiveIn(dir, createReadStream(file));
}
