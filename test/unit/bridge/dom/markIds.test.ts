import { strict as assert } from 'node:assert';
import { MarkIds, describeIds } from '../../../../bridge/dom/markIds';

describe('mark ids', () => {
  it('numbers a first screen 1..n in document order', () => {
    assert.deepEqual(new MarkIds().assign(['a', 'b', 'c']), [1, 2, 3]);
  });

  it('keeps every id when the screen did not change', () => {
    const ids = new MarkIds();
    const sigs = ['a', 'b', 'b', 'c'];
    assert.deepEqual(ids.assign(sigs), ids.assign(sigs));
  });

  it('keeps the ids of elements that stay when others come and go', () => {
    const ids = new MarkIds();
    assert.deepEqual(ids.assign(['tab a', 'tab b', 'row x']), [1, 2, 3]);
    const next = ids.assign(['tab b', 'row new', 'row x']);
    assert.equal(next[0], 2);
    assert.equal(next[2], 3);
  });

  it('does not give an id that just vanished to a different element in the next call', () => {
    const ids = new MarkIds();
    ids.assign(['a', 'b']);
    const next = ids.assign(['b', 'c']);
    assert.deepEqual(next, [2, 3]);
    // One call later the freed id is reused, so numbers stay small.
    assert.deepEqual(ids.assign(['b', 'c', 'd']), [2, 3, 1]);
  });

  it('tells repeated signatures apart by their order', () => {
    const ids = new MarkIds();
    const first = ids.assign(['Close', 'Close', 'Close']);
    assert.deepEqual(new Set(first).size, 3);
    assert.deepEqual(ids.assign(['Close', 'Close', 'Close']), first);
  });

  it('describes valid ids as ranges', () => {
    assert.equal(describeIds([3, 1, 2, 7, 9, 10, 11]), '1-3, 7, 9-11');
    assert.equal(describeIds([]), 'none');
  });
});
