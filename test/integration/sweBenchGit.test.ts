// A SWE-bench task's workspace, as the agent finds it in its real container: a git repository
// at the base commit whose history holds nothing of the fix. What an agent would run to find
// it (`git log --all`, `git fsck --lost-found`, `git cat-file --batch-all-objects`) finds no
// object of the gold patch's files.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { patchedFiles } from '../../host/converters/repoCheckout';
import { resolveTasks } from '../../host/taskEnv/loadTask';
import { TaskEnv } from '../../host/taskEnv/taskEnv';
import { testImage, testPool } from './environmentFixture';

describe('SWE-bench workspace: a git repository at the base commit, nothing of the fix in it', function () {
  this.timeout(30 * 60_000);
  const [task] = resolveTasks(['swe-bench/pwp-samples__tally-1']);
  let session: TaskEnv | undefined;
  after(async () => { await session?.close(); });

  it('git log --all, git fsck --lost-found and git cat-file --batch-all-objects find no object of the fix', async () => {
    // The blobs of the fixed files, as git names them.
    const scratch = mkdtempSync(join(tmpdir(), 'pwp-swe-git-'));
    let fixBlobs: string[];
    try {
      cpSync(task.workspaceDir!, scratch, { recursive: true });
      const patch = readFileSync(join(task.dir, 'oracle/gold.patch'), 'utf8');
      execFileSync('git', ['apply', '--whitespace=nowarn', '-'], { cwd: scratch, input: patch });
      fixBlobs = patchedFiles(patch).map((f) => execFileSync('git', ['hash-object', f], { cwd: scratch }).toString().trim());
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
    assert.ok(fixBlobs.length > 0);

    session = new TaskEnv(task, { image: await testImage(), pool: await testPool(), labels: { 'pwp.test': '1' } });
    await session.reset();
    const run = async (script: string) => {
      const r = await session!.exec(['bash', '-c', script], { cwd: '/workspace' });
      assert.equal(r.exitCode, 0, `${script}\n${r.stderr}`);
      return r.stdout;
    };
    assert.equal((await run('git status --porcelain')).trim(), '', 'the workspace is the commit, unchanged');
    assert.equal((await run('git log --all --oneline | wc -l')).trim(), '1');
    const seen = [
      await run('git log --all --format="%H %T %P"'),
      await run('git fsck --lost-found --no-progress 2>&1; ls .git/lost-found 2>/dev/null || true'),
      await run('git cat-file --batch-all-objects --batch-check'),
      await run('git reflog --all; git stash list; git tag; git branch -a'),
    ].join('\n');
    for (const b of fixBlobs) assert.ok(!seen.includes(b), `the fix's blob ${b} is in the workspace's repository:\n${seen}`);
    // The check does see what is there: the base's own blob of a file the fix changes.
    const baseBlob = (await run(`git rev-parse HEAD:${patchedFiles(readFileSync(join(task.dir, 'oracle/gold.patch'), 'utf8'))[0]}`)).trim();
    assert.ok(seen.includes(baseBlob));
  });
});
