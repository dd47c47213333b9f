import { strict as assert } from 'node:assert';
import WebSocket from 'ws';
import { EXTENSION_LINK_CLOSE, NotAvailableError } from '../../../../bridge/protocol';
import { ExtensionLink } from '../../../../bridge/ide/extensionLink';
import { JsonRpcClient, type CallOptions } from '../../../../bridge/rpc/jsonRpcClient';

const TOKEN = 'extension-token-0123456789';

async function connectExtension(link: ExtensionLink, opts: { autoPong?: boolean; activated?: number; onMessage?: (ws: WebSocket, data: string) => void } = {}): Promise<WebSocket> {
  await link.listening();
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${link.port}/?token=${TOKEN}&activated=${opts.activated ?? 0}`, { autoPong: opts.autoPong ?? true });
    if (opts.onMessage) ws.on('message', (d) => opts.onMessage!(ws, d.toString()));
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

async function until(cond: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('the bridge\'s link to the extension host', () => {
  let link: ExtensionLink;
  afterEach(() => link?.close());

  it('waits a bounded time for the first extension host, then fails with NotAvailableError', async () => {
    link = new ExtensionLink(0, TOKEN, () => undefined, { firstConnectionWaitMs: 150 });
    // A timer shorter than the wait, set just before the call: it has fired when the call fails
    // only if the call waited (failing at once, it would still be pending). Timers fire in the
    // order they fall due, so a slow machine cannot make this check fail.
    let shorterTimerFired = false;
    setTimeout(() => { shorterTimerFired = true; }, 100);
    await assert.rejects(link.call('ide.status', {}), (e: Error) => e instanceof NotAvailableError && /not connected/.test(e.message));
    assert.ok(shorterTimerFired, 'it waited for the first connection before failing');
  });

  it('answers a call made before the first extension host connects once it does', async () => {
    link = new ExtensionLink(0, TOKEN, () => undefined, { firstConnectionWaitMs: 60_000 });
    await link.listening();
    const pending = link.call('ide.status', {});
    const ext = await connectExtension(link, {
      onMessage: (ws, d) => { const m = JSON.parse(d); ws.send(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: { ok: true } })); },
    });
    assert.deepEqual(await pending, { ok: true });
    ext.close();
  });

  it('forwards calls to the connected extension', async () => {
    link = new ExtensionLink(0, TOKEN, () => undefined);
    const ext = await connectExtension(link);
    ext.on('message', (d) => { const m = JSON.parse(d.toString()); ext.send(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: { echo: m.method } })); });
    await until(() => link.connected, 30_000);
    assert.deepEqual(await link.call('ide.editors', {}), { echo: 'ide.editors' });
    ext.close();
  });

  it('waits for ide.editors.open longer with every editor it opens, for the rest 30 s, and as long as a call asks', async () => {
    link = new ExtensionLink(0, TOKEN, () => undefined);
    const ext = await connectExtension(link);
    await until(() => link.connected, 30_000);
    // The timeouts the link gives its client, recorded instead of waited out.
    const given: (number | undefined)[] = [];
    const original = JsonRpcClient.prototype.call;
    JsonRpcClient.prototype.call = function (_m: string, _p: unknown, opts?: CallOptions) { given.push(opts?.timeoutMs); return Promise.resolve({}); };
    try {
      const editors = (n: number) => ({ editors: Array.from({ length: n }, (_, i) => ({ file: `f${i}.txt` })) });
      await link.call('ide.editors.open', editors(1));
      await link.call('ide.editors.open', editors(5));
      await link.call('ide.status', {});
      await link.call('ide.editors.open', editors(5), { timeoutMs: 1234 });
    } finally {
      JsonRpcClient.prototype.call = original;
    }
    assert.deepEqual(given, [70_000, 150_000, 30_000, 1234]);
    ext.close();
  });

  it('turns an extension host dying mid-call into NotAvailableError, not TargetClosedError', async () => {
    link = new ExtensionLink(0, TOKEN, () => undefined);
    const ext = await connectExtension(link);
    ext.on('message', () => ext.terminate()); // the process dies while answering
    await until(() => link.connected, 30_000);
    await assert.rejects(link.call('ide.diagnostics', {}), (e: Error) => e instanceof NotAvailableError && /disconnected while answering/.test(e.message));
    await until(() => !link.connected, 30_000);
    await assert.rejects(link.call('ide.status', {}), NotAvailableError);
  });

  /**
   * Pings beaten by hand, each followed by a call that the extension answers: its answer comes
   * after any pong it sent for that ping, so the link has taken the pong in (or not) before the
   * next beat, however slow the machine.
   */
  function handPings() {
    const beats = new Set<() => void>();
    const pingAll = () => { for (const ping of beats) ping(); };
    return {
      schedulePings: (ping: () => void) => { beats.add(ping); return () => { beats.delete(ping); }; },
      pingAll,
      async beat(ext: WebSocket, times: number): Promise<void> {
        for (let i = 0; i < times; i++) {
          const pinged = new Promise<void>((resolve, reject) => {
            const dropped = () => reject(new Error(`the link dropped the extension host at beat ${i + 1}`));
            ext.once('close', dropped);
            ext.once('ping', () => { ext.off('close', dropped); resolve(); });
          });
          pingAll();
          await pinged;
          assert.deepEqual(await link.call('ide.status', {}), { ok: true });
        }
      },
    };
  }
  const answeringOk = (ws: WebSocket, d: string) => { const m = JSON.parse(d); ws.send(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: { ok: true } })); };

  it('drops an extension host that stops answering pings, so calls fail fast again', async () => {
    const pings = handPings();
    link = new ExtensionLink(0, TOKEN, () => undefined, { schedulePings: pings.schedulePings, silentPingsAllowed: 4 });
    const frozen = await connectExtension(link, { autoPong: false, onMessage: answeringOk });
    await until(() => link.connected, 30_000);
    await pings.beat(frozen, 4);
    assert.equal(link.connected, true, 'four silent pings are allowed');
    const dropped = new Promise((r) => frozen.once('close', r));
    pings.pingAll(); // the fifth beat finds four unanswered: the link drops the host
    await dropped;
    await until(() => !link.connected, 30_000);
    await assert.rejects(link.call('ide.status', {}), NotAvailableError);
  });

  it('keeps an extension host that answers pings', async () => {
    const pings = handPings();
    link = new ExtensionLink(0, TOKEN, () => undefined, { schedulePings: pings.schedulePings, silentPingsAllowed: 2 });
    const ext = await connectExtension(link, { onMessage: answeringOk });
    await until(() => link.connected, 30_000);
    await pings.beat(ext, 8);
    assert.equal(link.connected, true);
    ext.close();
  });

  it('keeps an extension host that stalls for fewer pings than allowed (it answers every other one)', async () => {
    const pings = handPings();
    link = new ExtensionLink(0, TOKEN, () => undefined, { schedulePings: pings.schedulePings, silentPingsAllowed: 2 });
    const stalling = await connectExtension(link, { autoPong: false, onMessage: answeringOk });
    let seen = 0;
    stalling.on('ping', () => { if (++seen % 2 === 0) stalling.pong(); });
    await until(() => link.connected, 30_000);
    await pings.beat(stalling, 12);
    assert.equal(link.connected, true);
    stalling.close();
  });

  /** An extension host that answers every call with its own name. */
  const answering = (name: string) => (ws: WebSocket, d: string) => { const m = JSON.parse(d); ws.send(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: { window: name } })); };
  const closeCode = (ws: WebSocket) => new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));

  it('serves ide.* from the kiosk window: a later window\'s extension host (a second browser) is refused and told not to reconnect', async () => {
    link = new ExtensionLink(0, TOKEN, () => undefined);
    const kiosk = await connectExtension(link, { activated: 1000, onMessage: answering('kiosk') });
    await until(() => link.connected, 30_000);
    const other = await connectExtension(link, { activated: 2000, onMessage: answering('other') });
    assert.equal(await closeCode(other), EXTENSION_LINK_CLOSE.OTHER_WINDOW);
    assert.deepEqual(await link.call('ide.editors', {}), { window: 'kiosk' });
    kiosk.close();
  });

  it('hands ide.* to the kiosk window\'s new extension host when that window loads a workbench again', async () => {
    link = new ExtensionLink(0, TOKEN, () => undefined);
    const old = await connectExtension(link, { activated: 1000, onMessage: answering('old') });
    await until(() => link.connected, 30_000);
    const oldClosed = closeCode(old);
    link.kioskWindowLoading(); // the browser restarted: the old window's host may linger
    const fresh = await connectExtension(link, { activated: 3000, onMessage: answering('fresh') });
    assert.equal(await oldClosed, EXTENSION_LINK_CLOSE.SUPERSEDED);
    await until(() => link.connected, 30_000);
    assert.deepEqual(await link.call('ide.editors', {}), { window: 'fresh' });
    // Only the one load: a window opened after it is another window again.
    const other = await connectExtension(link, { activated: 4000, onMessage: answering('other') });
    assert.equal(await closeCode(other), EXTENSION_LINK_CLOSE.OTHER_WINDOW);
    fresh.close();
  });

  it('hands ide.* to a host activated after the kiosk window reloaded by itself (Reload Window), but not to one of another window', async () => {
    let kioskLoadedAt = 500;
    link = new ExtensionLink(0, TOKEN, () => undefined, { kioskLoadedAt: async () => kioskLoadedAt });
    const first = await connectExtension(link, { activated: 1000, onMessage: answering('first') });
    await until(() => link.connected, 30_000);
    // A second browser: the kiosk's document is older than the serving host.
    const other = await connectExtension(link, { activated: 2000, onMessage: answering('other') });
    assert.equal(await closeCode(other), EXTENSION_LINK_CLOSE.OTHER_WINDOW);
    // The kiosk reloads at 3000 (the old host lingers), its new host activates at 3500.
    kioskLoadedAt = 3000;
    const firstClosed = closeCode(first);
    const reloaded = await connectExtension(link, { activated: 3500, onMessage: answering('reloaded') });
    assert.equal(await firstClosed, EXTENSION_LINK_CLOSE.SUPERSEDED);
    await until(() => link.connected, 30_000);
    assert.deepEqual(await link.call('ide.editors', {}), { window: 'reloaded' });
    reloaded.close();
  });
});
