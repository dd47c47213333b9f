// `pwp mcp` driven by the official MCP SDK's client over stdio, as any MCP client would:
// it lists the tools (pwp's own and the IDE's, with their JSON Schemas), takes a screenshot,
// reads Set-of-Marks and clicks by mark, and completes a bundled task (vscode-config/rulers)
// with scripted calls, graded by the task's own evaluator in a verifier; a checkpoint taken
// before is restored after. Started without --env it brings its own environment and removes it,
// listing its own tools at once and the IDE's after tools/list_changed. Also: annotations on
// every tool, structuredContent checked against outputSchema, --tools subsets, and the same
// server over Streamable HTTP from `pwp serve`.
import { strict as assert } from 'node:assert';
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import sharp from 'sharp';
import { DockerDeployment } from '../../host/deployment/dockerDeployment';
import { loadTask, TASKS_ROOT } from '../../host/taskEnv/loadTask';
import { makeEnv, type TaskEnv } from '../../host/taskEnv/taskEnv';
import { readTrajectory } from '../../host/trajectory/trajectoryFile';
import { testImage, testPool } from './environmentFixture';

const PWP = join(__dirname, '../../bin/pwp');

type Content = { type: string; text?: string; data?: string; mimeType?: string };
type CallResult = { content: Content[]; isError?: boolean; structuredContent?: Record<string, unknown> };

function textOf(r: CallResult): string {
  return r.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n');
}

