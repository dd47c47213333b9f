import { strict as assert } from 'node:assert';
import { limitTree, subtreeSize, treeToScreen } from '../../../../bridge/dom/domTree';
import { screenTransform } from '../../../../bridge/dom/screenGeometry';
import type { DomNode } from '../../../../bridge/protocol/dom';

/** A tree `depth` levels deep with `fan` children a node. */
function tree(depth: number, fan: number, name = 'n'): DomNode {
  return depth === 1 ? { tag: 'div', name } : { tag: 'div', name, children: Array.from({ length: fan }, (_, i) => tree(depth - 1, fan, `${name}.${i}`)) };
}
const levels = (n: DomNode): number => 1 + Math.max(0, ...(n.children ?? []).map(levels));

describe('dom.tree limits', () => {
  it('keeps a tree within the limits whole', () => {
    const t = tree(3, 2);
    const r = limitTree(t, { maxDepth: 10, maxNodes: 100 });
    assert.deepEqual(r.root, t);
    assert.equal(r.nodeCount, 7);
    assert.equal(r.depthCut || r.nodesCut, false);
  });

  it('cuts below maxDepth and counts what it left out', () => {
    const r = limitTree(tree(4, 2), { maxDepth: 2, maxNodes: 100 });
    assert.equal(levels(r.root), 2);
    assert.equal(r.depthCut, true);
    assert.equal(r.nodeCount, 3);
    assert.equal(r.omittedNodes, 15 - 3);
    assert.equal(r.root.children?.[0].omitted, 6);
  });

  it('keeps maxNodes nodes breadth first, so every branch shows its top before any shows details', () => {
    const r = limitTree(tree(3, 3), { maxDepth: 10, maxNodes: 4 });
    assert.equal(r.nodeCount, 4);
    assert.equal(subtreeSize(r.root), 4);
    assert.deepEqual(r.root.children?.map((c) => [c.name, c.children, c.omitted]), [['n.0', undefined, 3], ['n.1', undefined, 3], ['n.2', undefined, 3]]);
    assert.equal(r.nodesCut, true);
    assert.equal(r.omittedNodes, 13 - 4);
  });

  it('does not change the tree it was given', () => {
    const t = tree(3, 3);
    const copy = JSON.parse(JSON.stringify(t));
    limitTree(t, { maxDepth: 2, maxNodes: 3 });
    assert.deepEqual(t, copy);
  });

  it('maps boxes to the screen and drops boxes that are off it', () => {
    const t = screenTransform({ innerWidth: 1280, innerHeight: 800, dpr: 1, screenX: 0, screenY: 0, outerWidth: 1280, outerHeight: 800 });
    const out = treeToScreen({ tag: 'div', box: { x: 0.4, y: 0, width: 10, height: 10 }, children: [{ tag: 'span', box: { x: -500, y: 0, width: 10, height: 10 } }] }, t, { width: 1280, height: 800 });
    assert.deepEqual(out, { tag: 'div', box: { x: 0, y: 0, width: 10, height: 10 }, children: [{ tag: 'span' }] });
  });
});
