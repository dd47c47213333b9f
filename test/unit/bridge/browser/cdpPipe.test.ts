import { strict as assert } from 'node:assert';
import { PassThrough } from 'node:stream';
import { CdpPipe, NulSplitter, type CdpEvent } from '../../../../bridge/browser/cdpPipe';
import { NotAvailableError } from '../../../../bridge/protocol';
import { xauthorityEntry } from '../../../../bridge/supervisor/xauthority';

describe('DevTools over the browser pipe', () => {
  it('splits NUL-terminated records across chunks, keeping a partial one', () => {
    const s = new NulSplitter();
    assert.deepEqual(s.push(Buffer.from('{"a":1}\0{"b"')), ['{"a":1}']);
    assert.deepEqual(s.push(Buffer.from(':2}\0\0')), ['{"b":2}', '']);
    assert.deepEqual(s.push(Buffer.from('{"é":3}\0')), ['{"é":3}']);
  });

  it('sends commands by id with their session, answers each, and passes events on', async () => {
    const toBrowser = new PassThrough();
    const fromBrowser = new PassThrough();
    const pipe = new CdpPipe(toBrowser, fromBrowser);
    const events: CdpEvent[] = [];
    pipe.on('event', (e: CdpEvent) => events.push(e));
    const sent: { id: number; method: string; sessionId?: string }[] = [];
    toBrowser.on('data', (d: Buffer) => { for (const m of d.toString().split('\0').filter(Boolean)) sent.push(JSON.parse(m)); });
    const version = pipe.send<{ product: string }>('Browser.getVersion');
    const evaluated = pipe.send('Runtime.evaluate', { expression: '1' }, 'S1');
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(sent.map((m) => [m.method, m.sessionId]), [['Browser.getVersion', undefined], ['Runtime.evaluate', 'S1']]);
    // Answers out of order, an event between them, an error for the second.
    fromBrowser.write(`{"method":"Page.loadEventFired","params":{"t":1},"sessionId":"S1"}\0{"id":${sent[1].id},"error":{"message":"no such session"}}\0`);
    fromBrowser.write(`{"id":${sent[0].id},"result":{"product":"Chrome/1"}}\0`);
    assert.deepEqual(await version, { product: 'Chrome/1' });
    await assert.rejects(evaluated, /Runtime.evaluate: no such session/);
    assert.deepEqual(events, [{ method: 'Page.loadEventFired', params: { t: 1 }, sessionId: 'S1' }]);
  });

  it('fails pending and later commands with NotAvailableError once the browser closes the pipe', async () => {
    const fromBrowser = new PassThrough();
    const pipe = new CdpPipe(new PassThrough(), fromBrowser);
    const pending = pipe.send('Browser.getVersion');
    fromBrowser.destroy();
    await assert.rejects(pending, NotAvailableError);
    await assert.rejects(pipe.send('Browser.getVersion'), NotAvailableError);
    assert.equal(pipe.closed, true);
  });
});

describe('the X display cookie file', () => {
  it('holds one wildcard MIT-MAGIC-COOKIE-1 entry in the Xauthority format', () => {
    const cookie = Buffer.alloc(16, 7);
    const e = xauthorityEntry(cookie);
    assert.equal(e.readUInt16BE(0), 0xffff); // FamilyWild: any host
    assert.equal(e.readUInt16BE(2), 0); // no address
    assert.equal(e.readUInt16BE(4), 0); // no display number: any display
    assert.equal(e.readUInt16BE(6), 18);
    assert.equal(e.subarray(8, 26).toString(), 'MIT-MAGIC-COOKIE-1');
    assert.equal(e.readUInt16BE(26), 16);
    assert.deepEqual(e.subarray(28), cookie);
  });
});
