import { strict as assert } from 'node:assert';
import { dropNullMoves } from '../../../../bridge/input/xdotool';

describe('dropNullMoves (xdotool waits ~15 s on a synced move that moves nothing)', () => {
  it('drops a move to where the pointer is, keeps the click', () => {
    assert.deepEqual(dropNullMoves(['mousemove', '--sync', '10', '20', 'click', '1'], { x: 10, y: 20 }), ['click', '1']);
  });
  it('keeps a move elsewhere', () => {
    assert.deepEqual(dropNullMoves(['mousemove', '--sync', '10', '20', 'click', '1'], { x: 11, y: 20 }), ['mousemove', '--sync', '10', '20', 'click', '1']);
  });
  it('follows the pointer through a chain: a drag that stays put has no synced moves left after the first', () => {
    const drag = ['mousemove', '--sync', '5', '5', 'mousedown', '1', 'mousemove', '--sync', '5', '5', 'sleep', '0.01', 'mousemove', '--sync', '6', '5', 'mouseup', '1'];
    assert.deepEqual(dropNullMoves(drag, { x: 0, y: 0 }), ['mousemove', '--sync', '5', '5', 'mousedown', '1', 'sleep', '0.01', 'mousemove', '--sync', '6', '5', 'mouseup', '1']);
  });
  it('keeps every move when the pointer could not be read', () => {
    assert.deepEqual(dropNullMoves(['mousemove', '--sync', '1', '2']), ['mousemove', '--sync', '1', '2']);
  });
});
