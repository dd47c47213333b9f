import { strict as assert } from 'node:assert';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { diffFrames } from '../../../../bridge/capture/delta';
import { Framebuffer, parseXwdHeader } from '../../../../bridge/capture/framebuffer';

/** A minimal XWD file as Xvfb -fbdir writes it: 32 bpp, BGRX, no colormap. */
function xwd(width: number, height: number, pixel: (x: number, y: number) => [number, number, number]): Buffer {
  const name = Buffer.from('Xvfb\0');
  const header = Buffer.alloc(100);
  const fields = [100 + name.length, 7, 2, 24, width, height, 0, 0, 32, 0, 32, 32, width * 4, 4, 0xff0000, 0xff00, 0xff, 8, 256, 0, width, height, 0, 0, 0];
  fields.forEach((v, i) => header.writeUInt32BE(v, i * 4));
  const px = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) {
    const [r, g, b] = pixel(x, y);
    px.set([b, g, r, 0], (y * width + x) * 4);
  }
  return Buffer.concat([header, name, px]);
}

describe('framebuffer and delta', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pwp-fb-'));
  it('reads an XWD framebuffer into RGB', () => {
    const path = join(dir, 'a');
    writeFileSync(path, xwd(4, 2, (x, y) => [x * 10, y * 20, 200]));
    const f = new Framebuffer(path).read();
    assert.equal(f.width, 4);
    assert.equal(f.height, 2);
    assert.deepEqual([...f.rgb.subarray(3 * 5, 3 * 5 + 3)], [10, 20, 200]); // x=1,y=1
  });
  it('rejects files that are not 32-bit XWD', () => {
    const b = xwd(1, 1, () => [0, 0, 0]);
    b.writeUInt32BE(6, 4);
    assert.throws(() => parseXwdHeader(b), /unsupported XWD version/);
  });
  it('finds no change between equal frames and the box around a change', () => {
    const pa = join(dir, 'b');
    writeFileSync(pa, xwd(50, 40, () => [1, 2, 3]));
    const a = new Framebuffer(pa).read();
    assert.deepEqual(diffFrames(a, new Framebuffer(pa).read()), { changedPixels: 0, box: null });
    writeFileSync(pa, xwd(50, 40, (x, y) => (x >= 10 && x < 13 && y >= 5 && y < 7 ? [9, 9, 9] : [1, 2, 3])));
    assert.deepEqual(diffFrames(a, new Framebuffer(pa).read()), { changedPixels: 6, box: { x: 10, y: 5, width: 3, height: 2 } });
  });
  it('treats a missing baseline as a whole-screen change', () => {
    const pa = join(dir, 'c');
    writeFileSync(pa, xwd(8, 8, () => [0, 0, 0]));
    assert.deepEqual(diffFrames(undefined, new Framebuffer(pa).read()).box, { x: 0, y: 0, width: 8, height: 8 });
  });
});
