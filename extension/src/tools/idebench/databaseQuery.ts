// database_query: SQL against a SQLite file in the workspace, or a MongoDB operation against a
// server reachable from the environment (the official driver, installed in the image). The
// image has no MongoDB server: without one started by the task, the call says none answers.
import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { z } from 'zod';
import { defineTool } from '../toolRegistry';
import { ToolError } from '../toolError';
import type { ToolServices } from '../toolServices';
import { formatStatements, sqlite } from '../sqlite';

const MONGO_DRIVER = '/opt/pwp-tools/node_modules/mongodb';

export function databaseQueryTool(s: ToolServices) {
  return defineTool({
    name: 'database_query',
    group: 'idebench',
    effects: 'destructive',
    description: 'Query a database. SQLite: database_type "sqlite", database_path (a file in the workspace) and query ' +
      '(one or more SQL statements; params bind ? placeholders of a single statement). MongoDB: database_type ' +
      '"mongodb", connection_string, database, collection, operation and its filter/document/update/pipeline.',
    params: z.object({
      database_type: z.enum(['sqlite', 'mongodb']),
      database_path: z.string().optional(),
      query: z.string().optional(),
      params: z.array(z.union([z.string(), z.number(), z.boolean(), z.null()])).optional(),
      max_rows: z.int().min(1).max(10_000).default(200),
      connection_string: z.string().default('mongodb://127.0.0.1:27017'),
      database: z.string().optional(),
      collection: z.string().optional(),
      operation: z.enum([
        'find', 'findOne', 'insertOne', 'insertMany', 'updateOne', 'updateMany', 'deleteOne', 'deleteMany', 'aggregate', 'countDocuments', 'listCollections',
      ]).optional(),
      filter: z.record(z.string(), z.unknown()).default({}),
      document: z.record(z.string(), z.unknown()).optional(),
      documents: z.array(z.record(z.string(), z.unknown())).optional(),
      update: z.record(z.string(), z.unknown()).optional(),
      pipeline: z.array(z.record(z.string(), z.unknown())).optional(),
    }).strict(),
    timeoutMs: 60_000,
    run: async (a, ctx) => {
      if (a.database_type === 'sqlite') {
        if (!a.database_path) throw new ToolError('database_path is required for sqlite', 'MissingArgument');
        if (!a.query) throw new ToolError('query is required for sqlite', 'MissingArgument');
        const db = s.paths.resolve(a.database_path, 'database_path');
        await mkdir(dirname(db), { recursive: true });
        const res = await sqlite({ db, query: a.query, params: a.params, readonly: false, maxRows: a.max_rows }, s.env, s.paths.root, ctx.signal);
        return res.error ? { isError: true, content: [{ type: 'text', text: formatStatements(res) }] } : formatStatements(res) || 'ok';
      }
      return mongo(a, ctx.signal);
    },
  });
}

type MongoArgs = {
  connection_string: string; database?: string; collection?: string; operation?: string; filter: Record<string, unknown>;
  document?: Record<string, unknown>; documents?: Record<string, unknown>[]; update?: Record<string, unknown>; pipeline?: Record<string, unknown>[]; max_rows: number;
};

async function mongo(a: MongoArgs, signal: AbortSignal): Promise<string> {
  if (!a.database) throw new ToolError('database is required for mongodb', 'MissingArgument');
  if (!a.operation) throw new ToolError('operation is required for mongodb', 'MissingArgument');
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a driver loaded at run time from the image, without types here
  let driver: any;
  try { driver = createRequire(__filename)(MONGO_DRIVER); } catch (err) { throw new ToolError(`the MongoDB driver is not installed in this image (${(err as Error).message})`, 'NotAvailable'); }
  const client = new driver.MongoClient(a.connection_string, { serverSelectionTimeoutMS: 3000, connectTimeoutMS: 3000 });
  const abort = () => void client.close(true);
  signal.addEventListener('abort', abort, { once: true });
  try {
    try { await client.connect(); } catch (err) {
      throw new ToolError(`no MongoDB server answered at ${a.connection_string} (${(err as Error).message}). The image ships no MongoDB server; start one in the environment first.`, 'NotAvailable');
    }
    const db = client.db(a.database);
    if (a.operation === 'listCollections') return JSON.stringify((await db.listCollections().toArray()).map((c: { name: string }) => c.name), null, 2);
    if (!a.collection) throw new ToolError('collection is required for this operation', 'MissingArgument');
    const c = db.collection(a.collection);
    const need = <T>(v: T | undefined, f: string): T => { if (v === undefined) throw new ToolError(`${f} is required for ${a.operation}`, 'MissingArgument'); return v; };
    let result: unknown;
    switch (a.operation) {
      case 'find': result = await c.find(a.filter).limit(a.max_rows).toArray(); break;
      case 'findOne': result = await c.findOne(a.filter); break;
      case 'countDocuments': result = await c.countDocuments(a.filter); break;
      case 'aggregate': result = await c.aggregate(need(a.pipeline, 'pipeline')).toArray(); break;
      case 'insertOne': result = await c.insertOne(need(a.document, 'document')); break;
      case 'insertMany': result = await c.insertMany(need(a.documents, 'documents')); break;
      case 'updateOne': result = await c.updateOne(a.filter, need(a.update, 'update')); break;
      case 'updateMany': result = await c.updateMany(a.filter, need(a.update, 'update')); break;
      case 'deleteOne': result = await c.deleteOne(a.filter); break;
      case 'deleteMany': result = await c.deleteMany(a.filter); break;
    }
    return JSON.stringify(result, null, 2);
  } finally {
    signal.removeEventListener('abort', abort);
    await client.close().catch(() => undefined);
  }
}
