// The bridge's one endpoint: JSON-RPC 2.0 over a WebSocket at /rpc, guarded by the
// per-container token. Each connection is a Session; a closed connection aborts its calls.
// A connection may have a bounded number of calls in flight (more are answered "busy"), so one
// client cannot queue up work that stalls the others; a browser page from another origin is
// refused (programs send no Origin; the bridge's own pages send their own).
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { WebSocket, WebSocketServer } from 'ws';
import { BusyError, ErrorCode, PayloadTooLargeError, errorToWire } from '../protocol';
import { originAllowed, refuseUpgrade, tokenMatches, type HttpRoute } from '../common/access';
import { MAX_MESSAGE_BYTES, type Dispatcher, type RpcResponse, type Session } from '../rpc/dispatcher';

export interface RpcServerOptions {
  port: number;
  host: string;
  token: string;
  dispatcher: Dispatcher;
  /** Answers the unauthenticated GET /healthz with readiness only. */
  isReady: () => boolean;
  /** HTML served without a token at GET /boot (the kiosk window's first page). */
  bootPage?: string;
  /** More HTTP services on the same port (the live view); each checks its own access and returns true when it answered. */
  routes?: HttpRoute[];
  log?: (line: string) => void;
  /** Calls one connection may have in flight; more are answered with BusyError. */
  maxInFlightPerClient?: number;
}

/** Enough for any agent or person; far below what would stall the others or exhaust processes. */
export const DEFAULT_MAX_IN_FLIGHT_PER_CLIENT = 64;

/** The largest WebSocket frame read; a bigger one is answered with PayloadTooLargeError and the connection closes. */
export const MAX_FRAME_BYTES = 2 * MAX_MESSAGE_BYTES;

/**
 * ws closes a connection with 1009 as soon as a frame's header announces more than maxPayload,
 * without reading it; this socket first sends the typed error the caller can act on.
 */
class RpcSocket extends WebSocket {
  override close(code?: number, data?: string | Buffer): void {
    if (code === 1009 && this.readyState === WebSocket.OPEN) {
      const err = new PayloadTooLargeError(`a message frame exceeds the limit of ${MAX_FRAME_BYTES} bytes; the connection closes`, { limit: MAX_FRAME_BYTES });
      this.send(JSON.stringify({ jsonrpc: '2.0', id: null, error: errorToWire(err) }));
    }
    super.close(code, data);
  }
}

function tokenOf(req: IncomingMessage): string | undefined {
  const auth = req.headers.authorization;
  if (auth?.startsWith('Bearer ')) return auth.slice(7);
  const url = new URL(req.url ?? '/', 'http://x');
  return url.searchParams.get('token') ?? undefined;
}

export class RpcServer {
  private readonly http: Server;
  private readonly wss: WebSocketServer;
  private nextSession = 1;

  constructor(private readonly opts: RpcServerOptions) {
    // Frames up to twice the message limit reach the dispatcher, which answers an
    // oversized message with a typed error and keeps the connection; bigger frames get
    // the typed error from RpcSocket, then the connection closes.
    this.wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES, WebSocket: RpcSocket });
    this.http = createServer((req, res) => {
      if (req.url === '/boot' && this.opts.bootPage) {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
        res.end(this.opts.bootPage);
        return;
      }
      if (req.url === '/healthz') {
        res.writeHead(this.opts.isReady() ? 200 : 503, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ ready: this.opts.isReady() }));
        return;
      }
      if (this.opts.routes?.some((r) => r.handleRequest(req, res))) return;
      res.writeHead(404).end();
    });
    this.http.on('upgrade', (req, socket, head) => {
      if (this.opts.routes?.some((r) => r.handleUpgrade(req, socket, head))) return;
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (path !== '/rpc') {
        socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n');
        return;
      }
      if (!originAllowed(req)) {
        refuseUpgrade(socket, '403 Forbidden', ErrorCode.Forbidden, `WebSocket from origin ${req.headers.origin} refused: only programs (no Origin) and this server's own pages may connect`);
        return;
      }
      if (!tokenMatches(this.opts.token, tokenOf(req))) {
        refuseUpgrade(socket, '401 Unauthorized', ErrorCode.Unauthorized, 'missing or wrong bridge token');
        return;
      }
      this.wss.handleUpgrade(req, socket, head, (ws) => this.serve(ws));
    });
  }

  listen(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.http.once('error', reject);
      this.http.listen(this.opts.port, this.opts.host, () => resolve());
    });
  }

  get port(): number {
    const addr = this.http.address();
    return typeof addr === 'object' && addr ? addr.port : this.opts.port;
  }

  close(): Promise<void> {
    for (const ws of this.wss.clients) ws.terminate();
    return new Promise((resolve) => this.http.close(() => resolve()));
  }

  private serve(ws: WebSocket): void {
    const abort = new AbortController();
    const session: Session = { id: this.nextSession++, state: new Map(), signal: abort.signal };
    const max = this.opts.maxInFlightPerClient ?? DEFAULT_MAX_IN_FLIGHT_PER_CLIENT;
    let inFlight = 0;
    const answer = (response: RpcResponse | undefined) => {
      if (response && ws.readyState === ws.OPEN) ws.send(JSON.stringify(response));
    };
    ws.on('message', (data, isBinary) => {
      const raw = isBinary ? '' : data.toString();
      if (inFlight >= max) {
        answer(this.opts.dispatcher.refuse(raw, new BusyError(`this connection already has ${max} calls in flight; wait for answers before sending more`, { limit: max })));
        return;
      }
      inFlight++;
      void this.opts.dispatcher.handle(raw, session).then((response) => {
        inFlight--;
        answer(response);
      });
    });
    ws.on('close', () => abort.abort());
    ws.on('error', (err) => this.opts.log?.(`session ${session.id}: ${err.message}`));
  }
}
