// The Env server: the Env API (host/env) for programs in any language, as JSON-RPC 2.0 over a
// WebSocket at /env, mounted beside the inspector by `pwp serve` (or on its own HTTP server).
// Each connection is a client; a client opens episodes (env.make), drives them (reset, step,
// observe, reward, checkpoint, restore, hand-off) and closes them. Every connection and every
// HTTP request needs the bearer token. A client that goes away keeps its environments for its
// grace period (server.hello sets it) so a reconnect can resume them; after that they are
// removed. The number of environments is capped: over the cap, env.make fails at once with
// LimitExceededError naming the limit. pwp run/bench attach an episode they opened for an
// outside agent (attach()); such episodes are the runner's to reset and close.
// An episode's environment is recycled when it closes (EnvPool: put back in place and proven
// pristine) for the next episode on the same image, so a client opening episode after episode
// pays a cold start only for the first; a few recycled ones wait idle (`keep`).
import { randomBytes } from 'node:crypto';
import { tokenMatches } from '../../bridge/common/access';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { ErrorCode, LimitExceededError, NotAvailableError } from '../../bridge/protocol';
import { createDeployment } from '../deployment/backends';
import type { Backend, Deployment } from '../deployment/deployment';
import type { EnvLike } from '../env/env';
import { EnvPool } from '../env/pool';
import type { Task } from '../taskEnv/loadTask';
import { EnvDispatcher, MAX_REQUEST_BYTES } from './envDispatcher';
import { envSchemaFiles } from './envProtocol';
import { checkWorkspace, Episode, findAllTasks, findTasks, observationJson, taskSummary } from './episode';

export const ENV_PATH = '/env';
const SCHEMAS_PATH = `${ENV_PATH}/schemas`;

const VERSION = '1';

/** Recycled environments an Env server keeps idle per image unless told (pwp serve --keep). */
export const DEFAULT_KEEP = 2;

export interface EnvServerOptions {
  token: string;
  deployment?: Deployment;
  /** Where its environments run when no deployment is given: 'docker' (default) or 'swarm' (`pwp serve --backend swarm`). */
  backend?: Backend;
  /** Environments this server runs at most (episodes opened, attached ones included). */
  maxEnvironments?: number;
  /** How long a disconnected client's environments are kept by default (ms). */
  defaultGraceMs?: number;
  tasksRoot?: string;
  /** The IDE image for workspaces and tasks that use the default one (default: built from this tree). */
  image?: string;
  /**
   * Recycled environments kept idle for the next env.make, per image (default DEFAULT_KEEP); 0
   * removes each environment with its episode. They do not count against maxEnvironments.
   */
  keep?: number;
  log?: (line: string) => void;
}

interface Client {
  key: string;
  graceMs: number;
  /** The connection is gone and its episodes are waiting out the grace period. */
  expiry?: NodeJS.Timeout;
  connections: number;
}

export class EnvServer {
  readonly deployment: Deployment;
  readonly maxEnvironments: number;
  private readonly episodes = new Map<string, Episode>();
  private readonly clients = new Map<string, Client>();
  private readonly wss = new WebSocketServer({ noServer: true, perMessageDeflate: false, maxPayload: 2 * MAX_REQUEST_BYTES });
  private readonly dispatcher = new EnvDispatcher<{ client: Client }>();
  private closing = false;
  private image?: Promise<string>;
  /** Environment slots taken by env.make calls still looking their image up. */
  private reserved = 0;
  /** Recycling pools by image, made on first use. */
  private readonly pools = new Map<string, EnvPool>();

  constructor(private readonly o: EnvServerOptions) {
    this.deployment = o.deployment ?? createDeployment(o.backend);
    this.maxEnvironments = o.maxEnvironments ?? 8;
    this.registerMethods();
  }

  get environmentCount(): number { return this.episodes.size; }

  private log(line: string): void { this.o.log?.(line); }

