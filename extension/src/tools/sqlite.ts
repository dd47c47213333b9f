// SQLite through python3's sqlite3 module (in the image): one process per query, JSON in and
// out. Read-only opens use a URI with mode=ro, so test queries cannot change the database.
import { runProcess } from './processRunner';
import { ToolError } from './toolError';

const SCRIPT = String.raw`
import json, sqlite3, sys
req = json.load(sys.stdin)
uri = "file:" + req["db"] + ("?mode=ro" if req["readonly"] else "?mode=rwc")
con = sqlite3.connect(uri, uri=True, timeout=5)
out = {"statements": []}
try:
    if req.get("schema"):
        rows = con.execute("select type, name, tbl_name, sql from sqlite_master where type in ('table','view','index') and name not like 'sqlite_%' order by type desc, name").fetchall()
        tables = []
        for t, name, tbl, sql in rows:
            entry = {"type": t, "name": name, "table": tbl, "sql": sql}
            if t in ("table", "view"):
                entry["columns"] = [{"name": c[1], "type": c[2], "notnull": bool(c[3]), "pk": bool(c[5])} for c in con.execute("pragma table_info(%s)" % json.dumps(name))]
                entry["foreign_keys"] = [{"column": f[3], "references": f[2] + "." + str(f[4])}
                                         for f in con.execute("pragma foreign_key_list(%s)" % json.dumps(name))] if t == "table" else []
                try:
                    entry["rows"] = con.execute("select count(*) from %s" % json.dumps(name)).fetchone()[0]
                except sqlite3.Error:
                    entry["rows"] = None
            tables.append(entry)
        out["schema"] = tables
    else:
        buf = ""
        stmts = []
        for line in req["query"].splitlines(True):
            buf += line
            if sqlite3.complete_statement(buf):
                stmts.append(buf.strip()); buf = ""
        if buf.strip():
            stmts.append(buf.strip())
        for i, st in enumerate(stmts):
            cur = con.execute(st, req.get("params") or []) if len(stmts) == 1 else con.execute(st)
            entry = {"sql": st[:200]}
            if cur.description:
                rows = cur.fetchmany(req["max_rows"] + 1)
                entry["columns"] = [d[0] for d in cur.description]
                entry["more"] = len(rows) > req["max_rows"]
                entry["rows"] = [[v if isinstance(v, (int, float, str)) or v is None else repr(v) for v in r] for r in rows[: req["max_rows"]]]
            else:
                entry["rowcount"] = cur.rowcount
            out["statements"].append(entry)
        if not req["readonly"]:
            con.commit()
except sqlite3.Error as e:
    out["error"] = "%s: %s" % (type(e).__name__, e)
    out["failed_statement"] = len(out["statements"])
    con.rollback()
finally:
    con.close()
print(json.dumps(out))
`;

export interface SqliteStatement { sql: string; columns?: string[]; rows?: unknown[][]; more?: boolean; rowcount?: number }
export interface SqliteSchemaEntry {
  type: string; name: string; table: string; sql: string | null; columns?: { name: string; type: string; notnull: boolean; pk: boolean }[];
  foreign_keys?: { column: string; references: string }[]; rows?: number | null;
}
export interface SqliteResult { statements: SqliteStatement[]; schema?: SqliteSchemaEntry[]; error?: string; failed_statement?: number }

export async function sqlite(
  req: { db: string; query?: string; params?: unknown[]; readonly: boolean; maxRows?: number; schema?: boolean }, env: NodeJS.ProcessEnv, cwd: string,
  signal?: AbortSignal,
): Promise<SqliteResult> {
  const r = await runProcess('python3', ['-c', SCRIPT], { cwd, env, signal, timeoutMs: 60_000, input: JSON.stringify({ db: req.db, query: req.query ?? '', params: req.params ?? [], readonly: req.readonly, schema: !!req.schema, max_rows: req.maxRows ?? 200 }) });
  if (r.timedOut) throw new ToolError('the query did not finish within 60 s and was stopped', 'Timeout');
  try { return JSON.parse(r.stdout) as SqliteResult; } catch { throw new ToolError(`sqlite failed: ${r.stderr.trim().split('\n').slice(-1)[0] || `exit ${r.code}`}`, 'QueryFailed'); }
}

/** A result table as aligned text. */
export function formatTable(columns: string[], rows: unknown[][]): string {
  const cells = [columns, ...rows.map((r) => r.map((v) => (v === null ? 'NULL' : String(v)).replace(/\n/g, '\\n')))];
  const widths = columns.map((_, i) => Math.min(60, Math.max(...cells.map((r) => String(r[i] ?? '').length))));
  const line = (r: unknown[]) => r.map((v, i) => String(v ?? '').slice(0, 60).padEnd(widths[i])).join(' | ').trimEnd();
  return [line(cells[0]), widths.map((w) => '-'.repeat(w)).join('-+-'), ...cells.slice(1).map(line)].join('\n');
}

export function formatStatements(res: SqliteResult): string {
  const parts = res.statements.map((st) => {
    if (st.columns) return `${formatTable(st.columns, st.rows ?? [])}\n(${st.rows?.length ?? 0} row${st.rows?.length === 1 ? '' : 's'}${st.more ? ', more not shown' : ''})`;
    return `${st.sql.split('\n')[0].slice(0, 80)}: ${st.rowcount === -1 ? 'ok' : `${st.rowcount} row(s) affected`}`;
  });
  if (res.error) parts.push(`Error in statement ${(res.failed_statement ?? 0) + 1}: ${res.error}${res.statements.length ? ' (earlier statements ran; the transaction was rolled back)' : ''}`);
  return parts.join('\n\n');
}
