import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WorkspacePaths } from '../../../../extension/src/tools/workspacePaths';

describe('tools: paths confined to the workspace', () => {
  let base: string;
  let ws: string;
  let paths: WorkspacePaths;
  before(() => {
    base = mkdtempSync(join(tmpdir(), 'pwp-paths-'));
    ws = join(base, 'ws');
    mkdirSync(join(ws, 'src'), { recursive: true });
    mkdirSync(join(base, 'outside'));
    writeFileSync(join(base, 'outside', 'secret.txt'), 'x');
    writeFileSync(join(ws, 'src', 'a.py'), 'x');
    symlinkSync(join(base, 'outside'), join(ws, 'link-out'));
    symlinkSync(join(ws, 'src'), join(ws, 'link-in'));
    symlinkSync(join(base, 'outside', 'new.txt'), join(ws, 'dangling-out'));
    paths = new WorkspacePaths(ws);
  });
  after(() => rmSync(base, { recursive: true, force: true }));

  it('resolves relative, absolute and not-yet-existing paths inside the workspace', () => {
    assert.equal(paths.resolve('src/a.py'), join(ws, 'src/a.py'));
    assert.equal(paths.resolve(join(ws, 'src/a.py')), join(ws, 'src/a.py'));
    assert.equal(paths.resolve('new/dir/b.py'), join(ws, 'new/dir/b.py'));
    assert.equal(paths.resolve('.'), ws);
    assert.equal(paths.resolve('link-in/a.py'), join(ws, 'link-in/a.py'));
  });

  it('refuses .. escapes and absolute paths elsewhere, naming the argument', () => {
    assert.throws(() => paths.resolve('../outside/secret.txt', 'target_file'), /target_file: '\.\.\/outside\/secret\.txt' is outside the workspace/);
    assert.throws(() => paths.resolve('src/../../outside'), /outside the workspace/);
    assert.throws(() => paths.resolve('/etc/passwd'), /outside the workspace/);
    assert.throws(() => paths.resolve(`${ws}2/x`), /outside the workspace/);
  });

  it('refuses symlinks that lead out, existing or dangling, and paths under them', () => {
    assert.throws(() => paths.resolve('link-out/secret.txt'), /symbolic link/);
    assert.throws(() => paths.resolve('link-out'), /symbolic link/);
    assert.throws(() => paths.resolve('link-out/new/file.txt'), /symbolic link/);
    assert.throws(() => paths.resolve('dangling-out'), /symbolic link/);
  });

  it('shows paths relative to the workspace', () => {
    assert.equal(paths.display(join(ws, 'src/a.py')), 'src/a.py');
    assert.equal(paths.display(ws), '.');
  });
});
