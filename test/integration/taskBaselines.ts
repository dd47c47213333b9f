// The null and oracle baselines of a task in one task Env (makeEnv): the state right after
// set-up is exactly what the null agent leaves (it does nothing), so it is graded first; then
// the oracle acts in the same environment and its done step grades the result. Each grading runs in
// its own verifier container. Used by the task tests and by `npm run test:tasks`.
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { OracleAgent } from '../../host/agents/oracleAgent';
import type { EnvPool } from '../../host/env/pool';
import type { EvaluationResult } from '../../host/evaluation/evaluationResult';
import { paths } from '../../host/common/paths';
import { taskName, type Task } from '../../host/taskEnv/loadTask';
import { makeEnv } from '../../host/taskEnv/taskEnv';
import { actOn } from '../support/actOnEnv';

export interface Baselines {
  task: string;
  nullResult: EvaluationResult;
  oracleResult: EvaluationResult;
  oracleError?: string;
  oracleSteps: number;
  /** Hidden workspace files (hidden/workspace/**) whose content is in the agent's environment: must be none. */
  hiddenLeaks: string[];
  runDir: string;
  ms: { start: number; nullGrade: number; oracle: number; oracleGrade: number; total: number };
}

/**
 * `image` is the IDE image; `o.taskImage` the task's own when resolved already, and `o.pool` a
 * warm pool of that image to take the environment from; `o.closing` collects the environment's
 * removal instead of waiting for it.
 */
export async function taskBaselines(task: Task, image: string, o: { taskImage?: string; pool?: EnvPool; closing?: Promise<void>[] } = {}): Promise<Baselines> {
  const t0 = Date.now();
  const runDir = join(paths.state, 'test-runs', task.suite, task.id);
  rmSync(runDir, { recursive: true, force: true });
  const env = makeEnv(task, { image, taskImage: o.taskImage, pool: o.pool, labels: { 'pwp.test': '1' }, observe: [], record: { dir: runDir, humanPollMs: 0 } });
  const taskEnv = env.unwrapped;
  try {
    await env.reset();
    const t1 = Date.now();
    const nullResult = await taskEnv.grade();
    const t2 = Date.now();
    const acted = await actOn(env, new OracleAgent(), task);
    const t3 = Date.now();
    // The oracle ends with done, which grades; an oracle cut short is graded as it left things.
    const oracleResult = taskEnv.episodeOver === 'done' && taskEnv.evaluation ? taskEnv.evaluation : await taskEnv.grade();
    const t4 = Date.now();
    const hiddenLeaks: string[] = [];
    for (const rel of hiddenWorkspaceFiles(task)) {
      // A hidden file may replace a workspace file of the same name (SWE-bench's test patch):
      // a leak is the hidden content itself in the agent's environment.
      const there = await taskEnv.readFile(`/workspace/${rel}`);
      if (there && there.equals(readFileSync(join(task.hiddenDir!, 'workspace', rel)))) hiddenLeaks.push(rel);
    }
    return {
      task: taskName(task), nullResult, oracleResult, oracleError: acted.error ?? (acted.outcome.status === 'truncated' ? acted.outcome.reason : undefined),
      oracleSteps: acted.steps, hiddenLeaks, runDir,
      ms: { start: t1 - t0, nullGrade: t2 - t1, oracle: t3 - t2, oracleGrade: t4 - t3, total: t4 - t0 },
    };
  } finally {
    // With `closing`, the caller collects the removal and awaits it later: a removal is
    // seconds of waiting on the engine that the next run need not spend idle.
    const closed = env.close();
    if (o.closing) o.closing.push(closed.catch(() => undefined)); else await closed;
  }
}

/** The files a task's verifier copies over the workspace (hidden/workspace/**), by workspace path. */
export function hiddenWorkspaceFiles(task: Task): string[] {
  const root = task.hiddenDir ? join(task.hiddenDir, 'workspace') : undefined;
  if (!root || !existsSync(root)) return [];
  const out: string[] = [];
  const walk = (d: string) => { for (const e of readdirSync(d)) { const p = join(d, e); if (statSync(p).isDirectory()) walk(p); else out.push(relative(root, p)); } };
  walk(root);
  return out;
}

/** Runs `fn` over items with at most `n` at a time, in order of the items. */
export async function inParallel<T, R>(items: readonly T[], n: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  }));
  return out;
}

/** What went wrong, for an assertion message. */
export function describeBaselines(b: Baselines): string {
  return [
    `${b.task}: null ${b.nullResult.score} (${b.nullResult.summary}); oracle ${b.oracleResult.score} (${b.oracleResult.summary})`,
    b.oracleError ? `oracle error: ${b.oracleError}` : '',
    `run folder: ${b.runDir}`,
  ].filter(Boolean).join('\n');
}
