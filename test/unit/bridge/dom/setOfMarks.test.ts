import { strict as assert } from 'node:assert';
import { MarkIds } from '../../../../bridge/dom/markIds';
import type { PageRect, RawCandidate } from '../../../../bridge/dom/page/pageProbe';
import { screenTransform } from '../../../../bridge/dom/screenGeometry';
import { formatListing, markText, overlap, selectMarks, toMarks } from '../../../../bridge/dom/setOfMarks';

const box = (x: number, y: number, width: number, height: number): PageRect => ({ x, y, width, height });
let next = 0;
/** A visible, hit-testable strong candidate unless told otherwise. */
function cand(over: Partial<RawCandidate> & { visible?: PageRect | null }): RawCandidate {
  const index = over.index ?? next++;
  const v = over.visible === undefined ? box(10, 10, 40, 20) : over.visible;
  return { index, parent: -1, role: 'button', strong: true, name: `b${index}`, part: 'sidebar', visible: v, hidden: false,
    point: v ? { x: Math.floor(v.x + v.width / 2), y: Math.floor(v.y + v.height / 2) } : null, ...over };
}
const kiosk = screenTransform({ innerWidth: 1280, innerHeight: 800, dpr: 1, screenX: 0, screenY: 0, outerWidth: 1280, outerHeight: 800 });
const screen = { width: 1280, height: 800 };

describe('Set-of-Marks selection', () => {
  beforeEach(() => { next = 0; });

  it('leaves out hidden, off-screen, zero-size and covered elements', () => {
    const marks = selectMarks([
      cand({ name: 'shown' }),
      cand({ name: 'visibility hidden', hidden: true }),
      cand({ name: 'outside every clip', visible: null }),
      cand({ name: 'one pixel high', visible: box(0, 0, 50, 1) }),
      cand({ name: 'covered', point: null }),
    ], { includeCovered: false });
    assert.deepEqual(marks.map((m) => m.name), ['shown']);
  });

  it('keeps covered elements on request, clicking the centre of their visible part', () => {
    const marks = selectMarks([cand({ name: 'covered', point: null, visible: box(0, 0, 10, 10) })], { includeCovered: true });
    assert.deepEqual(marks.map((m) => [m.name, m.point]), [['covered', { x: 5, y: 5 }]]);
  });

  it('folds an element into its enclosing one when both are the same target, keeping the outer role and borrowing a name', () => {
    const marks = selectMarks([
      cand({ index: 0, role: 'tab', name: '', visible: box(8, 73, 36, 36), selected: true }),
      cand({ index: 1, parent: 0, role: 'clickable', strong: false, name: 'Explorer (Ctrl+Shift+E)', visible: box(8, 73, 36, 36) }),
    ], { includeCovered: false });
    assert.equal(marks.length, 1);
    assert.equal(marks[0].role, 'tab');
    assert.equal(marks[0].name, 'Explorer (Ctrl+Shift+E)');
    assert.equal(marks[0].selected, true);
  });

  it('lets a real role replace one guessed from a pointer cursor when the inner element fills the wrapper', () => {
    const marks = selectMarks([
      cand({ index: 0, role: 'clickable', strong: false, name: 'Launch Profile...', visible: box(1118, 514, 13, 22) }),
      cand({ index: 1, parent: 0, role: 'button', name: 'Launch Profile...', visible: box(1115, 514, 16, 22), expanded: false }),
    ], { includeCovered: false });
    assert.deepEqual(marks.map((m) => [m.role, m.expanded]), [['button', false]]);
  });

  it('keeps a smaller target inside a larger one (a tab and its close button)', () => {
    const marks = selectMarks([
      cand({ index: 0, role: 'tab', name: 'app.ts', visible: box(353, 31, 137, 32) }),
      cand({ index: 1, parent: 0, role: 'button', name: 'Close (Ctrl+W)', visible: box(463, 37, 20, 20) }),
    ], { includeCovered: false });
    assert.deepEqual(marks.map((m) => m.name), ['app.ts', 'Close (Ctrl+W)']);
    assert.equal(marks[1].enclosing, marks[0]);
  });

  it('looks past a dropped ancestor for the enclosing mark', () => {
    const marks = selectMarks([
      cand({ index: 0, role: 'tab', name: 'outer', visible: box(0, 0, 100, 30) }),
      cand({ index: 1, parent: 0, role: 'listitem', name: 'invisible', hidden: true, visible: box(0, 0, 100, 30) }),
      cand({ index: 2, parent: 1, role: 'button', name: '', visible: box(0, 0, 100, 30) }),
    ], { includeCovered: false });
    assert.deepEqual(marks.map((m) => [m.role, m.name]), [['tab', 'outer']]);
  });

  it('computes intersection over union', () => {
    assert.equal(overlap(box(0, 0, 10, 10), box(0, 0, 10, 10)), 1);
    assert.equal(overlap(box(0, 0, 10, 10), box(10, 0, 10, 10)), 0);
    assert.equal(overlap(box(0, 0, 10, 10), box(5, 0, 10, 10)), 50 / 150);
  });
});

describe('Set-of-Marks listing and ids', () => {
  beforeEach(() => { next = 0; });

  it('lists one `[id] [role] [text]` line a mark', () => {
    assert.equal(formatListing([{ id: 1, role: 'tab', text: 'Explorer' }, { id: 12, role: 'treeitem', text: 'app.ts' }]),
      '[1] [tab] [Explorer]\n[12] [treeitem] [app.ts]');
  });

  it('shows an input\'s content beside its label', () => {
    assert.equal(markText({ name: 'Search files', value: 'app\nts' }), 'Search files "app ts"');
    assert.equal(markText({ name: 'Search files', value: '' }), 'Search files');
  });

  it('puts marks on the screen in whole pixels and drops those that fall off it', () => {
    const marks = toMarks(selectMarks([
      cand({ name: 'a', visible: box(10.4, 20.6, 30, 10) }),
      cand({ name: 'b', visible: box(1300, 20, 30, 10), point: { x: 1310, y: 25 } }),
    ], { includeCovered: false }), new MarkIds(), kiosk, screen);
    assert.deepEqual(marks.map((m) => [m.id, m.text, m.box, m.point]), [[1, 'a', { x: 10, y: 21, width: 30, height: 10 }, { x: 25, y: 25 }]]);
  });

  it('gives the same ids to the same screen twice, through the same table', () => {
    const ids = new MarkIds();
    const screenOf = () => selectMarks([cand({ index: 0, name: 'x' }), cand({ index: 1, name: 'y', visible: box(100, 0, 10, 10) })], { includeCovered: false });
    const first = toMarks(screenOf(), ids, kiosk, screen);
    const second = toMarks(screenOf(), ids, kiosk, screen);
    assert.deepEqual(second, first);
  });

  it('tells equal buttons apart by the mark that encloses them', () => {
    const ids = new MarkIds();
    const tabs = (names: string[]) => selectMarks(names.flatMap((n, i) => [
      cand({ index: 2 * i, role: 'tab', name: n, visible: box(i * 150, 0, 140, 30) }),
      cand({ index: 2 * i + 1, parent: 2 * i, role: 'button', name: 'Close', visible: box(i * 150 + 110, 5, 20, 20) }),
    ]), { includeCovered: false });
    const before = toMarks(tabs(['a.ts', 'b.ts']), ids, kiosk, screen);
    const after = toMarks(tabs(['b.ts']), ids, kiosk, screen);
    const closeOfB = (ms: typeof before) => ms[ms.findIndex((m) => m.text === 'b.ts') + 1].id;
    assert.equal(closeOfB(after), closeOfB(before));
  });
});
