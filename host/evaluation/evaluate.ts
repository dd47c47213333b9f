// Grades an evaluator against a sandbox holding the agent's final state (the verifier).
// `all` combines its parts: solved when every part is, scored by the weakest part; `any` is
// solved when one part is, scored by the best part (every part is graded and reported).
import { gradeAnswer } from './answerGrader';
import { gradeChartMimic } from './chartMimicGrader';
import { gradeDesign2Code } from './design2CodeGrader';
import type { Evaluator } from './evaluatorSchema';
import type { EvaluationResult } from './evaluationResult';
import { gradeDiff, gradeFiles } from './fileGrader';
import { gradeIde } from './ideGrader';
import { gradeMetric } from './metricGrader';
import { gradeImage } from './imageGrader';
import { gradeSql } from './sqlGrader';
import { gradeCommand, gradeTests } from './testsGrader';
import type { Sandbox } from './verifier';

export async function evaluate(e: Evaluator, sandbox: Sandbox): Promise<EvaluationResult> {
  const t0 = Date.now();
  try {
    switch (e.kind) {
      case 'tests': return await gradeTests(e, sandbox);
      case 'command': return await gradeCommand(e, sandbox);
      case 'files': return await gradeFiles(e, sandbox);
      case 'diff': return await gradeDiff(e, sandbox);
      case 'ide': return await gradeIde(e, sandbox);
      case 'answer': return await gradeAnswer(e, sandbox);
      case 'image': return await gradeImage(e, sandbox);
      case 'sql': return await gradeSql(e, sandbox);
      case 'design2code': return await gradeDesign2Code(e, sandbox);
      case 'chartmimic': return await gradeChartMimic(e, sandbox);
      case 'metric': return await gradeMetric(e, sandbox);
      case 'all': {
        const parts: EvaluationResult[] = [];
        for (const p of e.evaluators) parts.push(await evaluate(p, sandbox));
        const score = Math.min(...parts.map((p) => p.score));
        const passed = parts.every((p) => p.passed);
        return { kind: 'all', score, passed, parts, summary: parts.map((p) => `${p.kind}: ${p.summary}`).join(' | '), durationMs: Date.now() - t0 };
      }
      case 'any': {
        const parts: EvaluationResult[] = [];
        for (const p of e.evaluators) parts.push(await evaluate(p, sandbox));
        const score = Math.max(...parts.map((p) => p.score));
        const passed = parts.some((p) => p.passed);
        return { kind: 'any', score, passed, parts, summary: `any of: ${parts.map((p) => `${p.kind}: ${p.summary}`).join(' | ')}`, durationMs: Date.now() - t0 };
      }
    }
  } catch (err) {
    // A grader that cannot run is a failed grading, reported, never a crash of the run.
    return { kind: e.kind, score: 0, passed: false, summary: `grading failed: ${(err as Error).message}`, durationMs: Date.now() - t0 };
  }
}
