// What of the agent's workspace enters the verifier, planned from a spooled archive's index and
// streamed from its file: the task's folders root's and sticky, hard links as copies, the
// agent's files in the hidden files' own folders left out, code too large to read a finding.
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { IDE_USER } from '../../../../host/deployment/fileEntry';
import {
  bufferOf, packEntries, packStream, readSpooled, readTarEntries, spoolArchive, tarOf, type PackEntry, type TarEntry,
} from '../../../../host/deployment/tarArchive';
import { findJsTampering } from '../../../../host/evaluation/jsCodeCheck';
import { CODE_FILE_MAX, planIntake } from '../../../../host/evaluation/workspaceIntake';

const ws = (files: Record<string, string | Buffer>, extra: TarEntry[] = []) =>
  bufferOf(packEntries([{ header: { name: 'workspace/', type: 'directory', mode: 0o755, ...IDE_USER }, content: Buffer.alloc(0) },
    ...tarOfEntries(files), ...extra]));
function tarOfEntries(files: Record<string, string | Buffer>): TarEntry[] {
  return Object.entries(files).flatMap(([path, content]) => {
    const parts = path.split('/');
    const dirs = parts.slice(0, -1).map((_, i) => ({ header: { name: `workspace/${parts.slice(0, i + 1).join('/')}/`, type: 'directory' as const, mode: 0o755, ...IDE_USER }, content: Buffer.alloc(0) }));
    return [...dirs, { header: { name: `workspace/${path}`, mode: 0o644, ...IDE_USER }, content: Buffer.isBuffer(content) ? content : Buffer.from(content) }];
  });
}
async function collect(entries: AsyncIterable<PackEntry>): Promise<{ header: PackEntry['header']; content: string }[]> {
  const out = [];
  for await (const e of entries) {
    let content = '';
    if (Buffer.isBuffer(e.body)) content = e.body.toString();
    else if (e.body) for await (const c of e.body as AsyncIterable<Buffer>) content += c.toString();
    out.push({ header: e.header, content });
  }
  return out;
}
const RULES = { restore: [], agentFiles: [], commandFiles: [] };

describe('spooled archives (tarArchive.ts)', () => {
  let dir: string;
  beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'pwp-spool-test-')); });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('indexes every entry with its digest and first bytes while writing the file, and reads back chosen files', async () => {
    const a = await spoolArchive(tarOf([{ path: 'w/a.txt', content: 'hello' }, { path: 'w/b.bin', content: Buffer.from([0x7f, 0x45, 0x4c, 0x46, 1, 2, 3, 4, 5, 6]) }]), join(dir, 'a.tar'));
    const byName = new Map(a.entries.map((e) => [e.header.name, e]));
    assert.equal(byName.get('w/a.txt')?.digest, '2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824');
    assert.deepEqual([...byName.get('w/b.bin')!.head!], [0x7f, 0x45, 0x4c, 0x46, 1, 2, 3, 4], 'eight bytes: enough for magic numbers');
    assert.equal(byName.get('w/')?.digest, undefined);
    assert.deepEqual([...(await readSpooled(a.file, (n) => n === 'w/a.txt'))].map(([n, c]) => [n, c.toString()]), [['w/a.txt', 'hello']]);
  });

  it('stops at its bound with a LimitExceededError, destroying the stream and leaving no file', async () => {
    let pulled = 0;
    const endless = new Readable({ read() { pulled++; this.push(Buffer.alloc(64 * 1024)); } });
    await assert.rejects(spoolArchive(endless, join(dir, 'x.tar'), { maxBytes: 1024 * 1024 }), /archive larger than 1048576 bytes/);
    assert.ok(endless.destroyed && pulled < 64, `pulled ${pulled} chunks`);
    assert.deepEqual((await import('node:fs')).readdirSync(dir), []);
  });
});