async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, timeoutMs: number, what: string): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error(`${what} not reached within ${timeoutMs} ms; last: ${JSON.stringify(v).slice(0, 1500)}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

/** Resolves on the server's first tools/list_changed (set before connecting, so none is missed). */
function toolListChanged(client: Client): Promise<void> {
  return new Promise((resolve) => client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()));
}

describe('pwp mcp: an MCP client from the official SDK drives the IDE', function () {
  this.timeout(10 * 60_000);
  let image: string;
  before(async function () { this.timeout(30 * 60_000); image = await testImage(); });

  describe('attached to a task\'s environment', () => {
    let session: TaskEnv;
    let env: ReturnType<typeof makeEnv>;
    let client: Client;
    let stderr = '';
    const record = mkdtempSync(join(tmpdir(), 'pwp-mcp-record-'));
    const checkpoint = `mcp-test-${process.pid}`;
    // The SDK gives up on a request after 60 s by default; a checkpoint or restore on a loaded machine may take longer.
    const call = async (name: string, args: Record<string, unknown> = {}) => (await client.callTool({ name, arguments: args }, undefined, { timeout: 180_000 })) as CallResult;

    before(async function () {
      this.timeout(5 * 60_000);
      env = makeEnv(loadTask(join(TASKS_ROOT, 'vscode-config', 'rulers')), { image, pool: await testPool(), labels: { 'pwp.test': '1' }, observe: [] });
      await env.reset();
      session = env.unwrapped;
      const transport = new StdioClientTransport({ command: PWP, args: ['mcp', '--env', session.info.id, '--record', record, '--tools', 'all'], stderr: 'pipe' });
      transport.stderr?.on('data', (d: Buffer) => { stderr += d.toString(); });
      client = new Client({ name: 'pwp-test', version: '1.0.0' });
      const changed = toolListChanged(client);
      await client.connect(transport);
      await changed; // the IDE's tools are listed from here on
    });

    after(async () => {
      await client?.close();
      await session?.close();
    });

    it('lists pwp\'s tools and every IDE tool with the JSON Schema the IDE publishes', async () => {
      const { tools } = await client.listTools();
      const names = tools.map((t) => t.name);
      for (const n of ['screenshot', 'set_of_marks', 'click_mark', 'key', 'type_text', 'click', 'drag', 'scroll', 'ide_editors', 'ide_diagnostics',
        'ide_setting', 'ide_timeline', 'ide_extensions', 'ide_debug', 'ide_terminals', 'checkpoint', 'restore']) assert.ok(names.includes(n), `missing ${n}`);
      const ide = await session.client.call('tools.list', {});
      for (const t of ide.tools) {
        const listed = tools.find((x) => x.name === t.name);
        assert.ok(listed, `IDE tool ${t.name} not offered`);
        assert.deepEqual(listed.inputSchema, { ...t.inputSchema, type: 'object' }, `schema of ${t.name}`);
        assert.ok(['read', 'write', 'destructive'].includes(t.effects), `${t.name} declares its effects`);
        assert.deepEqual(listed.annotations, {
          readOnlyHint: t.effects === 'read', destructiveHint: t.effects === 'destructive', idempotentHint: t.effects === 'read', openWorldHint: t.openWorld,
        }, `annotations of ${t.name}`);
      }
      for (const t of tools) {
        for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const) assert.equal(typeof t.annotations?.[hint], 'boolean', `${t.name}: ${hint}`);
      }
      const hints = (n: string) => tools.find((t) => t.name === n)?.annotations;
      for (const n of ['screenshot', 'set_of_marks', 'ide_editors', 'list_checkpoints', 'read_file', 'grep_search']) assert.equal(hints(n)?.readOnlyHint, true, n);
      for (const n of ['restore', 'delete_file', 'bash', 'run_terminal_cmd']) assert.equal(hints(n)?.destructiveHint, true, n);
      for (const n of ['click', 'type_text', 'edit_file', 'rename_symbol']) assert.deepEqual([hints(n)?.readOnlyHint, hints(n)?.destructiveHint], [false, false], n);
      for (const n of ['web_search', 'api_call', 'ask_person']) assert.equal(hints(n)?.openWorldHint, true, n);
      assert.equal(hints('read_file')?.openWorldHint, false);
      assert.equal(new Set(names).size, names.length, 'tool names are unique');
      for (const t of tools) assert.equal(t.inputSchema.type, 'object', `${t.name}: schema type`);
      const key = tools.find((t) => t.name === 'key')!;
      assert.deepEqual(key.inputSchema.required, ['keys']);
    });

    it('takes a screenshot as an image of the IDE', async () => {
      const r = await call('screenshot');
      const img = r.content.find((c) => c.type === 'image');
      assert.ok(img?.data && img.mimeType === 'image/png', JSON.stringify(r).slice(0, 200));
      const { data, info } = await sharp(Buffer.from(img.data, 'base64')).raw().toBuffer({ resolveWithObject: true });
      assert.deepEqual([info.width, info.height], [session.info.display.width, session.info.display.height]);
      const colours = new Set<number>();
      for (let i = 0; i < data.length; i += info.channels * 7) colours.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
      assert.ok(colours.size > 50, 'the screenshot is blank');
    });

    it('lists Set-of-Marks (with the annotated image) and clicks a mark: the file opens', async () => {
      const r = await call('set_of_marks', { image: true });
      const listing = textOf(r);
      assert.ok(r.content.some((c) => c.type === 'image' && c.mimeType === 'image/png'));
      const line = listing.split('\n').find((l) => /\[treeitem\] \[main\.py/.test(l));
      assert.ok(line, listing);
      const mark = Number(/^\[(\d+)\]/.exec(line)![1]);
      const click = await call('click_mark', { mark, screenshot: true });
      assert.ok(!click.isError, textOf(click));
      assert.ok(click.content.some((c) => c.type === 'image'), 'the screenshot after the click');
      await until(async () => JSON.parse(textOf(await call('ide_editors', { maxTextChars: 0 }))) as { activeEditor: { path: string } | null },
        (e) => !!e.activeEditor?.path.endsWith('/main.py'), 60_000, 'main.py active');
    });

    it('returns the JSON reads also as structuredContent that their outputSchema accepts', async () => {
      const { tools } = await client.listTools();
      const validator = new AjvJsonSchemaValidator();
      const reads: [string, Record<string, unknown>][] = [
        ['ide_status', {}], ['ide_editors', { maxTextChars: 0 }], ['ide_diagnostics', {}], ['ide_setting', { key: 'editor.rulers' }], ['ide_extensions', {}],
        ['ide_debug', {}], ['ide_terminals', {}], ['dom_focused', {}], ['cursor_position', {}],
      ];
      for (const [name, args] of reads) {
        const schema = tools.find((t) => t.name === name)?.outputSchema;
        assert.equal(schema?.type, 'object', `${name} has an outputSchema`);
        const r = await call(name, args);
        assert.ok(!r.isError && r.structuredContent, `${name}: ${JSON.stringify(r).slice(0, 300)}`);
        assert.deepEqual(r.structuredContent, JSON.parse(textOf(r)), `${name}: the text and the structured result agree`);
        const v = validator.getValidator(schema)(r.structuredContent);
        assert.ok(v.valid, `${name}: ${v.valid ? '' : v.errorMessage}`);
      }
      assert.equal(tools.find((t) => t.name === 'screenshot')?.outputSchema, undefined, 'an image result has no outputSchema');
    });

    it('reports bad arguments as a tool error naming the field', async () => {
      const r = await call('key', { keys: 'ctrl+s', repat: 2 });
      assert.equal(r.isError, true);
      assert.match(textOf(r), /repat/);
      const t = await call('read_file', { no_such_arg: 1 });
      assert.equal(t.isError, true);
    });

    it('completes the rulers task with scripted calls; the task\'s evaluator passes it; a checkpoint from before brings the old state back', async () => {
      const saved = await call('checkpoint', { name: checkpoint });
      assert.ok(!saved.isError, textOf(saved));
      const listed = (await call('list_checkpoints')).structuredContent as { checkpoints: { name: string; environmentId: string }[] };
      assert.ok(listed.checkpoints.some((c) => c.name === checkpoint && c.environmentId === session.info.id), JSON.stringify(listed));
      const w = await call('write_file', { file_path: '.vscode/settings.json', contents: '{\n  "editor.rulers": [80, 100]\n}\n' });
      assert.ok(!w.isError, textOf(w));
      await until(async () => JSON.parse(textOf(await call('ide_setting', { key: 'editor.rulers' }))) as { workspaceValue?: unknown },
        (s) => JSON.stringify(s.workspaceValue) === '[80,100]', 60_000, 'the IDE reading the workspace setting');
      const graded = await session.grade();
      assert.equal(graded.passed, true, JSON.stringify(graded));

      const restored = await call('restore', { name: checkpoint });
      assert.ok(!restored.isError, textOf(restored));
      const after = JSON.parse(textOf(await call('ide_setting', { key: 'editor.rulers' }))) as { workspaceValue?: unknown };
      assert.equal(after.workspaceValue, undefined, 'the workspace setting is gone after the restore');
    });

    it('offers only the groups chosen with --tools (pwp\'s and the IDE\'s), and refuses the others\' calls', async () => {
      const transport = new StdioClientTransport({ command: PWP, args: ['mcp', '--env', session.info.id, '--no-record', '--tools', 'screen,idebench'], stderr: 'pipe' });
      const subset = new Client({ name: 'pwp-test', version: '1.0.0' });
      const changed = toolListChanged(subset);
      await subset.connect(transport);
      try {
        await changed;
        const names = (await subset.listTools()).tools.map((t) => t.name);
        for (const n of ['screenshot', 'set_of_marks', 'click', 'key', 'read_file', 'edit_file', 'run_terminal_cmd', 'read_output']) assert.ok(names.includes(n), `missing ${n}: ${names.join(' ')}`);
        for (const n of ['ide_editors', 'checkpoint', 'ask_person', 'bash', 'file_edit', 'rename_symbol', 'get_file_outline']) assert.ok(!names.includes(n), `${n} is offered: ${names.join(' ')}`);
        await assert.rejects(subset.callTool({ name: 'list_checkpoints', arguments: {} }), /not offered/);
        await assert.rejects(subset.callTool({ name: 'bash', arguments: { command: 'true' } }), /unknown tool bash/);
        const shot = (await subset.callTool({ name: 'screenshot', arguments: {} })) as CallResult;
        assert.ok(shot.content.some((c) => c.type === 'image'));
      } finally {
        await subset.close();
      }
    });

    it('refuses an unknown group with a usage error naming the valid ones, starting nothing', async () => {
      const r = await promisify(execFile)(PWP, ['mcp', '--tools', 'screen,nonsense', '--no-record']).then(() => null, (e: { code: number; stderr: string }) => e);
      assert.equal(r?.code, 2);
      assert.match(r.stderr, /unknown group 'nonsense'; the groups are all, screen, state, checkpoints, person, filebash, assisted, ide, idebench/);
    });

    it('by default offers one tool per capability, the IDE\'s in the first listing, within about 8k tokens', async () => {
      const transport = new StdioClientTransport({ command: PWP, args: ['mcp', '--env', session.info.id, '--no-record'], stderr: 'pipe' });
      const plain = new Client({ name: 'pwp-test', version: '1.0.0' });
      await plain.connect(transport);
      try {
        // Attached to an environment that exists: no waiting for list_changed.
        const { tools } = await plain.listTools();
        const names = tools.map((t) => t.name);
        for (const n of ['screenshot', 'set_of_marks', 'click_mark', 'key', 'file_edit', 'bash', 'search_repository', 'rename_symbol', 'ide_diagnostics', 'checkpoint']) {
          assert.ok(names.includes(n), `missing ${n}: ${names.join(' ')}`);
        }
        // Of each pair that do the same, one: the others come with --tools all or their group.
        const pairs = [['read_file', 'file_edit'], ['run_terminal_cmd', 'bash'], ['grep_search', 'search_repository'], ['codebase_search', 'search_repository'],
          ['file_search', 'file_name_search'], ['get_file_outline', 'document_symbols'], ['get_diagnostics', 'ide_diagnostics'], ['write_file', 'file_edit'],
          ['edit_file', 'file_edit']];
        for (const pair of pairs) {
          assert.equal(pair.filter((n) => names.includes(n)).length, 1, `${pair.join(' / ')}: ${names.join(' ')}`);
        }
        // About 3.9 characters a token for tool JSON: 8k tokens is about 31 000 characters.
        const size = JSON.stringify(tools).length;
        assert.ok(size <= 31_000, `the default listing is ${size} characters`);
        await assert.rejects(plain.callTool({ name: 'xdotool', arguments: { command: 'key a' } }), /not in the default set: --tools screen or --tools all/);
      } finally {
        await plain.close();
      }
    });

    it('is served over Streamable HTTP by pwp serve at /mcp/<id>, with the token as a bearer header', async () => {
      const token = randomBytes(24).toString('hex');
      const runs = mkdtempSync(join(tmpdir(), 'pwp-mcp-http-runs-'));
      const serve = spawn(PWP, ['serve', '--json', '--port', '0', '--token', token, '--runs', runs], { stdio: ['ignore', 'pipe', 'pipe'] });
      try {
        const printed = await new Promise<{ mcp: string }>((resolve, reject) => {
          let out = '';
          serve.stdout.on('data', (d: Buffer) => { out += d.toString(); try { resolve(JSON.parse(out)); } catch { /* not all of it yet */ } });
          serve.once('exit', (code) => reject(new Error(`pwp serve exited (${code}): ${out}`)));
        });
        const url = new URL(printed.mcp.replace('<environment id>', session.info.id));
        // An id that is no environment is refused at the handshake, not at the first call.
        const nobody = new Client({ name: 'pwp-test', version: '1.0.0' });
        const wrongId = new URL(printed.mcp.replace('<environment id>', 'ffffffff'));
        const bearer = { requestInit: { headers: { Authorization: `Bearer ${token}` } } };
        await assert.rejects(nobody.connect(new StreamableHTTPClientTransport(wrongId, bearer)), /no running environment ffffffff/);
        const denied = new Client({ name: 'pwp-test', version: '1.0.0' });
        await assert.rejects(denied.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { Authorization: 'Bearer wrong-token-0123456789' } } })), /needs the server's token/);
        const http = new Client({ name: 'pwp-test', version: '1.0.0' });
        const changed = toolListChanged(http);
        const transport = new StreamableHTTPClientTransport(url, { requestInit: { headers: { Authorization: `Bearer ${token}` } } });
        await http.connect(transport);
        try {
          assert.ok(transport.sessionId, 'a stateful session');
          await changed;
          const names = (await http.listTools()).tools.map((t) => t.name);
          for (const n of ['screenshot', 'ide_editors', 'file_edit']) assert.ok(names.includes(n), `missing ${n}`);
          const editors = (await http.callTool({ name: 'ide_editors', arguments: {} })) as CallResult;
          assert.ok(!editors.isError && editors.structuredContent, JSON.stringify(editors).slice(0, 300));
          const shot = (await http.callTool({ name: 'screenshot', arguments: {} })) as CallResult;
          assert.ok(shot.content.some((c) => c.type === 'image' && c.mimeType === 'image/png'));
          const read = (await http.callTool({ name: 'file_edit', arguments: { command: 'view', path: 'main.py' } })) as CallResult;
          assert.ok(!read.isError, textOf(read));
        } finally {
          await transport.terminateSession().catch(() => undefined);
          await http.close();
        }
        assert.ok((await new DockerDeployment().list()).some((e) => e.id === session.info.id), 'the attached environment keeps running');
      } finally {
        serve.kill('SIGTERM');
      }
    });

    it('records the actions it carried out as a trajectory', () => {
      const t = readTrajectory(record);
      assert.equal(t.header?.meta.envId, session.info.id);
      assert.equal(t.header?.meta.rewarded, false, 'a session has no reward: the viewer shows no score');
      const steps = t.records.filter((r) => r.type === 'step');
      const actions = steps.map((s) => (s.type === 'step' ? s.action : null));
      assert.ok(actions.some((a) => a?.type === 'click' && a.mark !== undefined), JSON.stringify(actions));
      assert.ok(actions.some((a) => a?.type === 'tool' && a.name === 'write_file'));
      assert.ok(t.records.some((r) => r.type === 'checkpoint') && t.records.some((r) => r.type === 'restore'));
      assert.doesNotMatch(stderr, /Error/);
    });
  });

  it('started without --env, lists pwp\'s tools while its environment starts, then the IDE\'s, and removes it when the client disconnects', async () => {
    let stderr = '';
    const transport = new StdioClientTransport({
      command: PWP, args: ['mcp', '--image', image, '--no-record', '--no-view', '--label', 'pwp.test=1', '--tools', 'all'], stderr: 'pipe',
    });
    transport.stderr?.on('data', (d: Buffer) => { stderr += d.toString(); });
    const client = new Client({ name: 'pwp-test', version: '1.0.0' });
    const changed = toolListChanged(client);
    await client.connect(transport);
    let id: string | undefined;
    try {
      assert.equal(client.getServerCapabilities()?.tools?.listChanged, true);
      const first = (await client.listTools()).tools.map((t) => t.name);
      const readyThen = /environment [0-9a-f]+ ready/.test(stderr);
      assert.ok(first.includes('screenshot') && first.includes('click_mark'), first.join(' '));
      assert.ok(!first.includes('read_file'), `the first listing waited for the IDE: ${first.join(' ')}`);
      assert.ok(!readyThen, 'the environment was ready before the first listing');
      await changed;
      const second = (await client.listTools()).tools.map((t) => t.name);
      for (const n of ['read_file', 'write_file', 'screenshot']) assert.ok(second.includes(n), `missing ${n} after list_changed: ${second.join(' ')}`);
      const r = (await client.callTool({ name: 'screenshot', arguments: { format: 'jpeg' } }, undefined, { timeout: 180_000 })) as CallResult;
      assert.ok(r.content.some((c) => c.type === 'image' && c.mimeType === 'image/jpeg'), JSON.stringify(r).slice(0, 300));
      id = /environment ([0-9a-f]+) ready/.exec(stderr)?.[1];
      assert.ok(id, stderr);
      const envs = await new DockerDeployment().list();
      assert.equal(envs.find((e) => e.id === id)?.labels['pwp.mcp'], '1');
    } finally {
      await client.close();
    }
    // The state is what counts: the client's close may end the server before its last log line reaches us.
    await until(async () => (await new DockerDeployment().list()).some((e) => e.id === id), (present) => !present, 180_000, `environment ${id} removed`);
  });

  it('records a session `pwp replay` performs again in a fresh environment, to the same files', async () => {
    const workspace = mkdtempSync(join(tmpdir(), 'pwp-mcp-ws-'));
    writeFileSync(join(workspace, 'README.md'), '# from the host\n');
    const record = mkdtempSync(join(tmpdir(), 'pwp-mcp-replayable-'));
    const transport = new StdioClientTransport({
      command: PWP, args: ['mcp', '--image', image, '--workspace', workspace, '--record', record, '--no-view', '--label', 'pwp.test=1', '--tools', 'all'], stderr: 'pipe',
    });
    const client = new Client({ name: 'pwp-test', version: '1.0.0' });
    await client.connect(transport);
    const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args }, undefined, { timeout: 180_000 })) as CallResult;
    try {
      const w = await call('write_file', { file_path: 'notes/hello.py', contents: 'print("replayed")\n' });
      assert.ok(!w.isError, textOf(w));
      const k = await call('key', { keys: 'escape' });
      assert.ok(!k.isError, textOf(k));
    } finally {
      await client.close();
    }
    const t = readTrajectory(record);
    assert.equal(t.records.filter((r) => r.type === 'reset').length, 1, 'one episode');
    assert.deepEqual(t.records.filter((r) => r.type === 'step').map((r) => (r.type === 'step' ? r.action.type : '')), ['tool', 'key']);

    const { stdout } = await promisify(execFile)(PWP, ['replay', record, '--json', '--keep', '--image', image], { maxBuffer: 1 << 24 });
    const replayed = JSON.parse(stdout) as { id: string; agentSteps: number; divergences: unknown[] };
    const deployment = new DockerDeployment();
    try {
      assert.equal(replayed.agentSteps, 2);
      assert.deepEqual(replayed.divergences, []);
      const runtime = await deployment.runtime(replayed.id);
      assert.equal((await runtime.readFile('/workspace/notes/hello.py'))?.toString(), 'print("replayed")\n');
      assert.equal((await runtime.readFile('/workspace/README.md'))?.toString(), '# from the host\n', 'the recorded workspace is where the replay starts');
    } finally {
      await deployment.remove(replayed.id).catch(() => undefined);
    }
  });
});
