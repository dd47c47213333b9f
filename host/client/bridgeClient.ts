// A typed client for the bridge protocol: `call('input.key', {keys: 'ctrl+s'})` is checked
// against bridge/protocol at compile time; errors arrive as the typed classes.
import WebSocket from 'ws';
import {
  TargetClosedError, TimeoutError, UnauthorizedError, extensionCallTimeoutMs,
  type MethodName, type ParamsIn, type Result,
} from '../../bridge/protocol';
import { JsonRpcClient, type CallOptions } from '../../bridge/rpc/jsonRpcClient';

export interface ConnectOptions {
  /** Keep retrying a refused connection until this many ms have passed (container starting). */
  retryForMs?: number;
  defaultTimeoutMs?: number;
  /** Stops the retries: rejects with the signal's reason. */
  signal?: AbortSignal;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function openSocket(url: string, token: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers: { authorization: `Bearer ${token}` }, maxPayload: 256 * 1024 * 1024 });
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => {
      ws.terminate();
      reject(res.statusCode === 401 ? new UnauthorizedError() : new TargetClosedError(`bridge answered HTTP ${res.statusCode}`));
    });
    ws.once('error', (err) => reject(new TargetClosedError(`cannot reach the bridge at ${url}: ${err.message}`)));
  });
}

/** How much longer than the bridge the client waits on an ide.* call: the bridge's timeout is the one to see. */
const BRIDGE_MARGIN_MS = 10_000;

export class BridgeClient {
  private constructor(private readonly rpc: JsonRpcClient, readonly url: string, private readonly defaultTimeoutMs: number) {}

  static async connect(url: string, token: string, opts: ConnectOptions = {}): Promise<BridgeClient> {
    const deadline = Date.now() + (opts.retryForMs ?? 0);
    for (;;) {
      opts.signal?.throwIfAborted();
      try {
        const ws = await openSocket(url, token);
        const timeoutMs = opts.defaultTimeoutMs ?? 120_000;
        return new BridgeClient(new JsonRpcClient(ws, timeoutMs), url, timeoutMs);
      } catch (err) {
        if (err instanceof UnauthorizedError || Date.now() >= deadline) {
          if (err instanceof TargetClosedError && opts.retryForMs) throw new TimeoutError(`bridge not reachable within ${opts.retryForMs} ms: ${err.message}`);
          throw err;
        }
        await sleep(50);
      }
    }
  }

  call<M extends MethodName>(method: M, params: ParamsIn<M>, opts?: CallOptions): Promise<Result<M>> {
    return this.rpc.call(method, params, this.withDefaultTimeout(method, params, opts)) as Promise<Result<M>>;
  }

  /** A call that names no timeout waits at least as long as the bridge waits for the extension on it. */
  private withDefaultTimeout(method: string, params: unknown, opts: CallOptions = {}): CallOptions {
    if (opts.timeoutMs !== undefined || !method.startsWith('ide.') || this.defaultTimeoutMs <= 0) return opts;
    const bridge = extensionCallTimeoutMs(method, params);
    return bridge + BRIDGE_MARGIN_MS > this.defaultTimeoutMs ? { ...opts, timeoutMs: bridge + BRIDGE_MARGIN_MS } : opts;
  }

  /** For methods outside the typed protocol (and for testing how the bridge treats them). */
  callUnchecked(method: string, params: unknown, opts?: CallOptions): Promise<unknown> {
    return this.rpc.call(method, params, opts);
  }

  get closed(): boolean { return this.rpc.closed; }
  /** Why the connection closed, once it has (EnvironmentLostError when the backend lost the environment). */
  get closedReason(): Error | undefined { return this.rpc.closedReason; }
  close(): void { this.rpc.close(); }
  onClose(fn: () => void): void { this.rpc.onClose(fn); }
  /** Ends the connection with `err` for every call in flight and after (the environment was lost, say). */
  fail(err: Error): void { this.rpc.abort(err); }

  /** Lets the process exit while this connection is open and idle. */
  unref(): void { this.rpc.unref(); }
}
