import { strict as assert } from 'node:assert';
import WebSocket from 'ws';
import {
  BusyError, InvalidParamsError, MethodNotFoundError, PayloadTooLargeError, TargetClosedError, UnauthorizedError,
} from '../../../../bridge/protocol';
import { Dispatcher, MAX_MESSAGE_BYTES } from '../../../../bridge/rpc/dispatcher';
import { MAX_FRAME_BYTES, RpcServer } from '../../../../bridge/server/rpcServer';
import { BridgeClient } from '../../../../host/client/bridgeClient';

const TOKEN = 'test-token-0123456789abcdef';

function rawCall(url: string, message: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers: { authorization: `Bearer ${TOKEN}` } });
    ws.on('open', () => ws.send(message));
    ws.on('message', (d) => { resolve(JSON.parse(d.toString())); ws.close(); });
    ws.on('error', reject);
  });
}

describe('JSON-RPC over the bridge socket (in-process)', () => {
  let server: RpcServer;
  let url: string;
  let calls = 0;
  before(async () => {
    const d = new Dispatcher();
    d.register('input.move', async () => { calls++; return { durationMs: 1 }; });
    d.register('capture.cursor', async () => { throw new Error('boom'); });
    d.register('proc.health', async () => ({ bad: 'result' }) as never);
    server = new RpcServer({ host: '127.0.0.1', port: 0, token: TOKEN, dispatcher: d, isReady: () => true });
    await server.listen();
    url = `ws://127.0.0.1:${server.port}/rpc`;
  });
  after(() => server.close());

  it('answers a valid call with its typed result', async () => {
    const c = await BridgeClient.connect(url, TOKEN);
    assert.deepEqual(await c.call('input.move', { x: 1, y: 2 }), { durationMs: 1 });
    c.close();
  });

  it('refuses a wrong or missing token before any call runs', async () => {
    await assert.rejects(BridgeClient.connect(url, 'wrong-token-0000000000000'), UnauthorizedError);
    await assert.rejects(BridgeClient.connect(url, ''), UnauthorizedError);
  });

  it('gives typed errors for unknown methods and bad params, and runs nothing', async () => {
    const c = await BridgeClient.connect(url, TOKEN);
    const before = calls;
    await assert.rejects(c.callUnchecked('input.teleport', {}), (e: Error) => e instanceof MethodNotFoundError && /input.teleport/.test(e.message));
    await assert.rejects(c.callUnchecked('input.move', { x: 'ten', y: 2 }), (e: Error) => e instanceof InvalidParamsError && /params\.x/.test(e.message));
    await assert.rejects(c.callUnchecked('input.move', { x: 1, y: 2, z: 3 }), InvalidParamsError);
    await assert.rejects(c.callUnchecked('input.move', { x: -5, y: 2 }), InvalidParamsError);
    assert.equal(calls, before);
    // the connection keeps serving after errors
    assert.deepEqual(await c.call('input.move', { x: 1, y: 2 }), { durationMs: 1 });
    c.close();
  });

  it('reports handler failures as internal errors without dropping the connection', async () => {
    const c = await BridgeClient.connect(url, TOKEN);
    await assert.rejects(c.call('capture.cursor', {}), /internal error: boom/);
    await assert.rejects(c.call('proc.health', {}), /invalid result/);
    assert.deepEqual(await c.call('input.move', { x: 3, y: 4 }), { durationMs: 1 });
    c.close();
  });

  it('answers malformed messages with parse and request errors', async () => {
    assert.deepEqual(await rawCall(url, '{not json'), { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'message is not valid JSON', data: { name: 'ParseError' } } });
    const r = (await rawCall(url, JSON.stringify({ jsonrpc: '1.0', id: 7, method: 'input.move' }))) as { id: number; error: { code: number } };
    assert.equal(r.id, 7);
    assert.equal(r.error.code, -32600);
    const arr = (await rawCall(url, '[1,2]')) as { error: { code: number } };
    assert.equal(arr.error.code, -32600);
  });

  it('refuses an oversized message with a typed error', async () => {
    const c = await BridgeClient.connect(url, TOKEN);
    const big = 'x'.repeat(MAX_MESSAGE_BYTES + 10);
    await assert.rejects(c.callUnchecked('input.type', { text: big }), (e: Error) => e.name === 'PayloadTooLargeError' || e instanceof PayloadTooLargeError);
    assert.deepEqual(await c.call('input.move', { x: 1, y: 1 }), { durationMs: 1 });
    c.close();
  });

  it('rejects pending calls with TargetClosedError when the connection drops', async () => {
    const d = new Dispatcher();
    d.register('proc.waitReady', () => new Promise(() => undefined));
    const s = new RpcServer({ host: '127.0.0.1', port: 0, token: TOKEN, dispatcher: d, isReady: () => false });
    await s.listen();
    const c = await BridgeClient.connect(`ws://127.0.0.1:${s.port}/rpc`, TOKEN);
    const pending = c.call('proc.waitReady', {});
    await s.close();
    await assert.rejects(pending, TargetClosedError);
  });

  it('answers calls beyond the per-connection limit with BusyError while other connections are served', async () => {
    const d = new Dispatcher();
    let release!: () => void;
    const gate = new Promise<void>((r) => { release = r; });
    // x 0 is held until released; any other point answers at once.
    d.register('input.move', async (p) => { if (p.x === 0) await gate; return { durationMs: 1 }; });
    const s = new RpcServer({ host: '127.0.0.1', port: 0, token: TOKEN, dispatcher: d, isReady: () => true, maxInFlightPerClient: 5 });
    await s.listen();
    const u = `ws://127.0.0.1:${s.port}/rpc`;
    const flood = await BridgeClient.connect(u, TOKEN);
    const other = await BridgeClient.connect(u, TOKEN);
    const calls = Array.from({ length: 50 }, () => flood.call('input.move', { x: 0, y: 0 }).then(() => 'ok', (e: Error) => e));
    // The other client is answered while the flood's calls are held.
    assert.deepEqual(await other.call('input.move', { x: 1, y: 1 }), { durationMs: 1 });
    release();
    const results = await Promise.all(calls);
    const busy = results.filter((r) => r instanceof BusyError);
    assert.equal(busy.length, 45);
    assert.match((busy[0] as Error).message, /5 calls in flight/);
    assert.equal(results.filter((r) => r === 'ok').length, 5);
    // Once answered, the flooding client may call again.
    assert.deepEqual(await flood.call('input.move', { x: 1, y: 1 }), { durationMs: 1 });
    flood.close(); other.close();
    await s.close();
  });

  it('answers a frame above the frame limit with PayloadTooLargeError, then closes the connection', async () => {
    const c = await BridgeClient.connect(url, TOKEN);
    const big = 'x'.repeat(MAX_FRAME_BYTES + 1024);
    await assert.rejects(c.callUnchecked('input.type', { text: big }), (e: Error) => e instanceof PayloadTooLargeError && /limit/.test(e.message));
    assert.equal(c.closed, true);
    const again = await BridgeClient.connect(url, TOKEN);
    assert.deepEqual(await again.call('input.move', { x: 1, y: 1 }), { durationMs: 1 });
    again.close();
  });

  it('refuses a WebSocket from a foreign page (Origin) with HTTP 403, and allows its own origin and programs', async () => {
    const status = (headers: Record<string, string>) => new Promise<number>((resolve, reject) => {
      const ws = new WebSocket(url, { headers: { authorization: `Bearer ${TOKEN}`, ...headers } });
      ws.on('open', () => { ws.close(); resolve(101); });
      ws.on('unexpected-response', (_req, res) => { resolve(res.statusCode ?? 0); ws.terminate(); });
      ws.on('error', reject);
    });
    const host = new URL(url).host;
    assert.equal(await status({ origin: 'http://evil.example' }), 403);
    assert.equal(await status({ origin: 'http://127.0.0.1:1' }), 403);
    assert.equal(await status({ origin: `http://${host}` }), 101);
    assert.equal(await status({}), 101);
  });
});
