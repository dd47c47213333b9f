// The `sql` evaluator's query runner (host/evaluation/verifierScripts/sqlQuery.py) run by
// Debian's Python on a real SQLite file: a query may read and nothing else, one statement at a
// time, and nothing of the sqlite3 shell's dot-commands reaches a shell or a file.
import { strict as assert } from 'node:assert';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SCRIPT = join(__dirname, '../../../../host/evaluation/verifierScripts/sqlQuery.py');
const PYTHON = '/usr/bin/python3';

describe('sql evaluator: the query runner', () => {
  let dir: string;
  let db: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'pwp-sql-'));
    db = join(dir, 'library.sqlite');
    execFileSync(PYTHON, ['-c', `import sqlite3; c = sqlite3.connect(${JSON.stringify(db)}); c.executescript("CREATE TABLE books(id INTEGER, title TEXT, cover BLOB, score REAL); INSERT INTO books VALUES (1, 'Kokoro', x'ff00', 1.0), (2, 'Snow Country', NULL, 2.5);"); c.commit()`]);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  // As the grader runs it: the source through -c, the query in the environment.
  const run = (query: string) => {
    const r = spawnSync(PYTHON, ['-I', '-c', readFileSync(SCRIPT, 'utf8'), db], { env: { PWP_SQL_QUERY: query, PWP_SQL_TIMEOUT: '20' }, encoding: 'utf8' });
    return JSON.parse(r.stdout.trim()) as { rows?: unknown[][]; error?: string };
  };

  it('returns the rows of a read (blobs as hex, reals as numbers), with CTEs and a trailing semicolon', () => {
    assert.deepEqual(run('SELECT id, title, cover, score FROM books ORDER BY id;').rows, [[1, 'Kokoro', 'ff00', 1], [2, 'Snow Country', null, 2.5]]);
    assert.deepEqual(run('WITH t AS (SELECT COUNT(*) AS n FROM books) SELECT n FROM t').rows, [[2]]);
  });

  it("refuses the shell's dot-commands, a second statement, writes, ATTACH and PRAGMA", () => {
    for (const q of ['.read /etc/passwd', '.shell id', 'SELECT 1; SELECT 2', "SELECT 1; ATTACH '/tmp/x.db' AS x", 'DELETE FROM books',
      "ATTACH DATABASE '/etc/hostname' AS h", 'PRAGMA table_info(books)', "SELECT load_extension('x')", "SELECT readfile('/etc/passwd')"]) {
      const r = run(q);
      assert.equal(r.rows, undefined, `${q} ran: ${JSON.stringify(r)}`);
      assert.ok(r.error, q);
    }
    // The database is untouched.
    assert.deepEqual(run('SELECT COUNT(*) FROM books').rows, [[2]]);
  });

  it('stops a query that runs past its time', () => {
    const r = spawnSync(PYTHON, ['-I', '-c', readFileSync(SCRIPT, 'utf8'), db], {
      env: { PWP_SQL_QUERY: 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT COUNT(*) FROM c', PWP_SQL_TIMEOUT: '0.5' }, encoding: 'utf8',
    });
    assert.match(JSON.parse(r.stdout.trim()).error, /interrupt/i);
  });
});
