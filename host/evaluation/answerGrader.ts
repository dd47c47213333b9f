// `answer` evaluators: the agent's final answer against the expected one.
import type { AnswerEvaluator } from './evaluatorSchema';
import type { EvaluationResult } from './evaluationResult';
import { AGENT_FILE_MAX, type Sandbox } from './verifier';

/** Trimmed, outer quotes or backticks and a final full stop dropped, runs of spaces made one. */
export function normalizeAnswer(s: string): string {
  let t = s.trim().replace(/\s+/g, ' ');
  for (;;) {
    const m = /^(["'`])([\s\S]*)\1$/.exec(t);
    const next = (m ? m[2] : t).trim().replace(/\.$/, '').trim();
    if (next === t) return t;
    t = next;
  }
}

/** The first number in the text (an answer like "about 42.5 ms" gives 42.5). */
export function firstNumber(s: string): number | undefined {
  const m = /[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?/.exec(s.replace(/(\d),(\d{3})/g, '$1$2'));
  return m ? Number(m[0]) : undefined;
}

export function checkAnswer(e: AnswerEvaluator, answer: string): { ok: boolean; why: string } {
  const got = normalizeAnswer(answer);
  if (!got) return { ok: false, why: 'no answer was given' };
  const shown = JSON.stringify(got.length > 200 ? `${got.slice(0, 200)}…` : got);
  const fold = (s: string) => (e.caseSensitive ? s : s.toLowerCase());
  switch (e.match) {
    case 'exact': {
      const ok = fold(got) === fold(normalizeAnswer(String(e.expected)));
      return { ok, why: ok ? `answered ${shown}` : `answered ${shown}, expected ${JSON.stringify(String(e.expected))}` };
    }
    case 'contains': {
      const ok = fold(got).includes(fold(String(e.expected)));
      return { ok, why: ok ? `answered ${shown}` : `answered ${shown}, which does not contain ${JSON.stringify(String(e.expected))}` };
    }
    case 'regex': {
      const ok = new RegExp(String(e.expected), e.caseSensitive ? '' : 'i').test(got);
      return { ok, why: ok ? `answered ${shown}` : `answered ${shown}, which does not match /${String(e.expected)}/` };
    }
    case 'numeric': {
      const n = firstNumber(got);
      const want = Number(e.expected);
      if (n === undefined) return { ok: false, why: `answered ${shown}, which has no number` };
      const ok = Math.abs(n - want) <= e.tolerance;
      return { ok, why: ok ? `answered ${n}` : `answered ${n}, expected ${want}${e.tolerance ? ` ± ${e.tolerance}` : ''}` };
    }
  }
}

export async function gradeAnswer(e: AnswerEvaluator, sandbox: Sandbox): Promise<EvaluationResult> {
  const t0 = Date.now();
  const answer = (await sandbox.readFile('/pwp/answer.txt', { maxBytes: AGENT_FILE_MAX }))?.toString('utf8') ?? '';
  const r = checkAnswer(e, answer);
  return { kind: 'answer', score: r.ok ? 1 : 0, passed: r.ok, summary: r.why, checks: [{ name: 'answer', ...r }], durationMs: Date.now() - t0 };
}
