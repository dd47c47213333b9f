import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { registerControl } from '../../../../bridge/control/controlHandlers';
import { ControlState } from '../../../../bridge/control/controlState';
import { Dispatcher } from '../../../../bridge/rpc/dispatcher';
import { RpcServer } from '../../../../bridge/server/rpcServer';
import { ViewServer } from '../../../../bridge/view/viewServer';
import { BridgeClient } from '../../../../host/client/bridgeClient';
import { TimeoutError } from '../../../../bridge/protocol';
import { eventually } from '../../../../host/common/eventually';

const TOKEN = 'view-test-token-0123456789';

/** Waits for a state (the budget is for a machine under heavy load, not a measure). */
const until = (what: string, cond: () => boolean) => eventually(async () => cond(), (ok) => ok, 60_000, what);

describe('live view served by the bridge (in-process, with a fake VNC server)', () => {
  let server: RpcServer;
  let vncTcp: Server;
  let base: string;
  const control = new ControlState();
  const received: Buffer[] = [];
  let acquired = 0;
  let released = 0;

  before(async () => {
    const root = mkdtempSync(join(tmpdir(), 'novnc-'));
    mkdirSync(join(root, 'app'));
    writeFileSync(join(root, 'vnc.html'), '<html>novnc</html>');
    writeFileSync(join(root, 'app', 'ui.js'), 'export default 1;');
    writeFileSync(join(tmpdir(), 'outside-novnc.txt'), 'secret');
    // A VNC server that speaks first (as RFB servers do) and keeps what the client sends.
    vncTcp = createServer((s) => { s.write('RFB 003.008\n'); s.on('data', (d) => received.push(d)); });
    await new Promise<void>((r) => vncTcp.listen(0, '127.0.0.1', () => r()));
    const port = (vncTcp.address() as { port: number }).port;
    const vnc = { port, acquire: async () => { acquired++; }, release: () => { released++; } };
    const view = new ViewServer({ token: TOKEN, vnc, control, log: () => undefined, novncRoot: root });
    const d = new Dispatcher();
    registerControl(d, control);
    d.register('input.key', async () => ({ durationMs: 0 }));
    server = new RpcServer({ host: '127.0.0.1', port: 0, token: TOKEN, dispatcher: d, isReady: () => true, routes: [view] });
    await server.listen();
    base = `http://127.0.0.1:${server.port}`;
  });
  after(async () => { await server.close(); vncTcp.close(); });

  it('refuses every view path without the token', async () => {
    for (const p of ['/view/', '/view/vnc.html', '/view/app/ui.js', '/view/control']) {
      assert.equal((await fetch(base + p)).status, 401, p);
    }
  });

  it('serves the page with the token and sets a cookie that lets its own resources load', async () => {
    const page = await fetch(`${base}/view/?token=${TOKEN}`);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /vnc\.html\?autoconnect=1/);
    const cookie = page.headers.get('set-cookie')!.split(';')[0];
    assert.match(cookie, /^pwpview_[0-9a-f]{12}=/);
    const js = await fetch(`${base}/view/app/ui.js`, { headers: { cookie } });
    assert.equal(js.status, 200);
    assert.match(js.headers.get('content-type') ?? '', /javascript/);
    assert.equal((await fetch(`${base}/view/vnc.html`, { headers: { cookie: 'pwpview_000000000000=nope' } })).status, 401);
    const bare = await fetch(`${base}/view?token=${TOKEN}`, { redirect: 'manual' });
    assert.equal(bare.headers.get('location'), `/view/?token=${TOKEN}`, 'the page\'s relative links need the slash');
  });

  it('never serves files outside the noVNC folder', async () => {
    for (const p of ['/view/../outside-novnc.txt', '/view/%2e%2e/outside-novnc.txt', '/view/..%2Foutside-novnc.txt']) {
      const r = await fetch(`${base}${p}?token=${TOKEN}`);
      assert.notEqual(r.status, 200, p);
    }
  });

  it('refuses the live view socket to a page of another origin, even with the view cookie or token', async () => {
    const status = (origin: string) => new Promise<number>((resolve, reject) => {
      const ws = new WebSocket(`${base.replace('http', 'ws')}/view/websockify?token=${TOKEN}`, ['binary'], { origin });
      ws.on('open', () => { ws.close(); resolve(101); });
      ws.on('unexpected-response', (_req, res) => { resolve(res.statusCode ?? 0); ws.terminate(); });
      ws.on('error', reject);
    });
    assert.equal(await status('http://evil.example'), 403);
    assert.equal(await status(base), 101, 'the view page itself connects');
    await until('the viewer left', () => control.status().viewers === 0);
  });

  it('proxies the VNC session and records the person\'s keys as human events', async () => {
    const before = control.status().lastEventSeq;
    const ws = new WebSocket(`${base.replace('http', 'ws')}/view/websockify?token=${TOKEN}`, ['binary']);
    const fromServer: Buffer[] = [];
    ws.on('message', (m: Buffer) => fromServer.push(m));
    await new Promise((r) => ws.once('open', r));
    await until('the VNC server\'s greeting came through', () => Buffer.concat(fromServer).length >= 12);
    assert.equal(Buffer.concat(fromServer).toString(), 'RFB 003.008\n');
    assert.equal(control.status().viewers, 1);
    const keyEvent = Buffer.from([4, 1, 0, 0, 0, 0, 0, 0x71]);
    ws.send(Buffer.concat([Buffer.from('RFB 003.008\n'), Buffer.from([1, 1]), keyEvent]));
    await until('the key event reached the VNC server', () => Buffer.concat(received).length >= 22);
    assert.deepEqual(Buffer.concat(received).subarray(14), keyEvent, 'the bytes reached the VNC server unchanged');
    const events = control.eventsSince(before, 10).events;
    assert.deepEqual(events.map((e) => e.kind === 'key' && [e.name, e.down]), [['q', true]]);
    ws.close();
    await until('the viewer left', () => control.status().viewers === 0);
    assert.equal(acquired, released, 'every viewer released the VNC server');
  });

  it('makes agent input wait while the person holds control, until the page hands it back', async () => {
    const client = await BridgeClient.connect(`${base.replace('http', 'ws')}/rpc`, TOKEN);
    // The key waits through the page's requests below, however long a loaded machine takes for them.
    await client.call('control.request', { message: 'log in for me', inputWaitMs: 60_000 });
    let done = false;
    const key = client.call('input.key', { keys: 'a' }).then(() => { done = true; });
    // A negative check: nothing may let the key through before the hand-back (a slow machine only makes it weaker).
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(done, false);
    const cookie = `${(await fetch(`${base}/view/?token=${TOKEN}`)).headers.get('set-cookie')!.split(';')[0]}`;
    // Without the page's header (a cross-site form could not send it) the hand-back is refused.
    assert.equal((await fetch(`${base}/view/control/handBack`, { method: 'POST', headers: { cookie } })).status, 403);
    const status = await (await fetch(`${base}/view/control`, { headers: { cookie } })).json() as { holder: string; message: string };
    assert.deepEqual([status.holder, status.message], ['human', 'log in for me']);
    const back = await fetch(`${base}/view/control/handBack`, { method: 'POST', headers: { cookie, 'x-pwp-view': '1' } });
    assert.equal(back.status, 200);
    await key;
    assert.equal(done, true);
    await client.call('control.request', { message: 'again', inputWaitMs: 50 });
    await assert.rejects(client.call('input.key', { keys: 'a' }), TimeoutError);
    await client.call('control.handBack', {});
    client.close();
  });

  it('takes the person\'s answer with the hand-back, refuses a malformed one and keeps control, and clears it on the next request', async () => {
    const client = await BridgeClient.connect(`${base.replace('http', 'ws')}/rpc`, TOKEN);
    const cookie = `${(await fetch(`${base}/view/?token=${TOKEN}`)).headers.get('set-cookie')!.split(';')[0]}`;
    const post = (body: string) => fetch(`${base}/view/control/handBack`, { method: 'POST', headers: { cookie, 'x-pwp-view': '1', 'content-type': 'application/json' }, body });
    await client.call('control.request', { message: 'which port?' });
    assert.equal((await post('{"answer": 8080}')).status, 400);
    assert.equal((await post('not json')).status, 400);
    assert.equal((await client.call('control.status', {})).holder, 'human', 'a refused hand-back changes nothing');
    const back = await post(JSON.stringify({ answer: 'use 8080' }));
    assert.equal(back.status, 200);
    assert.deepEqual(await client.call('control.status', {}).then((s) => [s.holder, s.answer]), ['agent', 'use 8080']);
    await client.call('control.request', { message: 'and the host?' });
    assert.equal((await client.call('control.status', {})).answer, null);
    await client.call('control.handBack', { answer: 'localhost' });
    assert.equal((await client.call('control.status', {})).answer, 'localhost');
    client.close();
  });
});
