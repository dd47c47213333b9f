// `metric` evaluators: a competition metric of the agent's submission CSV against the hidden
// answers (metrics/competitionMetric.ts), read from the verifier and computed here, so nothing the
// agent wrote runs at grading. The score is DSBench's Relative Performance Gap between the task's
// baseline and gold values; the task is solved at or above the threshold.
import type { MetricEvaluator } from './evaluatorSchema';
import type { EvaluationResult } from './evaluationResult';
import { columnById, computeMetric, relativePerformanceGap } from './metrics/competitionMetric';
import { AGENT_FILE_MAX, type Sandbox } from './verifier';

export async function gradeMetric(e: MetricEvaluator, sandbox: Sandbox): Promise<EvaluationResult> {
  const t0 = Date.now();
  const fail = (summary: string): EvaluationResult => ({ kind: 'metric', score: 0, passed: false, summary, durationMs: Date.now() - t0 });
  const answersFile = await sandbox.readFile(`/pwp/hidden/${e.answers}`);
  if (!answersFile) throw new Error(`the hidden answers ${e.answers} are missing`);
  const answers = columnById(answersFile.toString('utf8'), e.id, e.target, `the answers (${e.answers})`);
  const submitted = await sandbox.readFile(`/workspace/${e.predictions}`, { maxBytes: AGENT_FILE_MAX });
  if (!submitted) return fail(`${e.predictions} does not exist`);
  let value: number;
  try {
    value = computeMetric(e.metric, answers, columnById(submitted.toString('utf8'), e.id, e.target, e.predictions));
  } catch (err) {
    return fail(`${e.predictions} cannot be scored: ${(err as Error).message}`);
  }
  if (!Number.isFinite(value)) return fail(`${e.predictions} gives ${e.metric} ${value}`);
  const score = relativePerformanceGap(value, e.baseline, e.gold);
  const passed = score >= e.threshold;
  return {
    kind: 'metric', score, passed,
    components: [{ name: e.metric, value }],
    summary: `${e.metric} ${+value.toFixed(6)} (baseline ${e.baseline}, gold ${e.gold}): relative performance gap ${score.toFixed(3)}, ${passed ? 'at or above' : 'below'} the threshold ${e.threshold}`,
    durationMs: Date.now() - t0,
  };
}
