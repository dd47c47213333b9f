// dom.* in a real container: Set-of-Marks over the real workbench, clicks by mark id,
// the annotated screenshot, the compact tree and the focused element.
import { strict as assert } from 'node:assert';
import sharp from 'sharp';
import { InvalidParamsError, type DomNode, type Mark, type Result } from '../../bridge/protocol';
import { waitForSettle } from '../../host/running/settle';
import { useEnvironment } from './environmentFixture';

type Marks = Result<'dom.marks'>;

describe('dom.* over the DevTools protocol', function () {
  const env = useEnvironment({
    'hello.py': 'print("hello")\n',
    'notes.md': '# Notes\n\nSee [the docs](https://example.com/docs).\n',
  });
  const client = () => env().client;

  /** dom.marks until `pred` holds, so a test waits for the IDE to react and no longer. */
  async function marksUntil(what: string, pred: (m: Mark[]) => boolean, timeoutMs = 60_000): Promise<Marks> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const r = await client().call('dom.marks', {});
      if (pred(r.marks)) return r;
      if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}; marks were:\n${r.text}`);
      await new Promise((res) => setTimeout(res, 100));
    }
  }
  const find = (marks: Mark[], role: string, text: RegExp, part?: string) =>
    marks.find((m) => m.role === role && text.test(m.text) && (!part || m.part === part));
  const inside = (p: { x: number; y: number }, b: Mark['box']) => p.x >= b.x && p.x < b.x + b.width && p.y >= b.y && p.y < b.y + b.height;
  async function resetToExplorer(): Promise<void> {
    await client().call('input.key', { keys: 'Escape' });
    await client().call('input.key', { keys: 'ctrl+shift+e' });
    await marksUntil('the explorer', (m) => !!find(m, 'treeitem', /^hello\.py$/, 'sidebar'));
  }

  it('lists the activity bar items and the workspace files, each with a box on the screen', async () => {
    const r = await marksUntil('the explorer rows', (m) => !!find(m, 'treeitem', /^hello\.py$/));
    for (const name of [/^Explorer/, /^Search/, /^Source Control/, /^Run and Debug/, /^Extensions/]) {
      assert.ok(find(r.marks, 'tab', name, 'activitybar'), `activity bar item ${name}`);
    }
    assert.ok(find(r.marks, 'treeitem', /^notes\.md$/, 'sidebar'));
    assert.deepEqual(r.screen, { width: 1280, height: 800 });
    for (const m of r.marks) {
      assert.ok(m.box.width > 0 && m.box.height > 0 && m.box.x >= 0 && m.box.y >= 0, `box of ${m.text}`);
      assert.ok(m.box.x + m.box.width <= 1280 && m.box.y + m.box.height <= 800, `box of ${m.text} on screen`);
      assert.ok(inside(m.point, m.box), `click point of ${m.text} inside its box`);
    }
    const lines = r.text.split('\n');
    assert.equal(lines.length, r.marks.length);
    assert.equal(lines[0], `[${r.marks[0].id}] [${r.marks[0].role}] [${r.marks[0].text}]`);
    assert.equal(new Set(r.marks.map((m) => m.id)).size, r.marks.length, 'ids are unique');
  });

  it('gives the same ids in two consecutive calls when the screen did not change', async () => {
    await waitForSettle(client(), { quietMs: 300 });
    // A loaded machine may still be drawing after the settle wait (it gives up after a few
    // seconds): read pairs until the screen held still between the two, then compare the ids.
    const same = (a: Marks, b: Marks) => JSON.stringify(a.marks.map((m) => [m.role, m.text, m.box])) === JSON.stringify(b.marks.map((m) => [m.role, m.text, m.box]));
    let pairs = 0;
    const deadline = Date.now() + 60_000;
    let a: Marks;
    let b: Marks;
    do {
      a = await client().call('dom.marks', {});
      b = await client().call('dom.marks', {});
      pairs++;
    } while (!same(a, b) && Date.now() < deadline);
    assert.ok(same(a, b), `the screen kept changing for 60 s (${pairs} pairs of reads)`);
    assert.deepEqual(b.marks.map((m) => [m.id, m.role, m.text, m.box]), a.marks.map((m) => [m.id, m.role, m.text, m.box]));
  });

  it('shows quick open with its entries, its input focused, and the tab of the file opened from it', async () => {
    await client().call('input.key', { keys: 'ctrl+p' });
    await marksUntil('the quick open input', (m) => !!find(m, 'textbox', /Search files/i, 'quickinput'));
    const focused = await client().call('dom.focused', {});
    assert.equal(focused.focused?.part, 'quickinput');
    assert.equal(focused.focused?.tag, 'input');

    // A fresh workspace has no recently opened files: the entries come with the query.
    await client().call('input.type', { text: 'hello' });
    const open = await marksUntil('hello.py among the entries', (m) => !!find(m, 'option', /^hello\.py/, 'quickinput'));
    assert.match(find(open.marks, 'textbox', /Search files/i, 'quickinput')?.text ?? '', /"hello"$/, 'the input shows the query');
    await client().call('input.key', { keys: 'Return' });
    const after = await marksUntil('the hello.py tab and editor', (m) => !!find(m, 'tab', /^hello\.py/, 'editor') && !!find(m, 'editor', /\/workspace\/hello\.py$/));
    assert.ok(!after.marks.some((m) => m.part === 'quickinput'), 'quick open closed');
    assert.equal((await client().call('dom.focused', {})).focused?.part, 'editor');
  });

  it('clicks an activity bar item by mark id: the Search view opens', async () => {
    await resetToExplorer();
    const r = await client().call('dom.marks', {});
    const search = find(r.marks, 'tab', /^Search/, 'activitybar');
    assert.ok(search);
    const click = await client().call('input.click', { mark: search.id });
    assert.deepEqual({ x: click.x, y: click.y }, search.point);
    const after = await marksUntil('the search view', (m) => find(m, 'tab', /^Search/, 'activitybar')?.selected === true
      && m.some((k) => k.part === 'sidebar' && k.role === 'textbox' && /search/i.test(k.text)));
    assert.equal(find(after.marks, 'tab', /^Search/, 'activitybar')?.id, search.id, 'the item kept its id');
    assert.ok(!find(after.marks, 'treeitem', /^hello\.py$/, 'sidebar'), 'the explorer is gone');
  });

  it('clicks an explorer item by mark id: the file opens in a tab', async () => {
    await resetToExplorer();
    const r = await client().call('dom.marks', {});
    const notes = find(r.marks, 'treeitem', /^notes\.md$/, 'sidebar');
    assert.ok(notes);
    await client().call('input.click', { mark: notes.id });
    await marksUntil('the notes.md tab', (m) => !!find(m, 'tab', /^notes\.md/, 'editor'));
  });

  it('reaches into a webview: the markdown preview\'s link is a mark inside it', async () => {
    const editor = find((await marksUntil('the notes.md editor', (m) => !!find(m, 'editor', /notes\.md$/))).marks, 'editor', /notes\.md$/);
    assert.ok(editor);
    // The preview command follows keyboard focus, which the explorer click left in the tree.
    await client().call('input.click', { mark: editor.id });
    await client().call('input.key', { keys: 'ctrl+shift+v' });
    const r = await marksUntil('the preview link', (m) => !!find(m, 'link', /the docs/, 'webview'));
    const view = r.marks.find((m) => m.role === 'webview');
    const link = find(r.marks, 'link', /the docs/, 'webview');
    assert.ok(view && link);
    assert.ok(inside(link.point, view.box), 'the link lies inside the webview on screen');
  });

  it('shows an open context menu and leaves out what its click shield covers', async () => {
    await resetToExplorer();
    const r = await client().call('dom.marks', {});
    const search = find(r.marks, 'tab', /^Search/, 'activitybar');
    assert.ok(search);
    await client().call('input.click', { x: search.point.x, y: search.point.y, button: 'right' });
    const menu = await marksUntil('the context menu', (m) => m.some((k) => k.role.startsWith('menuitem') && k.part === 'menu'));
    assert.ok(menu.marks.every((m) => m.part === 'menu'), `only the menu is clickable:\n${menu.text}`);
    assert.ok(find(menu.marks, 'menuitemcheckbox', /^Explorer/), 'the menu lists the views');
    const covered = await client().call('dom.marks', { includeCovered: true });
    assert.ok(find(covered.marks, 'tab', /^Explorer/, 'activitybar'), 'covered items come back on request');
    await client().call('input.key', { keys: 'Escape' });
    await marksUntil('the menu to close', (m) => !m.some((k) => k.part === 'menu'));
  });

  it('rejects a mark id it does not know, naming the valid ones', async () => {
    const r = await client().call('dom.marks', {});
    await assert.rejects(client().call('input.click', { mark: 100_000 }), (err: Error) => {
      assert.ok(err instanceof InvalidParamsError, err.name);
      assert.match(err.message, /no mark 100000 .*valid ids: \d+/);
      assert.ok(r.marks.length > 0);
      return true;
    });
    await assert.rejects(client().call('input.click', { x: 1, y: 1, mark: 1 }), /either x and y, or mark/);
  });

  it('draws the marks on a screen-sized PNG that differs from the plain screenshot', async () => {
    await waitForSettle(client(), { quietMs: 300 });
    const annotated = await client().call('dom.marksImage', {});
    const plain = await client().call('capture.screenshot', { format: 'png' });
    assert.equal(annotated.image.format, 'png');
    assert.deepEqual([annotated.image.width, annotated.image.height], [1280, 800]);
    assert.ok(annotated.marks.length > 10 && annotated.text.split('\n').length === annotated.marks.length);
    const a = await sharp(Buffer.from(annotated.image.data, 'base64')).raw().toBuffer({ resolveWithObject: true });
    const b = await sharp(Buffer.from(plain.data, 'base64')).raw().toBuffer({ resolveWithObject: true });
    assert.deepEqual([a.info.width, a.info.height], [1280, 800]);
    let differing = 0;
    for (let i = 0; i < a.data.length; i += a.info.channels) if (a.data[i] !== b.data[i] || a.data[i + 1] !== b.data[i + 1]) differing++;
    // Every mark's outline is at least a few dozen pixels; the cursor blink changes far fewer.
    assert.ok(differing > annotated.marks.length * 40, `${differing} pixels differ`);
  });

  it('returns the DOM as a compact tree within depth and node limits, saying when it cut', async () => {
    const count = (n: DomNode): number => 1 + (n.children ?? []).reduce((s, c) => s + count(c), 0);
    const depth = (n: DomNode): number => 1 + Math.max(0, ...(n.children ?? []).map(depth));
    const all = (n: DomNode): DomNode[] => [n, ...(n.children ?? []).flatMap(all)];

    const full = await client().call('dom.tree', { maxNodes: 20_000, maxDepth: 200 });
    assert.ok(full.root);
    assert.equal(count(full.root), full.nodeCount);
    const nodes = all(full.root);
    assert.ok(nodes.some((n) => n.id === 'workbench.parts.activitybar' && n.box), 'the activity bar part');
    assert.ok(nodes.some((n) => n.role === 'treeitem' && n.name === 'hello.py'), 'the explorer row');
    assert.ok(nodes.some((n) => n.focused), 'the focused element');

    const small = await client().call('dom.tree', { maxNodes: 25 });
    assert.ok(small.root);
    assert.equal(small.nodeCount, 25);
    assert.equal(count(small.root), 25);
    assert.equal(small.truncated, true);
    assert.equal(small.truncation?.nodes, true);
    assert.ok((small.truncation?.omittedNodes ?? 0) > 0, 'it counts what it left out');

    const shallow = await client().call('dom.tree', { maxDepth: 3 });
    assert.ok(shallow.root && depth(shallow.root) <= 3);
    assert.equal(shallow.truncation?.depth, true);

    const status = await client().call('dom.tree', { selector: '.part.statusbar' });
    assert.equal(status.root?.id, 'workbench.parts.statusbar');
    assert.equal(status.truncated, false);
    await assert.rejects(client().call('dom.tree', { selector: '.no-such-part' }), InvalidParamsError);
  });
});
