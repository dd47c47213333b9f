// `pwp serve`: a local web app on 127.0.0.1 that lists environments and shows one of them
// live (screen, Set-of-Marks, IDE panels, session timeline, taking control), and steps
// through recorded trajectories. Every request needs the inspector's token (in the URL it
// prints, then a cookie scoped to this port's token); Host and Origin must be this server, so
// other web pages cannot reach it. Environment tokens stay in this process.
import { createHash, randomBytes } from 'node:crypto';
import { pageAuthorized, type HttpRoute } from '../../bridge/common/access';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, extname, join, resolve, sep } from 'node:path';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { EnvironmentInfo } from '../deployment/deployment';
import { createDeployment } from '../deployment/backends';
import type { Deployment } from '../deployment/deployment';
import { ownedByCaller } from '../deployment/ownedContainers';
import { paths } from '../common/paths';
import { envSummary, LiveSession, type Viewer } from './liveSession';
import type { ClientMessage, ServerMessage } from './messages';
import { fileInside, listTrajectories, loadTrajectoryView, trajectoryFileOf } from './trajectoryView';
import { proxyViewRequest, proxyViewUpgrade, VIEW_ROUTE } from './viewProxy';
import { buildWebApp } from './webApp';

export interface InspectorOptions {
  deployment?: Deployment;
  /** 0 (default) picks a free port. */
  port?: number;
  token?: string;
  /** Folders listed in the trajectory picker (default <state>/runs). */
  runsRoots?: string[];
  /** Trajectories given by name (`pwp serve --trajectory`), openable wherever they are. */
  trajectories?: string[];
  log?: (line: string) => void;
  /** Show every pwp environment on the machine, not only the calling host user's. */
  allUsers?: boolean;
  /** The interface to listen on (default 127.0.0.1); the inspector's pages answer only as 127.0.0.1/localhost. */
  host?: string;
  /** Services mounted on the same port that check their own token (the Env server at /env); each returns true when it answered. */
  routes?: HttpRoute[];
}

const TYPES: Record<string, string> = {
  '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.json': 'application/json', '.jsonl': 'application/json', '.mp4': 'video/mp4',
};

export class InspectorServer {
  readonly token: string;
  readonly deployment: Deployment;
  private server!: Server;
  private readonly wss = new WebSocketServer({ noServer: true, perMessageDeflate: false, maxPayload: 1024 * 1024 });
  private readonly sessions = new Map<string, Promise<LiveSession>>();
  private readonly cookieName: string;
  private readonly runsRoots: string[];
  private readonly explicit: string[];
  private app: { js: string; html: string; css: string } | undefined;
  private port = 0;

  private constructor(private readonly o: InspectorOptions) {
    this.token = o.token ?? randomBytes(24).toString('base64url');
    this.deployment = o.deployment ?? createDeployment();
    this.cookieName = `pwpinspector_${createHash('sha256').update(this.token).digest('hex').slice(0, 12)}`;
    this.runsRoots = (o.runsRoots ?? [join(paths.state, 'runs')]).map((r) => resolve(r));
    this.explicit = (o.trajectories ?? []).map((t) => resolve(trajectoryFileOf(t)));
    for (const t of this.explicit) if (!existsSync(t)) throw new Error(`no trajectory at ${t}`);
  }

  static async start(o: InspectorOptions = {}): Promise<InspectorServer> {
    const s = new InspectorServer(o);
    s.app = await buildWebApp();
    s.server = createServer((req, res) => { s.route(req, res).catch((err: Error) => s.fail(res, 500, err.message)); });
    s.server.on('upgrade', (req, socket, head) => s.upgrade(req, socket, head));
    await new Promise<void>((ok, fail) => {
      s.server.once('error', fail);
      s.server.listen(o.port ?? 0, o.host ?? '127.0.0.1', () => ok());
    });
    s.port = (s.server.address() as AddressInfo).port;
    return s;
  }

