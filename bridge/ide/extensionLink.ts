// The extension running in the IDE's extension host connects here (loopback only, its own
// token) and serves ide.* calls, which the bridge forwards. While the extension host is
// down or reloading, ide.* fails fast with NotAvailableError and the rest keeps working.
import { WebSocketServer, type WebSocket } from 'ws';
import {
  EXTENSION_CALL_TIMEOUT_MS, EXTENSION_LINK_CLOSE, EXTENSION_LINK_MAX_PAYLOAD, NotAvailableError, TargetClosedError, extensionCallTimeoutMs, parseExtensionLinkHello,
} from '../protocol';
import { JsonRpcClient, type CallOptions } from '../rpc/jsonRpcClient';
import { tokenMatches } from '../common/access';
import { EventEmitter } from 'node:events';

const { WRONG_TOKEN, SUPERSEDED, NOT_THE_EXTENSION_HOST, OTHER_WINDOW } = EXTENSION_LINK_CLOSE;
/** How long ide.* calls wait for the extension host's first start before failing. */
const FIRST_CONNECTION_WAIT_MS = 30_000;
/**
 * The extension host is pinged this often and dropped after SILENT_PINGS_ALLOWED pings in a row
 * go unanswered (20–25 s of silence). Its event loop can stall for seconds while the IDE
 * activates extensions on a loaded machine (at start-up, or the TypeScript extension when a
 * pooled IDE first opens a .ts file): dropping after one silent ping (5–10 s) cut stalled but
 * healthy hosts off in the middle of a call, at a load average of about 25 on 2 cores.
 */
const PING_INTERVAL_MS = 5000;
const SILENT_PINGS_ALLOWED = 4;

function everyPingInterval(ping: () => void): () => void {
  const timer = setInterval(ping, PING_INTERVAL_MS);
  return () => clearInterval(timer);
}

export interface ExtensionLinkOptions {
  /** Schedules the pings: calls `ping` at each beat and returns how to stop (default: every PING_INTERVAL_MS; tests beat by hand). */
  schedulePings?: (ping: () => void) => () => void;
  /** Unanswered pings in a row after which the host is dropped (default SILENT_PINGS_ALLOWED). */
  silentPingsAllowed?: number;
  firstConnectionWaitMs?: number;
  /** Checks the process that connected (by its port on 127.0.0.1): null admits it, a string says why not. */
  checkPeer?: (peerPort: number) => Promise<string | null>;
  /** When the kiosk window's current document began loading (ms since the epoch), null when unknown. */
  kioskLoadedAt?: () => Promise<number | null>;
}

export class ExtensionLink extends EventEmitter {
  private readonly wss: WebSocketServer;
  private client?: JsonRpcClient;

  constructor(port: number, private readonly token: string, private readonly log: (line: string) => void, private readonly opts: ExtensionLinkOptions = {}) {
    super();
    this.wss = new WebSocketServer({ host: '127.0.0.1', port, maxPayload: EXTENSION_LINK_MAX_PAYLOAD });
    this.wss.on('connection', (ws, req) => {
      const { token, activated } = parseExtensionLinkHello(req.url);
      if (!tokenMatches(this.token, token)) { ws.close(WRONG_TOKEN, 'wrong token'); return; }
      // The extension only answers requests, so nothing it sends is lost while the check runs.
      const check = this.opts.checkPeer?.(req.socket.remotePort ?? 0) ?? Promise.resolve(null);
      void check.catch((err: Error) => `the check failed: ${err.message}`).then(async (refused) => {
        if (ws.readyState !== ws.OPEN) return;
        if (refused) {
          this.log(`refused an extension link connection: ${refused}`);
          ws.close(NOT_THE_EXTENSION_HOST, 'not the IDE extension host');
          return;
        }
        // A browser restart leaves the old window's extension host running (the IDE server
        // keeps it for reconnection) beside the new one: an older activation is told it is
        // superseded so that it stops reconnecting.
        if (this.connected && activated < this.activated) { ws.close(SUPERSEDED, 'a newer extension host is connected'); return; }
        // ide.* answers for the kiosk window the agent sees. Another browser on the IDE's URL
        // (a person watching through /ide/) starts an extension host of its own, later: while
        // the kiosk's serves, a newcomer is that other window's, unless the kiosk window is
        // loading a workbench again (kioskWindowLoading), or loaded one since the serving host
        // activated (a reload the bridge did not make: the agent's Reload Window, an extension
        // install) and the newcomer activated after that load.
        const admit = !this.connected || this.admitNext || (await this.kioskReloadedFor(activated));
        if (ws.readyState !== ws.OPEN) return;
        if (!admit) {
          this.log('refused the extension host of another browser window: the kiosk window\'s serves ide.*');
          ws.close(OTHER_WINDOW, 'the kiosk window\'s extension host serves the bridge');
          return;
        }
        this.admitNext = false;
        this.activated = activated;
        this.attach(ws);
      });
    });
  }

