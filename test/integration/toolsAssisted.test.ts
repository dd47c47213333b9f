// tools.* end to end, PwP's assisted tools, in a real container: searches and outlines of the
// repository, previews rendered in the environment (checked pixel by pixel), zooms, the diff
// against the task's initial state, and read-only SQL.
import { strict as assert } from 'node:assert';
import sharp from 'sharp';
import { useEnvironment } from './environmentFixture';
import { callTool, fileIn, imagesOf, isPng, pngSize, textOf } from './toolsFixture';

const DB_SETUP = 'import sqlite3\nc = sqlite3.connect("shop.db")\nc.executescript("create table customers(id integer primary key, name text, email text); create table orders(id integer primary key, customer_id integer references customers(id), total real); create table audit(line text); insert into customers values (1, \'Ann\', \'a@x\'), (2, \'Bob\', \'b@x\'); insert into orders values (1, 1, 9.5), (2, 1, 3.0), (3, 2, 7.25);")\nc.commit()\n';

const FILES = {
  'pkg/geometry.py': 'class Shape:\n    def area(self):\n        raise NotImplementedError\n\n\nclass Square(Shape):\n    def __init__(self, side):\n        self.side = side\n\n    def area(self):\n        return self.side ** 2\n\n\ndef total_area(shapes):\n    return sum(s.area() for s in shapes)\n',
  'pkg/__init__.py': '',
  'web/page.html': '<!doctype html><html><head><title>Preview</title><style>body{margin:0;background:#fff} #red{position:absolute;left:0;top:0;width:100px;height:100px;background:rgb(255,0,0)}</style></head><body><div id="red"></div><p style="position:absolute;top:300px;left:300px">Hello preview</p></body></html>',
  'plot.py': 'import matplotlib.pyplot as plt\nplt.figure(figsize=(4, 3))\nplt.plot([1, 2, 3], [1, 4, 9])\nplt.title("squares")\nplt.show()\nprint("plotted")\n',
  'broken_plot.py': 'import matplotlib.pyplot as plt\nraise RuntimeError("no data")\n',
  'make_db.py': DB_SETUP,
  'node_modules/lib/geometry.js': 'total_area\n',
  'README.md': 'Shapes and areas.\n',
};

async function redFraction(png: Buffer): Promise<number> {
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  let red = 0;
  for (let i = 0; i < data.length; i += info.channels) if (data[i] > 200 && data[i + 1] < 60 && data[i + 2] < 60) red++;
  return red / (info.width * info.height);
}