  get url(): string { return `http://127.0.0.1:${this.port}/?token=${this.token}`; }
  get listeningPort(): number { return this.port; }
  /** The page for one trajectory. */
  trajectoryUrl(path: string): string { return `${this.url}#/trajectory/${encodeURIComponent(resolve(trajectoryFileOf(path)))}`; }
  envUrl(id: string): string { return `${this.url}#/env/${id}`; }

  private log(line: string): void { this.o.log?.(line); }

  // ---- who may talk to us ---------------------------------------------------------------------

  private sameHost(req: IncomingMessage): boolean {
    const ok = new Set([`127.0.0.1:${this.port}`, `localhost:${this.port}`]);
    if (!ok.has(req.headers.host ?? '')) return false;
    const origin = req.headers.origin;
    return origin === undefined || ok.has(origin.replace(/^https?:\/\//, ''));
  }

  private authorized(req: IncomingMessage): { ok: boolean; fromQuery: boolean } {
    if (!this.sameHost(req)) return { ok: false, fromQuery: false };
    return pageAuthorized(req, this.token, this.cookieName);
  }

  private fail(res: ServerResponse, status: number, message: string): void {
    if (!res.headersSent) res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
    res.end(`${message}\n`);
  }

  private json(res: ServerResponse, value: unknown): void {
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(value));
  }

  // ---- HTTP -----------------------------------------------------------------------------------

  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (this.o.routes?.some((r) => r.handleRequest(req, res))) return;
    const url = new URL(req.url ?? '/', 'http://x');
    const auth = this.authorized(req);
    if (!auth.ok) return this.fail(res, 401, 'the inspector needs its token: open the URL `pwp serve` printed');
    const base: Record<string, string> = { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' };
    if (auth.fromQuery) base['set-cookie'] = `${this.cookieName}=${encodeURIComponent(this.token)}; Path=/; HttpOnly; SameSite=Strict`;
    const app = this.app!;
    const p = url.pathname;

    if (p === '/' || p === '/index.html') {
      res.writeHead(200, {
        ...base, 'content-type': 'text/html; charset=utf-8',
        'content-security-policy': "default-src 'self'; img-src 'self' blob: data:; style-src 'self' 'unsafe-inline'; frame-src 'self'; connect-src 'self' ws://127.0.0.1:* ws://localhost:*",
      }).end(app.html);
      return;
    }
    if (p === '/app.js') { res.writeHead(200, { ...base, 'content-type': 'text/javascript; charset=utf-8' }).end(app.js); return; }
    if (p === '/style.css') { res.writeHead(200, { ...base, 'content-type': 'text/css; charset=utf-8' }).end(app.css); return; }

    if (p === '/api/envs') {
      const envs = await this.deployment.list();
      return this.json(res, envs.filter((e) => this.mayWatch(e)).map(envSummary));
    }
    if (p === '/api/trajectories') {
      const found = listTrajectories(this.runsRoots);
      const extra = this.explicit.filter((f) => !found.some((t) => t.file === f)).map((f) => {
        const st = statSync(f);
        return { file: f, dir: dirname(f), root: dirname(f), name: dirname(f), modified: st.mtime.toISOString(), bytes: st.size, format: 'unknown', envId: null };
      });
      return this.json(res, { roots: this.runsRoots, trajectories: [...extra, ...found] });
    }
    if (p === '/api/trajectory') {
      const file = this.allowedTrajectory(url.searchParams.get('file'));
      if (!file) return this.fail(res, 404, 'no such trajectory here (only the runs folders and trajectories given to `pwp serve` can be opened)');
      return this.json(res, loadTrajectoryView(file));
    }
    if (p === '/api/trajectory/file') {
      const file = this.allowedTrajectory(url.searchParams.get('file'));
      const inside = file ? fileInside(dirname(file), url.searchParams.get('rel') ?? '') : null;
      if (!inside || !existsSync(inside) || !statSync(inside).isFile()) return this.fail(res, 404, 'no such file beside the trajectory');
      res.writeHead(200, { ...base, 'content-type': TYPES[extname(inside).toLowerCase()] ?? 'application/octet-stream', 'content-length': String(statSync(inside).size) });
      createReadStream(inside).pipe(res);
      return;
    }
    const view = VIEW_ROUTE.exec(p);
    if (view) {
      const info = await this.deployment.get(view[1]).then((i) => (this.mayWatch(i) ? i : null), () => null);
      if (!info) return this.fail(res, 404, `no environment ${view[1]}`);
      if (!info.viewUrl) return this.fail(res, 404, `environment ${view[1]} does not serve the live view (start it with --view)`);
      return proxyViewRequest(req, res, info, view[2], url.search);
    }
    return this.fail(res, 404, 'not found');
  }

  /** A trajectory file the page may open: under a runs folder, or named on the command line. */
  private allowedTrajectory(given: string | null): string | null {
    if (!given) return null;
    const file = resolve(trajectoryFileOf(given));
    if (!existsSync(file)) return null;
    if (this.explicit.includes(file)) return file;
    return this.runsRoots.some((r) => file.startsWith(r + sep)) ? file : null;
  }

  // ---- WebSockets -----------------------------------------------------------------------------

  private upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    if (this.o.routes?.some((r) => r.handleUpgrade(req, socket, head))) return;
    const url = new URL(req.url ?? '/', 'http://x');
    if (!this.authorized(req).ok) {
      socket.end('HTTP/1.1 401 Unauthorized\r\nConnection: close\r\n\r\n');
      return;
    }
    const view = VIEW_ROUTE.exec(url.pathname);
    if (view) {
      this.deployment.get(view[1]).then(
        (info) => (info.viewUrl && this.mayWatch(info) ? proxyViewUpgrade(req, socket, head, info, view[2]) : socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n')),
        () => socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n'),
      );
      return;
    }
    const env = url.searchParams.get('env');
    if (url.pathname !== '/ws' || !env || !/^[0-9a-f]{4,64}$/.test(env)) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n');
      return;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => void this.watch(ws, env));
  }

