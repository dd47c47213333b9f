// How an agent worked on the code, read from its trajectory: the agent metrics IDE-Bench
// reports beside success. Files visited (read or opened through a tool) against files edited
// (changed through a tool or a write_file action), how long until the first edit, edits that a
// syntax error refused or broke, and the failure category. IDE-Bench counts a task solved when
// the tests pass, the agent finished, it made code changes and none of its edits hit a syntax
// error; the category names the first of those that failed. Changes made by shell commands
// cannot be attributed to files here; `changedFiles` (from the run's agent.diff) counts them.
import type { Trajectory, TrajectoryRecord } from './trajectoryFile';

export type FailureCategory = 'none' | 'agent-did-not-finish' | 'no-code-changes' | 'syntax-errors' | 'tests-failed';

export interface WorkMetrics {
  filesVisited: number;
  filesEdited: number;
  /** Files edited without having been read or opened first. */
  editedUnseen: number;
  /** Successful edit calls (several may touch one file). */
  successfulEdits: number;
  /** From the reset to the first successful edit; null without one. */
  timeToFirstEditMs: number | null;
  stepsToFirstEdit: number | null;
  /** Edit calls refused or reported for a syntax error. */
  syntaxErrors: number;
  /** Workspace files that differ from the set-up's (agent.diff), whatever changed them. */
  changedFiles: number;
  failure: FailureCategory;
}

/** The tools that read or change one file, and the argument naming it. */
const READS: Record<string, string> = { read_file: 'target_file', open_file: 'file', view_file: 'path' };
const EDITS: Record<string, string> = {
  edit_file: 'target_file', search_replace: 'file_path', write_file: 'file_path', delete_file: 'target_file', edit_notebook: 'target_notebook',
};
/** The words IDE-Bench looks for in a failed edit's error to call it a syntax error. */
const SYNTAX = /syntax ?error|invalid syntax|indentation|unexpected indent|unindent|unterminated|expected an indented/i;

type Step = Extract<TrajectoryRecord, { type: 'step' }>;

/** A workspace file's path, relative; undefined for a path outside the workspace (a scratch file in /tmp is not code). */
const norm = (p: string): string | undefined => (p.startsWith('/') && !p.startsWith('/workspace/') ? undefined : p.replace(/^\/workspace\//, '').replace(/^\.\//, ''));

function toolOutcome(step: Step): { isError: boolean; text: string } {
  const r = step.info.toolResult as { isError?: boolean; content?: { type?: string; text?: string }[] } | undefined;
  const text = (r?.content ?? []).filter((c) => c.type === 'text').map((c) => c.text ?? '').join('\n');
  return { isError: !!r?.isError || !!step.info.error, text: text || String(step.info.error ?? '') };
}

/** What one step read and changed. file_edit (Anthropic's editor tool) reads with view and edits otherwise. */
function fileEffects(step: Step): { read?: string; edit?: string; failedEditText?: string } {
  const a = step.action;
  if (a.type === 'write_file') return step.info.error ? { failedEditText: String(step.info.error) } : { edit: a.path.startsWith('/') ? norm(a.path) : a.path };
  if (a.type !== 'tool') return {};
  const args = (a.args ?? {}) as Record<string, unknown>;
  const arg = (k: string) => (typeof args[k] === 'string' ? norm(args[k] as string) : undefined);
  const out = toolOutcome(step);
  if (a.name === 'file_edit') {
    const path = arg('path');
    if (args.command === 'view') return out.isError ? {} : { read: path };
    return out.isError ? { failedEditText: out.text } : { edit: path };
  }
  if (READS[a.name]) return out.isError ? {} : { read: arg(READS[a.name]) };
  if (EDITS[a.name]) return out.isError ? { failedEditText: out.text } : { edit: arg(EDITS[a.name]) };
  return {};
}

export function workMetrics(t: Trajectory, run: { passed: boolean; finished: boolean; changedFiles: number }): WorkMetrics {
  const visited = new Set<string>();
  const edited = new Set<string>();
  let editedUnseen = 0;
  let successfulEdits = 0;
  let syntaxErrors = 0;
  let firstEdit: { t: number; step: number } | null = null;
  const reset = t.records.find((r) => r.type === 'reset');
  for (const r of t.records) {
    if (r.type !== 'step') continue;
    const fx = fileEffects(r);
    if (fx.read) visited.add(fx.read);
    if (fx.edit) {
      successfulEdits++;
      if (!visited.has(fx.edit) && !edited.has(fx.edit)) editedUnseen++;
      edited.add(fx.edit);
      firstEdit ??= { t: r.t, step: r.step };
    }
    if (fx.failedEditText !== undefined && SYNTAX.test(fx.failedEditText)) syntaxErrors++;
  }
  const failure: FailureCategory = run.passed ? 'none'
    : !run.finished ? 'agent-did-not-finish'
      : successfulEdits === 0 && run.changedFiles === 0 ? 'no-code-changes'
        : syntaxErrors > 0 ? 'syntax-errors'
          : 'tests-failed';
  return {
    filesVisited: visited.size, filesEdited: edited.size, editedUnseen, successfulEdits,
    timeToFirstEditMs: firstEdit && reset ? firstEdit.t - reset.t : null, stepsToFirstEdit: firstEdit?.step ?? null,
    syntaxErrors, changedFiles: run.changedFiles, failure,
  };
}

/** Files an agent.diff changes (its "diff --git" headers and binary lines). */
export function diffFileCount(diff: string): number {
  return (diff.match(/^diff --git /gm) ?? []).length + (diff.match(/^Binary files /gm) ?? []).length;
}

export interface WorkSummary {
  runs: number;
  meanFilesVisited: number;
  meanFilesEdited: number;
  meanEditedUnseen: number;
  /** Mean over the runs that edited anything; null when none did. */
  meanTimeToFirstEditMs: number | null;
  syntaxErrors: number;
  /** Runs per failure category, 'none' for the solved ones. */
  failures: Record<string, number>;
}

export function summarizeWork(runs: readonly { work?: WorkMetrics }[]): WorkSummary | null {
  const ws = runs.map((r) => r.work).filter((w): w is WorkMetrics => !!w);
  if (!ws.length) return null;
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const firstEdits = ws.map((w) => w.timeToFirstEditMs).filter((x): x is number => x !== null);
  const failures: Record<string, number> = {};
  for (const w of ws) failures[w.failure] = (failures[w.failure] ?? 0) + 1;
  return {
    runs: ws.length,
    meanFilesVisited: mean(ws.map((w) => w.filesVisited)),
    meanFilesEdited: mean(ws.map((w) => w.filesEdited)),
    meanEditedUnseen: mean(ws.map((w) => w.editedUnseen)),
    meanTimeToFirstEditMs: firstEdits.length ? mean(firstEdits) : null,
    syntaxErrors: ws.reduce((n, w) => n + w.syntaxErrors, 0),
    failures,
  };
}
