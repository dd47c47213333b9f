// One build of an image at a time per Docker engine, across pwp processes (two CI runs, a bench
// beside `pwp run`): the engine's classic builder shares nothing between concurrent builds of
// the same Dockerfile, so a second build would redo every step (minutes of CPU for a
// toolchain). The lock is a lock folder (proper-lockfile) in the system's temporary folder,
// named by the engine's id and the image's tag. Its holder refreshes it; one that dies, even by
// SIGKILL, leaves a lock that goes stale and is taken over. The lock only saves work: where it
// cannot be taken (a folder another user owns), the build goes ahead without it.
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type Docker from 'dockerode';
import lockfile from 'proper-lockfile';

export interface BuildLockOptions {
  /** A lock not refreshed for this long is its dead holder's (default 30 s; the holder refreshes it every half of that). */
  staleMs?: number;
  /** How often a waiting process tries again (default 2 s). */
  pollMs?: number;
  /** The folder of the lock files (default <tmp>/pwp-image-builds). */
  dir?: string;
}

/** The lock file's path for an image on an engine. */
export function buildLockPath(engineId: string, image: string, dir = join(tmpdir(), 'pwp-image-builds')): string {
  return join(dir, createHash('sha256').update(`${engineId}\0${image}`).digest('hex').slice(0, 24));
}

/** The engine's id (unique per engine, so two engines never share a lock), or its address where it gives none. */
export async function engineId(docker: Docker): Promise<string> {
  const info = await docker.info().catch(() => undefined) as { ID?: string } | undefined;
  const modem = docker.modem as { socketPath?: string; host?: string; port?: number };
  return info?.ID || `${modem.socketPath ?? `${modem.host}:${modem.port}`}`;
}

/**
 * Runs `build` holding the lock for `image` on the engine `engineId`, after any other process
 * holding it has finished (a line says it waits). `build` checks again whether the image exists:
 * the process it waited for has usually just built it.
 */
export async function withBuildLock<T>(engineId: string, image: string, progress: (line: string) => void, build: () => Promise<T>, o: BuildLockOptions = {}): Promise<T> {
  const dir = o.dir ?? join(tmpdir(), 'pwp-image-builds');
  const file = buildLockPath(engineId, image, dir);
  let release: (() => Promise<void>) | undefined;
  let waiting = false;
  try {
    mkdirSync(dir, { recursive: true });
    // Sticky and writable by all, as /tmp is: another user's pwp on the same engine shares it.
    try { chmodSync(dir, 0o1777); } catch { /* another user's folder: it already has its mode */ }
    for (;;) {
      try {
        release = await lockfile.lock(file, {
          realpath: false,
          stale: o.staleMs ?? 30_000,
          // Lost only when its refresh stalled past staleMs: another process may build too, which costs work, not correctness.
          onCompromised: (e) => progress(`the build lock of ${image} was taken over (${e.message}); building on`),
        });
        break;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ELOCKED') throw e;
        if (!waiting) progress(`another pwp process is building ${image}; waiting for it`);
        waiting = true;
        await sleep(o.pollMs ?? 2_000);
      }
    }
  } catch (e) {
    progress(`building ${image} without the build lock (${(e as Error).message})`);
  }
  try {
    return await build();
  } finally {
    await release?.().catch(() => undefined);
  }
}
