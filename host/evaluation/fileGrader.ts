// `files` and `diff` evaluators: the final workspace as the verifier holds it. The agent's files
// are read with a bound (AGENT_FILE_MAX) and compared with others by their digests, so no
// workspace is ever read whole.
import { createHash } from 'node:crypto';
import type { DiffEvaluator, FileCheck, FilesEvaluator } from './evaluatorSchema';
import { parseJsonWithComments } from './jsonWithComments';
import { anyOf, fromChecks, type CheckResult, type EvaluationResult } from './evaluationResult';
import { matchesAny } from './glob';
import { match } from './matcher';
import { compareFlowchart, MermaidSyntaxError, parseFlowchart } from './mermaidFlowchart';
import { AGENT_FILE_MAX, type Sandbox } from './verifier';

const trimLines = (s: string) => s.split('\n').map((l) => l.replace(/\s+$/, '')).join('\n').replace(/\s+$/, '');

/** The sha256 of each file under `dir` (through the sandbox's own listing where it has one). */
async function digestsOf(sandbox: Sandbox, dir: string): Promise<Map<string, string> | undefined> {
  if (sandbox.digests) return sandbox.digests(dir);
  const tree = await sandbox.readTree(dir);
  return tree && new Map([...tree].map(([p, c]) => [p, createHash('sha256').update(c).digest('hex')]));
}

async function checkFile(c: FileCheck, sandbox: Sandbox): Promise<CheckResult[]> {
  const buf = await sandbox.readFile(`/workspace/${c.path}`, { maxBytes: AGENT_FILE_MAX });
  const name = (what: string) => `${c.path}: ${what}`;
  const out: CheckResult[] = [];
  if (c.exists !== undefined) out.push({ name: name('exists'), ok: (buf !== undefined) === c.exists, why: buf ? 'the file exists' : 'no such file' });
  const needsContent = c.equals !== undefined || c.equalsHidden || c.contains || c.notContains || c.matches || c.notMatches || c.json !== undefined || c.diagram;
  if (!needsContent) return out;
  if (buf === undefined) return [...out, { name: name('content'), ok: false, why: 'no such file' }];
  const text = buf.toString('utf8');
  const norm = (s: string) => (c.ignoreTrailingWhitespace ? trimLines(s) : s);
  if (c.equals !== undefined) out.push({ name: name('equals'), ok: norm(text) === norm(c.equals), why: norm(text) === norm(c.equals) ? 'content as expected' : `content differs from the expected text (${firstDifference(norm(text), norm(c.equals))})` });
  if (c.equalsHidden) {
    const ref = await sandbox.readFile(`/pwp/hidden/${c.equalsHidden}`);
    const ok = ref !== undefined && norm(text) === norm(ref.toString('utf8'));
    out.push({ name: name(`equals hidden ${c.equalsHidden}`), ok, why: ok ? 'content as expected' : ref ? `content differs (${firstDifference(norm(text), norm(ref.toString('utf8')))})` : 'the reference is missing' });
  }
  for (const s of c.contains ?? []) out.push({ name: name(`contains ${JSON.stringify(s)}`), ok: text.includes(s), why: text.includes(s) ? 'found' : 'not found' });
  for (const s of c.notContains ?? []) out.push({ name: name(`does not contain ${JSON.stringify(s)}`), ok: !text.includes(s), why: text.includes(s) ? 'found' : 'not found' });
  for (const r of c.matches ?? []) { const ok = new RegExp(r, 'm').test(text); out.push({ name: name(`matches /${r}/`), ok, why: ok ? 'matches' : 'no match' }); }
  for (const r of c.notMatches ?? []) { const ok = !new RegExp(r, 'm').test(text); out.push({ name: name(`does not match /${r}/`), ok, why: ok ? 'no match' : 'matches' }); }
  if (c.json !== undefined) {
    const parsed = parseJsonWithComments(text);
    if (parsed.error) out.push({ name: name('json'), ok: false, why: `not valid JSON: ${parsed.error}` });
    else { const m = match(parsed.value, c.json, c.path); out.push({ name: name('json'), ok: m.ok, why: m.why }); }
  }
  if (c.diagram) {
    try {
      const r = compareFlowchart(parseFlowchart(text), c.diagram);
      out.push({ name: name('diagram'), ok: r.ok, why: r.why });
    } catch (err) {
      if (!(err instanceof MermaidSyntaxError)) throw err;
      out.push({ name: name('diagram'), ok: false, why: `not a Mermaid flowchart this check can read: ${err.message}` });
    }
  }
  return out;
}