  get connected(): boolean { return !!this.client && !this.client.closed; }

  /** Resolves once the socket listens; `port` is known from then on (useful with port 0). */
  listening(): Promise<void> {
    return this.wss.address() ? Promise.resolve() : new Promise((resolve, reject) => {
      this.wss.once('listening', () => resolve());
      this.wss.once('error', reject);
    });
  }

  get port(): number { return (this.wss.address() as { port: number }).port; }

  async call(method: string, params: unknown, opts: CallOptions = {}): Promise<unknown> {
    // The environment is ready before the extension host has started (it starts after the
    // workbench renders); calls made in that first window wait for it instead of failing.
    if (!this.connected && !this.everConnected) await this.firstConnection(this.opts.firstConnectionWaitMs ?? FIRST_CONNECTION_WAIT_MS);
    if (!this.connected) {
      throw new NotAvailableError(`${method}: the IDE extension host is not connected (the IDE is starting or reloading); input.*, capture.* and dom.* still work`);
    }
    try {
      return await this.client!.call(method, params, { ...opts, timeoutMs: opts.timeoutMs ?? extensionCallTimeoutMs(method, params) });
    } catch (err) {
      // The extension host went away mid-call. To the caller that is the IDE being unavailable,
      // not its own connection closing (which is what TargetClosedError means on the host).
      if (err instanceof TargetClosedError) throw new NotAvailableError(`${method}: the IDE extension host disconnected while answering (${err.message})`);
      throw err;
    }
  }

  /** The kiosk window loaded a document after the serving host activated, and `activated` is after that load. */
  private async kioskReloadedFor(activated: number): Promise<boolean> {
    const loadedAt = await this.opts.kioskLoadedAt?.().catch(() => null) ?? null;
    return loadedAt !== null && this.activated < loadedAt && activated >= loadedAt;
  }

  private everConnected = false;
  /** The next extension host to connect is the kiosk window's (it is loading a workbench). */
  private admitNext = true;

  /**
   * The kiosk browser window is loading a workbench (first start, browser or IDE server
   * restart, reopening after a restore): the next extension host to connect is its own and
   * replaces the one serving now.
   */
  kioskWindowLoading(): void {
    this.admitNext = true;
  }

  private activated = 0;
  private current?: WebSocket;

  private firstConnection(timeoutMs: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => { clearTimeout(t); this.off('change', onChange); resolve(); };
      const onChange = () => { if (this.connected) done(); };
      const t = setTimeout(done, timeoutMs);
      this.on('change', onChange);
    });
  }

  private attach(ws: WebSocket): void {
    this.everConnected = true;
    this.current?.close(SUPERSEDED, 'a newer extension host connected');
    this.client?.close();
    this.current = ws;
    const client = new JsonRpcClient(ws, EXTENSION_CALL_TIMEOUT_MS);
    this.client = client;
    this.log('extension connected');
    this.emit('change');
    // A hung or frozen extension host keeps its socket open: without pongs, drop it so ide.*
    // fails fast instead of timing out call by call.
    let silent = 0;
    ws.on('pong', () => { silent = 0; });
    const stopPings = (this.opts.schedulePings ?? everyPingInterval)(() => {
      if (silent >= (this.opts.silentPingsAllowed ?? SILENT_PINGS_ALLOWED)) { this.log(`extension host left ${silent} pings unanswered; dropping its connection`); ws.terminate(); return; }
      silent++;
      ws.ping();
    });
    ws.on('close', () => {
      stopPings();
      if (this.client === client) { this.client = undefined; this.log('extension disconnected'); this.emit('change'); }
    });
  }

  close(): void {
    this.client?.close();
    this.wss.close();
  }
}
