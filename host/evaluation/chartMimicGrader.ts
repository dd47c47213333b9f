// `chartmimic` evaluators: ChartMimic's published low-level scores (metrics/chartMimicScore.ts)
// of the agent's script against the original script, both run traced (verifierScripts/chartTrace.py)
// by the image's Python and matplotlib in the verifier, plus the pixel similarity (SSIM) of the
// two renders. Colours the render does not show do not count (metrics/chartRender.ts), nor do
// texts the saved image does not show (the tracer hides each and looks at the pixels). The
// task's score is the mean of the four F1 scores and the pixel similarity; the GPT-4V score is
// reported as absent.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { coloursShown } from './metrics/chartRender';
import { GPT4V_ABSENT, chartMimicScores, type ChartTrace } from './metrics/chartMimicScore';
import type { ChartMimicEvaluator } from './evaluatorSchema';
import { componentList, tail, type EvaluationResult } from './evaluationResult';
import { structuralSimilarity } from './imageSimilarity';
import { prepareReference } from './referenceRun';
import { AGENT_FILE_MAX, type Sandbox } from './verifier';

/** The most a script scores with type and colour at 0: the other three of the five parts of the mean. */
const MAX_WITHOUT_TYPE_AND_COLOUR = 3 / 5;
const CHART_TRACE_PY = readFileSync(join(__dirname, 'verifierScripts', 'chartTrace.py'), 'utf8');
const traceArgv = (script: string) => ['/usr/bin/python3', '-I', '-c', CHART_TRACE_PY, script];

const RECORD = '@pwp-trace';
const START = /^@pwp-trace-start ([0-9a-f]{32})$/;

/** A traced run's report (its render as PNG), or why there is none; `tampering` when the channel carries records the tracer did not write. */
export type TraceReading = { trace: ChartTrace } | { missing: string } | { tampering: string };

/**
 * The tracer's report from its stdout: the first line is the tracer's start record with its
 * nonce, the report the one end record with that nonce. Any other line starting with
 * "@pwp-trace" (a second start, an end record with another nonce, a second report) was written
 * by something else than the tracer: tampering.
 */
export function readTrace(stdout: string): TraceReading {
  const lines = stdout.split('\n');
  const start = START.exec(lines[0] ?? '');
  if (!start) return { missing: 'the tracer did not start' };
  const end = `${RECORD}-end ${start[1]} `;
  const records = lines.slice(1).filter((l) => l.startsWith(RECORD));
  const foreign = records.filter((l) => !l.startsWith(end));
  if (foreign.length) return { tampering: `the script wrote ${foreign.length} record${foreign.length > 1 ? 's' : ''} of its own on the trace channel: ${foreign[0].slice(0, 120)}` };
  if (records.length > 1) return { tampering: `${records.length} reports carry the tracer's nonce` };
  if (!records.length) return { missing: 'the tracer wrote no report' };
  try { return { trace: JSON.parse(records[0].slice(end.length)) as ChartTrace }; } catch { return { tampering: 'the report carrying the tracer\'s nonce is not its JSON' }; }
}

/** The program's own output: stdout without the tracer's records. */
const ownOutput = (stdout: string) => stdout.split('\n').filter((l) => !l.startsWith(RECORD)).join('\n');

