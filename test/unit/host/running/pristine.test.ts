import { strict as assert } from 'node:assert';
import { catchingUp, onScreenOnly } from '../../../../host/running/pristine';

describe('pristine check: which differences may still be catching up', function () {
  const marks = 'marks: added tab Source Control (Ctrl+Shift+G) - 1 pending changes activitybar';
  const git = 'processes: added git rev-parse HEAD';

  it('the screen and the Git view\'s own git commands may be catching up', function () {
    assert.equal(catchingUp([marks, git, 'screen: 1234abcd']), true);
    assert.equal(onScreenOnly([marks, git]), false);
  });

  it('anything else the episode left is not', function () {
    const others = [
      'processes: added sleep 1000', 'processes: missing git rev-parse HEAD', 'files: /tmp/x: absent -> 3f',
      'ide.terminals: [] -> ["bash"]', 'input: {} -> {"held":["ctrl"]}',
    ];
    for (const d of others) {
      assert.equal(catchingUp([marks, d]), false, d);
    }
  });
});
