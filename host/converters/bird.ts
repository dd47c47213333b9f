// BIRD-style text-to-SQL (BIRD dev/train, Spider in the same form): a JSON list of questions
// ({question_id, db_id, question, evidence, SQL, difficulty}; Spider's `query` is accepted for
// SQL) and a folder of SQLite databases, <databases>/<db_id>/<db_id>.sqlite. Each question is a
// task: the agent's workspace is the database's folder, it writes its query to answer.sql, and
// the verifier runs that and the gold query on fresh copies of the pristine database and
// compares the result rows as sets (BIRD's execution accuracy). The oracle writes the gold
// query. The databases are copied once per database, not once per question.
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Task } from '../taskEnv/loadTask';
import { requireStrings, taskId, writeTaskFolder } from './taskWriter';

export interface BirdQuestion { question_id?: number | string; db_id: string; question: string; evidence?: string; SQL?: string; query?: string; difficulty?: string }

export interface BirdOptions { outRoot: string; databases: string; suite?: string; limit?: number; image?: string }

export function convertBird(file: string, o: BirdOptions): Task[] {
  let questions: BirdQuestion[];
  try { questions = JSON.parse(readFileSync(file, 'utf8')) as BirdQuestion[]; } catch (err) { throw new Error(`${file}: not JSON (${(err as Error).message})`, { cause: err }); }
  if (!Array.isArray(questions)) throw new Error(`${file}: expected a JSON list of questions`);
  const suite = o.suite ?? 'bird';
  const copied = new Set<string>();
  const chosen = questions.slice(0, o.limit ?? questions.length);
  const whereOf = (q: BirdQuestion, i: number) => `${file}: question ${q?.question_id ?? i}`;
  // Every question is checked before anything is written, so bad input changes nothing.
  chosen.forEach((q, i) => {
    requireStrings(q, ['db_id', 'question'], whereOf(q, i), ['SQL', 'query', 'evidence', 'difficulty']);
    if (!q.SQL && !q.query) throw new Error(`${whereOf(q, i)}: missing field "SQL" (or Spider's "query")`);
    const db = join(o.databases, q.db_id, `${q.db_id}.sqlite`);
    if (!existsSync(db)) throw new Error(`${whereOf(q, i)}: no database at ${db}`);
  });
  return chosen.map((q, i) => {
    const gold = (q.SQL ?? q.query)!;
    const db = join(o.databases, q.db_id, `${q.db_id}.sqlite`);
    // Shared by the suite's tasks: the agent's copy (workspace) and the verifier's pristine copy.
    if (!copied.has(q.db_id)) {
      for (const part of ['_databases', '_pristine']) {
        mkdirSync(join(o.outRoot, suite, part, q.db_id), { recursive: true });
        copyFileSync(db, join(o.outRoot, suite, part, q.db_id, `${q.db_id}.sqlite`));
      }
      copied.add(q.db_id);
    }
    const evidence = q.evidence?.trim() ? `\n\nKnown facts: ${q.evidence.trim()}` : '';
    return writeTaskFolder(o.outRoot, {
      task: {
        id: taskId(`${q.db_id}-${q.question_id ?? i}`),
        suite,
        instruction: `The SQLite database ${q.db_id}.sqlite is in the workspace. Write one SQL query that answers this question, and save it in answer.sql:\n\n${q.question.trim()}${evidence}`,
        ...(o.image ? { image: o.image } : {}),
        workspace: `../_databases/${q.db_id}`,
        hidden: `../_pristine/${q.db_id}`,
        evaluator: { kind: 'sql', database: `${q.db_id}.sqlite`, goldQuery: gold, predicted: { file: 'answer.sql' } },
        oracle: { steps: [{ tool: 'write_file', args: { file_path: 'answer.sql', contents: `${gold.trim()}\n` }, note: 'the gold query' }] },
        limits: { steps: 100, seconds: 900 },
        tags: ['dataset:bird', `db:${q.db_id}`, ...(q.difficulty ? [`difficulty:${q.difficulty}`] : [])],
      },
    });
  });
}
