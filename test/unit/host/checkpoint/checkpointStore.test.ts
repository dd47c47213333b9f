import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InvalidParamsError, NotAvailableError } from '../../../../bridge/protocol';
import { extensionsFingerprint, keepUserDataEntry } from '../../../../host/checkpoint/checkpoint';
import { CheckpointStore, type CheckpointManifest } from '../../../../host/checkpoint/checkpointStore';

function manifest(name: string, createdAt: string): CheckpointManifest {
  return {
    version: 1, name, createdAt, environment: { id: 'abcd1234', image: 'pwp-ide:x', display: { width: 1280, height: 800 } },
    editors: { tabs: [], focused: null }, extensionsFingerprint: 'f', files: { workspace: 'workspace.tar', userData: 'user-data.tar', extensions: 'extensions.tar' },
    frozen: true, bytes: 10, durationMs: 1,
  };
}

describe('checkpoint store and what a checkpoint keeps', () => {
  it('commits a staged checkpoint under its name, replaces an older one, lists and deletes', () => {
    const store = new CheckpointStore(mkdtempSync(join(tmpdir(), 'pwp-ckpt-')));
    const s1 = store.staging('before-edit');
    writeFileSync(join(s1, 'workspace.tar'), 'one');
    store.commit(s1, manifest('before-edit', '2026-01-01T00:00:00Z'));
    const s2 = store.staging('before-edit');
    store.commit(s2, manifest('before-edit', '2026-01-02T00:00:00Z'));
    const s3 = store.staging('b');
    store.commit(s3, manifest('b', '2026-01-03T00:00:00Z'));
    assert.deepEqual(store.list().map((c) => [c.name, c.createdAt]), [['before-edit', '2026-01-02T00:00:00Z'], ['b', '2026-01-03T00:00:00Z']]);
    assert.equal(existsSync(join(store.dir('before-edit'), 'workspace.tar')), false, 'the old checkpoint\'s files are gone');
    assert.deepEqual(readdirSync(store.root).filter((n) => n.startsWith('.')), [], 'no staging or old folders left over');
    store.delete('b');
    assert.throws(() => store.read('b'), NotAvailableError);
    assert.throws(() => store.delete('b'), NotAvailableError);
  });

  it('refuses names that could escape the store', () => {
    for (const bad of ['../x', 'a/b', '.hidden', '', 'x'.repeat(101)]) assert.throws(() => CheckpointStore.checkName(bad), InvalidParamsError, bad);
    assert.equal(CheckpointStore.checkName('task-1.step_3'), 'task-1.step_3');
  });

  it('leaves logs, caches, sockets and locks out of the user data', () => {
    for (const keep of ['user-data/User/settings.json', 'user-data/User/History/ab/entries.json', 'user-data/User/Backups/x/y', 'user-data/coder.json'])
      assert.ok(keepUserDataEntry(keep), keep);
    for (const drop of ['user-data/logs/1/x.log', 'user-data/code-server-ipc.sock', 'user-data/User/workspaceStorage/a/vscode.lock', 'user-data/CachedProfilesData/x', 'user-data/User/caches/c']) assert.ok(!keepUserDataEntry(drop), drop);
  });

  it('fingerprints the extensions folder exactly as the restore script does in the container', () => {
    const d = mkdtempSync(join(tmpdir(), 'pwp-ext-'));
    for (const n of ['pwp.pwp-ide-bridge-0.1.0', 'ms-python.python-2025.1.0', '.obsolete']) mkdirSync(join(d, n));
    writeFileSync(join(d, 'extensions.json'), '[1,2,3]');
    const shell = execFileSync('sh', ['-c', 'cd "$1" && { ls -A | LC_ALL=C sort; stat -c %s extensions.json 2>/dev/null || echo -; } | sha256sum | cut -c1-64', 'fp', d]).toString().trim();
    assert.equal(extensionsFingerprint(readdirSync(d), 7), shell);
    assert.notEqual(extensionsFingerprint(readdirSync(d).slice(1), 7), shell);
  });
});
