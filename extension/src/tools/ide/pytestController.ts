// A pytest test controller for the IDE's Test Explorer: discovers tests with pytest
// --collect-only and runs them, reporting each test's outcome into the Test Results view.
// run_tests drives it, so agents run tests through the same explorer a person uses.
import * as vscode from 'vscode';
import { join } from 'node:path';
import { runProcess } from '../processRunner';
import { nodePath, parseCollected, parseSummary, type PytestOutcome } from './pytestOutput';

export interface PytestRunResult { outcomes: PytestOutcome[]; output: string; exitCode: number | null; notRun: string[] }

const BASE_ARGS = ['-m', 'pytest', '-p', 'no:cacheprovider', '-o', 'console_output_style=classic'];

export class PytestController implements vscode.Disposable {
  readonly controller = vscode.tests.createTestController('pwp-pytest', 'pytest');
  private readonly byNodeId = new Map<string, vscode.TestItem>();

  constructor(private readonly root: string, private readonly env: NodeJS.ProcessEnv, private readonly log: (line: string) => void) {
    this.controller.resolveHandler = async (item) => { if (!item) await this.discover(); };
    this.controller.refreshHandler = async () => { await this.discover(); };
    this.controller.createRunProfile('Run', vscode.TestRunProfileKind.Run, (req, token) => this.runRequest(req, token).then(() => undefined), true);
  }

  /** Rebuilds the test tree from pytest's collection; returns the node ids. */
  async discover(signal?: AbortSignal): Promise<{ nodeIds: string[]; errors: string }> {
    const r = await runProcess('python3', [...BASE_ARGS, '--collect-only', '-q'], { cwd: this.root, env: this.env, signal, timeoutMs: 120_000 });
    const ids = parseCollected(r.stdout);
    this.byNodeId.clear();
    const files = new Map<string, vscode.TestItem>();
    this.controller.items.replace([]);
    for (const id of ids) {
      const parts = nodePath(id);
      let parent: vscode.TestItemCollection = this.controller.items;
      let key = '';
      for (const [i, part] of parts.entries()) {
        key = key ? `${key}::${part}` : part;
        let item = i === 0 ? files.get(key) : undefined;
        if (!item) {
          item = parent.get(key);
          if (!item) {
            item = this.controller.createTestItem(key, part, i === 0 ? vscode.Uri.file(join(this.root, part)) : vscode.Uri.file(join(this.root, parts[0])));
            parent.add(item);
          }
          if (i === 0) files.set(key, item);
        }
        parent = item.children;
        if (i === parts.length - 1) this.byNodeId.set(id, item);
      }
    }
    const errors = r.code !== 0 && r.code !== 5 ? `${r.stdout}\n${r.stderr}`.trim().split('\n').slice(-30).join('\n') : '';
    if (errors) this.log(`pytest collection: ${errors.split('\n').at(-1)}`);
    return { nodeIds: ids, errors };
  }

  /** Runs some tests (node ids or file paths; none = all) as one Test Explorer run. */
  async run(selection: string[], extraArgs: string[] = [], signal?: AbortSignal, timeoutMs = 600_000): Promise<PytestRunResult> {
    await this.discover(signal);
    const include = selection.length ? [...this.byNodeId.entries()].filter(([id]) => selection.some((sel) => id === sel || id.startsWith(`${sel}::`) || id.startsWith(sel.endsWith('/') ? sel : `${sel}/`))).map(([, item]) => item) : undefined;
    const req = new vscode.TestRunRequest(include);
    return this.execute(req, selection, extraArgs, signal, timeoutMs);
  }

  private async runRequest(req: vscode.TestRunRequest, token: vscode.CancellationToken): Promise<PytestRunResult> {
    const abort = new AbortController();
    token.onCancellationRequested(() => abort.abort());
    const ids = req.include?.map((i) => i.id) ?? [];
    return this.execute(req, ids, [], abort.signal, 600_000);
  }

  private async execute(req: vscode.TestRunRequest, selection: string[], extraArgs: string[], signal: AbortSignal | undefined, timeoutMs: number): Promise<PytestRunResult> {
    const run = this.controller.createTestRun(req, 'pytest', true);
    const leaves = [...this.byNodeId.entries()].filter(([id]) => !selection.length || selection.some((sel) => id === sel || id.startsWith(`${sel}::`) || id.startsWith(sel.endsWith('/') ? sel : `${sel}/`)));
    for (const [, item] of leaves) run.started(item);
    try {
      const r = await runProcess('python3', [...BASE_ARGS, '-rA', '-q', ...extraArgs, ...selection], {
        cwd: this.root,
        env: this.env,
        signal,
        timeoutMs,
        maxBytes: 4 * 1024 * 1024,
      });
      const output = `${r.stdout}${r.stderr ? `\n${r.stderr}` : ''}`;
      run.appendOutput(output.replace(/\r?\n/g, '\r\n'));
      const outcomes = parseSummary(r.stdout);
      const seen = new Set<string>();
      for (const o of outcomes) {
        const item = this.byNodeId.get(o.nodeId);
        if (!item) continue;
        seen.add(o.nodeId);
        if (o.outcome === 'passed' || o.outcome === 'xfailed') run.passed(item);
        else if (o.outcome === 'skipped') run.skipped(item);
        else run.failed(item, new vscode.TestMessage(o.message ?? o.outcome));
      }
      const notRun = leaves.map(([id]) => id).filter((id) => !seen.has(id));
      for (const id of notRun) run.skipped(this.byNodeId.get(id)!);
      return { outcomes, output, exitCode: r.timedOut ? null : r.code, notRun };
    } finally {
      run.end();
    }
  }

  dispose(): void { this.controller.dispose(); }
}
