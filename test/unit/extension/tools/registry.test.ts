import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { InvalidParamsError } from '../../../../bridge/protocol';
import { ToolError } from '../../../../extension/src/tools/toolError';
import { ToolLog } from '../../../../extension/src/tools/toolLog';
import { ToolRegistry, defineTool } from '../../../../extension/src/tools/toolRegistry';

const call = (r: ToolRegistry, name: string, args: Record<string, unknown>, extra: { timeoutMs?: number; maxOutputChars?: number } = {}) =>
  r.call({ name, args, maxOutputChars: 30_000, ...extra });

function registry(log = new ToolLog()): ToolRegistry {
  const r = new ToolRegistry(log);
  r.register(defineTool({
    name: 'echo', group: 'idebench', effects: 'read', description: 'echo', timeoutMs: 1000,
    params: z.object({ text: z.string(), times: z.int().min(1).default(1) }).strict(),
    run: async ({ text, times }) => text.repeat(times),
  }));
  r.register(defineTool({
    name: 'slow', group: 'filebash', effects: 'write', openWorld: true, description: 'slow', timeoutMs: 100, maxTimeoutMs: 1000,
    params: z.object({}).strict(),
    run: async (_a, ctx) => new Promise((resolve) => { const t = setTimeout(() => resolve('late'), 5000); ctx.signal.addEventListener('abort', () => clearTimeout(t)); }),
  }));
  r.register(defineTool({
    name: 'fails', group: 'assisted', effects: 'destructive', description: 'fails', timeoutMs: 1000, params: z.object({}).strict(),
    run: async () => { throw new ToolError('file not found: x.py', 'NotFound'); },
  }));
  return r;
}

describe('tools: the registry', () => {
  it('lists tools with object JSON Schemas usable for function calling, filtered by group', () => {
    const r = registry();
    const echo = r.list().find((t) => t.name === 'echo')!;
    assert.equal(echo.inputSchema.type, 'object');
    assert.deepEqual(echo.inputSchema.required, ['text']);
    assert.equal((echo.inputSchema.properties as Record<string, { default?: number }>).times.default, 1);
    assert.equal(echo.inputSchema.$schema, undefined);
    assert.deepEqual(r.list({ groups: ['filebash'] }).map((t) => t.name).sort(), ['read_output', 'slow']);
  });

  it('lists what each tool may change and whether it reaches beyond the sandbox; refuses a tool that does not say', () => {
    const r = registry();
    const of = (n: string) => r.list().find((t) => t.name === n)!;
    assert.deepEqual([of('echo').effects, of('echo').openWorld], ['read', false]);
    assert.deepEqual([of('slow').effects, of('slow').openWorld], ['write', true]);
    assert.deepEqual([of('fails').effects, of('read_output').effects], ['destructive', 'read']);
    const undeclared = { name: 'vague', group: 'idebench', description: 'd', timeoutMs: 1000, params: z.object({}).strict(), run: async () => 'x' };
    assert.throws(() => r.register(undeclared as unknown as Parameters<ToolRegistry['register']>[0]), /vague' declares no effects/);
    assert.ok(!r.names.includes('vague'));
  });

  it('rejects unknown tools and bad arguments with InvalidParamsError naming the field, and logs them', async () => {
    const r = registry();
    await assert.rejects(call(r, 'nope', {}), (e: Error) => e instanceof InvalidParamsError && /unknown tool 'nope'/.test(e.message));
    await assert.rejects(call(r, 'echo', { text: 5 }), (e: Error) => e instanceof InvalidParamsError && /args\.text: /.test(e.message));
    await assert.rejects(call(r, 'echo', { text: 'a', extra: 1 }), (e: Error) => e instanceof InvalidParamsError && /extra/.test(e.message));
    const log = r.log.since(0, 100).entries;
    assert.equal(log.length, 3);
    assert.ok(log.every((e) => e.isError && e.error));
  });

  it('turns tool failures into isError results with the reason', async () => {
    const res = await call(registry(), 'fails', {});
    assert.equal(res.isError, true);
    assert.deepEqual(res.content, [{ type: 'text', text: 'Error: file not found: x.py' }]);
  });

  it('stops a tool at its deadline, and lets a call raise it only up to maxTimeoutMs', async () => {
    const r = registry();
    const res = await call(r, 'slow', {});
    assert.equal(res.isError, true);
    assert.match((res.content[0] as { text: string }).text, /did not finish within 100 ms/);
    await assert.rejects(call(r, 'slow', {}, { timeoutMs: 5000 }), /at most 1000 ms/);
  });

  it('caps long output with a note, and read_output pages through the rest', async () => {
    const r = registry();
    const res = await call(r, 'echo', { text: '0123456789', times: 500 }, { maxOutputChars: 1000 });
    assert.ok(res.truncated);
    assert.equal(res.truncated.totalChars, 5000);
    const first = (res.content[0] as { text: string }).text;
    assert.match(first, /output truncated: showing characters 0-1000 of 5000/);
    const page = await call(r, 'read_output', res.truncated.next.args);
    assert.match((page.content[0] as { text: string }).text, /^0123456789/);
    assert.match((page.content[0] as { text: string }).text, /characters 1000-2000 of 5000/);
    const last = await call(r, 'read_output', { output_id: res.truncated.outputId, offset: 4990, limit: 1000 });
    assert.match((last.content[0] as { text: string }).text, /end of output/);
  });

  it('logs every call with name, arguments, size, duration and error, and keeps the log across restarts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pwp-toollog-'));
    try {
      const file = join(dir, 'log.jsonl');
      const r = registry(new ToolLog(file));
      await call(r, 'echo', { text: 'hi' });
      await call(r, 'fails', {});
      const again = new ToolLog(file);
      const { entries, nextId } = again.since(0, 10);
      assert.deepEqual(entries.map((e) => [e.id, e.name, e.isError, e.resultChars]), [[1, 'echo', false, 2], [2, 'fails', true, 'Error: file not found: x.py'.length]]);
      assert.deepEqual(entries[0].args, { text: 'hi' });
      assert.equal(entries[1].error, 'file not found: x.py');
      assert.equal(nextId, 3);
      assert.equal(again.since(1, 10).entries.length, 1);
      assert.equal(readFileSync(file, 'utf8').trim().split('\n').length, 2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
