import { strict as assert } from 'node:assert';
import { createServer, request, type Server } from 'node:http';
import { Dispatcher } from '../../../../bridge/rpc/dispatcher';
import { RpcServer } from '../../../../bridge/server/rpcServer';
import { IdeProxy } from '../../../../bridge/view/ideProxy';

const TOKEN = 'ide-proxy-token-0123456789';

function get(port: number, path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port, path, headers }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => { body += d.toString(); });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    }).on('error', reject).end();
  });
}

describe('the IDE behind the bridge token (/ide/, in-process, with a fake code-server)', () => {
  let ide: Server;
  let server: RpcServer;
  const seen: { url: string; cookie?: string; authorization?: string }[] = [];

  before(async () => {
    ide = createServer((req, res) => {
      seen.push({ url: req.url ?? '', cookie: req.headers.cookie, authorization: req.headers.authorization });
      res.writeHead(200, { 'content-type': 'text/html' }).end('<div class="monaco-workbench"></div>');
    });
    await new Promise<void>((r) => ide.listen(0, '127.0.0.1', () => r()));
    const idePort = (ide.address() as { port: number }).port;
    server = new RpcServer({
      host: '127.0.0.1', port: 0, token: 'bridge', dispatcher: new Dispatcher(), isReady: () => true,
      routes: [new IdeProxy({ token: TOKEN, idePort, log: () => undefined })],
    });
    await server.listen();
  });
  after(async () => { await server.close(); ide.close(); });

  it('refuses without the token, and with a wrong one, reaching nothing', async () => {
    assert.equal((await get(server.port, '/ide/?folder=/workspace')).status, 401);
    assert.equal((await get(server.port, '/ide/?token=wrong')).status, 401);
    assert.equal((await get(server.port, '/ide/', { cookie: 'pwpide_000000000000=wrong' })).status, 401);
    assert.equal(seen.length, 0);
  });

  it('trades the query token for an HttpOnly cookie, then proxies with the prefix off and our credentials out', async () => {
    const first = await get(server.port, `/ide/?folder=/workspace&token=${TOKEN}`);
    assert.equal(first.status, 303);
    assert.equal(first.headers.location, '/ide/?folder=%2Fworkspace');
    const setCookie = String(first.headers['set-cookie']);
    assert.match(setCookie, /; Path=\/ide; HttpOnly; SameSite=Strict/);
    const cookie = setCookie.split(';')[0];
    const page = await get(server.port, '/ide/?folder=%2Fworkspace', { cookie: `${cookie}; other=1` });
    assert.equal(page.status, 200);
    assert.match(page.body, /monaco-workbench/);
    assert.deepEqual(seen.at(-1), { url: '/?folder=%2Fworkspace', cookie: 'other=1', authorization: undefined });
    const bearer = await get(server.port, '/ide/static/x.js', { authorization: `Bearer ${TOKEN}` });
    assert.equal(bearer.status, 200);
    assert.equal(seen.at(-1)?.url, '/static/x.js');
    assert.equal(seen.at(-1)?.authorization, undefined);
  });
});