  private authorized(req: IncomingMessage): boolean {
    const auth = req.headers.authorization;
    if (auth?.startsWith('Bearer ')) return tokenMatches(this.o.token, auth.slice(7));
    return tokenMatches(this.o.token, new URL(req.url ?? '/', 'http://x').searchParams.get('token'));
  }

  // ---- HTTP: the JSON Schemas ----------------------------------------------------------------

  /**
   * Answers GET /env and /env/schemas[/<file>.json]; false for every other path. Only these are
   * claimed: the inspector mounted beside it serves /env/<id>/view/… (the live view).
   */
  handleRequest(req: IncomingMessage, res: ServerResponse): boolean {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path !== ENV_PATH && path !== SCHEMAS_PATH && !path.startsWith(`${SCHEMAS_PATH}/`)) return false;
    if (!this.authorized(req)) {
      res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: ErrorCode.Unauthorized, message: 'the Env server needs its token (Authorization: Bearer <token>)' } }));
      return true;
    }
    const files = envSchemaFiles();
    const m = /^\/env\/schemas(?:\/([A-Za-z.-]+\.json))?$/.exec(path);
    const body = m && (m[1] ? files[m[1]] : files);
    if (!body) res.writeHead(404, { 'content-type': 'text/plain' }).end('not found: the Env server answers WebSockets at /env and JSON Schemas at /env/schemas\n');
    else res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(body, null, 1));
    return true;
  }

  // ---- WebSocket: the API --------------------------------------------------------------------

  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean {
    if (new URL(req.url ?? '/', 'http://x').pathname !== ENV_PATH) return false;
    if (!this.authorized(req)) {
      const body = JSON.stringify({ error: { code: ErrorCode.Unauthorized, message: 'missing or wrong Env server token' } });
      socket.end(`HTTP/1.1 401 Unauthorized\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`);
      return true;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => this.serve(ws));
    return true;
  }

  private serve(ws: WebSocket): void {
    // A connection is a new client until server.hello resumes an earlier one.
    const conn = { client: this.newClient() };
    conn.client.connections++;
    ws.on('message', (data, isBinary) => {
      void this.dispatcher.handle(isBinary ? '' : data.toString(), conn).then((response) => {
        if (response && ws.readyState === ws.OPEN) ws.send(JSON.stringify(response));
      });
    });
    ws.on('close', () => this.disconnected(conn.client));
    ws.on('error', (err) => this.log(`env server: a client's connection failed: ${err.message}`));
  }

  private newClient(): Client {
    const client: Client = { key: randomBytes(18).toString('base64url'), graceMs: this.o.defaultGraceMs ?? 30_000, connections: 0 };
    this.clients.set(client.key, client);
    return client;
  }

  private disconnected(client: Client): void {
    client.connections--;
    if (client.connections > 0 || this.closing) return;
    const owned = [...this.episodes.values()].filter((e) => e.origin.ownerKey === client.key);
    if (!owned.length) { this.clients.delete(client.key); return; }
    this.log(`env server: a client left; its ${owned.length} environment(s) go in ${client.graceMs} ms unless it comes back`);
    client.expiry = setTimeout(() => {
      this.clients.delete(client.key);
      for (const e of owned) if (this.episodes.get(e.id) === e) void this.remove(e, 'its client did not come back within the grace period');
    }, client.graceMs);
    client.expiry.unref();
  }

  /** This tree's IDE image, looked up (or built) once per server. */
  private defaultImage(): Promise<string> {
    if (this.o.image) return Promise.resolve(this.o.image);
    this.image ??= this.deployment.ensureImage({ progress: (l) => this.log(l) });
    this.image.catch(() => { this.image = undefined; });
    return this.image;
  }

  /** The recycling pool of an image (undefined when the server keeps none). */
  private poolFor(image: string): EnvPool | undefined {
    const keep = this.o.keep ?? DEFAULT_KEEP;
    if (keep === 0 || this.closing) return undefined;
    let pool = this.pools.get(image);
    if (!pool) {
      pool = new EnvPool({ size: 0, idle: keep, deployment: this.deployment, spec: { image }, log: (l) => this.log(`env server: ${l}`) });
      this.pools.set(image, pool);
    }
    return pool;
  }

  private async remove(e: Episode, why: string): Promise<void> {
    this.episodes.delete(e.id);
    this.log(`env server: episode ${e.id} closed: ${why}`);
    await e.close().catch((err: Error) => this.log(`env server: closing ${e.id}: ${err.message}`));
  }

  private episode(id: string): Episode {
    const e = this.episodes.get(id);
    if (!e) throw new NotAvailableError(`no episode ${id} on this server (closed, removed after its client left, or never opened)`);
    return e;
  }

  /** Hands an Env that is already reset to outside agents; the caller resets and closes it. */
  attach(env: EnvLike, task: Task | null): string {
    const id = `ep-${randomBytes(9).toString('base64url')}`;
    this.episodes.set(id, new Episode(id, env, { ownerKey: null, attached: true }, task));
    return id;
  }

  /** Forgets an attached episode without closing its Env (its runner does that). */
  detach(id: string): void {
    const e = this.episodes.get(id);
    if (e?.origin.attached) { e.closed = true; this.episodes.delete(id); }
  }

  private registerMethods(): void {
    const d = this.dispatcher;
    d.register('server.hello', async (p, conn) => {
      let resumed = 0;
      if (p.resume !== undefined && p.resume !== conn.client.key) {
        const earlier = this.clients.get(p.resume);
        if (!earlier) throw new NotAvailableError('nothing to resume: that client is unknown, or its grace period ended and its environments were removed');
        clearTimeout(earlier.expiry);
        earlier.expiry = undefined;
        earlier.connections++;
        conn.client.connections--;
        if (conn.client.connections <= 0) this.clients.delete(conn.client.key);
        conn.client = earlier;
        resumed = [...this.episodes.values()].filter((e) => e.origin.ownerKey === earlier.key).length;
      }
      if (p.graceMs !== undefined) conn.client.graceMs = p.graceMs;
      return {
        clientKey: conn.client.key, graceMs: conn.client.graceMs, resumed,
        maxEnvironments: this.maxEnvironments, environments: this.episodes.size, version: VERSION,
      };
    });
    d.register('tasks.list', async (p) => ({
      tasks: (p.selector ? findTasks(p.selector, this.o.tasksRoot) : findAllTasks(this.o.tasksRoot)).map(taskSummary),
    }));
    d.register('env.make', async (p, conn) => {
      if (this.closing) throw new NotAvailableError('the server is shutting down');
      if (this.episodes.size + this.reserved >= this.maxEnvironments) {
        throw new LimitExceededError(
          `this server runs at most ${this.maxEnvironments} environments (maxEnvironments, pwp serve --max-envs) and all are in use: close one (env.close) first`,
          { limit: 'maxEnvironments', max: this.maxEnvironments },
        );
      }
      checkWorkspace(p.workspace);
      const id = `ep-${randomBytes(9).toString('base64url')}`;
      // The slot is taken before the image is looked up, so concurrent makes cannot overshoot the limit.
      this.reserved++;
      let e: Episode;
      try {
        e = Episode.make(id, p, { ownerKey: conn.client.key, attached: false }, this.deployment, {
          tasksRoot: this.o.tasksRoot, image: await this.defaultImage(), pool: (image) => this.poolFor(image),
        });
      } finally {
        this.reserved--;
      }
      this.episodes.set(id, e);
      return { episodeId: id, task: e.taskSummary(), actionSpace: e.env.actionSpace, observationSpace: e.env.observationSpace };
    });
    d.register('env.describe', async (p) => {
      const e = this.episode(p.episodeId);
      return { episodeId: e.id, task: e.taskSummary(), attached: e.origin.attached, actionSpace: e.env.actionSpace, observationSpace: e.env.observationSpace };
    });
    d.register('env.reset', async (p) => {
      const e = this.episode(p.episodeId);
      if (e.origin.attached) throw new NotAvailableError(`episode ${e.id} belongs to the pwp run that started this agent: it is already reset, and only that run resets it`);
      return e.run(async () => {
        const r = await e.env.reset({ seed: p.seed, options: e.resetOptions(p.options) });
        const viewUrl = e.env.episode.environment?.viewUrl ?? null;
        return { observation: observationJson(r.observation), info: { ...r.info, viewUrl } } as never;
      });
    });
    d.register('env.step', async (p) => {
      const e = this.episode(p.episodeId);
      const action = typeof p.action === 'string' ? { type: 'xdotool' as const, command: p.action } : p.action;
      return e.run(async () => {
        const r = await e.env.step(action);
        return { ...r, observation: observationJson(r.observation) } as never;
      });
    });
    d.register('env.observe', async (p) => {
      const e = this.episode(p.episodeId);
      return e.run(async () => observationJson(await e.env.observe(p.kinds)) as never);
    });
    d.register('env.reward', async (p) => {
      const e = this.episode(p.episodeId);
      // A task Env's reward is its grading, whose detail the episode keeps (a bare Env has none).
      return e.run(async () => {
        const reward = await e.env.reward();
        return { reward, evaluation: e.env.episode.evaluation as never };
      });
    });
    d.register('env.query', async (p) => {
      const e = this.episode(p.episodeId);
      return e.run(() => e.env.query(p.method as 'ide.status', (p.params ?? {}) as never));
    });
    d.register('env.checkpoint', async (p) => {
      const e = this.episode(p.episodeId);
      return e.run(async () => (await e.env.checkpoint(p.name)) as never);
    });
    d.register('env.restore', async (p) => {
      const e = this.episode(p.episodeId);
      if (p.newContainer && e.origin.attached) throw new NotAvailableError(`episode ${e.id} belongs to a pwp run: restore into its own container (newContainer false)`);
      return e.run(async () => (await e.env.restore(p.name, { newContainer: p.newContainer })) as never);
    });
    d.register('env.handOff', async (p) => {
      const e = this.episode(p.episodeId);
      return e.run(() => e.env.handOff(p.message, { timeoutMs: p.timeoutMs }));
    });
    d.register('env.pause', async (p) => {
      const e = this.episode(p.episodeId);
      return e.run(async () => { await e.env.pause(); return {}; });
    });
    d.register('env.resume', async (p) => {
      const e = this.episode(p.episodeId);
      return e.run(async () => { await e.env.resume(); return {}; });
    });
    d.register('env.close', async (p) => {
      const e = this.episode(p.episodeId);
      if (e.origin.attached) throw new NotAvailableError(`episode ${e.id} belongs to the pwp run that started this agent: it ends when the agent exits (send a done action to finish)`);
      // Calls already queued on the episode finish (or fail) first; later ones find it gone.
      this.episodes.delete(e.id);
      await e.run(async () => undefined).catch(() => undefined);
      await this.remove(e, 'closed by its client');
      return { closed: true };
    });
    d.register('env.list', async (_p, conn) => ({ episodes: [...this.episodes.values()].map((e) => e.summary(conn.client.key)) }));
  }

  /** Removes every environment this server opened (attached ones belong to their runners). */
  async close(): Promise<void> {
    this.closing = true;
    for (const ws of this.wss.clients) ws.terminate();
    for (const c of this.clients.values()) clearTimeout(c.expiry);
    const mine = [...this.episodes.values()].filter((e) => !e.origin.attached);
    await Promise.all(mine.map((e) => this.remove(e, 'the server stopped')));
    await Promise.all([...this.pools.values()].map((p) => p.close()));
  }
}
