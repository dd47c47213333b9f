// The one tar module: what it builds reads back the same, filters keep what they are told.
import { strict as assert } from 'node:assert';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IDE_USER, ROOT } from '../../../../host/deployment/fileEntry';
import {
  bufferOf, contentDigest, filterTar, indexArchive, packEntries, readTar, readTarEntries, tarEntry, tarOf, tarOfFiles, tarOfFolder,
} from '../../../../host/deployment/tarArchive';

describe('tar archives (host/deployment/tarArchive.ts)', () => {
  it('builds files with folder entries, owner and mode, and reads them back', async () => {
    const tar = await bufferOf(tarOf([{ path: 'a/b/c.txt', content: 'x' }, { path: 'run.sh', content: '#!', mode: 0o755 }], ROOT, 0o700));
    const entries = await readTarEntries(tar);
    assert.deepEqual(entries.map((e) => [e.header.name, e.header.type, e.header.mode, e.header.uid]), [
      ['a/', 'directory', 0o700, 0], ['a/b/', 'directory', 0o700, 0], ['a/b/c.txt', 'file', 0o644, 0], ['run.sh', 'file', 0o755, 0],
    ]);
    const files = await readTar(packEntries(entries), 1);
    assert.deepEqual([...files.keys()], ['b/c.txt']);
  });

  it('leaves folder entries out when asked, so existing folders keep their owner', async () => {
    const entries = await readTarEntries(await bufferOf(tarOf([{ path: 'a/b.txt', content: '' }], IDE_USER, 0o755, false)));
    assert.deepEqual(entries.map((e) => e.header.name), ['a/b.txt']);
  });

  it('filters a stream by header and counts what it kept; finds one entry\'s header, and its content when asked', async () => {
    const source = tarOfFiles({ 'keep/a.txt': 'a', 'drop/b.txt': 'b', 'keep/c.txt': 'ccc' });
    const filtered = filterTar(source, (h) => !h.name.startsWith('drop'));
    const kept = await bufferOf(filtered.tar);
    assert.deepEqual((await readTarEntries(kept)).map((e) => e.header.name), ['keep/', 'keep/a.txt', 'keep/c.txt']);
    assert.equal(filtered.entries(), 3);
    assert.equal((await tarEntry(tarOfFiles({ 'x/y.json': '12345' }), 'x/y.json'))?.header.size, 5);
    assert.equal((await tarEntry(tarOfFiles({ 'x/y.json': '12345' }), 'x/y.json'))?.content, undefined);
    assert.equal((await tarEntry(tarOfFiles({ 'a': 'first', 'x/y.json': '12345', 'z': 'last' }), 'x/y.json', true))?.content?.toString(), '12345');
    assert.equal(await tarEntry(tarOfFiles({ 'x/y.json': '1' }), 'nope'), undefined);
  });

  it('digests an archive\'s content the same at other times, and otherwise for a changed content, mode, name or link', async () => {
    const digest = async (entries: Parameters<typeof packEntries>[0]) => contentDigest(await indexArchive(packEntries(entries)));
    const at = (t: number, o: { content?: string; mode?: number; name?: string; link?: string } = {}) => [
      { header: { name: o.name ?? 'w/a.txt', mode: o.mode ?? 0o644, mtime: new Date(t) }, content: Buffer.from(o.content ?? 'one') },
      { header: { name: 'w/l', type: 'symlink' as const, linkname: o.link ?? 'a.txt', mtime: new Date(t) }, content: Buffer.alloc(0) },
    ];
    const first = await digest(at(1_000_000));
    assert.equal(await digest(at(9_000_000)), first);
    assert.equal(await digest([...at(1_000_000)].reverse()), first, 'in name order');
    for (const o of [{ content: 'two' }, { mode: 0o755 }, { name: 'w/b.txt' }, { link: 'b.txt' }]) assert.notEqual(await digest(at(1_000_000, o)), first, JSON.stringify(o));
  });

  it('packs a host folder owned by the IDE user', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pwp-tar-'));
    try {
      mkdirSync(join(dir, 'sub'));
      writeFileSync(join(dir, 'sub', 'f.txt'), 'content');
      const entries = await readTarEntries(await bufferOf(tarOfFolder(dir)));
      const file = entries.find((e) => e.header.name === 'sub/f.txt');
      assert.equal(file?.content.toString(), 'content');
      assert.ok(entries.every((e) => e.header.uid === 1000 && e.header.gid === 1000));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
