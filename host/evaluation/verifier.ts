// The verifier: a container of the task's image without the IDE (entrypoint replaced, no
// network, CPU/memory/pid limits) that receives the agent's final workspace, the IDE state,
// the agent's answer and the hidden files, and in which every evaluator runs. Hidden files
// only ever enter this container. The task's own test infrastructure (testInfrastructure.ts)
// replaces the agent's versions before anything runs: the agent's copies are left out of the
// archive, the task's put back root-owned, the hidden files copied over the workspace last.
// Its main process runs as root with every capability dropped but SETUID and SETGID, which
// the test runner (isolatedRunner.ts) needs to start the tests as the IDE user; commands of
// the other evaluators run as the IDE user directly.
//
//   /workspace               the agent's final workspace, the task's test infrastructure, then hidden/workspace/** over it
//   /pwp/initial/workspace   the workspace right after set-up (what diff checks compare with)
//   /pwp/hidden              the task's hidden folder (root-owned, read-only to the tests)
//   /pwp/ide/state.json      the IDE state (ideState.ts)
//   /pwp/answer.txt          the agent's final answer
//   /pwp/runner              the test runner and its shims (root-owned)
//   /pwp/report              what the test runner kept of each run (root-owned)
//   /pwp/out                 scratch space for reports (writable by the IDE user)
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Readable } from 'node:stream';
import Docker from 'dockerode';
import { execIn, IDE_USER, packEntries, putFiles, readFileFrom, readTar, readTarEntries, readTreeFrom, ROOT, tarOf, type ExecOptions, type ExecResult, type FileEntry } from './dockerIo';
import type { IdeState } from './ideState';
import { runnerFiles } from './isolatedRunner';
import { findTampering, type TamperFinding } from './tamperCheck';
import { planRestore, type InfrastructureChange, type RestoreRules, type WorkspaceEntry } from './testInfrastructure';
import { ownerLabels } from '../deployment/ownedContainers';

export const VERIFIER_LABEL = 'pwp.verifier';

/** What evaluators run against: the verifier container (or, in unit tests, a local stand-in). */
export interface Sandbox {
  exec(argv: string[], opts?: ExecOptions): Promise<ExecResult>;
  readFile(path: string): Promise<Buffer | undefined>;
  /** Regular files under a folder by relative path; undefined when the folder does not exist. */
  readTree(dir: string): Promise<Map<string, Buffer> | undefined>;
  /** What loading found: the agent's changes to the test infrastructure, and tampering in its deliverable. */
  grading?: GradingContext;
}

export interface GradingContext { infrastructure: InfrastructureChange[]; findings: TamperFinding[] }

export interface VerifierInputs {
  /** Tar of the agent's final /workspace (entries under `workspace/`), from its container. */
  workspaceTar: Buffer;
  /** Tar of /workspace right after set-up, same form. */
  initialTar?: Buffer;
  hiddenDir?: string;
  /**
   * The task's copy of the workspace when no initialTar is given (the task's workspace folder);
   * with neither, the task's workspace was empty.
   */
  baselineDir?: string;
  /**
   * Which files are test infrastructure beyond the defaults, and which are the agent's.
   * Without rules (a task that runs no tests) the workspace is taken as it comes.
   */
  rules?: RestoreRules;
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
      User: 'root',
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
        // Root in here may only change its user (setpriv to the tests' user): no file
        // permission overrides, no ownership changes, no signals to other users.
        CapAdd: ['SETUID', 'SETGID'],
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

  grading?: GradingContext;

  /** Copies in everything the evaluators read; the task's test infrastructure, then the hidden workspace files, go last. */
  async load(inputs: VerifierInputs): Promise<void> {
    await putFiles(this.container, '/', [{ path: 'pwp/out/.keep', content: '' }], IDE_USER, 0o777);
    await putFiles(this.container, '/', [...runnerFiles(), { path: 'pwp/report/.keep', content: '' }], ROOT);
    const hidden = inputs.hiddenDir ? listHostFiles(inputs.hiddenDir) : [];
    const overlay = hidden.filter((f) => f.path.startsWith('workspace/')).map((f) => ({ ...f, path: f.path.slice('workspace/'.length) }));
    const baseline = !inputs.rules ? undefined : inputs.initialTar ? await readTar(Readable.from([inputs.initialTar]), 1)
      : inputs.baselineDir ? new Map(listHostFiles(inputs.baselineDir).map((f) => [f.path, Buffer.from(f.content)]))
        : new Map<string, Buffer>();
    await this.loadWorkspace(inputs.workspaceTar, baseline, new Set(overlay.map((f) => f.path)), inputs.rules);
    if (inputs.initialTar) {
      await putFiles(this.container, '/', [{ path: 'pwp/initial/.keep', content: '' }], ROOT);
      await this.container.putArchive(inputs.initialTar as unknown as NodeJS.ReadableStream, { path: '/pwp/initial' });
    }
    const meta: FileEntry[] = [
      { path: 'pwp/ide/state.json', content: JSON.stringify(inputs.ideState ?? null, null, 1) },
      { path: 'pwp/answer.txt', content: inputs.answer ?? '' },
    ];
    await putFiles(this.container, '/', meta, ROOT);
    if (hidden.length) {
      await putFiles(this.container, '/', hidden.map((f) => ({ ...f, path: `pwp/hidden/${f.path}` })), ROOT);
      // No folder entries: folders the agent made keep their owner; missing ones are created.
      if (overlay.length) await this.container.putArchive(tarOf(overlay, ROOT, 0o755, false) as unknown as NodeJS.ReadableStream, { path: '/workspace' });
    }
  }

