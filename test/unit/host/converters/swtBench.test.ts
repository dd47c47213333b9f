// SWT-Bench's conversion facts the grader's change coverage rests on: the lines a gold patch
// changes (removed ones by their number in the old file, added ones in the new), read from the
// unified diff by its hunks' counts; and the metric file the grader leaves, read as typed data.
import { strict as assert } from 'node:assert';
import { changedLines } from '../../../../host/converters/repoCheckout';
import { parseComponents } from '../../../../host/evaluation/evaluationResult';

const DIFF = [
  'diff --git a/pkg/a.py b/pkg/a.py',
  'index 1..2 100644',
  '--- a/pkg/a.py',
  '+++ b/pkg/a.py',
  '@@ -2,4 +2,5 @@ def f():',
  ' keep',
  '-old one',
  '--- looks like a header',
  '+new one',
  '+new two',
  '+new three',
  ' keep',
  '@@ -20 +21 @@',
  '-last',
  '\\ No newline at end of file',
  '+last!',
  '\\ No newline at end of file',
  'diff --git a/pkg/new.py b/pkg/new.py',
  'new file mode 100644',
  '--- /dev/null',
  '+++ b/pkg/new.py',
  '@@ -0,0 +1,2 @@',
  '+x = 1',
  '+y = 2',
  'diff --git a/pkg/gone.py b/pkg/gone.py',
  'deleted file mode 100644',
  '--- a/pkg/gone.py',
  '+++ /dev/null',
  '@@ -1 +0,0 @@',
  '-z = 3',
  '',
].join('\n');

describe('SWT-Bench conversion: the gold patch\'s changed lines and the metric file', () => {
  it('reads removed lines by old line number and added ones by new, hunk by hunk, across created and deleted files', () => {
    assert.deepEqual(changedLines(DIFF), {
      // "--- looks like a header" is the hunk's second removed line, not a file header.
      removed: { 'pkg/a.py': [3, 4, 20], 'pkg/gone.py': [1] },
      added: { 'pkg/a.py': [3, 4, 5, 21], 'pkg/new.py': [1, 2] },
    });
  });

  it('takes a metric file of components in [0,1] or null, and says why it refuses any other', () => {
    assert.deepEqual(parseComponents('{"metric":"SWT-Bench","components":[{"name":"applicability","value":1},{"name":"change coverage","value":null,"absent":"no line"}]}'), {
      metric: 'SWT-Bench', components: [{ name: 'applicability', value: 1 }, { name: 'change coverage', value: null, absent: 'no line' }],
    });
    for (const bad of ['nope', '[]', '{"metric":"m","components":[{"name":"x","value":2}]}', '{"metric":"m","components":[{"value":1}]}', '{"metric":"m","components":[{"name":"x","value":"1"}]}']) {
      assert.ok('invalid' in parseComponents(bad), bad);
    }
  });
});
