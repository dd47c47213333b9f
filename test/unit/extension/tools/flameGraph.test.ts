import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildTree, flameGraphHtml, formatFolded, functionTimes, layout, parseFolded, summarize } from '../../../../extension/src/tools/ide/flameGraph';
import { PROFILE_TRACER } from '../../../../extension/src/tools/ide/profileTracer';

const FOLDED = 'main;load 30\nmain;work;crunch 50\nmain;work 10\nmain;work;crunch;crunch 5\nmain 5\n';

describe('flame graphs: folding, layout and summary', () => {
  it('parses folded stacks and writes them back the same', () => {
    const stacks = parseFolded(FOLDED);
    assert.deepEqual(stacks[1], { frames: ['main', 'work', 'crunch'], value: 50 });
    assert.equal(formatFolded(stacks), FOLDED);
    assert.deepEqual(parseFolded('\n  \n'), []);
    assert.deepEqual(parseFolded('f (a b.py:1);g (c.py:2) 7')[0].frames, ['f (a b.py:1)', 'g (c.py:2)'], 'labels may hold spaces');
  });

  it('names the malformed line instead of guessing', () => {
    assert.throws(() => parseFolded('main;work 10\nmain;work\n'), /line 2 is not "frame;frame;… value": "main;work"/);
    assert.throws(() => parseFolded('main;;work 3'), /line 1 has an empty frame/);
  });

  it('builds a tree whose totals include the children and whose self times are the stacks\' own', () => {
    const root = buildTree(parseFolded(FOLDED));
    assert.equal(root.total, 100);
    const main = root.children[0];
    assert.deepEqual([main.name, main.total, main.self], ['main', 100, 5]);
    assert.deepEqual(main.children.map((c) => [c.name, c.total, c.self]), [['load', 30, 30], ['work', 65, 10]], 'children sorted by name');
    const crunch = main.children[1].children[0];
    assert.deepEqual([crunch.total, crunch.self, crunch.children[0].total], [55, 50, 5]);
  });

  it('lays children side by side from the parent\'s left edge, one row up, widths adding up to the parent', () => {
    const boxes = layout(buildTree(parseFolded(FOLDED)));
    const at = (stack: string) => boxes.find((b) => b.stack === stack)!;
    assert.deepEqual(at('all'), { name: 'all', depth: 0, x: 0, width: 100, self: 0, stack: 'all' });
    assert.deepEqual([at('all;main;load').x, at('all;main;load').width, at('all;main;load').depth], [0, 30, 2]);
    assert.deepEqual([at('all;main;work').x, at('all;main;work').width], [30, 65]);
    assert.deepEqual([at('all;main;work;crunch;crunch').x, at('all;main;work;crunch;crunch').depth], [30, 4]);
    for (const b of boxes) {
      const kids = boxes.filter((k) => k.depth === b.depth + 1 && k.stack.startsWith(`${b.stack};`) && !k.stack.slice(b.stack.length + 1).includes(';'));
      assert.equal(kids.reduce((a, k) => a + k.width, 0) + b.self, b.width, `${b.stack}: children and self fill the box`);
      for (const k of kids) assert.ok(k.x >= b.x && k.x + k.width <= b.x + b.width, `${k.stack} inside its parent`);
    }
  });

  it('counts a recursive function once per stack in its total', () => {
    const t = functionTimes(parseFolded(FOLDED));
    assert.deepEqual(t.find((f) => f.name === 'crunch'), { name: 'crunch', self: 55, total: 55 });
    assert.deepEqual(t.map((f) => f.name), ['main', 'work', 'crunch', 'load']);
  });

  it('summarizes the widest stacks and every function\'s self and total time', () => {
    const s = summarize(parseFolded(FOLDED), { topStacks: 2 });
    assert.match(s, /^Total 0\.10 ms in 5 distinct stacks\./);
    assert.match(s, /0\.05 ms {2}50\.0% {2}main > work > crunch\n +0\.03 ms {2}30\.0% {2}main > load\n\n/);
    assert.match(s, /0\.07 ms +0\.01 ms {2}work\n/);
  });

  it('draws boxes with width in proportion to time, escaped labels and a hover title', () => {
    const html = flameGraphHtml(layout(buildTree(parseFolded('<module> (a.py:1);f 75\n<module> (a.py:1);g 25\n'), 'a.py')), 'Flame graph: a.py');
    assert.match(html, /left:0\.0000%;width:75\.0000%;bottom:36px;[^"]*" title="a\.py &gt; &lt;module&gt; \(a\.py:1\) &gt; f\ntotal 0\.07 ms \(75\.0%\), self 0\.07 ms" data-depth="2">f<\/div>/);
    assert.match(html, /left:75\.0000%;width:25\.0000%;bottom:36px/);
    assert.match(html, />&lt;module&gt; \(a\.py:1\)<\/div>/);
    assert.doesNotMatch(html, /<script/);
  });
});

describe('profile tracer (python3)', function () {
  let dir: string;
  before(function () {
    if (spawnSync('python3', ['--version']).status !== 0) this.skip();
    dir = mkdtempSync(join(tmpdir(), 'pwp-tracer-'));
    writeFileSync(join(dir, 'tracer.py'), PROFILE_TRACER);
  });
  after(() => { if (dir) rmSync(dir, { recursive: true, force: true }); });

  it('records the script\'s own stacks (not the runner\'s), with the slow function\'s self time the widest, and keeps argv and the exit code', () => {
    writeFileSync(join(dir, 'app.py'), [
      'import sys',
      'import json',
      'def slow():',
      '    s = 0',
      '    for i in range(300000):',
      '        s += i % 7',
      '    return s',
      'def quick():',
      '    return sorted([3, 1, 2])',
      'def main():',
      '    quick()',
      '    slow()',
      '    print("args", sys.argv[1:], __name__)',
      'main()',
      'sys.exit(4)',
      '',
    ].join('\n'));
    const r = spawnSync('python3', ['tracer.py', 'out.folded', 'cpu', 'app.py', 'x', 'y'], { cwd: dir, encoding: 'utf8' });
    assert.equal(r.status, 4, r.stderr);
    assert.equal(r.stdout, "args ['x', 'y'] __main__\n");
    const stacks = parseFolded(readFileSync(join(dir, 'out.folded'), 'utf8'));
    assert.ok(stacks.every((s) => s.frames[0] === '<module> (app.py:1)'), 'every stack starts at the script');
    const widest = [...stacks].sort((a, b) => b.value - a.value)[0];
    assert.deepEqual(widest.frames, ['<module> (app.py:1)', 'main (app.py:10)', 'slow (app.py:3)']);
    const text = readFileSync(join(dir, 'out.folded'), 'utf8');
    assert.ok(!text.includes('tracer.py'));
    assert.ok(!text.includes('<frozen'), 'the import system\'s frames are transparent');
    assert.match(text, /^<module> \(app\.py:1\);<module> \(json\/__init__\.py:1\)[; ]/m, 'an import shows as the imported module right above the importer');
  });

  it('writes what it recorded when the script raises, and exits 1', () => {
    writeFileSync(join(dir, 'boom.py'), 'def f():\n    x = sum(range(100000))\n    raise ValueError("boom")\nf()\n');
    const r = spawnSync('python3', ['tracer.py', 'boom.folded', 'wall', 'boom.py'], { cwd: dir, encoding: 'utf8' });
    assert.equal(r.status, 1);
    assert.match(r.stderr, /ValueError: boom/);
    const text = readFileSync(join(dir, 'boom.folded'), 'utf8');
    assert.match(text, /^<module> \(boom\.py:1\);f \(boom\.py:1\)(;sum \(built-in\))? \d+$/m);
  });
});
