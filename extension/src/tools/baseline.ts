// The task's initial state, for get_diff_patch: a git snapshot of the workspace taken when the
// tools first start in an environment, kept outside the workspace (its own git dir) so the
// agent's repository, index and history are never touched. Diffs use a throwaway index.
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runProcess } from './processRunner';
import { IGNORED_DIRS } from './search';
import { ToolError } from './toolError';

export class Baseline {
  private ready?: Promise<void>;

  constructor(private readonly gitDir: string, private readonly workTree: string, private readonly env: NodeJS.ProcessEnv) {}

  private git(args: string[], extraEnv: NodeJS.ProcessEnv = {}, maxBytes?: number) {
    return runProcess('git', [`--git-dir=${this.gitDir}`, `--work-tree=${this.workTree}`, '-c', 'core.autocrlf=false', '-c', 'core.quotepath=false', ...args], {
      cwd: this.workTree,
      env: {
        ...this.env,
        GIT_AUTHOR_NAME: 'pwp',
        GIT_AUTHOR_EMAIL: 'pwp@localhost',
        GIT_COMMITTER_NAME: 'pwp',
        GIT_COMMITTER_EMAIL: 'pwp@localhost',
        ...extraEnv,
      },
      timeoutMs: 120_000,
      maxBytes,
    });
  }

  /** Takes the snapshot unless one exists (a reloaded extension host keeps the first). */
  ensure(): Promise<void> {
    this.ready ??= (async () => {
      if (existsSync(join(this.gitDir, 'HEAD')) && (await this.git(['rev-parse', '--verify', '-q', 'HEAD'])).code === 0) return;
      rmSync(this.gitDir, { recursive: true, force: true });
      mkdirSync(this.gitDir, { recursive: true });
      const init = await this.git(['init', '-q']);
      if (init.code !== 0) throw new Error(`git init failed: ${init.stderr}`);
      mkdirSync(join(this.gitDir, 'info'), { recursive: true });
      writeFileSync(join(this.gitDir, 'info', 'exclude'), `${IGNORED_DIRS.map((d) => `${d}/`).join('\n')}\n`);
      await this.git(['add', '-A', '--', '.']);
      const c = await this.git(['commit', '-q', '--allow-empty', '--no-verify', '-m', 'initial state of the task']);
      if (c.code !== 0) throw new Error(`baseline commit failed: ${c.stderr}`);
    })().catch((err) => { this.ready = undefined; throw err; });
    return this.ready;
  }

  /** Replaces the snapshot with the workspace as it is now; returns how many files it holds. */
  async reset(): Promise<number> {
    await this.ready?.catch(() => undefined);
    rmSync(this.gitDir, { recursive: true, force: true });
    this.ready = undefined;
    await this.ensure();
    const r = await this.git(['ls-tree', '-r', '--name-only', 'HEAD'], {}, 50 * 1024 * 1024);
    return r.stdout.split('\n').filter(Boolean).length;
  }

  /** Unified diff of the workspace now against the snapshot (new, changed and deleted files). */
  async diff(paths: string[] = [], stat = false): Promise<string> {
    try { await this.ensure(); } catch (err) { throw new ToolError(`no baseline of the initial state: ${(err as Error).message}`, 'NotAvailable'); }
    const index = join(this.gitDir, `tmp-index-${process.pid}-${Date.now()}`);
    const env = { GIT_INDEX_FILE: index };
    try {
      await this.git(['read-tree', 'HEAD'], env);
      await this.git(['add', '-A', '--', '.'], env);
      const r = await this.git(
        ['diff', '--cached', '--no-color', '--no-ext-diff', ...(stat ? ['--stat'] : ['--binary']), 'HEAD', '--', ...(paths.length ? paths : ['.'])],
        env,
        50 * 1024 * 1024,
      );
      if (r.code !== 0) throw new ToolError(`git diff failed: ${r.stderr.trim()}`, 'DiffFailed');
      return r.stdout;
    } finally {
      rmSync(index, { force: true });
    }
  }
}
