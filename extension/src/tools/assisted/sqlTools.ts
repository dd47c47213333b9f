// test_sql and get_relevant_schemas (PwP): a SQLite database of the workspace, read-only.
import { z } from 'zod';
import { defineTool } from '../toolRegistry';
import { ToolError } from '../toolError';
import type { ToolServices } from '../toolServices';
import { formatStatements, sqlite, type SqliteSchemaEntry } from '../sqlite';
import { queryTerms } from '../search';

async function dbPath(s: ToolServices, p: string): Promise<string> {
  const abs = s.paths.resolve(p, 'database_path');
  if (!(await s.files.exists(abs))) throw new ToolError(`database not found: ${p}`, 'NotFound');
  return abs;
}

export function testSqlTool(s: ToolServices) {
  return defineTool({
    name: 'test_sql',
    group: 'assisted',
    effects: 'read',
    description: 'Run SQL against a SQLite database of the workspace without changing it (opened read-only) and return ' +
      'the rows, or the error. Use it to check a query before putting it in code.',
    params: z.object({
      database_path: z.string().min(1),
      query: z.string().min(1),
      max_rows: z.int().min(1).max(10_000).default(100),
    }).strict(),
    timeoutMs: 60_000,
    run: async (a, ctx) => {
      const res = await sqlite({ db: await dbPath(s, a.database_path), query: a.query, readonly: true, maxRows: a.max_rows }, s.env, s.paths.root, ctx.signal);
      const body = formatStatements(res) || 'ok';
      return res.error ? { isError: true, content: [{ type: 'text', text: body }] } : body;
    },
  });
}

/** Tables ranked by how many of the question's words their names and columns contain. */
export function rankTables(tables: SqliteSchemaEntry[], question: string): SqliteSchemaEntry[] {
  const terms = queryTerms(question).map((t) => t.replace(/s$/, ''));
  const score = (t: SqliteSchemaEntry) => {
    const names = [t.name, ...(t.columns ?? []).map((c) => c.name)].map((n) => n.toLowerCase());
    return terms.reduce((n, term) => n + (t.name.toLowerCase().includes(term) ? 3 : 0) + names.filter((x) => x.includes(term)).length, 0);
  };
  return tables.map((t) => ({ t, s: score(t) })).sort((a, b) => b.s - a.s || a.t.name.localeCompare(b.t.name)).map((x) => x.t);
}

export function relevantSchemasTool(s: ToolServices) {
  return defineTool({
    name: 'get_relevant_schemas',
    group: 'assisted',
    effects: 'read',
    description: 'The schema of a SQLite database of the workspace: tables and views with columns, keys, foreign keys ' +
      'and row counts. With question, the tables most related to it come first (at most max_tables).',
    params: z.object({
      database_path: z.string().min(1),
      question: z.string().optional(),
      max_tables: z.int().min(1).max(500).default(20),
    }).strict(),
    timeoutMs: 60_000,
    run: async (a, ctx) => {
      const res = await sqlite({ db: await dbPath(s, a.database_path), readonly: true, schema: true }, s.env, s.paths.root, ctx.signal);
      if (res.error) throw new ToolError(`cannot read the schema: ${res.error}`, 'QueryFailed');
      const tables = (res.schema ?? []).filter((t) => t.type !== 'index');
      const ordered = (a.question ? rankTables(tables, a.question) : tables).slice(0, a.max_tables);
      if (!ordered.length) return 'The database has no tables.';
      return ordered.map((t) => {
        const cols = (t.columns ?? []).map((c) => `  ${c.name} ${c.type || 'ANY'}${c.pk ? ' PRIMARY KEY' : ''}${c.notnull ? ' NOT NULL' : ''}`);
        const fks = (t.foreign_keys ?? []).map((f) => `  FOREIGN KEY ${f.column} -> ${f.references}`);
        return `${t.type} ${t.name} (${t.rows ?? '?'} rows)\n${[...cols, ...fks].join('\n')}\n${t.sql ?? ''}`;
      }).join('\n\n') + (tables.length > ordered.length ? `\n\n[${tables.length - ordered.length} more tables not shown]` : '');
    },
  });
}
