"""Runs one SQL query for the `sql` evaluator (host/evaluation/sqlGrader.ts) in the verifier.

    python3 -I sqlQuery.py DATABASE        the query comes in the environment, PWP_SQL_QUERY

Prints one JSON line: {"rows": [[value, ...], ...]} or {"error": "..."}.

Why a script and not the sqlite3 shell: the shell runs dot-commands (.read, .shell, .system)
written in the agent's text. Here the query goes to SQLite's library alone: exactly one
statement, on a read-only, immutable connection, and an authorizer that lets it read and
nothing else (no ATTACH, no PRAGMA, no writes, no loading extensions). The query travels in
the environment, not in argv: a process's command line is readable by every user of the
container, its environment only by its own user (the gold query runs as root).
"""
import json
import math
import os
import sqlite3
import sys
import time

# What a query may do: read tables, call SQL functions, recurse (WITH RECURSIVE). Anything else
# (writes, schema changes, ATTACH, PRAGMA, transactions) is denied before it runs.
ALLOWED = {sqlite3.SQLITE_SELECT, sqlite3.SQLITE_READ, sqlite3.SQLITE_FUNCTION, getattr(sqlite3, 'SQLITE_RECURSIVE', 33)}
# Functions that reach outside the database where a build offers them.
DENIED_FUNCTIONS = {'load_extension', 'readfile', 'writefile', 'edit', 'fts3_tokenizer', 'sqlite_dbpage'}


def authorize(action, arg1, arg2, _db, _trigger):
    if action not in ALLOWED:
        return sqlite3.SQLITE_DENY
    if action == sqlite3.SQLITE_FUNCTION and (arg2 or arg1 or '').lower() in DENIED_FUNCTIONS:
        return sqlite3.SQLITE_DENY
    return sqlite3.SQLITE_OK


def plain(value):
    """A result value as JSON can hold it, compared the same way for both queries."""
    if isinstance(value, bytes):
        return value.hex()
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    return value


def run(database, query, timeout_sec):
    uri = 'file:%s?mode=ro&immutable=1' % database
    conn = sqlite3.connect(uri, uri=True)
    try:
        conn.set_authorizer(authorize)
        deadline = time.monotonic() + timeout_sec
        # A query past its time is interrupted by SQLite itself (a non-zero return aborts it).
        conn.set_progress_handler(lambda: 1 if time.monotonic() > deadline else 0, 10000)
        # execute() refuses more than one statement ("You can only execute one statement at a time").
        rows = conn.execute(query).fetchall()
        return {'rows': [[plain(v) for v in row] for row in rows]}
    finally:
        conn.close()


def main(argv):
    if len(argv) != 2:
        print(json.dumps({'error': 'usage: sqlQuery.py DATABASE (query in PWP_SQL_QUERY)'}))
        return 2
    query = os.environ.get('PWP_SQL_QUERY', '')
    timeout_sec = float(os.environ.get('PWP_SQL_TIMEOUT', '60'))
    try:
        out = run(argv[1], query, timeout_sec)
    except (sqlite3.Error, sqlite3.Warning, ValueError) as err:
        out = {'error': '%s: %s' % (type(err).__name__, err)}
    print(json.dumps(out))
    return 0 if 'rows' in out else 1


if __name__ == '__main__':
    sys.exit(main(sys.argv))
