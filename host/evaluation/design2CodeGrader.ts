// `design2code` evaluators: Design2Code's published low-level scores (metrics/design2CodeScore.ts)
// of the agent's page against the original page, both rendered by the image's Chromium at
// the task's viewport in the verifier (metrics/design2CodeBlocks.ts), counting only the text the
// render shows (metrics/visibleText.ts), plus the pixel similarity of the two renders (SSIM, in
// the place of the reference's CLIP similarity, which is reported as absent). The task's score
// is the mean of those five.
import { BLOCKS_DRIVER_JS } from './metrics/design2CodeBlocks';
import { CLIP_ABSENT, design2CodeScores } from './metrics/design2CodeScore';
import { composeScreens, type RenderedPage } from './metrics/pageRender';
import { hiddenSummary, visibleBlocks } from './metrics/visibleText';
import type { Design2CodeEvaluator } from './evaluatorSchema';
import { componentList, tail, type EvaluationResult } from './evaluationResult';
import { structuralSimilarity } from './imageSimilarity';
import { markedJson, prepareReference } from './referenceRun';
import { AGENT_FILE_MAX, type Sandbox } from './verifier';

function blocksArgv(path: string, e: Design2CodeEvaluator): string[] {
  return ['node', '-e', BLOCKS_DRIVER_JS, path, String(e.width), String(e.height), 'chromium'];
}

/** The page's render and the blocks it shows. */
async function seen(page: RenderedPage) {
  const render = await composeScreens(page);
  return { render, text: visibleBlocks(page.blocks, render, page) };
}

export async function gradeDesign2Code(e: Design2CodeEvaluator, sandbox: Sandbox): Promise<EvaluationResult> {
  const t0 = Date.now();
  const fail = (summary: string, output?: EvaluationResult['output']): EvaluationResult => ({
    kind: 'design2code',
    score: 0,
    passed: false,
    summary,
    output,
    durationMs: Date.now() - t0,
  });
  if (!(await sandbox.readFile(`/workspace/${e.html}`, { maxBytes: AGENT_FILE_MAX }))) return fail(`${e.html} does not exist`);
  const ref = await prepareReference(sandbox, e.reference);
  const r = await ref.run(blocksArgv(`/pwp/hidden/${e.reference}`, e), { timeoutSec: 120, env: { HOME: ref.dir } });
  if (r.exitCode !== 0) return fail(`rendering the reference page failed: ${tail(r.stderr, 500).trim()}`);
  const reference = await seen(markedJson(r.stdout) as RenderedPage);
  const c = await sandbox.exec(blocksArgv(`/workspace/${e.html}`, e), { timeoutSec: 120, env: { HOME: '/tmp' } });
  const output = { exitCode: c.exitCode, timedOut: c.timedOut, stdoutTail: '', stderrTail: tail(c.stderr, 2000) };
  if (c.exitCode !== 0) return fail(`rendering ${e.html} failed (exit code ${c.exitCode})`, output);
  let candidate: Awaited<ReturnType<typeof seen>>;
  try { candidate = await seen(markedJson(c.stdout) as RenderedPage); } catch (err) { return fail(`rendering ${e.html} gave no blocks: ${(err as Error).message}`, output); }
  const s = design2CodeScores(candidate.text.blocks, reference.text.blocks);
  const visual = await structuralSimilarity(candidate.render, reference.render);
  const score = (s.blockMatch + s.text + s.position + s.color + visual) / 5;
  const components = [
    { name: 'block-match', value: s.blockMatch }, { name: 'text', value: s.text },
    { name: 'position', value: s.position }, { name: 'colour', value: s.color },
    { name: 'visual (SSIM)', value: visual },
    { name: 'CLIP', value: null, absent: CLIP_ABSENT },
  ];
  const passed = score >= e.threshold;
  const hidden = hiddenSummary(candidate.text);
  return {
    kind: 'design2code', score, passed, components, output,
    summary: `Design2Code score ${score.toFixed(3)} (mean of ${componentList(components)}; ${s.matched.length} of ${s.candidateBlocks} blocks matched to the reference's ${s.referenceBlocks}`
      + `${hidden ? `; ${hidden}, not counted` : ''}); ${passed ? 'at or above' : 'below'} the threshold ${e.threshold}`,
    durationMs: Date.now() - t0,
  };
}
