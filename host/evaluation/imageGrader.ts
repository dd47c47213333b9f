// `image` evaluators: make the candidate image in the verifier (render an HTML file with the
// image's Chromium, or run the agent's plotting code), then compare it with the hidden
// reference on the host (imageSimilarity.ts).
import type { ImageEvaluator } from './evaluatorSchema';
import { tail, type EvaluationResult } from './evaluationResult';
import { imageSimilarity } from './imageSimilarity';
import { AGENT_FILE_MAX, type Sandbox } from './verifier';

const RENDERED = '/pwp/out/candidate.png';

/** Chromium flags for a one-shot screenshot of a local page, offline. */
export function renderArgv(htmlPath: string, width: number, height: number, out: string): string[] {
  return [
    'chromium', '--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--hide-scrollbars',
    '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync',
    '--force-device-scale-factor=1', '--user-data-dir=/tmp/pwp-render-profile',
    `--window-size=${width},${height}`, `--screenshot=${out}`, `file://${htmlPath}`,
  ];
}

export async function gradeImage(e: ImageEvaluator, sandbox: Sandbox): Promise<EvaluationResult> {
  const t0 = Date.now();
  const fail = (summary: string, output?: EvaluationResult['output']): EvaluationResult => ({
    kind: 'image',
    score: 0,
    passed: false,
    similarity: 0,
    summary,
    output,
    durationMs: Date.now() - t0,
  });
  let candidate: Buffer | undefined;
  let output: EvaluationResult['output'];
  const c = e.candidate;
  if ('html' in c) {
    if (!(await sandbox.readFile(`/workspace/${c.html}`, { maxBytes: AGENT_FILE_MAX }))) return fail(`${c.html} does not exist`);
    const r = await sandbox.exec(renderArgv(`/workspace/${c.html}`, c.width, c.height, RENDERED), { timeoutSec: 60, env: { HOME: '/tmp' } });
    output = { exitCode: r.exitCode, timedOut: r.timedOut, stdoutTail: tail(r.stdout, 1000), stderrTail: tail(r.stderr, 2000) };
    candidate = await sandbox.readFile(RENDERED, { maxBytes: AGENT_FILE_MAX });
    if (!candidate) return fail(`rendering ${c.html} produced no image (exit code ${r.exitCode})`, output);
  } else if ('command' in c) {
    const r = await sandbox.exec(c.command, { timeoutSec: c.timeoutSec, env: { HOME: '/tmp', MPLBACKEND: 'Agg', MPLCONFIGDIR: '/tmp/mpl' } });
    output = { exitCode: r.exitCode, timedOut: r.timedOut, stdoutTail: tail(r.stdout, 1000), stderrTail: tail(r.stderr, 2000) };
    candidate = await sandbox.readFile(`/workspace/${c.output}`, { maxBytes: AGENT_FILE_MAX });
    if (!candidate) return fail(`${c.command.join(' ')} exited with ${r.exitCode} and wrote no ${c.output}`, output);
  } else {
    candidate = await sandbox.readFile(`/workspace/${c.file}`, { maxBytes: AGENT_FILE_MAX });
    if (!candidate) return fail(`${c.file} does not exist`);
  }
  const reference = await sandbox.readFile(`/pwp/hidden/${e.reference}`);
  if (!reference) return fail(`the reference image ${e.reference} is missing`);
  let s;
  try { s = await imageSimilarity(candidate, reference); } catch (err) { return fail(`the candidate is not a readable image: ${(err as Error).message}`, output); }
  const passed = s.score >= e.threshold;
  return {
    kind: 'image', score: s.score, passed, similarity: s.score, output,
    summary: `similarity ${s.score.toFixed(3)} (foreground overlap ${s.foregroundIoU.toFixed(3)}, colour agreement ${s.colorAgreement.toFixed(3)}); ${passed ? 'at or above' : 'below'} the threshold ${e.threshold}`,
    durationMs: Date.now() - t0,
  };
}