  /** Whether this inspector shows an environment: the caller's own, or any with allUsers. */
  private mayWatch(info: EnvironmentInfo): boolean {
    return !!this.o.allUsers || ownedByCaller(info);
  }

  private session(id: string): Promise<LiveSession> {
    let s = this.sessions.get(id);
    if (!s) {
      s = this.deployment.get(id).then((info) => {
        if (!this.mayWatch(info)) throw new Error(`environment ${id} was started by another user (pwp serve --all-users shows every environment)`);
      }).then(() => LiveSession.open(this.deployment, id, {
        trajectoryRoots: this.runsRoots,
        onClosed: () => this.sessions.delete(id),
        log: (l) => this.log(l),
      }));
      this.sessions.set(id, s);
      s.catch(() => this.sessions.delete(id));
    }
    return s;
  }

  private async watch(ws: WebSocket, id: string): Promise<void> {
    const send = (m: ServerMessage | Buffer) => {
      if (ws.readyState !== ws.OPEN) return;
      // A page that cannot keep up skips frames rather than queueing them without bound.
      if (Buffer.isBuffer(m) && ws.bufferedAmount > 8 * 1024 * 1024) return;
      ws.send(Buffer.isBuffer(m) ? m : JSON.stringify(m));
    };
    let session: LiveSession;
    try {
      session = await this.session(id);
    } catch (err) {
      send({ type: 'gone', reason: `cannot watch environment ${id}: ${(err as Error).message}` });
      ws.close();
      return;
    }
    const viewer: Viewer = { send };
    session.add(viewer);
    ws.on('message', (data) => {
      let m: ClientMessage;
      try { m = JSON.parse(data.toString()) as ClientMessage; } catch { return; }
      if (typeof m.id !== 'number') return;
      session.handle(m).then(
        (result) => send({ type: 'reply', id: m.id, result }),
        (err: Error) => send({ type: 'reply', id: m.id, error: `${err.name}: ${err.message}` }),
      );
    });
    ws.on('close', () => session.remove(viewer));
  }

  async close(): Promise<void> {
    for (const ws of this.wss.clients) ws.terminate();
    for (const s of this.sessions.values()) (await s.catch(() => null))?.close();
    this.sessions.clear();
    await new Promise<void>((ok) => this.server.close(() => ok()));
    this.server.closeAllConnections();
  }
}
