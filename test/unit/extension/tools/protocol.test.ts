// The tools behind tools.* in-process: the registry served by a Dispatcher (as the extension
// serves it), with the pure tools over a plain-fs FileAccess. Results must satisfy the wire
// schema; every schema must suit function-calling APIs.
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync, existsSync } from 'node:fs';
import { mkdir, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Dispatcher, type Session } from '../../../../bridge/rpc/dispatcher';
import type { Result } from '../../../../bridge/protocol';
import { BackgroundProcesses } from '../../../../extension/src/tools/backgroundProcesses';
import { BashSession } from '../../../../extension/src/tools/bashSession';
import { HeadlessBrowser } from '../../../../extension/src/tools/headlessBrowser';
import { ToolError } from '../../../../extension/src/tools/toolError';
import { ToolRegistry, type AnyToolDefinition } from '../../../../extension/src/tools/toolRegistry';
import type { FileAccess, ToolServices } from '../../../../extension/src/tools/toolServices';
import { WorkspacePaths } from '../../../../extension/src/tools/workspacePaths';
import { bashTool } from '../../../../extension/src/tools/filebash/bash';
import { fileEditTool } from '../../../../extension/src/tools/filebash/fileEdit';
import { viewStructureTool } from '../../../../extension/src/tools/assisted/viewStructure';
import { readFileTool } from '../../../../extension/src/tools/idebench/readFile';
import { listDirTool } from '../../../../extension/src/tools/idebench/listDir';
import { deleteFileTool } from '../../../../extension/src/tools/idebench/deleteFile';
import { editFileTool } from '../../../../extension/src/tools/idebench/editFile';
import { searchReplaceTool } from '../../../../extension/src/tools/idebench/searchReplace';
import { writeFileTool } from '../../../../extension/src/tools/idebench/writeFile';
import { editNotebookTool } from '../../../../extension/src/tools/idebench/editNotebook';
import { webSearchTool } from '../../../../extension/src/tools/idebench/webSearch';
import { websocketTestTool } from '../../../../extension/src/tools/idebench/websocketTest';
import { apiCallTool } from '../../../../extension/src/tools/idebench/apiCall';
import { databaseQueryTool } from '../../../../extension/src/tools/idebench/databaseQuery';
import { uiTestTool } from '../../../../extension/src/tools/idebench/uiTest';
import { createDiagramTool } from '../../../../extension/src/tools/idebench/createDiagram';
import { htmlPreviewTool, originalImageTool, pythonPreviewTool, zoomInTool, zoomOutTool } from '../../../../extension/src/tools/assisted/previews';
import { relevantSchemasTool, testSqlTool } from '../../../../extension/src/tools/assisted/sqlTools';

/** Files straight on disk: what the IDE adapter does, minus the IDE. */
class DiskFiles implements FileAccess {
  async readText(abs: string) {
    const st = await stat(abs).catch(() => undefined);
    if (!st) throw new ToolError(`file not found: ${abs}`, 'NotFound');
    return readFile(abs, 'utf8');
  }
  async readBytes(abs: string) { return readFile(abs); }
  async writeText(abs: string, text: string) {
    const created = !existsSync(abs);
    await mkdir(dirname(abs), { recursive: true });
    await writeFile(abs, text);
    return { created };
  }
  async writeBytes(abs: string, data: Buffer) {
    const created = !existsSync(abs);
    await mkdir(dirname(abs), { recursive: true });
    await writeFile(abs, data);
    return { created };
  }
  async remove(abs: string) { await rm(abs, { recursive: true }); }
  async exists(abs: string) { return existsSync(abs); }
  async list(abs: string) { return readdir(abs, { withFileTypes: true }); }
  async isDirectory(abs: string) { return existsSync(abs) && statSync(abs).isDirectory(); }
}

