// Writes the Env server's JSON Schemas (from host/envServer/envProtocol.ts) to
// schemas/env-server/, one file per method plus index.json and errors.json: `npm run schemas`.
// test/unit/envServerSchemas.test.ts fails when the committed files differ from these.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { envSchemaFiles } from '../host/envServer/envProtocol';

export const SCHEMA_DIR = join(__dirname, '..', 'schemas', 'env-server');

export function schemaFileTexts(): Record<string, string> {
  return Object.fromEntries(Object.entries(envSchemaFiles()).map(([name, body]) => [name, `${JSON.stringify(body, null, 2)}\n`]));
}

if (require.main === module) {
  mkdirSync(SCHEMA_DIR, { recursive: true });
  for (const f of readdirSync(SCHEMA_DIR)) if (f.endsWith('.json')) rmSync(join(SCHEMA_DIR, f));
  const files = schemaFileTexts();
  for (const [name, text] of Object.entries(files)) writeFileSync(join(SCHEMA_DIR, name), text);
  console.log(`wrote ${Object.keys(files).length} schema files to ${SCHEMA_DIR}`);
}