describe('tools.*: PwP assisted tools', function () {
  this.timeout(120_000);
  const env = useEnvironment(FILES);

  it('search_repository groups matches by file; file_name_search finds names by glob or text', async () => {
    const { client } = env();
    const s = textOf(await callTool(client, 'search_repository', { query: 'area(' }));
    assert.match(s, /^\d+ results in 1 files:\npkg\/geometry\.py \(\d+\)\n {2}2: def area\(self\):/);
    assert.doesNotMatch(s, /node_modules/);
    assert.equal(textOf(await callTool(client, 'file_name_search', { name: '*.py' })).split('\n').sort().join(','), 'broken_plot.py,make_db.py,pkg/__init__.py,pkg/geometry.py,plot.py');
    assert.equal(textOf(await callTool(client, 'file_name_search', { name: 'geom' })), 'pkg/geometry.py');
  });

  it('view_structure shows the tree without dependency folders; get_file_outline lists classes and methods', async () => {
    const { client } = env();
    const tree = textOf(await callTool(client, 'view_structure', { depth: 2 }));
    assert.match(tree, /^\.\/\n {2}pkg\/\n {4}__init__\.py\n {4}geometry\.py\n {2}web\/\n {4}page\.html\n/);
    assert.doesNotMatch(tree, /node_modules/);
    const outline = textOf(await callTool(client, 'get_file_outline', { file: 'pkg/geometry.py' }));
    assert.match(outline, /class Shape \(lines 1-3\)\n {2}method area \(lines 2-3\)/);
    assert.match(outline, /class Square \(lines 6-11\)/);
    assert.match(outline, /function total_area \(lines 14-15\)/);
  });

  it('view_html_preview renders a page of the workspace, and zoom_in / zoom_out change what it shows', async () => {
    const { client } = env();
    const r = await callTool(client, 'view_html_preview', { file: 'web/page.html', width: 800, height: 600 });
    assert.equal(r.isError, false, textOf(r));
    assert.match(textOf(r), /title "Preview", 800x600/);
    const page = imagesOf(r)[0];
    assert.deepEqual(pngSize(page), { width: 800, height: 600 });
    const full = await redFraction(page);
    assert.ok(Math.abs(full - (100 * 100) / (800 * 600)) < 0.005, `the 100x100 red box is ${full} of the page`);
    const zin = imagesOf(await callTool(client, 'zoom_in', { factor: 4, x: 0, y: 0 }))[0];
    assert.deepEqual(pngSize(zin), { width: 800, height: 600 });
    const zoomed = await redFraction(zin);
    assert.ok(zoomed > full * 10, `zoomed into the corner the box fills more (${zoomed} vs ${full})`);
    const zout = imagesOf(await callTool(client, 'zoom_out', { factor: 8 }))[0];
    assert.deepEqual(pngSize(zout), { width: 400, height: 300 });
    const orig = imagesOf(await callTool(client, 'view_original_image', {}))[0];
    assert.ok(orig.equals(page), 'view_original_image without a file shows the preview as first rendered');
  });

  it('view_python_preview runs a plotting script and returns its figure; a failing script says why', async () => {
    const { client } = env();
    const r = await callTool(client, 'view_python_preview', { file: 'plot.py' });
    assert.equal(r.isError, false, textOf(r));
    assert.match(textOf(r), /the script finished; 1 figure\(s\)\.\nstdout:\nplotted/);
    const fig = imagesOf(r)[0];
    assert.ok(isPng(fig));
    assert.ok(pngSize(fig).width > 300 && pngSize(fig).width < 500, `4 in at 100 dpi, got ${pngSize(fig).width}`);
    const bad = await callTool(client, 'view_python_preview', { file: 'broken_plot.py' });
    assert.equal(bad.isError, true);
    assert.match(textOf(bad), /failed \(exit code 1\)[\s\S]*RuntimeError: no data/);
  });

  it('view_original_image returns an image file as it is, and refuses what is not an image', async () => {
    const { client } = env();
    await callTool(client, 'create_diagram', { content: 'flowchart LR\n A --> B', output_path: 'docs/d.png' }, { timeoutMs: 90_000 });
    const r = await callTool(client, 'view_original_image', { file: 'docs/d.png' });
    assert.equal(r.isError, false, textOf(r));
    const onDisk = await env().deployment.readFile(env().info.id, '/workspace/docs/d.png');
    assert.ok(imagesOf(r)[0].equals(onDisk));
    const notImage = await callTool(client, 'view_original_image', { file: 'README.md' });
    assert.equal(notImage.isError, true);
    assert.match(textOf(notImage), /not an image/);
  });

  it('get_diff_patch shows every change since the task started: edits, new files, deletions', async () => {
    const { client } = env();
    await callTool(client, 'search_replace', { file_path: 'pkg/geometry.py', old_string: 'return self.side ** 2', new_string: 'return self.side * self.side' });
    await callTool(client, 'write_file', { file_path: 'pkg/circle.py', contents: 'PI = 3.14159\n' });
    await callTool(client, 'delete_file', { target_file: 'README.md' });
    const patch = textOf(await callTool(client, 'get_diff_patch', {}));
    assert.match(patch, /--- a\/pkg\/geometry\.py\n\+\+\+ b\/pkg\/geometry\.py\n@@[^\n]*@@[^\n]*\n[\s\S]*- {8}return self\.side \*\* 2\n\+ {8}return self\.side \* self\.side/);
    assert.match(patch, /new file mode 100644[\s\S]*\+\+\+ b\/pkg\/circle\.py\n@@ -0,0 \+1 @@\n\+PI = 3\.14159/);
    assert.match(patch, /deleted file mode 100644[\s\S]*--- a\/README\.md/);
    assert.doesNotMatch(patch, /node_modules/);
    const only = textOf(await callTool(client, 'get_diff_patch', { paths: ['pkg/circle.py'] }));
    assert.doesNotMatch(only, /geometry/);
    // The workspace's own git state is untouched: no .git appeared.
    assert.equal(await fileIn(env(), '/workspace/.git/HEAD'), null);
  });

  it('tools.baseline retakes the snapshot (after a task\'s set-up), so the patch shows only later changes', async () => {
    const { client } = env();
    const b = await client.call('tools.baseline', {});
    assert.ok(b.files >= 8, `files in the snapshot: ${b.files}`);
    assert.equal(textOf(await callTool(client, 'get_diff_patch', {})), 'No changes since the task started.');
    await callTool(client, 'write_file', { file_path: 'pkg/circle.py', contents: 'PI = 3.14\n' });
    const patch = textOf(await callTool(client, 'get_diff_patch', {}));
    assert.match(patch, /^diff --git a\/pkg\/circle\.py b\/pkg\/circle\.py\n[\s\S]*-PI = 3\.14159\n\+PI = 3\.14\n$/);
  });

  it('test_sql runs queries read-only and get_relevant_schemas ranks tables for a question', async () => {
    const { client } = env();
    await callTool(client, 'run_terminal_cmd', { command: 'python3 make_db.py' });
    const q = textOf(await callTool(client, 'test_sql', { database_path: 'shop.db', query: 'select c.name, sum(o.total) as spent from customers c join orders o on o.customer_id = c.id group by c.name order by c.name' }));
    assert.match(q, /name \| spent\n-+-\+-+\nAnn {2}\| 12\.5\nBob {2}\| 7\.25\n\(2 rows\)/);
    const write = await callTool(client, 'test_sql', { database_path: 'shop.db', query: 'delete from orders' });
    assert.equal(write.isError, true);
    assert.match(textOf(write), /readonly database/);
    assert.match(textOf(await callTool(client, 'test_sql', { database_path: 'shop.db', query: 'select count(*) as n from orders' })), /\n3\n/);
    const schemas = textOf(await callTool(client, 'get_relevant_schemas', { database_path: 'shop.db', question: 'how much did each customer spend on orders', max_tables: 2 }));
    assert.match(schemas, /^table (customers|orders) /);
    assert.match(schemas, /FOREIGN KEY customer_id -> customers\.id/);
    assert.doesNotMatch(schemas, /table audit/);
    assert.match(schemas, /\[1 more tables not shown\]/);
    const missing = await callTool(client, 'test_sql', { database_path: 'nope.db', query: 'select 1' });
    assert.match(textOf(missing), /database not found/);
  });
});
