// The host's client waits on an ide.* call at least as long as the bridge waits for the extension
// (bridge/protocol's extensionCallTimeoutMs), so that a slow IDE fails with the bridge's
// TimeoutError naming the method, never with the client giving up first.
import { strict as assert } from 'node:assert';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { extensionCallTimeoutMs } from '../../../../bridge/protocol';
import { JsonRpcClient, type CallOptions } from '../../../../bridge/rpc/jsonRpcClient';
import { BridgeClient } from '../../../../host/client/bridgeClient';

describe('BridgeClient: how long it waits on a call', () => {
  let server: WebSocketServer;
  let client: BridgeClient;
  const given: (number | undefined)[] = [];
  const original = JsonRpcClient.prototype.call;

  before(async () => {
    server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise((r) => server.once('listening', r));
    client = await BridgeClient.connect(`ws://127.0.0.1:${(server.address() as AddressInfo).port}`, 'token');
    // The timeouts the client gives its connection, recorded instead of waited out.
    JsonRpcClient.prototype.call = function (_m: string, _p: unknown, opts?: CallOptions) { given.push(opts?.timeoutMs); return Promise.resolve({}); };
  });
  after(() => { JsonRpcClient.prototype.call = original; client?.close(); server?.close(); });
  beforeEach(() => { given.length = 0; });

  const editors = (n: number) => ({ editors: Array.from({ length: n }, (_, i) => ({ file: `f${i}.txt` })) });

  it('waits 10 s past the bridge on an ide.editors.open that the bridge waits on longer than the default', async () => {
    await client.call('ide.editors.open', editors(5));
    assert.deepEqual(given, [extensionCallTimeoutMs('ide.editors.open', editors(5)) + 10_000]);
  });

  it('keeps its default (120 s) where that is longer already, and a timeout the call names', async () => {
    await client.call('ide.editors.open', editors(1));
    await client.call('ide.status', {});
    await client.call('input.key', { keys: 'a' });
    await client.call('ide.editors.open', editors(50), { timeoutMs: 5 });
    assert.deepEqual(given, [undefined, undefined, undefined, 5]);
  });

  it('never gives up on an ide.editors.open before the bridge does', async () => {
    for (const n of [1, 2, 3, 4, 5, 20, 100]) {
      given.length = 0;
      await client.call('ide.editors.open', editors(n));
      assert.ok((given[0] ?? 120_000) > extensionCallTimeoutMs('ide.editors.open', editors(n)), `${n} editors`);
    }
  });
});
