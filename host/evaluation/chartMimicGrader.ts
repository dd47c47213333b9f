// `chartmimic` evaluators: ChartMimic's published low-level scores (metrics/chartMimicScore.ts)
// of the agent's script against the original script, both run traced (verifierScripts/chartTrace.py)
// by the image's Python and matplotlib in the verifier. The task's score is the mean of the
// four F1 scores (ChartMimic's low-level score); the GPT-4V score is reported as absent.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GPT4V_ABSENT, chartMimicScores, type ChartTrace } from './metrics/chartMimicScore';
import type { ChartMimicEvaluator } from './evaluatorSchema';
import { componentList, tail, type EvaluationResult } from './evaluationResult';
import { markedJson, prepareReference } from './referenceRun';
import type { Sandbox } from './verifier';

const CHART_TRACE_PY = readFileSync(join(__dirname, 'verifierScripts', 'chartTrace.py'), 'utf8');
const traceArgv = (marker: string, script: string) => ['/usr/bin/python3', '-I', '-c', CHART_TRACE_PY, marker, script];

export async function gradeChartMimic(e: ChartMimicEvaluator, sandbox: Sandbox): Promise<EvaluationResult> {
  const t0 = Date.now();
  const fail = (summary: string, output?: EvaluationResult['output']): EvaluationResult => ({
    kind: 'chartmimic',
    score: 0,
    passed: false,
    summary,
    output,
    durationMs: Date.now() - t0,
  });
  const marker = `@pwp-trace-${randomUUID()}@`;
  if (!(await sandbox.readFile(`/workspace/${e.script}`))) return fail(`${e.script} does not exist`);
  const ref = await prepareReference(sandbox, e.reference);
  const r = await ref.run(traceArgv(marker, `/pwp/hidden/${e.reference}`), { timeoutSec: e.timeoutSec, env: { HOME: ref.dir, MPLBACKEND: 'Agg', MPLCONFIGDIR: `${ref.dir}/.mpl` } });
  let golden: ChartTrace;
  try { golden = markedJson(r.stdout, marker) as ChartTrace; } catch { return fail(`tracing the reference script failed (exit code ${r.exitCode}): ${tail(r.stderr, 500).trim()}`); }
  if (golden.error) return fail(`the reference script failed: ${golden.error}`);
  const c = await sandbox.exec(traceArgv(marker, `/workspace/${e.script}`), { timeoutSec: e.timeoutSec, env: { HOME: '/tmp', MPLBACKEND: 'Agg', MPLCONFIGDIR: '/tmp/mpl' } });
  const output = { exitCode: c.exitCode, timedOut: c.timedOut, stdoutTail: tail(c.stdout.split('\n').filter((l) => !l.startsWith(marker)).join('\n'), 1000), stderrTail: tail(c.stderr, 2000) };
  let generated: ChartTrace;
  try { generated = markedJson(c.stdout, marker) as ChartTrace; } catch { return fail(`running ${e.script} traced gave no result (exit code ${c.exitCode}${c.timedOut ? ', timed out' : ''})`, output); }
  const s = chartMimicScores(generated, golden);
  const score = (s.text.f1 + s.layout.f1 + s.type.f1 + s.color.f1) / 4;
  const components = [
    { name: 'text', value: s.text.f1 }, { name: 'layout', value: s.layout.f1 },
    { name: 'type', value: s.type.f1 }, { name: 'colour', value: s.color.f1 },
    { name: 'GPT-4V', value: null, absent: GPT4V_ABSENT },
  ];
  const passed = score >= e.threshold;
  return {
    kind: 'chartmimic', score, passed, components, output,
    summary: `${generated.error ? `${e.script} failed (${generated.error.slice(0, 200)}), so nothing it drew counts; ` : ''}ChartMimic low-level score ${score.toFixed(3)} (mean of the F1 of ${componentList(components)}); ${passed ? 'at or above' : 'below'} the threshold ${e.threshold}`,
    durationMs: Date.now() - t0,
  };
}