  /**
   * The agent's workspace without its versions of the test infrastructure, then the task's
   * copies (root-owned). Hard links become plain files: nothing in the verifier shares an
   * inode with a file of the task.
   */
  private async loadWorkspace(tar: Buffer, baseline: Map<string, Buffer> | undefined, hidden: Set<string>, rules: RestoreRules | undefined): Promise<void> {
    // Files, folders and symlinks only: no devices or FIFOs of the agent's making.
    const entries = (await readTarEntries(tar)).filter((e) => ['file', 'link', 'symlink', 'directory'].includes(e.header.type));
    const byName = new Map(entries.filter((e) => e.header.type === 'file').map((e) => [e.header.name, e.content]));
    for (const e of entries) {
      if (e.header.type !== 'link') continue;
      const content = byName.get(e.header.linkname ?? '') ?? Buffer.alloc(0);
      e.header = { ...e.header, type: 'file', linkname: '', size: content.length };
      e.content = content;
    }
    const rel = (name: string) => name.replace(/^workspace\/?/, '').replace(/\/$/, '');
    if (!baseline) {
      this.grading = { infrastructure: [], findings: [] };
      await this.container.putArchive(packEntries(entries) as unknown as NodeJS.ReadableStream, { path: '/' });
      return;
    }
    const final: WorkspaceEntry[] = entries.filter((e) => rel(e.header.name)).map((e) => ({ path: rel(e.header.name), type: e.header.type, content: e.content }));
    const plan = planRestore(final, baseline, hidden, rules ?? { restore: [], agentFiles: [], commandFiles: [] });
    const kept = entries.filter((e) => !plan.drop.has(rel(e.header.name)));
    await this.container.putArchive(packEntries(kept) as unknown as NodeJS.ReadableStream, { path: '/' });
    const restore = [...plan.restore].map(([path, content]) => ({ path, content, mode: content.subarray(0, 2).toString() === '#!' ? 0o755 : 0o644 }));
    if (restore.length) await this.container.putArchive(tarOf(restore, ROOT, 0o755, false) as unknown as NodeJS.ReadableStream, { path: '/workspace' });
    const python = [...plan.deliverable.keys()].some((p) => p.endsWith('.py'));
    const findings = findTampering(plan.deliverable, baseline, { agentFiles: rules?.agentFiles, pythonModules: python ? await this.pythonModules() : undefined });
    this.grading = { infrastructure: plan.changes, findings };
  }

  /**
   * Top-level modules a pytest run of this image imports after the workspace goes on the path
   * (isolatedRunner.ts: everything `import pytest` loads comes before it and is safe), found
   * by a run with no workspace at all: a new workspace module of such a name would be
   * imported in its place. Names nothing imports then (`test`, `roman`, `code`) stay free
   * for the agent's own files.
   */
  private async pythonModules(): Promise<Set<string>> {
    const probe = 'import sys, pytest; first = {m.split(".")[0] for m in sys.modules}; '
      + 'pytest.main(["-q", "-p", "no:cacheprovider", "--junitxml=/dev/null", "--co", "/tmp/pwp-none"]); '
      + 'print("@@modules"); print(" ".join(sorted({m.split(".")[0] for m in sys.modules} - first)))';
    const r = await this.exec(['/usr/bin/python3', '-I', '-c', probe], { cwd: '/tmp', timeoutSec: 60 });
    const line = r.stdout.split('@@modules\n')[1] ?? '';
    return new Set(line.split(/\s+/).filter((n) => n && !n.startsWith('_')));
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
