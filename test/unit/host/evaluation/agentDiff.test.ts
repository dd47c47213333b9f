import { strict as assert } from 'node:assert';
import { agentDiff } from '../../../../host/evaluation/agentDiff';
import { bufferOf, tarOf } from '../../../../host/deployment/tarArchive';

const workspace = async (files: Record<string, string | Buffer>) =>
  bufferOf(tarOf(Object.entries(files).map(([path, content]) => ({ path: `workspace/${path}`, content }))));

describe('the agent\'s diff (workspace after set-up against the graded workspace)', () => {
  it('gives changed, added and removed text files as a unified diff, unchanged files not at all, binary files by name', async () => {
    const before = await workspace({ 'app.py': 'a = 1\nb = 2\nc = 3\n', 'same.txt': 'same\n', 'gone.txt': 'bye\n', 'img.bin': Buffer.from([0, 1, 2]) });
    const after = await workspace({
      'app.py': 'a = 1\nb = 20\nc = 3\n', 'same.txt': 'same\n', 'new/file.txt': 'hello\n', 'img.bin': Buffer.from([0, 1, 3]),
      '.pytest_cache/v/cache/nodeids': '[]\n', 'pkg/__pycache__/m.cpython-311.pyc': 'x',
    });
    const { diff, filesChanged } = await agentDiff(before, after);
    assert.equal(filesChanged, 4);
    assert.ok(diff.includes('diff --git a/app.py b/app.py\n--- a/app.py\n+++ b/app.py\n@@ -1,3 +1,3 @@\n a = 1\n-b = 2\n+b = 20\n c = 3\n'), diff);
    assert.match(diff, /--- \/dev\/null\n\+\+\+ b\/new\/file\.txt\n@@ -0,0 \+1,1 @@\n\+hello\n/);
    assert.match(diff, /--- a\/gone\.txt\n\+\+\+ \/dev\/null\n@@ -1,1 \+0,0 @@\n-bye\n/);
    assert.match(diff, /^Binary files a\/img\.bin and b\/img\.bin differ$/m);
    assert.doesNotMatch(diff, /same\.txt|={5}|pytest_cache|pycache/);
  });

  it('is empty when the agent changed nothing', async () => {
    const ws = await workspace({ 'a.txt': 'x\n' });
    assert.deepEqual(await agentDiff(ws, ws), { diff: '', filesChanged: 0 });
  });
});
