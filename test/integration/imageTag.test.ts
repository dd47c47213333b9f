// The IDE image's tag is a hash of its inputs: two fresh clones of the same commit, each
// built on its own (a .vsix stamped with its own build time, node_modules reached by another
// path), print the same tag; a changed input gives another.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../../host/common/paths';

function cloneAndBuild(parent: string, name: string): string {
  const dir = join(parent, name);
  execFileSync('git', ['clone', '-q', REPO_ROOT, dir]);
  symlinkSync(join(REPO_ROOT, 'node_modules'), join(dir, 'node_modules'));
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: dir, stdio: 'pipe' });
  return dir;
}
const tagOf = (dir: string): string => {
  const out = execFileSync(process.execPath, ['dist/pwp.js', '--version'], { cwd: dir, encoding: 'utf8' });
  const m = /^image (pwp-ide:[0-9a-f]{16})$/m.exec(out);
  assert.ok(m, out);
  return m[1];
};

describe('the IDE image tag', function () {
  this.timeout(300_000);
  const parent = mkdtempSync(join(tmpdir(), 'pwp-tag-'));
  after(() => rmSync(parent, { recursive: true, force: true }));

  it('is the same for the same commit in two clones and builds, and changes with an input', () => {
    const a = cloneAndBuild(parent, 'a');
    const b = cloneAndBuild(parent, 'b');
    assert.equal(tagOf(a), tagOf(b));
    appendFileSync(join(b, 'images', 'ide', 'settings.json'), '\n');
    assert.notEqual(tagOf(b), tagOf(a));
  });
});
