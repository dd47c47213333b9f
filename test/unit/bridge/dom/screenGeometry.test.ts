import { strict as assert } from 'node:assert';
import { pointToScreen, rectToScreen, screenTransform } from '../../../../bridge/dom/screenGeometry';

const screen = { width: 1280, height: 800 };

describe('page to screen pixels', () => {
  it('is the identity for the kiosk window at 0,0 and device pixel ratio 1', () => {
    const t = screenTransform({ innerWidth: 1279, innerHeight: 799, dpr: 1, screenX: 0, screenY: 0, outerWidth: 1279, outerHeight: 799 });
    assert.deepEqual(t, { scale: 1, originX: 0, originY: 0 });
    assert.deepEqual(rectToScreen({ x: 8, y: 73, width: 36, height: 36 }, t, screen), { x: 8, y: 73, width: 36, height: 36 });
    assert.deepEqual(pointToScreen({ x: 26, y: 91 }, t, screen), { x: 26, y: 91 });
  });

  it('scales a zoomed page and offsets a window with browser chrome', () => {
    const t = screenTransform({ innerWidth: 1000, innerHeight: 600, dpr: 1.25, screenX: 10, screenY: 20, outerWidth: 1250, outerHeight: 800 });
    assert.deepEqual(t, { scale: 1.25, originX: 10, originY: 70 });
    assert.deepEqual(rectToScreen({ x: 8, y: 8, width: 16, height: 16 }, t, screen), { x: 20, y: 80, width: 20, height: 20 });
  });

  it('cuts rectangles to the screen and keeps points on it', () => {
    const t = { scale: 1, originX: 0, originY: 0 };
    assert.deepEqual(rectToScreen({ x: 1270, y: 790, width: 40, height: 40 }, t, screen), { x: 1270, y: 790, width: 10, height: 10 });
    assert.equal(rectToScreen({ x: -13000, y: 799, width: 0, height: 0 }, t, screen), null);
    assert.deepEqual(pointToScreen({ x: 5000, y: -3 }, t, screen), { x: 1279, y: 0 });
  });
});
