// The verifier: a container of the task's image without the IDE (entrypoint replaced, no
// network, CPU/memory/pid limits: host/deployment/verifierContainer.ts) that receives the agent's final workspace, the IDE state,
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
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Readable } from 'node:stream';
import { createDeployment } from '../deployment/backends';
import type { Deployment } from '../deployment/deployment';
import { ROOT, type ExecOptions, type ExecResult, type FileEntry, type Runtime } from '../deployment/runtime';
import { packEntries, readTar, readTarEntries } from '../deployment/tarArchive';
import type { VerifierContainer } from '../deployment/verifierContainer';
import type { IdeState } from './ideState';
import { runnerFiles, SCRATCH_DIR } from './isolatedRunner';
import { findTampering, type TamperFinding } from './tamperCheck';
import { planRestore, type InfrastructureChange, type RestoreRules, type WorkspaceEntry } from './testInfrastructure';

export { VERIFIER_LABEL } from '../deployment/verifierContainer';

/** What evaluators run against: the verifier container's runtime (or, in unit tests, a local stand-in). */
export interface Sandbox extends Pick<Runtime, 'exec' | 'readFile' | 'readTree'> {
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
  /** Where the verifier container runs; a local Docker deployment unless given. */
  deployment?: Deployment;
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
  private readonly runtime: Runtime;
  readonly id: string;

  private constructor(private readonly container: VerifierContainer) {
    this.runtime = container.runtime;
    this.id = container.id;
  }

  static async start(o: VerifierOptions): Promise<Verifier> {
    const deployment = o.deployment ?? createDeployment();
    return new Verifier(await deployment.startVerifier({ image: o.image, cpus: o.cpus, memoryMb: o.memoryMb, labels: o.labels }));
  }

  grading?: GradingContext;

  /** Copies in everything the evaluators read; the task's test infrastructure, then the hidden workspace files, go last. */
  async load(inputs: VerifierInputs): Promise<void> {
    await this.runtime.writeFiles('/', [...runnerFiles(), { path: 'pwp/report/.keep', content: '' }], { owner: ROOT });
    // Made by root (a runtime through the bridge unpacks as the owner, and the IDE user cannot make folders in /pwp).
    const scratch = await this.runtime.exec(['mkdir', '-m', '0777', SCRATCH_DIR], { user: 'root', cwd: '/' });
    if (scratch.exitCode !== 0) throw new Error(`cannot make ${SCRATCH_DIR}: ${scratch.stderr.trim()}`);
    const hidden = inputs.hiddenDir ? listHostFiles(inputs.hiddenDir) : [];
    const overlay = hidden.filter((f) => f.path.startsWith('workspace/')).map((f) => ({ ...f, path: f.path.slice('workspace/'.length) }));
    const baseline = !inputs.rules ? undefined : inputs.initialTar ? await readTar(Readable.from([inputs.initialTar]), 1)
      : inputs.baselineDir ? new Map(listHostFiles(inputs.baselineDir).map((f) => [f.path, Buffer.from(f.content)]))
        : new Map<string, Buffer>();
    await this.loadWorkspace(inputs.workspaceTar, baseline, new Set(overlay.map((f) => f.path)), inputs.rules);
    if (inputs.initialTar) {
      await this.runtime.writeFiles('/', [{ path: 'pwp/initial/.keep', content: '' }], { owner: ROOT });
      // Root's (only graders read it; a runtime through the bridge unpacks as the archive's one owner).
      const initial = (await readTarEntries(inputs.initialTar)).map((e) => ({ header: { ...e.header, uid: ROOT.uid, gid: ROOT.gid }, content: e.content }));
      await this.runtime.archiveIn('/pwp/initial', packEntries(initial));
    }
    const meta: FileEntry[] = [
      { path: 'pwp/ide/state.json', content: JSON.stringify(inputs.ideState ?? null, null, 1) },
      { path: 'pwp/answer.txt', content: inputs.answer ?? '' },
    ];
    await this.runtime.writeFiles('/', meta, { owner: ROOT });
    if (hidden.length) {
      await this.runtime.writeFiles('/', hidden.map((f) => ({ ...f, path: `pwp/hidden/${f.path}` })), { owner: ROOT });
      // No folder entries: folders the agent made keep their owner; missing ones are created.
      if (overlay.length) await this.runtime.writeFiles('/workspace', overlay, { owner: ROOT, withDirs: false });
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
      await this.runtime.archiveIn('/', packEntries(entries));
      return;
    }
    const final: WorkspaceEntry[] = entries.filter((e) => rel(e.header.name)).map((e) => ({ path: rel(e.header.name), type: e.header.type, content: e.content }));
    const plan = planRestore(final, baseline, hidden, rules ?? { restore: [], agentFiles: [], commandFiles: [] });
    const kept = entries.filter((e) => !plan.drop.has(rel(e.header.name)));
    await this.runtime.archiveIn('/', packEntries(kept));
    const restore = [...plan.restore].map(([path, content]) => ({ path, content, mode: content.subarray(0, 2).toString() === '#!' ? 0o755 : 0o644 }));
    if (restore.length) await this.runtime.writeFiles('/workspace', restore, { owner: ROOT, withDirs: false });
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
    return this.runtime.exec(argv, opts);
  }

  readFile(path: string): Promise<Buffer | undefined> {
    return this.runtime.readFile(path);
  }

  readTree(dir: string): Promise<Map<string, Buffer> | undefined> {
    return this.runtime.readTree(dir);
  }

  async remove(): Promise<void> {
    await this.container.remove();
  }
}