/** Where two texts first differ, for people reading a failed check. */
export function firstDifference(actual: string, expected: string): string {
  const a = actual.split('\n');
  const e = expected.split('\n');
  for (let i = 0; i < Math.max(a.length, e.length); i++) {
    if (a[i] !== e[i]) return `line ${i + 1}: found ${JSON.stringify(a[i] ?? '<end of file>').slice(0, 120)}, expected ${JSON.stringify(e[i] ?? '<end of file>').slice(0, 120)}`;
  }
  return 'they differ';
}

export async function gradeFiles(e: FilesEvaluator, sandbox: Sandbox): Promise<EvaluationResult> {
  const t0 = Date.now();
  const checks = (await Promise.all(e.checks.map(async (c) => ('any' in c ? [anyOf(await Promise.all(c.any.map((a) => checkFile(a, sandbox))))] : checkFile(c, sandbox))))).flat();
  return fromChecks('files', checks, e.scoring, t0);
}

export async function gradeDiff(e: DiffEvaluator, sandbox: Sandbox): Promise<EvaluationResult> {
  const t0 = Date.now();
  const expected = await sandbox.readTree(`/pwp/hidden/${e.expected}`);
  const checks: CheckResult[] = [];
  if (!expected?.size) return fromChecks('diff', [{ name: 'expected files', ok: false, why: `hidden folder ${e.expected} is empty or missing` }], 'all', t0);
  const norm = (b: Buffer) => (e.ignoreTrailingWhitespace ? trimLines(b.toString('utf8')) : b.toString('utf8'));
  for (const [path, want] of expected) {
    const got = await sandbox.readFile(`/workspace/${path}`, { maxBytes: AGENT_FILE_MAX });
    if (got === undefined) checks.push({ name: path, ok: false, why: 'missing from the workspace' });
    else {
      const ok = norm(got) === norm(want);
      checks.push({ name: path, ok, why: ok ? 'as expected' : firstDifference(norm(got), norm(want)) });
    }
  }
  if (e.unchangedElsewhere) {
    const [initial, final, overlay] = await Promise.all(['/pwp/initial/workspace', '/workspace', '/pwp/hidden/workspace'].map((d) => digestsOf(sandbox, d)));
    // The verifier itself copied the task's hidden workspace files (tests) over the workspace.
    if (!initial) checks.push({ name: 'other files', ok: false, why: 'the verifier has no copy of the initial workspace' });
    else {
      const now = final ?? new Map<string, string>();
      const changed: string[] = [];
      // In path order: how a sandbox lists its files is not the grader's concern.
      for (const path of [...new Set([...initial.keys(), ...now.keys()])].sort()) {
        if (expected.has(path) || overlay?.has(path) || matchesAny(path, e.ignore)) continue;
        const a = initial.get(path);
        const b = now.get(path);
        if (!a || !b || a !== b) changed.push(`${path} (${!a ? 'added' : !b ? 'deleted' : 'changed'})`);
      }
      checks.push({ name: 'other files', ok: changed.length === 0, why: changed.length ? `unexpected changes: ${changed.slice(0, 10).join(', ')}` : 'unchanged' });
    }
  }
  return fromChecks('diff', checks, 'all', t0);
}
