// The calling side of JSON-RPC 2.0 over one WebSocket: ids, pending calls, timeouts,
// abort signals, typed errors rebuilt from the wire. Used by the host's BridgeClient and by
// the bridge when it forwards ide.* calls to the extension.
import type WebSocket from 'ws';
import { TargetClosedError, TimeoutError, errorFromWire, type WireError } from '../protocol';

export interface CallOptions { timeoutMs?: number; signal?: AbortSignal }

interface Pending { resolve: (v: unknown) => void; reject: (e: Error) => void; timer?: NodeJS.Timeout; method: string }

export class JsonRpcClient {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private closedError?: Error;
  /** An error the server sent for the connection as a whole (id null) before closing it. */
  private connectionError?: Error;

  constructor(private readonly ws: WebSocket, private readonly defaultTimeoutMs = 60_000) {
    ws.on('message', (data) => this.onMessage(data.toString()));
    ws.on('close', (code, reason) => this.failAll(this.connectionError ?? new TargetClosedError(`the connection closed (${code}${reason.length ? `: ${reason.toString()}` : ''})`)));
    ws.on('error', (err) => this.failAll(new TargetClosedError(`the connection failed: ${err.message}`)));
  }

  get closed(): boolean { return this.closedError !== undefined; }
  /** Why the connection closed (the first reason), once it has. */
  get closedReason(): Error | undefined { return this.closedError; }

  call(method: string, params: unknown, opts: CallOptions = {}): Promise<unknown> {
    if (this.closedError) return Promise.reject(this.closedError);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const p: Pending = { resolve, reject, method };
      const timeoutMs = opts.timeoutMs ?? this.defaultTimeoutMs;
      if (timeoutMs > 0) {
        p.timer = setTimeout(() => {
          this.pending.delete(id);
          reject(new TimeoutError(`${method} did not answer within ${timeoutMs} ms`));
        }, timeoutMs);
      }
      if (opts.signal) {
        if (opts.signal.aborted) return reject(new Error(`${method} aborted`));
        opts.signal.addEventListener('abort', () => { this.settle(id); reject(new Error(`${method} aborted`)); }, { once: true });
      }
      this.pending.set(id, p);
      this.ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }), (err) => {
        if (err) { this.settle(id); reject(new TargetClosedError(`could not send ${method}: ${err.message}`)); }
      });
    });
  }

  /** Lets the process exit while the connection is open and idle (a pending call's timer still holds it). */
  unref(): void {
    (this.ws as unknown as { _socket?: { unref(): void } })._socket?.unref();
  }

  close(): void {
    this.ws.close();
    this.failAll(new TargetClosedError('the client closed the connection'));
  }

  /** Calls `fn` once the socket has closed (for whatever reason). */
  onClose(fn: () => void): void {
    if (this.ws.readyState === this.ws.CLOSED) fn();
    else this.ws.once('close', fn);
  }

  /** Ends the connection now, failing the calls in flight and every later one with `err` (a reason known from elsewhere). */
  abort(err: Error): void {
    this.closedError = err;
    this.failAll(err);
    this.ws.terminate();
  }

  private settle(id: number): Pending | undefined {
    const p = this.pending.get(id);
    if (p) { clearTimeout(p.timer); this.pending.delete(id); }
    return p;
  }

  private onMessage(text: string): void {
    let msg: { id?: unknown; result?: unknown; error?: WireError };
    try { msg = JSON.parse(text); } catch { return; }
    if (msg.id === null && msg.error) {
      // No call can be named (e.g. an oversized frame the server never read): the calls in
      // flight fail with this error instead of a bare "connection closed".
      this.connectionError = errorFromWire(msg.error);
      return;
    }
    if (typeof msg.id !== 'number') return;
    const p = this.settle(msg.id);
    if (!p) return;
    if (msg.error) p.reject(errorFromWire(msg.error));
    else p.resolve(msg.result);
  }

  private failAll(err: Error): void {
    this.closedError ??= err;
    for (const id of [...this.pending.keys()]) this.settle(id)?.reject(err);
  }
}
