// The verifier: a container of the task's image without the IDE (entrypoint replaced, no
// network, CPU/memory/pid limits) that receives the agent's final workspace, the IDE state,
// the agent's answer and the hidden files, and in which every evaluator runs. Hidden files
// only ever enter this container, and they are copied over the workspace last, so a copy
// of a hidden test the agent planted is replaced by the real one.
//
//   /workspace               the agent's final workspace, then hidden/workspace/** over it
//   /pwp/initial/workspace   the workspace right after set-up (what diff checks compare with)
//   /pwp/hidden              the task's hidden folder (root-owned, read-only to the tests)
//   /pwp/ide/state.json      the IDE state (ideState.ts)
//   /pwp/answer.txt          the agent's final answer
//   /pwp/out                 scratch space for reports (writable by the IDE user)
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import Docker from 'dockerode';
import { execIn, IDE_USER, putFiles, readFileFrom, readTreeFrom, ROOT, tarOf, type ExecOptions, type ExecResult, type FileEntry } from './dockerIo';
import type { IdeState } from './ideState';
import { ownerLabels } from '../deployment/ownedContainers';

export const VERIFIER_LABEL = 'pwp.verifier';

/** What evaluators run against: the verifier container (or, in unit tests, a local stand-in). */
export interface Sandbox {
  exec(argv: string[], opts?: ExecOptions): Promise<ExecResult>;
  readFile(path: string): Promise<Buffer | undefined>;
  /** Regular files under a folder by relative path; undefined when the folder does not exist. */
  readTree(dir: string): Promise<Map<string, Buffer> | undefined>;
}

export interface VerifierInputs {
  /** Tar of the agent's final /workspace (entries under `workspace/`), from its container. */
  workspaceTar: Buffer;
  /** Tar of /workspace right after set-up, same form. */
  initialTar?: Buffer;
  hiddenDir?: string;
  ideState?: IdeState;
  answer?: string;
}

export interface VerifierOptions {
  docker?: Docker;
  image: string;
  cpus?: number;
  memoryMb?: number;
  labels?: Record<string, string>;
}

function listHostFiles(dir: string): FileEntry[] {
  const out: FileEntry[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) out.push({ path: relative(dir, p), content: readFileSync(p), mode: statSync(p).mode & 0o777 });
    }
  };
  walk(dir);
  return out;
}

export class Verifier implements Sandbox {
  private constructor(private readonly docker: Docker, readonly container: Docker.Container, readonly id: string) {}

  static async start(o: VerifierOptions): Promise<Verifier> {
    const docker = o.docker ?? new Docker();
    const id = randomBytes(4).toString('hex');
    const memory = (o.memoryMb ?? 1536) * 1024 * 1024;
    const container = await docker.createContainer({
      name: `pwp-verifier-${id}`,
      Image: o.image,
      Entrypoint: ['/usr/bin/tini', '--'],
      Cmd: ['sleep', 'infinity'],
      User: 'pwp',
      WorkingDir: '/workspace',
      Labels: { [VERIFIER_LABEL]: id, ...ownerLabels(), ...o.labels },
      NetworkDisabled: true,
      HostConfig: {
        NetworkMode: 'none',
        NanoCpus: Math.round((o.cpus ?? 1) * 1e9),
        Memory: memory,
        MemorySwap: memory,
        PidsLimit: 512,
        CapDrop: ['ALL'],
        SecurityOpt: ['no-new-privileges'],
        Privileged: false,
      },
    });
    try {
      await container.start();
    } catch (err) {
      await container.remove({ force: true }).catch(() => undefined);
      throw err;
    }
    return new Verifier(docker, container, id);
  }

  /** Copies in everything the evaluators read; the hidden workspace files go last. */
  async load(inputs: VerifierInputs): Promise<void> {
    await putFiles(this.container, '/', [{ path: 'pwp/out/.keep', content: '' }], IDE_USER, 0o777);
    await this.container.putArchive(inputs.workspaceTar as unknown as NodeJS.ReadableStream, { path: '/' });
    if (inputs.initialTar) {
      await putFiles(this.container, '/', [{ path: 'pwp/initial/.keep', content: '' }], ROOT);
      await this.container.putArchive(inputs.initialTar as unknown as NodeJS.ReadableStream, { path: '/pwp/initial' });
    }
    const meta: FileEntry[] = [
      { path: 'pwp/ide/state.json', content: JSON.stringify(inputs.ideState ?? null, null, 1) },
      { path: 'pwp/answer.txt', content: inputs.answer ?? '' },
    ];
    await putFiles(this.container, '/', meta, ROOT);
    if (inputs.hiddenDir) {
      const hidden = listHostFiles(inputs.hiddenDir);
      await putFiles(this.container, '/', hidden.map((f) => ({ ...f, path: `pwp/hidden/${f.path}` })), ROOT);
      const overlay = hidden.filter((f) => f.path.startsWith('workspace/')).map((f) => ({ ...f, path: f.path.slice('workspace/'.length) }));
      // No folder entries: folders the agent made keep their owner; missing ones are created.
      if (overlay.length) await this.container.putArchive(tarOf(overlay, ROOT, 0o755, false) as unknown as NodeJS.ReadableStream, { path: '/workspace' });
    }
  }

  exec(argv: string[], opts: ExecOptions = {}): Promise<ExecResult> {
    return execIn(this.docker, this.container, argv, opts);
  }

  readFile(path: string): Promise<Buffer | undefined> {
    return readFileFrom(this.container, path);
  }

  readTree(dir: string): Promise<Map<string, Buffer> | undefined> {
    return readTreeFrom(this.container, dir);
  }

  async remove(): Promise<void> {
    await this.container.remove({ force: true, v: true }).catch(() => undefined);
  }
}
