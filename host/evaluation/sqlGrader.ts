// `sql` evaluators (BIRD-style execution accuracy): the agent's query and the gold query run on
// the pristine database in the verifier, read-only, and their result rows are compared as sets
// (as BIRD does), or as lists when order matters. Each query runs through SQLite's library in
// verifierScripts/sqlQuery.py (one statement, read-only, no shell dot-commands); the gold query
// runs as root with the query in its environment, so nothing the IDE user runs can read it.
// The agent's query runs as the IDE user on a root-owned copy of the database outside the
// hidden folder, which is root's alone (Verifier.load).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SqlEvaluator } from './evaluatorSchema';
import { tail, type EvaluationResult } from './evaluationResult';
import { AGENT_FILE_MAX, type Sandbox } from './verifier';

const SQL_QUERY_PY = readFileSync(join(__dirname, 'verifierScripts', 'sqlQuery.py'), 'utf8');

/** Runs one query on the database and returns its rows as value tuples. */
async function runQuery(sandbox: Sandbox, database: string, query: string, user: 'root' | undefined, timeoutSec: number): Promise<{ rows?: unknown[][]; error?: string }> {
  const r = await sandbox.exec(['/usr/bin/python3', '-I', '-c', SQL_QUERY_PY, database], {
    cwd: '/tmp', timeoutSec: timeoutSec + 10, env: { PWP_SQL_QUERY: query, PWP_SQL_TIMEOUT: String(timeoutSec) }, ...(user ? { user } : {}),
  });
  if (r.timedOut) return { error: `timed out after ${timeoutSec} s` };
  let out: { rows?: unknown[][]; error?: string };
  try {
    out = JSON.parse(r.stdout.trim().split('\n').pop() ?? '') as typeof out;
  } catch {
    return { error: tail(r.stderr.trim() || `exit code ${r.exitCode}`, 500) };
  }
  return out.rows ? { rows: out.rows } : { error: tail(out.error ?? `exit code ${r.exitCode}`, 500) };
}

export function sameRows(a: unknown[][], b: unknown[][], ordered: boolean): boolean {
  const key = (r: unknown[]) => JSON.stringify(r);
  if (ordered) return a.length === b.length && a.every((r, i) => key(r) === key(b[i]));
  const sa = new Set(a.map(key));
  const sb = new Set(b.map(key));
  return sa.size === sb.size && [...sa].every((k) => sb.has(k));
}

export async function gradeSql(e: SqlEvaluator, sandbox: Sandbox): Promise<EvaluationResult> {
  const t0 = Date.now();
  const fail = (summary: string): EvaluationResult => ({ kind: 'sql', score: 0, passed: false, summary, durationMs: Date.now() - t0 });
  const predictedFile = e.predicted === 'answer' ? '/pwp/answer.txt' : `/workspace/${e.predicted.file}`;
  const predicted = (await sandbox.readFile(predictedFile, { maxBytes: AGENT_FILE_MAX }))?.toString('utf8').trim();
  if (!predicted) return fail(e.predicted === 'answer' ? 'no query was given as the answer' : `${e.predicted.file} is missing or empty`);
  // Answers often come fenced as ```sql … ```: run what is inside.
  const fenced = /```(?:sql)?\s*([\s\S]*?)```/i.exec(predicted);
  const query = (fenced ? fenced[1] : predicted).trim();
  const db = `/pwp/hidden/${e.database}`;
  const copy = `/pwp/sql/${e.database.split('/').pop()}`;
  const copied = await sandbox.exec(['sh', '-c', 'mkdir -p -m 755 /pwp/sql && cp "$1" "$2" && chmod 644 "$2"', 'copy', db, copy], { user: 'root', cwd: '/' });
  if (copied.exitCode !== 0) return fail(`the database ${e.database} cannot be read: ${copied.stderr.trim()}`);
  let goldQuery = e.goldQuery;
  if (goldQuery === undefined) {
    const file = await sandbox.readFile(`/pwp/hidden/${e.gold}`);
    if (!file) return fail(`the gold query file ${e.gold} is missing`);
    goldQuery = file.toString('utf8');
  }
  const gold = await runQuery(sandbox, db, goldQuery, 'root', e.timeoutSec);
  if (!gold.rows) return fail(`the gold query failed: ${gold.error}`);
  const got = await runQuery(sandbox, copy, query, undefined, e.timeoutSec);
  if (!got.rows) return fail(`the query failed: ${got.error}`);
  const ok = sameRows(got.rows, gold.rows, e.ordered);
  return {
    kind: 'sql', score: ok ? 1 : 0, passed: ok,
    summary: ok ? `same ${gold.rows.length} result rows as the gold query` : `different results: ${got.rows.length} rows (${JSON.stringify(got.rows.slice(0, 3))}…), gold has ${gold.rows.length} (${JSON.stringify(gold.rows.slice(0, 3))}…)`,
    durationMs: Date.now() - t0,
  };
}
