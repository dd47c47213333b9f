// The live view, served by the bridge itself on its one port: noVNC's static files from
// /usr/share/novnc, a page around it that shows who has control, and a WebSocket proxy to
// the loopback-only x11vnc that decodes the person's input on the way through. Everything
// sits behind the environment's token (query, bearer header, or a cookie set from either).
import { createHash } from 'node:crypto';
import { createReadStream, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createConnection } from 'node:net';
import { extname, resolve, sep } from 'node:path';
import type { Duplex } from 'node:stream';
import { WebSocketServer, createWebSocketStream, type WebSocket } from 'ws';
import type { ControlState } from '../control/controlState';
import { ErrorCode } from '../protocol';
import { originAllowed, pageAuthorized, refuseUpgrade } from '../common/access';
import { RfbClientDecoder } from './rfbDecoder';
import { viewPage } from './viewPage';

/** What the proxy needs of the VNC server (VncServer; a fake in unit tests). */
/** The largest hand-back body (an answer of 10 000 characters, encoded). */
const MAX_ANSWER_BODY = 64 * 1024;

export interface VncBackend { readonly port: number; acquire(): Promise<void>; release(): void }

export const VIEW_PREFIX = '/view/';
const NOVNC_ROOT = '/usr/share/novnc';
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml', '.png': 'image/png', '.ico': 'image/x-icon', '.json': 'application/json',
  '.ogg': 'audio/ogg', '.mp3': 'audio/mpeg', '.oga': 'audio/ogg', '.woff': 'font/woff', '.woff2': 'font/woff2',
};

export interface ViewServerOptions {
  token: string;
  vnc: VncBackend;
  control: ControlState;
  log: (line: string) => void;
  novncRoot?: string;
}

export class ViewServer {
  private readonly wss = new WebSocketServer({ noServer: true, perMessageDeflate: false });
  private readonly cookieName: string;
  private readonly root: string;

  constructor(private readonly opts: ViewServerOptions) {
    // Several environments share 127.0.0.1, and cookies ignore ports: name ours after the token.
    this.cookieName = `pwpview_${createHash('sha256').update(opts.token).digest('hex').slice(0, 12)}`;
    this.root = opts.novncRoot ?? NOVNC_ROOT;
  }

  private authorized(req: IncomingMessage): { ok: boolean; fromQuery: boolean } {
    return pageAuthorized(req, this.opts.token, this.cookieName);
  }

  /** Serves GET/POST under /view/; returns false for other paths. */
  handleRequest(req: IncomingMessage, res: ServerResponse): boolean {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname !== '/view' && !url.pathname.startsWith(VIEW_PREFIX)) return false;
    const auth = this.authorized(req);
    if (!auth.ok) {
      res.writeHead(401, { 'content-type': 'text/plain' }).end('the live view needs the environment token (?token=…)\n');
      return true;
    }
    const headers: Record<string, string> = { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' };
    if (auth.fromQuery) headers['set-cookie'] = `${this.cookieName}=${encodeURIComponent(this.opts.token)}; Path=/view; HttpOnly; SameSite=Strict`;
    if (url.pathname === '/view') {
      // The page's links are relative to /view/.
      res.writeHead(301, { ...headers, location: `/view/${url.search}` }).end();
      return true;
    }
    const rel = url.pathname.slice(VIEW_PREFIX.length);

    if (rel === 'control' && req.method === 'GET') return this.json(res, headers, this.opts.control.status());
    if (rel === 'control/handBack' && req.method === 'POST') {
      // A custom header cannot be sent cross-site without a CORS preflight, which this server never grants.
      if (req.headers['x-pwp-view'] !== '1') { res.writeHead(403).end(); return true; }
      // The body, if any, is {"answer": "…"}: what the person answers the agent.
      const chunks: Buffer[] = [];
      let size = 0;
      req.on('data', (c: Buffer) => { size += c.length; if (size <= MAX_ANSWER_BODY) chunks.push(c); });
      req.on('end', () => {
        if (size > MAX_ANSWER_BODY) { res.writeHead(413, headers).end(); return; }
        let answer: string | undefined;
        try {
          const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) as { answer?: unknown } : {};
          if (body.answer !== undefined && typeof body.answer !== 'string') throw new Error('answer must be a string');
          answer = body.answer as string | undefined;
        } catch (err) {
          res.writeHead(400, { ...headers, 'content-type': 'text/plain' }).end(`${(err as Error).message}\n`);
          return;
        }
        this.json(res, headers, this.opts.control.handBack(answer?.slice(0, 10_000)));
      });
      return true;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') { res.writeHead(405).end(); return true; }
    if (rel === '' || rel === 'index.html') {
      res.writeHead(200, { ...headers, 'content-type': TYPES['.html'] }).end(viewPage());
      return true;
    }
    const file = resolve(this.root, decodeURIComponent(rel));
    let size: number;
    try {
      if (!file.startsWith(this.root + sep)) throw new Error('outside');
      const st = statSync(file);
      if (!st.isFile()) throw new Error('not a file');
      size = st.size;
    } catch {
      res.writeHead(404, headers).end();
      return true;
    }
    res.writeHead(200, { ...headers, 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'content-length': String(size) });
    if (req.method === 'HEAD') res.end();
    else createReadStream(file).pipe(res);
    return true;
  }

  private json(res: ServerResponse, headers: Record<string, string>, value: unknown): true {
    res.writeHead(200, { ...headers, 'content-type': 'application/json' }).end(JSON.stringify(value));
    return true;
  }

  /** Takes WebSocket upgrades at /view/websockify; returns false for other paths. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path !== `${VIEW_PREFIX}websockify`) return false;
    // The view cookie rides along with any page's WebSocket: only the view page's own origin may use it.
    if (!originAllowed(req)) {
      refuseUpgrade(socket, '403 Forbidden', ErrorCode.Forbidden, `WebSocket from origin ${req.headers.origin} refused: only the live view page may connect`);
      return true;
    }
    if (!this.authorized(req).ok) {
      socket.end('HTTP/1.1 401 Unauthorized\r\nConnection: close\r\n\r\n');
      return true;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => void this.proxy(ws));
    return true;
  }

  private async proxy(ws: WebSocket): Promise<void> {
    const { vnc, control, log } = this.opts;
    control.viewerJoined();
    let released = false;
    const release = () => { if (!released) { released = true; vnc.release(); control.viewerLeft(); } };
    try {
      await vnc.acquire();
    } catch (err) {
      log(`live view: the VNC server did not start: ${(err as Error).message}`);
      release();
      ws.close(1011, 'the VNC server did not start');
      return;
    }
    const tcp = createConnection({ host: '127.0.0.1', port: vnc.port });
    const stream = createWebSocketStream(ws);
    const decoder = new RfbClientDecoder((e) => control.record(e));
    let warned = false;
    stream.on('data', (chunk: Buffer) => {
      decoder.push(chunk);
      if (decoder.stoppedBecause && !warned) { warned = true; log(`live view: stopped decoding input (${decoder.stoppedBecause}); the session goes on unrecorded`); }
    });
    stream.pipe(tcp);
    tcp.pipe(stream);
    const end = () => { release(); tcp.destroy(); stream.destroy(); };
    tcp.on('error', (err) => { log(`live view: VNC connection: ${err.message}`); end(); });
    tcp.on('close', end);
    stream.on('error', () => end());
    stream.on('close', end);
  }

  close(): void {
    for (const ws of this.wss.clients) ws.terminate();
  }
}
