import { strict as assert } from 'node:assert';
import type { NewHumanEvent } from '../../../../bridge/control/controlState';
import { keysymChar, keysymName } from '../../../../bridge/view/keysyms';
import { RfbClientDecoder } from '../../../../bridge/view/rfbDecoder';

const key = (down: boolean, keysym: number) => { const b = Buffer.alloc(8); b[0] = 4; b[1] = down ? 1 : 0; b.writeUInt32BE(keysym, 4); return b; };
const ptr = (mask: number, x: number, y: number) => { const b = Buffer.alloc(6); b[0] = 5; b[1] = mask; b.writeUInt16BE(x, 2); b.writeUInt16BE(y, 4); return b; };
const handshake = Buffer.concat([Buffer.from('RFB 003.008\n'), Buffer.from([1]), Buffer.from([1])]);
const setEncodings = (n: number) => { const b = Buffer.alloc(4 + 4 * n); b[0] = 2; b.writeUInt16BE(n, 2); return b; };
const fbRequest = () => { const b = Buffer.alloc(10); b[0] = 3; return b; };

function decode(chunks: Buffer[], now = () => 0): { events: NewHumanEvent[]; decoder: RfbClientDecoder } {
  const events: NewHumanEvent[] = [];
  const decoder = new RfbClientDecoder((e) => events.push(e), now);
  for (const c of chunks) decoder.push(c);
  return { events, decoder };
}

describe('RFB client decoder (live-view input recording)', () => {
  it('reports key presses and releases after the handshake, with readable keysym names', () => {
    const { events } = decode([handshake, setEncodings(3), fbRequest(), key(true, 0xffe3), key(true, 0x61), key(false, 0x61), key(false, 0xffe3)]);
    assert.deepEqual(events.map((e) => e.kind === 'key' && `${e.down ? '+' : '-'}${e.name}`), ['+Control_L', '+a', '-a', '-Control_L']);
  });

  it('finds messages split across chunks at any byte', () => {
    const stream = Buffer.concat([handshake, setEncodings(20), key(true, 0x41), fbRequest(), ptr(1, 300, 200), ptr(0, 300, 200), key(false, 0x41)]);
    const oneByOne = decode([...stream].map((b) => Buffer.from([b])));
    const whole = decode([stream]);
    assert.deepEqual(oneByOne.events, whole.events);
    assert.equal(whole.events.length, 4);
  });

  it('turns pointer masks into press, release and wheel, and thins plain moves to one per 100 ms', () => {
    let t = 0;
    const moves = Array.from({ length: 10 }, (_, i) => ptr(0, i, i));
    const events: NewHumanEvent[] = [];
    const d = new RfbClientDecoder((e) => events.push(e), () => t);
    d.push(handshake);
    for (const m of moves) { d.push(m); t += 20; } // 10 moves over 180 ms: kept at 0 and 100 ms
    d.push(ptr(4, 50, 60)); // right button down
    d.push(ptr(0, 50, 60));
    d.push(ptr(8, 50, 60)); // wheel up press...
    d.push(ptr(0, 50, 60)); // ...and its release, which is not a separate event
    const kinds = events.filter((e) => e.kind === 'pointer').map((e) => (e.kind === 'pointer' ? e.action : ''));
    assert.deepEqual(kinds, ['move', 'move', 'press', 'release', 'wheel']);
    const press = events.find((e) => e.kind === 'pointer' && e.action === 'press');
    assert.deepEqual(press, { kind: 'pointer', x: 50, y: 60, buttons: 4, action: 'press' });
  });

  it('records client clipboard text and skips the messages it has no use for', () => {
    const text = Buffer.from('hello');
    const cut = Buffer.alloc(8); cut[0] = 6; cut.writeInt32BE(text.length, 4);
    const pixelFormat = Buffer.alloc(20); pixelFormat[0] = 0;
    const fence = Buffer.from([248, 0, 0, 0, 0, 0, 0, 0, 2, 9, 9]);
    const { events, decoder } = decode([handshake, pixelFormat, fence, cut, text, key(true, 0x20)]);
    assert.equal(decoder.stoppedBecause, null);
    assert.deepEqual(events, [{ kind: 'clipboard', text: 'hello' }, { kind: 'key', down: true, keysym: 0x20, name: 'space' }]);
  });

  it('handles VNC password authentication and protocol 3.3 handshakes', () => {
    const auth = Buffer.concat([Buffer.from('RFB 003.008\n'), Buffer.from([2]), Buffer.alloc(16, 7), Buffer.from([1])]);
    assert.equal(decode([auth, key(true, 0x62)]).events.length, 1);
    const v33 = Buffer.concat([Buffer.from('RFB 003.003\n'), Buffer.from([1])]);
    assert.equal(decode([v33, key(true, 0x62)]).events.length, 1);
  });

  it('stops decoding (and says why) at a message it does not know, instead of guessing', () => {
    const { events, decoder } = decode([handshake, key(true, 0x61), Buffer.from([99, 1, 2, 3]), key(true, 0x62)]);
    assert.equal(events.length, 1);
    assert.match(decoder.stoppedBecause ?? '', /unknown client message type 99/);
  });

  it('names keysyms the way xdotool takes them back', () => {
    assert.equal(keysymName(0xff0d), 'Return');
    assert.equal(keysymName(0x2f), 'slash');
    assert.equal(keysymName(0x5a), 'Z');
    assert.equal(keysymName(0xffbe + 11), 'F12');
    assert.equal(keysymName(0x10020ac), '0x10020ac');
    assert.equal(keysymChar(0x10020ac), '€');
    assert.equal(keysymChar(0xff0d), null);
  });
});
