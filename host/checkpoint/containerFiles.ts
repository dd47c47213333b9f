// Files in and out of an environment's container as tar streams (Docker's archive API),
// and the few commands a restore runs in it. No `docker` CLI, no shell on the host.
import { createReadStream, createWriteStream } from 'node:fs';
import { PassThrough } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type Docker from 'dockerode';
import { extract, pack } from 'tar-stream';

export interface ExecResult { exitCode: number; stdout: string; stderr: string }

/** Runs argv in the container as the IDE's user (never through a host shell). */
export async function execIn(docker: Docker, container: Docker.Container, argv: string[], user = 'pwp'): Promise<ExecResult> {
  const ex = await container.exec({ Cmd: argv, User: user, AttachStdout: true, AttachStderr: true, Tty: false });
  const stream = await ex.start({ hijack: true, stdin: false });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  const o = new PassThrough().on('data', (c: Buffer) => out.push(c));
  const e = new PassThrough().on('data', (c: Buffer) => err.push(c));
  docker.modem.demuxStream(stream, o, e);
  await new Promise<void>((resolve, reject) => {
    stream.on('end', resolve);
    stream.on('close', resolve);
    stream.on('error', reject);
  });
  const info = await ex.inspect();
  return { exitCode: info.ExitCode ?? -1, stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString() };
}

/**
 * Saves `path` from the container as a tar file, leaving out entries for which `keep` says
 * no (names are relative to the parent of `path`, e.g. `user-data/logs/…`).
 */
export async function saveArchive(container: Docker.Container, path: string, file: string, keep: (name: string) => boolean = () => true): Promise<{ bytes: number; entries: number }> {
  const source = await container.getArchive({ path });
  const ex = extract();
  const out = pack();
  let entries = 0;
  ex.on('entry', (header, body, next) => {
    if (!keep(header.name)) { body.on('end', next); body.resume(); return; }
    entries++;
    body.pipe(out.entry(header, (err) => next(err ?? undefined)));
  });
  ex.on('finish', () => out.finalize());
  let bytes = 0;
  const counter = new PassThrough().on('data', (c: Buffer) => { bytes += c.length; });
  await Promise.all([
    pipeline(source, ex),
    pipeline(out, counter, createWriteStream(file)),
  ]);
  return { bytes, entries };
}

/** Unpacks a tar file into `dir` in the container (running or not yet started). */
export async function loadArchive(container: Docker.Container, file: string, dir: string): Promise<void> {
  await container.putArchive(createReadStream(file) as unknown as NodeJS.ReadableStream, { path: dir });
}

/** A tar of in-memory files (path relative to the unpack folder -> content), owned by the IDE's user unless `uid` says otherwise. */
export function tarOfFiles(files: Record<string, string | Buffer>, mode = 0o644, uid = 1000): NodeJS.ReadableStream {
  const p = pack();
  const dirs = new Set<string>();
  for (const [name, content] of Object.entries(files)) {
    const parts = name.split('/').slice(0, -1);
    for (let i = 1; i <= parts.length; i++) {
      const d = parts.slice(0, i).join('/');
      if (!dirs.has(d)) { dirs.add(d); p.entry({ name: `${d}/`, type: 'directory', mode: 0o755, uid, gid: uid }); }
    }
    p.entry({ name, mode, uid, gid: uid }, typeof content === 'string' ? Buffer.from(content) : content);
  }
  p.finalize();
  return p as unknown as NodeJS.ReadableStream;
}
