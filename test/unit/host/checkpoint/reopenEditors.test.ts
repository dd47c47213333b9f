// The ide.editors.open a restore sends for a checkpoint's editors: tabs in tab order, a group's
// active tab again only where another tab came after it, and the focused editor's entry last
// (the extension then shows no entry twice): every entry is a round through the workbench,
// seconds each in one just started on a busy machine.
import { strict as assert } from 'node:assert';
import type { CheckpointManifest, EditorTab } from '../../../../host/checkpoint/checkpointStore';
import { reopenParams } from '../../../../host/checkpoint/restore';

const tab = (path: string, viewColumn: number, active: boolean, cursor: EditorTab['cursor'] = null): EditorTab =>
  ({ path: `/workspace/${path}`, viewColumn, preview: false, cursor, active, dirty: false });
const layout = (tabs: EditorTab[], focused: EditorTab | null): CheckpointManifest['editors'] =>
  ({ tabs, focused: focused && { path: focused.path, viewColumn: focused.viewColumn } });
const files = (p: ReturnType<typeof reopenParams>) => p?.editors.map((e) => `${e.viewColumn}:${e.file.slice('/workspace/'.length)}`);

describe('restore: the editors a checkpoint reopens', () => {
  it('one editor: one entry, with its cursor, focused', () => {
    const app = tab('app.py', 1, true, { line: 2, column: 5 });
    const p = reopenParams(layout([app], app));
    assert.deepEqual(p, { editors: [{ file: '/workspace/app.py', cursor: { line: 2, column: 5 }, viewColumn: 1, preview: false }], active: 0 });
  });

  it('a group whose active tab is its last: the tabs once each, the focused one last', () => {
    const p = reopenParams(layout([tab('a.txt', 1, false), tab('b.txt', 1, true)], tab('b.txt', 1, true)));
    assert.deepEqual(files(p), ['1:a.txt', '1:b.txt']);
    assert.equal(p?.active, 1);
  });

  it('an active tab before others in its group is shown again; the focused group\'s comes last', () => {
    const a = tab('a.txt', 1, true);
    const c = tab('c.txt', 2, true);
    const p = reopenParams(layout([a, tab('b.txt', 1, false), c, tab('d.txt', 2, false)], a));
    assert.deepEqual(files(p), ['1:a.txt', '1:b.txt', '2:c.txt', '2:d.txt', '2:c.txt', '1:a.txt']);
    assert.equal(p?.active, 5);
  });

  it('the focus in an earlier group whose active tab is last there: named where it is', () => {
    const b = tab('b.txt', 1, true);
    const p = reopenParams(layout([tab('a.txt', 1, false), b, tab('c.txt', 2, true)], b));
    assert.deepEqual(files(p), ['1:a.txt', '1:b.txt', '2:c.txt']);
    assert.equal(p?.active, 1);
  });

  it('no focused editor: the last entry; no tabs: no call', () => {
    const p = reopenParams(layout([tab('a.txt', 1, true), tab('b.txt', 1, false)], null));
    assert.deepEqual(files(p), ['1:a.txt', '1:b.txt', '1:a.txt']);
    assert.equal(p?.active, 2);
    assert.equal(reopenParams(layout([], null)), null);
  });
});