export async function gradeChartMimic(e: ChartMimicEvaluator, sandbox: Sandbox): Promise<EvaluationResult> {
  const t0 = Date.now();
  const fail = (summary: string, output?: EvaluationResult['output'], tampering?: string): EvaluationResult => ({
    kind: 'chartmimic',
    score: 0,
    passed: false,
    summary,
    output,
    ...(tampering ? { tampering: { reason: tampering, findings: [] } } : {}),
    durationMs: Date.now() - t0,
  });
  if (!(await sandbox.readFile(`/workspace/${e.script}`, { maxBytes: AGENT_FILE_MAX }))) return fail(`${e.script} does not exist`);
  const ref = await prepareReference(sandbox, e.reference);
  const r = await ref.run(traceArgv(`/pwp/hidden/${e.reference}`), { timeoutSec: e.timeoutSec, env: { HOME: ref.dir, MPLBACKEND: 'Agg', MPLCONFIGDIR: `${ref.dir}/.mpl` } });
  const goldenRead = readTrace(r.stdout);
  if (!('trace' in goldenRead)) return fail(`tracing the reference script failed (exit code ${r.exitCode}): ${tail(r.stderr, 500).trim()}`);
  const golden = goldenRead.trace;
  if (golden.error || !golden.render) return fail(`the reference script failed: ${golden.error ?? 'no render'}`);
  const c = await sandbox.exec(traceArgv(`/workspace/${e.script}`), { timeoutSec: e.timeoutSec, env: { HOME: '/tmp', MPLBACKEND: 'Agg', MPLCONFIGDIR: '/tmp/mpl' } });
  const output = { exitCode: c.exitCode, timedOut: c.timedOut, stdoutTail: tail(ownOutput(c.stdout), 1000), stderrTail: tail(c.stderr, 2000) };
  const read = readTrace(c.stdout);
  if ('tampering' in read) return fail(`tampering suspected: ${read.tampering}`, output, `tampering suspected: ${read.tampering}`);
  if ('missing' in read) return fail(`running ${e.script} traced gave no result (${read.missing}; exit code ${c.exitCode}${c.timedOut ? ', timed out' : ''})`, output);
  const generated = read.trace;
  const goldenPng = Buffer.from(golden.render, 'base64');
  const generatedPng = generated.render ? Buffer.from(generated.render, 'base64') : undefined;
  let visual = 0;
  let unseen: [string, string][] = [];
  let generatedColors: [string, string][] = [];
  try {
    if (generatedPng && !generated.error) {
      visual = await structuralSimilarity(generatedPng, goldenPng);
      ({ shown: generatedColors, unseen } = await coloursShown(generated.colors, generatedPng));
    }
  } catch (err) { return fail(`the render of ${e.script} is not a readable image: ${(err as Error).message}`, output); }
  const goldenColors = (await coloursShown(golden.colors, goldenPng)).shown;
  const s = chartMimicScores({ ...generated, colors: generatedColors }, { ...golden, colors: goldenColors });
  const score = (s.text.f1 + s.layout.f1 + s.type.f1 + s.color.f1 + visual) / 5;
  const components = [
    { name: 'text', value: s.text.f1 }, { name: 'layout', value: s.layout.f1 },
    { name: 'type', value: s.type.f1 }, { name: 'colour', value: s.color.f1 },
    { name: 'visual (SSIM)', value: visual },
    { name: 'GPT-4V', value: null, absent: GPT4V_ABSENT },
  ];
  const passed = score >= e.threshold;
  // A reference that calls no plotting function the trace knows (a Venn diagram of
  // matplotlib_venn's path patches) scores 0 on type and colour for any script, the original
  // included, as in ChartMimic's own evaluator: left at 0 (leaving them out lets a different
  // chart with the same labels pass on text, layout and SSIM), and said, since the row then
  // cannot reach a threshold above 0.6.
  const untracedWhy = !Object.keys(golden.types).length && !goldenColors.length
    ? 'the original script draws nothing ChartMimic\'s evaluator traces as a chart type or colour, so those score 0 for any script, the original included' : undefined;
  const untraced = untracedWhy ? `; ${untracedWhy}` : '';
  const notShown = unseen.length ? `; ${unseen.length} traced colour${unseen.length > 1 ? 's' : ''} not in the render, not counted (${unseen.slice(0, 3).map((u) => u[1]).join(', ')})` : '';
  const hiddenTexts = generated.error ? [] : generated.unseenTexts ?? [];
  const textsNotShown = (hiddenTexts.length ? `; ${hiddenTexts.length} drawn text${hiddenTexts.length > 1 ? 's' : ''} not shown in the saved image, not counted (${hiddenTexts.slice(0, 3).map((t) => JSON.stringify(t.slice(0, 40))).join(', ')})` : '')
    + (generated.textCheck ? `; which texts the image shows could not be checked (${generated.textCheck}), so none counts` : '');
  return {
    kind: 'chartmimic', score, passed, components, output,
    // Type and colour are two of the mean's parts: at 0 the original cannot reach a threshold above what the rest can give.
    ...(untracedWhy && e.threshold > MAX_WITHOUT_TYPE_AND_COLOUR ? { unreachable: `${untracedWhy}: no script reaches the threshold ${e.threshold}` } : {}),
    summary: `${generated.error ? `${e.script} failed (${generated.error.slice(0, 200)}), so nothing it drew counts; ` : ''}ChartMimic score ${score.toFixed(3)} (mean of ${componentList(components)}${notShown}${textsNotShown}${untraced}); ${passed ? 'at or above' : 'below'} the threshold ${e.threshold}`,
    durationMs: Date.now() - t0,
  };
}
