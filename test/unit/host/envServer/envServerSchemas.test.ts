import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SCHEMA_DIR, schemaFileTexts } from '../../../../scripts/envServerSchemas';
import { EnvDispatcher } from '../../../../host/envServer/envDispatcher';
import { envMethods } from '../../../../host/envServer/envProtocol';

describe('Env server protocol', () => {
  it('the committed JSON Schemas under schemas/env-server/ are the ones the zod schemas give (npm run schemas)', () => {
    const want = schemaFileTexts();
    const have = readdirSync(SCHEMA_DIR).filter((f) => f.endsWith('.json')).sort();
    assert.deepEqual(have, Object.keys(want).sort(), 'the same files');
    for (const f of have) assert.equal(readFileSync(join(SCHEMA_DIR, f), 'utf8'), want[f], `${f} is stale: run npm run schemas`);
  });

  it('every method has a params and a result schema, and step takes action objects and PwP strings', () => {
    const step = JSON.parse(schemaFileTexts()['env.step.json']) as { params: { properties: { action: { anyOf: unknown[] } } } };
    assert.equal(step.params.properties.action.anyOf.length, 2);
    for (const name of Object.keys(envMethods)) assert.ok(schemaFileTexts()[`${name}.json`], name);
    const errors = JSON.parse(schemaFileTexts()['errors.json']) as { errors: { name: string; code: number }[] };
    assert.ok(errors.errors.some((e) => e.name === 'LimitExceededError' && e.code === -32009));
    assert.ok(errors.errors.some((e) => e.name === 'InvalidParamsError' && e.code === -32602));
  });

  it('the dispatcher answers bad requests and bad params with typed errors naming the field', async () => {
    const d = new EnvDispatcher<null>().register('env.list', async () => ({ episodes: [] }));
    const bad = await d.handle('{"jsonrpc":"2.0","id":1,"method":"env.step","params":{}}', null);
    assert.equal(bad?.error?.code, -32601, 'an unregistered method');
    const notJson = await d.handle('nope', null);
    assert.equal(notJson?.error?.code, -32700);
    const d2 = new EnvDispatcher<null>().register('env.step', async () => { throw new Error('unreachable'); });
    const r = await d2.handle(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'env.step', params: { episodeId: 'ep-abcd', action: { type: 'click', x: -1 } } }), null);
    assert.equal(r?.error?.code, -32602);
    assert.match(r!.error!.message, /params\.action/);
    assert.equal((r!.error!.data as { name: string }).name, 'InvalidParamsError');
    const ok = await d.handle('{"jsonrpc":"2.0","id":"x","method":"env.list"}', null);
    assert.deepEqual(ok, { jsonrpc: '2.0', id: 'x', result: { episodes: [] } });
  });
});
