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
//   /pwp/check               the Python code check and its input (root's alone)
import { readFileSync, statSync } from 'node:fs';
import { createDeployment } from '../deployment/backends';
import type { Deployment } from '../deployment/deployment';
import { ROOT, type FileEntry } from '../deployment/fileEntry';
import { archiveEntriesIn, type ExecOptions, type ExecResult, type ReadOptions, type Runtime } from '../deployment/runtime';
import { fileEntries, indexArchive, type PackEntry, type TarEntry } from '../deployment/tarArchive';
import type { VerifierContainer } from '../deployment/verifierContainer';
import { hostFiles } from './hostFolder';
import type { IdeState } from './ideState';
import { deliverableFile, HIDDEN_DIR, runnerFiles, SCRATCH_DIR } from './isolatedRunner';
import { findJsTampering } from './jsCodeCheck';
import { PY_CODE_CHECK, pythonCheckInput, pythonFindings } from './pythonCodeCheck';
import { findTampering, type TamperFinding } from './tamperCheck';
import type { InfrastructureChange, RestoreRules } from './testInfrastructure';
import { planIntake, type ArchiveInput } from './workspaceIntake';

export { VERIFIER_LABEL } from '../deployment/verifierContainer';

/** The agent's final workspace in the verifier. */
const WORKSPACE = '/workspace';

/** What evaluators run against: the verifier container's runtime (or, in unit tests, a local stand-in). */
export interface Sandbox extends Pick<Runtime, 'exec' | 'readFile' | 'readTree'> {
  /** What loading found: the agent's changes to the test infrastructure, and tampering in its deliverable. */
  grading?: GradingContext;
  /** The sha256 of each regular file under `dir` by relative path, read as a stream (never the files whole); undefined when there is no such folder. */
  digests?(dir: string): Promise<Map<string, string> | undefined>;
  /**
   * A sandbox of its own holding the task's base in place of the agent's workspace (the initial
   * workspace, loaded as the agent's is), for a base run (baseRun.ts); the caller removes it.
   * Absent where the grading knows no initial workspace.
   */
  base?(): Promise<Sandbox & { remove(): Promise<void> }>;
  /**
   * What the base holds, as one string: equal for two gradings whose base runs would find the
   * same (the task, its image, its hidden files, the initial workspace's content). Absent, every
   * grading runs the base itself (baseRun.ts, sharedBaseRun).
   */
  baseKey?(): Promise<string>;
}

/**
 * The most of one file of the agent's that a grader reads (into the host's memory): a larger
 * one is a LimitExceededError, which fails its grading with the reason.
 */
export const AGENT_FILE_MAX = 32 * 1024 * 1024;

export interface GradingContext {
  infrastructure: InfrastructureChange[];
  findings: TamperFinding[];
  /** The task's hidden files copied over the workspace (paths relative to it). */
  hiddenFiles?: string[];
}

export interface VerifierInputs {
  /**
   * Tar of the agent's final /workspace (entries under `workspace/`), from its container:
   * spooled to a host file (never whole in memory), or a small one in memory.
   */
  workspaceTar: ArchiveInput;
  /** Tar of /workspace right after set-up, same form. */
  initialTar?: ArchiveInput;
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
  /** The outside network while grading (a task's `verifierNetwork`); none by default. */
  network?: boolean;
}

