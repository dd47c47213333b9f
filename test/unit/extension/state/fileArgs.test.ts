import { strict as assert } from 'node:assert';
import { isInsideFolders, isSameOrUnder, parseFileArg } from '../../../../extension/src/state/fileArgs';
import { cap, fromWirePosition, toWirePosition, toWireRange } from '../../../../extension/src/state/positions';

describe('file arguments and positions on the wire', () => {
  it('reads URIs, absolute paths and workspace-relative paths', () => {
    assert.deepEqual(parseFileArg('file:///w/a.py', ['/w']), { kind: 'uri', uri: 'file:///w/a.py' });
    assert.deepEqual(parseFileArg('untitled:Untitled-1', ['/w']), { kind: 'uri', uri: 'untitled:Untitled-1' });
    assert.deepEqual(parseFileArg('/w/x/../a.py', ['/w']), { kind: 'path', path: '/w/a.py' });
    assert.deepEqual(parseFileArg('src/a.ts', ['/w', '/v']), { kind: 'path', path: '/w/src/a.ts' });
    assert.throws(() => parseFileArg('a.ts', []), /no workspace folder/);
  });

  it('confines paths to folders without being fooled by .. or shared prefixes', () => {
    assert.equal(isInsideFolders('/w/a.py', ['/w']), true);
    assert.equal(isInsideFolders('/w', ['/w']), true);
    assert.equal(isInsideFolders('/w/../etc/passwd', ['/w']), false);
    assert.equal(isInsideFolders('/workspace2/a', ['/workspace']), false);
    assert.equal(isInsideFolders('/v/a', ['/w', '/v']), true);
    assert.equal(isSameOrUnder('/w/src/a.ts', '/w/src'), true);
    assert.equal(isSameOrUnder('/w/src2/a.ts', '/w/src'), false);
  });

  it('converts 0-based API positions to 1-based wire positions and back', () => {
    assert.deepEqual(toWirePosition({ line: 0, character: 0 }), { line: 1, column: 1 });
    assert.deepEqual(toWireRange({ start: { line: 2, character: 4 }, end: { line: 3, character: 0 } }), { start: { line: 3, column: 5 }, end: { line: 4, column: 1 } });
    assert.deepEqual(fromWirePosition({ line: 10 }), { line: 9, character: 0 });
    assert.deepEqual(fromWirePosition({ line: 10, column: 3 }), { line: 9, character: 2 });
  });

  it('caps text and says so', () => {
    assert.deepEqual(cap('abcdef', 3), { text: 'abc', truncated: true });
    assert.deepEqual(cap('abc', 3), { text: 'abc', truncated: false });
  });
});
