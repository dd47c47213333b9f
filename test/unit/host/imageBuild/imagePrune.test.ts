// Which old IDE images a new build removes: all but the newest few by tag time, never one a
// container uses; and how many to keep, from PWP_IMAGE_KEEP.
import assert from 'node:assert/strict';
import { imagesToPrune, keepCount } from '../../../../host/imageBuild/pruneImages';

const img = (id: string, taggedAt: number) => ({ id, tags: [`pwp-ide:${id}`], taggedAt });

describe('pruning old IDE images', () => {
  it('keeps the two most recently tagged images and removes the rest', () => {
    const out = imagesToPrune([img('a', 1), img('d', 4), img('b', 2), img('c', 3)], new Set(), 2);
    assert.deepEqual(out.map((i) => i.id).sort(), ['a', 'b']);
  });

  it('never removes an image a container uses, even an old one', () => {
    const out = imagesToPrune([img('a', 1), img('b', 2), img('c', 3)], new Set(['a']), 1);
    assert.deepEqual(out.map((i) => i.id), ['b']);
  });

  it('reads PWP_IMAGE_KEEP: default 2, a number, or all; anything else is an error', () => {
    assert.equal(keepCount({}), 2);
    assert.equal(keepCount({ PWP_IMAGE_KEEP: '5' }), 5);
    assert.equal(keepCount({ PWP_IMAGE_KEEP: 'all' }), Infinity);
    assert.deepEqual(imagesToPrune([img('a', 1), img('b', 2), img('c', 3)], new Set(), Infinity), []);
    assert.throws(() => keepCount({ PWP_IMAGE_KEEP: '0' }), /positive integer or 'all'/);
    assert.throws(() => keepCount({ PWP_IMAGE_KEEP: 'two' }), /positive integer or 'all'/);
  });
});