describe('tools: served in-process through the dispatcher', function () {
  this.timeout(20_000);
  let base: string;
  let ws: string;
  let d: Dispatcher;
  let services: ToolServices;
  const session: Session = { id: 1, state: new Map(), signal: new AbortController().signal };
  const call = async (name: string, args: Record<string, unknown>): Promise<Result<'tools.call'>> => {
    const res = await d.handle(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools.call', params: { name, args } }), session);
    if (res?.error) throw Object.assign(new Error(res.error.message), { code: res.error.code });
    return res!.result as Result<'tools.call'>;
  };
  const text = (r: Result<'tools.call'>) => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

  before(() => {
    base = mkdtempSync(join(tmpdir(), 'pwp-tools-'));
    ws = join(base, 'ws');
    mkdirSync(join(ws, 'src'), { recursive: true });
    mkdirSync(join(base, 'outside'));
    writeFileSync(join(base, 'outside', 'secret.txt'), 'secret\n');
    writeFileSync(join(ws, 'src', 'a.txt'), 'one\ntwo\nthree\n');
    symlinkSync(join(base, 'outside'), join(ws, 'out'));
    const env = { PATH: process.env.PATH, HOME: base };
    let bash: BashSession | undefined;
    services = {
      paths: new WorkspacePaths(ws),
      files: new DiskFiles(),
      shells: { bash: () => (bash ??= new BashSession({ cwd: ws, env, scratchDir: join(base, 'scratch') })), terminal: () => bash! },
      background: new BackgroundProcesses(join(base, 'bg'), env),
      browser: new HeadlessBrowser(env, () => undefined),
      preview: {},
      python: { check: async () => [] },
      stateDir: join(base, 'state'),
      env,
      log: () => undefined,
    };
    const registry = new ToolRegistry();
    const makers: ((s: ToolServices) => AnyToolDefinition)[] = [
      fileEditTool, bashTool, viewStructureTool, readFileTool, listDirTool, deleteFileTool, editFileTool, searchReplaceTool, writeFileTool,
      editNotebookTool, apiCallTool, databaseQueryTool, uiTestTool, createDiagramTool, htmlPreviewTool, pythonPreviewTool, originalImageTool,
      zoomInTool, zoomOutTool, testSqlTool, relevantSchemasTool,
    ];
    for (const m of makers) registry.register(m(services));
    registry.register(webSearchTool());
    registry.register(websocketTestTool());
    d = new Dispatcher();
    d.register('tools.list', async (p) => ({ tools: registry.list(p) }));
    d.register('tools.call', async (p) => registry.call(p));
    d.register('tools.log', async (p) => registry.log.since(p.sinceId, p.limit));
  });
  after(() => {
    services.shells.bash().dispose();
    services.background.dispose();
    rmSync(base, { recursive: true, force: true });
  });

  it('gives every tool a flat object schema that function-calling APIs accept', async () => {
    const res = await d.handle(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools.list', params: {} }), session);
    const { tools } = res!.result as Result<'tools.list'>;
    assert.ok(tools.length >= 24);
    for (const t of tools) {
      const s = t.inputSchema;
      assert.equal(s.type, 'object', t.name);
      assert.equal(s.oneOf ?? s.anyOf ?? s.allOf, undefined, `${t.name}: no combinator at the top`);
      assert.ok(/^[a-z_]+$/.test(t.name) && t.name.length <= 64, `${t.name}: a valid function name`);
      assert.doesNotThrow(() => JSON.stringify(s));
    }
  });

  it('answers tools.call with results that satisfy the wire schema', async () => {
    const r = await call('read_file', { target_file: 'src/a.txt', offset: 2, limit: 1 });
    assert.equal(r.isError, false);
    assert.match(text(r), /\n {5}2\ttwo\n\[showing lines 2-2 of 3/);
    assert.equal(typeof r.callId, 'number');
  });

  it('edits, writes and deletes files on disk, and refuses a symlink that leads out', async () => {
    await call('search_replace', { file_path: 'src/a.txt', old_string: 'two', new_string: 'TWO' });
    assert.equal(readFileSync(join(ws, 'src/a.txt'), 'utf8'), 'one\nTWO\nthree\n');
    await call('edit_file', { target_file: 'src/a.txt', operation: 'DELETE', start_line: 1 });
    assert.equal(readFileSync(join(ws, 'src/a.txt'), 'utf8'), 'TWO\nthree\n');
    await call('write_file', { file_path: 'new/b.txt', contents: 'b\n' });
    assert.equal(readFileSync(join(ws, 'new/b.txt'), 'utf8'), 'b\n');
    await call('delete_file', { target_file: 'new/b.txt' });
    assert.equal(existsSync(join(ws, 'new/b.txt')), false);
    for (const [name, args] of [
      ['write_file', { file_path: 'out/secret.txt', contents: 'x' }],
      ['delete_file', { target_file: 'out/secret.txt' }],
      ['file_edit', { command: 'create', path: 'out/new.txt', file_text: 'x' }],
    ] as const) {
      const r = await call(name, args);
      assert.equal(r.isError, true, name);
      assert.match(text(r), /symbolic link/, name);
    }
    assert.equal(readFileSync(join(base, 'outside/secret.txt'), 'utf8'), 'secret\n');
    assert.equal(existsSync(join(base, 'outside/new.txt')), false);
  });

  it('rejects bad arguments as InvalidParams (-32602) naming the field', async () => {
    await assert.rejects(call('read_file', { target_file: 3 }), (e: Error & { code?: number }) => e.code === -32602 && /args\.target_file/.test(e.message));
    await assert.rejects(call('edit_file', { target_file: 'src/a.txt', operation: 'MOVE', start_line: 1 }), /args\.operation/);
  });

  it('edits notebooks as nbformat 4 JSON, keeping other cells', async () => {
    await call('edit_notebook', { target_notebook: 'n.ipynb', cell_idx: 0, is_new_cell: true, new_string: 'a = 1\n' });
    await call('edit_notebook', { target_notebook: 'n.ipynb', cell_idx: 1, is_new_cell: true, cell_language: 'markdown', new_string: '# Notes' });
    await call('edit_notebook', { target_notebook: 'n.ipynb', cell_idx: 0, old_string: 'a = 1', new_string: 'a = 2' });
    const nb = JSON.parse(readFileSync(join(ws, 'n.ipynb'), 'utf8'));
    assert.deepEqual(nb.cells.map((c: { cell_type: string; source: string[] }) => [c.cell_type, c.source.join('')]), [['code', 'a = 2\n'], ['markdown', '# Notes']]);
    const gone = await call('edit_notebook', { target_notebook: 'n.ipynb', cell_idx: 5, old_string: 'x', new_string: 'y' });
    assert.match(text(gone), /out of range: the notebook has 2 cells/);
  });

  it('logs the calls it served', async () => {
    const res = await d.handle(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools.log', params: {} }), session);
    const { entries } = res!.result as Result<'tools.log'>;
    assert.ok(entries.some((e) => e.name === 'read_file' && !e.isError));
    assert.ok(entries.some((e) => e.name === 'read_file' && e.isError && /target_file/.test(e.error ?? '')));
  });
});
