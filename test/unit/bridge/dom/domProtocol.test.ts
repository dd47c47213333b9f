import { strict as assert } from 'node:assert';
import sharp from 'sharp';
import { drawMarks, overlaySvg } from '../../../../bridge/dom/marksImage';
import { probeExpression } from '../../../../bridge/dom/pageScript';
import { methods } from '../../../../bridge/protocol';
import { inspectWords, parseParamArgs, resolveInspectMethod } from '../../../../host/cli/commands/inspect';

describe('input.click params', () => {
  const parse = (p: unknown) => methods['input.click'].params.safeParse(p);

  it('takes a point or a mark id', () => {
    assert.ok(parse({ x: 10, y: 20 }).success);
    assert.ok(parse({ mark: 7, button: 'right' }).success);
  });

  it('rejects both, neither, or half a point, with one clear message', () => {
    for (const bad of [{ x: 1, y: 2, mark: 3 }, {}, { x: 5 }, { y: 5, mark: 1 }]) {
      const r = parse(bad);
      assert.equal(r.success, false, JSON.stringify(bad));
      assert.match(r.error?.issues.map((i) => i.message).join(';') ?? '', /either x and y, or mark/);
    }
  });
});

describe('dom methods in the protocol', () => {
  it('fills dom.tree defaults and bounds its limits', () => {
    assert.deepEqual(methods['dom.tree'].params.parse({}), { maxDepth: 40, maxNodes: 2000, includeHidden: false });
    assert.equal(methods['dom.tree'].params.safeParse({ maxNodes: 0 }).success, false);
  });

  it('validates a nested tree result', () => {
    const ok = methods['dom.tree'].result.safeParse({ root: { tag: 'div', children: [{ tag: 'a', role: 'button', omitted: 3 }] }, nodeCount: 2, truncated: true, durationMs: 1 });
    assert.ok(ok.success);
    const bad = methods['dom.tree'].result.safeParse({ root: { tag: 'div', children: [{ role: 'button' }] }, nodeCount: 2, truncated: false, durationMs: 1 });
    assert.equal(bad.success, false);
  });
});

describe('the in-page probe', () => {
  it('serializes to one self-contained expression that parses', () => {
    const expr = probeExpression({ mode: 'marks', maxElements: 10 });
    assert.doesNotThrow(() => new Function(`return ${expr};`));
    assert.doesNotMatch(expr, /\brequire\(|\bimport\(/);
  });
});

describe('marks image', () => {
  it('draws a labelled box for each mark', () => {
    const svg = overlaySvg([{ id: 7, box: { x: 10, y: 20, width: 30, height: 40 } }, { id: 12, box: { x: 100, y: 0, width: 5, height: 5 } }], 200, 100);
    assert.equal((svg.match(/<text /g) ?? []).length, 2);
    assert.match(svg, />7<\/text>/);
    assert.match(svg, />12<\/text>/);
  });

  it('composites the overlay onto the frame at screen size', async () => {
    const width = 64;
    const height = 48;
    const frame = { width, height, rgb: Buffer.alloc(width * height * 3, 255) };
    const png = await drawMarks(frame, [{ id: 1, box: { x: 4, y: 4, width: 30, height: 20 } }], 'png');
    const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
    assert.deepEqual([info.width, info.height], [width, height]);
    assert.ok(data.some((v) => v !== 255), 'something was drawn');
  });
});

describe('pwp inspect words', () => {
  const known = ['dom.tree', 'dom.marks', 'dom.marksImage', 'dom.focused', 'ide.editors', 'ide.settings.get', 'ide.settings.update', 'ide.debug', 'ide.debug.addBreakpoints'];

  it('maps a word to dom.<word>, ide.<word> or ide.<word>.get', () => {
    assert.equal(resolveInspectMethod('marks-image', known), 'dom.marksImage');
    assert.equal(resolveInspectMethod('editors', known), 'ide.editors');
    assert.equal(resolveInspectMethod('settings', known), 'ide.settings.get');
    assert.equal(resolveInspectMethod('debug', known), 'ide.debug');
  });

  it('never reaches a method that changes state', () => {
    assert.equal(resolveInspectMethod('settings.update', known), undefined);
    assert.equal(resolveInspectMethod('debug.addBreakpoints', known), undefined);
    assert.equal(resolveInspectMethod('nothing', known), undefined);
    assert.deepEqual(inspectWords(known), ['tree', 'marks', 'marks-image', 'focused', 'editors', 'settings', 'debug']);
  });

  it('reads key=value params, JSON values where they parse', () => {
    assert.deepEqual(parseParamArgs(['file=app.py', 'waitMs=500', 'severities=["error"]'], '{"open":"none"}'),
      { open: 'none', file: 'app.py', waitMs: 500, severities: ['error'] });
    assert.throws(() => parseParamArgs(['novalue']), /key=value/);
  });
});