describe('the workspace\'s intake into the verifier (workspaceIntake.ts)', () => {
  it('makes the folders on the way to the task\'s files root\'s and sticky, and keeps the agent\'s other folders its own', async () => {
    const intake = await planIntake({
      workspace: await ws({ 'tests/unit/test_a.py': 'mine', 'src/app.py': 'x = 1\n', 'notes/n.txt': 'n' }),
      initial: await ws({ 'tests/unit/test_a.py': 'task', 'src/app.py': 'x = 0\n' }),
      hidden: new Set(['tests/unit/test_hidden.py']), rules: RULES,
    });
    try {
      const got = await collect(intake.entries());
      const dirs = new Map(got.filter((e) => e.header.type === 'directory').map((e) => [e.header.name, e.header]));
      for (const d of ['workspace/', 'workspace/tests/', 'workspace/tests/unit/']) assert.deepEqual([dirs.get(d)?.uid, dirs.get(d)?.mode], [0, 0o1777], d);
      for (const d of ['workspace/src/', 'workspace/notes/']) assert.deepEqual([dirs.get(d)?.uid, dirs.get(d)?.mode], [1000, 0o755], d);
      const restored = got.filter((e) => e.header.name === 'workspace/tests/unit/test_a.py');
      assert.deepEqual(restored.map((e) => [e.header.uid, e.content]), [[0, 'task']], 'the agent\'s copy left out, the task\'s put back, root\'s');
      assert.deepEqual([...intake.code.keys()], ['src/app.py']);
      assert.equal(intake.baseline.get('src/app.py')?.toString(), 'x = 0\n');
    } finally {
      intake.close();
    }
  });

  it('leaves out what the agent put in a grader\'s own folder (a module beside the grader), and lists it; a package beside hidden tests stays', async () => {
    const intake = await planIntake({
      workspace: await ws({ '.grader/json.py': 'evil', 'app.py': 'ok', 'gosum/sum.go': 'package gosum\n' }), initial: await ws({ 'app.py': 'old' }),
      hidden: new Set(['.grader/run.py', 'gosum/sum_test.go']), rules: RULES,
    });
    try {
      const names = (await collect(intake.entries())).map((e) => e.header.name);
      assert.ok(!names.includes('workspace/.grader/json.py') && names.includes('workspace/gosum/sum.go'), names.join(' '));
      assert.deepEqual(intake.changes, [{ path: '.grader/json.py', change: 'added' }]);
    } finally {
      intake.close();
    }
  });

  it('sends a hard link as a copy of its target, and reads it as code under its own name', async () => {
    const link: TarEntry = { header: { name: 'workspace/b.py', type: 'link', linkname: 'workspace/a.py', ...IDE_USER }, content: Buffer.alloc(0) };
    const intake = await planIntake({ workspace: await ws({ 'a.py': 'import atexit\n' }, [link]), initial: await ws({}), hidden: new Set(), rules: RULES });
    try {
      const b = (await collect(intake.entries())).find((e) => e.header.name === 'workspace/b.py');
      assert.deepEqual([b?.header.type, b?.content], ['file', 'import atexit\n']);
      assert.equal(intake.code.get('b.py')?.toString(), 'import atexit\n');
    } finally {
      intake.close();
    }
  });

  it('reads as JavaScript the files of other names the agent\'s JavaScript loads (by exact name, through a link, in turn), and flags what they do', async () => {
    const link: TarEntry = { header: { name: 'workspace/lib/alias', type: 'symlink', linkname: 'notes.txt', ...IDE_USER }, content: Buffer.alloc(0) };
    const files = {
      'clamp.js': "const h = require('./helper');\nimport('./lib/alias');\nmodule.exports = h;\n",
      helper: "require('./data.cfg');\nmodule.exports = (x) => x;\n",
      'data.cfg': 'process.exit(0);\n',
      'lib/notes.txt': "process.on('exit', () => {});\n",
      'config.json': '{}', 'README': "require('./unused'); process.exit(0)\n",
    };
    const intake = await planIntake({ workspace: await ws(files, [link]), initial: await ws({}), hidden: new Set(), rules: RULES });
    try {
      assert.deepEqual([...intake.asJs].sort(), ['data.cfg', 'helper', 'lib/notes.txt']);
      const findings = findJsTampering(intake.code, intake.baseline, intake.asJs);
      assert.deepEqual(findings.map((f) => `${f.path}: ${f.reason}`).sort(), [
        "data.cfg: controls the process's exit or internals", 'lib/notes.txt: registers an exit handler',
      ]);
      assert.deepEqual(findJsTampering(intake.code, intake.baseline), [], 'read by their names alone, nothing is found');
    } finally {
      intake.close();
    }
  });

  it('finds an added code file too large for the checks to read, without reading it', async () => {
    const intake = await planIntake({ workspace: await ws({ 'big.py': Buffer.alloc(CODE_FILE_MAX + 1, 0x20) }), initial: await ws({}), hidden: new Set(), rules: RULES });
    try {
      assert.equal(intake.code.size, 0);
      assert.match(intake.findings[0].reason, /is 4194305 bytes, more than the code check reads of one file/);
    } finally {
      intake.close();
    }
  });

  it('packs the whole stream back as an archive the verifier unpacks, the initial workspace under pwp/initial, root\'s', async () => {
    const intake = await planIntake({ workspace: await ws({ 'a.txt': 'a' }), initial: await ws({ 'a.txt': 'b' }), hidden: new Set() });
    try {
      const initial = await collect(intake.initialEntries());
      assert.deepEqual(initial.map((e) => [e.header.name, e.header.uid, e.content]),
        [['pwp/initial/', 0, ''], ['pwp/initial/workspace/', 0, ''], ['pwp/initial/workspace/a.txt', 0, 'b']]);
      assert.ok(!intake.planned, 'no rules: taken as it comes');
      const packed = await readTarEntries(await bufferOf(packStream(intake.entries())));
      assert.deepEqual(packed.map((e) => [e.header.name, e.content.toString()]), [['workspace/', ''], ['workspace/a.txt', 'a']]);
    } finally {
      intake.close();
    }
  });
});