function listHostFiles(dir: string): FileEntry[] {
  return [...hostFiles(dir)].map(([path, p]) => ({ path, content: readFileSync(p), mode: statSync(p).mode & 0o777 }));
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
    return new Verifier(await deployment.startVerifier({ image: o.image, cpus: o.cpus, memoryMb: o.memoryMb, labels: o.labels, ...(o.network ? { network: true } : {}) }));
  }

  grading?: GradingContext;

  base?: () => Promise<Verifier>;

  baseKey?: () => Promise<string>;

  /**
   * Copies in everything the evaluators read, as one archive streamed from the spooled
   * workspace (workspaceIntake.ts): the runner, the agent's workspace without its versions of
   * the test infrastructure, the task's copies, the initial workspace, the IDE state and
   * answer, then the hidden files, the hidden workspace files last. The hidden folder is then
   * root's alone for the verifier's life: graders read it as root, and whatever the agent's
   * code runs as never reads it (a `command` evaluator, the task's own check, sees it while it
   * runs: testsGrader.ts).
   */
  async load(inputs: VerifierInputs): Promise<void> {
    const hidden = inputs.hiddenDir ? listHostFiles(inputs.hiddenDir) : [];
    const overlay = hidden.filter((f) => f.path.startsWith('workspace/')).map((f) => ({ ...f, path: f.path.slice('workspace/'.length) }));
    const intake = await planIntake({
      workspace: inputs.workspaceTar, initial: inputs.initialTar, baselineDir: inputs.baselineDir, hidden: new Set(overlay.map((f) => f.path)), rules: inputs.rules,
    });
    try {
      const { code, baseline } = intake;
      // The deliverable's Python is read as parsed code by the image's own interpreter, with the
      // task's unchanged files where they lie for the task's own use of the same capabilities.
      const pyInput = intake.planned && pythonCheckInput(code, baseline, {
        scanRoot: '/workspace', exclude: new Set(overlay.map((f) => f.path)), hidden: overlay.map((f) => f.path),
      });
      const head: TarEntry[] = [
        ...fileEntries([...runnerFiles(), deliverableFile(code, intake.planned ? baseline : undefined), { path: 'pwp/report/.keep', content: '' }], ROOT),
        // Scratch space the IDE user can write in; root's like the rest of /pwp.
        { header: { name: `${SCRATCH_DIR.slice(1)}/`, type: 'directory', mode: 0o777, ...ROOT }, content: Buffer.alloc(0) },
      ];
      const tail: TarEntry[] = [];
      if (pyInput) {
        tail.push({ header: { name: 'pwp/check/', type: 'directory', mode: 0o700, ...ROOT }, content: Buffer.alloc(0) }, ...fileEntries([
          { path: 'pwp/check/pyCodeCheck.py', content: PY_CODE_CHECK, mode: 0o600 },
          { path: 'pwp/check/input.json', content: JSON.stringify(pyInput), mode: 0o600 },
        ], ROOT, { withDirs: false }));
      }
      tail.push(...fileEntries([
        { path: 'pwp/ide/state.json', content: JSON.stringify(inputs.ideState ?? null, null, 1) },
        { path: 'pwp/answer.txt', content: inputs.answer ?? '' },
      ], ROOT));
      if (hidden.length) {
        tail.push(...fileEntries(hidden.map((f) => ({ ...f, path: `${HIDDEN_DIR.slice(1)}/${f.path}` })), ROOT));
        // No folder entries: the folders on their way are the intake's (root's, sticky).
        tail.push(...fileEntries(overlay, ROOT, { withDirs: false, prefix: 'workspace' }));
      }
      const asPack = (e: TarEntry): PackEntry => ({ header: e.header, body: e.content });
      await archiveEntriesIn(this.runtime, (async function* () {
        yield* head.map(asPack);
        yield* intake.entries();
        yield* intake.initialEntries();
        yield* tail.map(asPack);
      })());
      if (hidden.length) {
        const lock = await this.exec(['chmod', '700', HIDDEN_DIR], { user: 'root', cwd: '/' });
        if (lock.exitCode !== 0) throw new Error(`cannot make ${HIDDEN_DIR} root's alone: ${lock.stderr.trim()}`);
      }
      const python = [...code.keys()].some((p) => p.endsWith('.py'));
      const findings = intake.planned
        ? [
          ...intake.findings,
          ...findTampering(code, baseline, { agentFiles: inputs.rules?.agentFiles, pythonModules: python ? await this.pythonModules() : undefined }),
          ...findJsTampering(code, baseline, intake.asJs),
          ...(pyInput ? pythonFindings(await this.exec(['/usr/bin/python3', '-I', '/pwp/check/pyCodeCheck.py', '/pwp/check/input.json'],
            { user: 'root', cwd: '/', timeoutSec: 300 })) : []),
        ]
        : [];
      this.grading = { infrastructure: intake.changes, findings, hiddenFiles: overlay.map((f) => f.path) };
    } finally {
      intake.close();
    }
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

  async readFile(path: string, o?: ReadOptions): Promise<Buffer | undefined> {
    await this.insideWorkspace(path);
    return this.runtime.readFile(path, o);
  }

  async readTree(dir: string, o?: ReadOptions): Promise<Map<string, Buffer> | undefined> {
    await this.insideWorkspace(dir);
    return this.runtime.readTree(dir, o);
  }

  /**
   * Graders read the agent's files as root, through the engine, which follows links in every
   * folder on the way (`src -> /pwp/hidden/expected/src` would hand a diff grader the expected
   * files as the agent's). A workspace path is read only when it resolves inside the workspace;
   * one that leads out fails the grading with where it leads. Nothing of the agent's runs
   * while graders read (every process of the tests' user is gone), so the links stay as checked.
   */
  private async insideWorkspace(path: string): Promise<void> {
    if (path !== WORKSPACE && !path.startsWith(`${WORKSPACE}/`)) return;
    const r = await this.exec(['realpath', '-m', '--', path], { user: 'root', cwd: '/' });
    const real = r.stdout.trim();
    if (r.exitCode === 0 && (real === WORKSPACE || real.startsWith(`${WORKSPACE}/`))) return;
    throw new Error(r.exitCode === 0
      ? `${path.slice(WORKSPACE.length + 1)} leads out of the workspace, to ${real}: the verifier reads the agent's files only inside it`
      : `cannot resolve ${path}: ${r.stderr.trim()}`);
  }

  async digests(dir: string): Promise<Map<string, string> | undefined> {
    const exists = await this.exec(['test', '-d', dir], { user: 'root', cwd: '/' });
    if (exists.exitCode !== 0) return undefined;
    const out = new Map<string, string>();
    const byName = new Map<string, string>();
    for (const e of await indexArchive(await this.runtime.archiveOut(dir))) {
      const path = e.header.name.split('/').slice(1).join('/');
      // A hard link has its target's content.
      const digest = e.header.type === 'link' ? byName.get(e.header.linkname ?? '') : e.digest;
      if (e.header.type === 'file' && e.digest) byName.set(e.header.name, e.digest);
      if ((e.header.type === 'file' || e.header.type === 'link') && path && digest) out.set(path, digest);
    }
    return out;
  }

  async remove(): Promise<void> {
    await this.container.remove();
  }
}
