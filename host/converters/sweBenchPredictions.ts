// Predictions for SWE-bench's own evaluation harness, from pwp runs over converted SWE-bench
// tasks: one JSON line per instance, {"instance_id", "model_name_or_path", "model_patch"}, the
// patch being the run's agent.diff (the agent's changes to the workspace, saved when the run
// was graded). The instance_id is the task's `source:` tag (task ids are lower-cased), so the
// tasks the runs were made from must be at hand. Binary files in agent.diff are named only,
// which git apply refuses: they are left out of the patch, and said so. Files the agent created
// or deleted get git's "new file mode"/"deleted file mode" line, without which git apply (the
// harness's first way to apply a patch) reads /dev/null as a path.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { resolveTasks, taskName, type Task } from '../taskEnv/loadTask';

export interface Prediction { instance_id: string; model_name_or_path: string; model_patch: string }

export interface PredictionOptions {
  /** Task selectors (suites, <suite>/<id>, folders) the runs were made from (default: the runs' suites among the bundled ones). */
  tasks?: string[];
  /** Only runs of this agent (needed when the folders hold several, e.g. a bench with --baselines). */
  agent?: string;
  /** Which attempt of each task (default 1). */
  attempt?: number;
  /** model_name_or_path (default: the run's model, else its agent). */
  modelName?: string;
}

interface RunRecord { task: string; suite: string; id: string; agent: string; model?: string; attempt: number; dir: string }

/** Every run folder (one with result.json) under the given folders. */
export function findRuns(roots: readonly string[]): RunRecord[] {
  const out: RunRecord[] = [];
  const walk = (d: string) => {
    if (existsSync(join(d, 'result.json'))) {
      const r = JSON.parse(readFileSync(join(d, 'result.json'), 'utf8')) as Omit<RunRecord, 'dir'>;
      out.push({ task: r.task, suite: r.suite, id: r.id, agent: r.agent, model: r.model, attempt: r.attempt ?? 1, dir: d });
      return;
    }
    for (const e of readdirSync(d).sort()) if (statSync(join(d, e)).isDirectory()) walk(join(d, e));
  };
  for (const r of roots) {
    if (!existsSync(r) || !statSync(r).isDirectory()) throw new Error(`${r}: no such folder`);
    walk(r);
  }
  return out;
}

/** A unified diff as git apply takes it: without its binary-file entries (named only, so no tool can apply them), creations and deletions marked. */
export function applicablePatch(diff: string): { patch: string; binary: string[] } {
  const binary: string[] = [];
  const kept = diff.split(/^(?=diff --git |Binary files )/m).filter((part) => {
    const m = /^Binary files (?:a\/)?(.+?) and (?:b\/)?(.+?) differ\n/.exec(part);
    if (m) binary.push(m[2] === '/dev/null' ? m[1] : m[2]);
    return !m;
  }).map((part) => {
    if (!part.startsWith('diff --git ') || /^(new|deleted) file mode /m.test(part)) return part;
    const mode = /^--- \/dev\/null$/m.test(part) ? 'new' : /^\+\+\+ \/dev\/null$/m.test(part) ? 'deleted' : undefined;
    return mode ? part.replace('\n', `\n${mode} file mode 100644\n`) : part;
  });
  return { patch: kept.join(''), binary };
}

export function collectPredictions(roots: readonly string[], o: PredictionOptions = {}): { predictions: Prediction[]; notes: string[] } {
  const attempt = o.attempt ?? 1;
  let runs = findRuns(roots).filter((r) => r.attempt === attempt);
  const agents = [...new Set(runs.map((r) => r.agent))].sort();
  if (o.agent) runs = runs.filter((r) => r.agent === o.agent);
  else if (agents.length > 1) throw new Error(`the runs are of several agents (${agents.join(', ')}): choose one with --agent`);
  if (!runs.length) throw new Error(`no runs${o.agent ? ` of agent ${o.agent}` : ''} (attempt ${attempt}) under ${roots.join(', ')}`);
  const tasks = new Map<string, Task>(resolveTasks(o.tasks ?? [...new Set(runs.map((r) => r.suite))]).map((t) => [taskName(t), t]));
  const notes: string[] = [];
  const seen = new Map<string, string>();
  const predictions: Prediction[] = [];
  for (const r of runs) {
    const t = tasks.get(r.task);
    if (!t) throw new Error(`${r.dir}: its task ${r.task} is not among the tasks given (--tasks names the folder the runs were made from)`);
    // SWE-bench Multimodal's harness takes the same predictions.
    if (!t.tags.includes('dataset:swe-bench') && !t.tags.includes('dataset:swe-bench-mm')) { notes.push(`${r.task}: not a SWE-bench task, left out`); continue; }
    const instanceId = t.tags.find((g) => g.startsWith('source:'))?.slice('source:'.length) ?? t.id;
    if (seen.has(instanceId)) throw new Error(`${instanceId}: two runs (${seen.get(instanceId)} and ${r.dir}); give one bench's folder`);
    seen.set(instanceId, r.dir);
    const diffFile = join(r.dir, 'agent.diff');
    let patch = '';
    if (existsSync(diffFile)) {
      const a = applicablePatch(readFileSync(diffFile, 'utf8'));
      patch = a.patch;
      if (a.binary.length) notes.push(`${instanceId}: binary files left out of the patch: ${a.binary.join(', ')}`);
    } else notes.push(`${instanceId}: the run has no agent.diff (it never reached grading): an empty patch`);
    predictions.push({ instance_id: instanceId, model_name_or_path: o.modelName ?? r.model ?? r.agent, model_patch: patch });
  }
  return { predictions, notes };
}

export const predictionsJsonl = (ps: readonly Prediction[]): string => ps.map((p) => `${JSON.stringify(p)}\n`).join('');
