// What grading reads of an agent's final workspace is bounded: files and bytes counted in the
// container first (apparent sizes, so a sparse 20 GiB file counts as 20 GiB while costing its
// writer nothing), and the archive's stream cut at the same bound while it is read, since a
// process of the agent's may still be writing between the count and the read. A workspace past
// its task's limits scores 0 with its size, and the host never holds more than the bound.
import type { ExecOptions, ExecResult } from '../deployment/runtime';
import type { EvaluationResult } from '../evaluation/evaluationResult';

export interface WorkspaceLimits { workspaceBytes: number; workspaceFiles: number }
export interface WorkspaceSize { bytes: number; files: number }

// Every entry below /workspace on its own file system; awk sums there so that a workspace of a
// million files costs one line of output, not a million (%.0f: mawk's %d stops at 2^31 - 1).
const COUNT = "find /workspace -xdev -mindepth 1 -printf '%s\\n' | awk '{ n++; s += $1 } END { printf \"%.0f %.0f\\n\", n, s }'";

/** Files and apparent bytes under /workspace, counted as root (the agent may hide folders from its own user). */
export async function measureWorkspace(exec: (argv: string[], o: ExecOptions) => Promise<ExecResult>): Promise<WorkspaceSize> {
  const r = await exec(['/bin/sh', '-c', COUNT], { user: 'root', cwd: '/', timeoutSec: 600 });
  const m = /^(\d+) (\d+)$/.exec(r.stdout.trim());
  if (r.exitCode !== 0 || !m) throw new Error(`could not measure the workspace (exit code ${r.exitCode}): ${(r.stderr || r.stdout).trim().slice(0, 300)}`);
  return { files: Number(m[1]), bytes: Number(m[2]) };
}

/** The most a tar of a workspace within the limits can hold: the bytes, plus a header and padding per entry. */
export function archiveBound(l: WorkspaceLimits): number {
  return l.workspaceBytes + (l.workspaceFiles + 1) * 1024 + 1024 * 1024;
}

/** Why the workspace is too large to grade, or undefined when it is within the limits. */
export function tooLarge(size: WorkspaceSize, l: WorkspaceLimits): string | undefined {
  if (size.bytes <= l.workspaceBytes && size.files <= l.workspaceFiles) return undefined;
  return `workspace too large: ${size.bytes} bytes in ${size.files} files (the task grades at most ${l.workspaceBytes} bytes in ${l.workspaceFiles} files)`;
}

/** The grade of a workspace too large to grade: 0, with why. */
export function tooLargeEvaluation(kind: string, why: string, t0: number): EvaluationResult {
  return { kind, score: 0, passed: false, summary: why, durationMs: Date.now() - t0 };
}
