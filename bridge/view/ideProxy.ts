// The IDE for a person's browser: /ide/… on the bridge's port is code-server (which listens on
// the container's loopback only, for the kiosk) behind the environment's token. The token comes
// once as ?token=…; the answer sets it as an HttpOnly cookie and redirects to the same address
// without it, so it stays out of the page, its scripts and the browser's history.
import { createHash } from 'node:crypto';
import { request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { relayUpgrade } from '../common/relayUpgrade';
import { bearerToken, cookieValue, tokenMatches, type HttpRoute } from '../common/access';

export const IDE_PREFIX = '/ide/';

export interface IdeProxyOptions { token: string; idePort: number; log: (line: string) => void }

export class IdeProxy implements HttpRoute {
  private readonly cookieName: string;

  constructor(private readonly opts: IdeProxyOptions) {
    // Cookies ignore ports: name ours after the token so that environments on one host differ.
    this.cookieName = `pwpide_${createHash('sha256').update(opts.token).digest('hex').slice(0, 12)}`;
  }

  // Bearer or cookie only: a query token is exchanged for the cookie by a redirect (below).
  private authorized(req: IncomingMessage): boolean {
    return tokenMatches(this.opts.token, bearerToken(req)) || tokenMatches(this.opts.token, cookieValue(req, this.cookieName));
  }

  handleRequest(req: IncomingMessage, res: ServerResponse): boolean {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname !== '/ide' && !url.pathname.startsWith(IDE_PREFIX)) return false;
    const query = url.searchParams.get('token');
    if (query !== null) {
      if (!tokenMatches(this.opts.token, query)) return this.refuse(res);
      url.searchParams.delete('token');
      res.writeHead(303, {
        'set-cookie': `${this.cookieName}=${encodeURIComponent(this.opts.token)}; Path=/ide; HttpOnly; SameSite=Strict`,
        location: `${url.pathname === '/ide' ? IDE_PREFIX : url.pathname}${url.search}`,
        'cache-control': 'no-store',
      }).end();
      return true;
    }
    if (!this.authorized(req)) return this.refuse(res);
    if (url.pathname === '/ide') { res.writeHead(301, { location: `${IDE_PREFIX}${url.search}` }).end(); return true; }
    const up = request({
      host: '127.0.0.1', port: this.opts.idePort, method: req.method, path: this.upstreamPath(req), headers: this.upstreamHeaders(req),
    }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    up.on('error', (err) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`the IDE is not reachable: ${err.message}\n`);
    });
    req.pipe(up);
    return true;
  }

  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (!path.startsWith(IDE_PREFIX)) return false;
    if (!this.authorized(req)) { socket.end('HTTP/1.1 401 Unauthorized\r\nConnection: close\r\n\r\n'); return true; }
    const up = request({ host: '127.0.0.1', port: this.opts.idePort, method: 'GET', path: this.upstreamPath(req), headers: this.upstreamHeaders(req) });
    relayUpgrade(up, socket, head, (err) => this.opts.log(`IDE proxy: ${err.message}`));
    return true;
  }

  private refuse(res: ServerResponse): true {
    res.writeHead(401, { 'content-type': 'text/plain' }).end('the IDE needs the environment token (open the IDE URL that pwp printed)\n');
    return true;
  }

  /** code-server serves relative links, so it works under /ide/ with the prefix taken off. */
  private upstreamPath(req: IncomingMessage): string {
    return (req.url ?? '/').slice(IDE_PREFIX.length - 1) || '/';
  }

  /** The browser's headers minus our credentials; Host and Origin stay, code-server compares them. */
  private upstreamHeaders(req: IncomingMessage): Record<string, string | string[]> {
    const h: Record<string, string | string[]> = {};
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined && k !== 'authorization') h[k] = v;
    const cookies = (req.headers.cookie ?? '').split(';').filter((c) => c.trim() && !c.trim().startsWith(`${this.cookieName}=`));
    if (cookies.length) h.cookie = cookies.join(';'); else delete h.cookie;
    return h;
  }
}
