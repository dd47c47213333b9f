// Anthropic's computer-use actions mapped onto our input actions, and the screen scaling
// between what the model sees and the real screen.
import assert from 'node:assert/strict';
import sharp from 'sharp';
import { computerActions, mapComputerAction } from '../../../../host/agents/computerUse';
import { ToolArgumentError } from '../../../../host/agents/screenTools';
import { modelScreenSize, ScreenScaling } from '../../../../host/models/screenScaling';

const cursor = async () => ({ x: 11, y: 22 });

describe('screen scaling for computer use', () => {
  it('picks the standard size of the same aspect ratio, or keeps the ratio within the image limits', () => {
    assert.deepEqual(modelScreenSize({ width: 1280, height: 800 }), { width: 1280, height: 800 });
    assert.deepEqual(modelScreenSize({ width: 1600, height: 1000 }), { width: 1280, height: 800 });
    assert.deepEqual(modelScreenSize({ width: 1920, height: 1080 }), { width: 1366, height: 768 });
    assert.deepEqual(modelScreenSize({ width: 2048, height: 1536 }), { width: 1024, height: 768 });
    const odd = modelScreenSize({ width: 3000, height: 1000 });
    assert.ok(odd.width <= 1568 && Math.abs(odd.width / odd.height - 3) < 0.01);
  });

  it('maps points both ways and clamps onto the screen', () => {
    const s = new ScreenScaling({ width: 1600, height: 1000 });
    assert.deepEqual(s.toScreen(640, 400), { x: 800, y: 500 });
    assert.deepEqual(s.toModel(800, 500), { x: 640, y: 400 });
    assert.deepEqual(s.toScreen(1279, 799), { x: 1599, y: 999 });
    assert.equal(s.inModelScreen(1280, 10), false);
  });

  it('resizes screenshots to the model size', async () => {
    const png = await sharp({ create: { width: 1600, height: 1000, channels: 3, background: '#336699' } }).png().toBuffer();
    const out = await new ScreenScaling({ width: 1600, height: 1000 }).image(png, 'png');
    const meta = await sharp(out.data).metadata();
    assert.deepEqual([meta.width, meta.height, out.width, out.height], [1280, 800, 1280, 800]);
  });
});

describe('computer-use actions', () => {
  const s = new ScreenScaling({ width: 1600, height: 1000 });
  const map = (input: unknown, version = 'computer_20250124') => mapComputerAction(version, input, s, cursor);

  it('maps clicks with coordinates scaled back to the screen, and modifiers from text', async () => {
    assert.deepEqual(await map({ action: 'left_click', coordinate: [640, 400] }), {
      kind: 'actions',
      actions: [{ type: 'click', x: 800, y: 500, button: 'left', count: 1, modifiers: undefined }],
    });
    assert.deepEqual(await map({ action: 'double_click', coordinate: [0, 0] }), {
      kind: 'actions',
      actions: [{ type: 'click', x: 0, y: 0, button: 'left', count: 2, modifiers: undefined }],
    });
    assert.deepEqual(await map({ action: 'right_click', coordinate: [10, 10], text: 'shift+ctrl' }), {
      kind: 'actions',
      actions: [{ type: 'click', x: 13, y: 13, button: 'right', count: 1, modifiers: ['shift', 'ctrl'] }],
    });
    assert.deepEqual(
      await map({ action: 'triple_click' }),
      { kind: 'actions', actions: [{ type: 'click', x: 11, y: 22, button: 'left', count: 3, modifiers: undefined }] },
      'no coordinate: where the pointer is',
    );
  });

  it('maps keys, typing, moves, drags, scrolls, waits and raw button presses', async () => {
    assert.deepEqual(await map({ action: 'key', text: 'ctrl+s' }), { kind: 'actions', actions: [{ type: 'key', keys: 'ctrl+s' }] });
    assert.deepEqual(await map({ action: 'type', text: 'hello\n' }), { kind: 'actions', actions: [{ type: 'type', text: 'hello\n' }] });
    assert.deepEqual(await map({ action: 'mouse_move', coordinate: [100, 100] }), { kind: 'actions', actions: [{ type: 'move', x: 125, y: 125 }] });
    assert.deepEqual(await map({ action: 'left_click_drag', start_coordinate: [0, 0], coordinate: [100, 100] }), { kind: 'actions', actions: [{ type: 'drag', from: { x: 0, y: 0 }, to: { x: 125, y: 125 } }] });
    assert.deepEqual(await map({ action: 'scroll', coordinate: [100, 100], scroll_direction: 'down', scroll_amount: 5 }), { kind: 'actions', actions: [{ type: 'scroll', direction: 'down', amount: 5, x: 125, y: 125 }] });
    const held = await map({ action: 'scroll', scroll_direction: 'up', text: 'ctrl' });
    assert.deepEqual(held.kind === 'actions' && held.actions.map((a) => a.type), ['xdotool', 'scroll', 'xdotool']);
    assert.deepEqual(await map({ action: 'wait', duration: 2 }), { kind: 'actions', actions: [{ type: 'wait', ms: 2000 }] });
    assert.deepEqual(await map({ action: 'left_mouse_down' }), { kind: 'actions', actions: [{ type: 'xdotool', argv: ['mousedown', '1'] }] });
    const hold = await map({ action: 'hold_key', text: 'shift', duration: 0.5 });
    assert.deepEqual(hold, {
      kind: 'actions',
      actions: [
        { type: 'xdotool', argv: ['keydown', 'shift'] },
        { type: 'wait', ms: 500 },
        { type: 'xdotool', argv: ['keyup', 'shift'] },
      ],
    });
    assert.deepEqual(await map({ action: 'screenshot' }), { kind: 'screenshot' });
    assert.deepEqual(await map({ action: 'cursor_position' }), { kind: 'cursor' });
  });

  it('zooms into a region given in model coordinates (computer_20251124 only)', async () => {
    assert.deepEqual(await map({ action: 'zoom', region: [0, 0, 640, 400] }, 'computer_20251124'), { kind: 'zoom', region: { x: 0, y: 0, width: 800, height: 500 } });
    assert.throws(() => map({ action: 'zoom', region: [0, 0, 10, 10] }), /'zoom' is not an action of computer_20250124/);
    assert.ok(!computerActions('computer_20241022').includes('scroll'));
  });

  it('refuses what a model can get wrong, naming the field', async () => {
    const bad = async (input: unknown, re: RegExp) => {
      await assert.rejects(async () => map(input), (e: Error) => e instanceof ToolArgumentError && re.test(e.message));
    };
    await bad({ action: 'left_click', coordinate: [1280, 5] }, /coordinate: \(1280, 5\) is off the screen, which is 1280x800/);
    await bad({ action: 'key' }, /text is required for key/);
    await bad({ action: 'left_click', coordinate: [1, 2], text: 'banana' }, /'banana' is not a modifier key/);
    await bad({ action: 'scroll' }, /scroll_direction is required/);
    await bad({ action: 'fly' }, /'fly' is not an action/);
    await bad({ coordinate: 'x' }, /action/);
  });
});
