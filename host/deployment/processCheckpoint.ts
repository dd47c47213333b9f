// Process checkpoints of a Docker environment (CRIU through the engine's experimental API):
// whether the host can take them, taking one, and restarting a container from one.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type Docker from 'dockerode';

/** Whether process checkpoints (CRIU via Docker) can run on this host, and if not, why. */
export async function criuSupport(docker: Docker): Promise<{ supported: boolean; reason: string }> {
  const problems: string[] = [];
  const info = await docker.info() as { ExperimentalBuild?: boolean };
  if (!info.ExperimentalBuild) problems.push('the Docker daemon runs without experimental features ("experimental": true in daemon.json)');
  try {
    await promisify(execFile)('criu', ['check'], { timeout: 20_000 });
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { stderr?: string };
    const why = (e.stderr ?? e.message).trim().split('\n').slice(-2).join(' ').replace(/\.+$/, '');
    problems.push(e.code === 'ENOENT' ? 'criu is not installed' : `'criu check' fails on this kernel: ${why}`);
  }
  return problems.length
    ? { supported: false, reason: `process checkpoints (CRIU) are not available on this host: ${problems.join('; ')}. File checkpoints (without --criu) work.` }
    : { supported: true, reason: 'Docker experimental mode and criu are available' };
}

/** Checkpoints the container's processes under `name`, leaving them running. */
export async function createProcessCheckpoint(container: Docker.Container, name: string): Promise<void> {
  await (container as unknown as { createCheckpoint(o: object): Promise<unknown> }).createCheckpoint({ CheckpointID: name, Exit: false });
}

/** Stops the container and starts it again from process checkpoint `name`. */
export async function restartFromProcessCheckpoint(container: Docker.Container, name: string): Promise<void> {
  await container.stop({ t: 5 });
  await container.start({ _query: { checkpoint: name } } as object);
}
