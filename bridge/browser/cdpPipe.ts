// The Chromium DevTools Protocol over the pipe Chromium opens with --remote-debugging-pipe:
// it reads commands on its fd 3 and writes replies and events on its fd 4, one JSON message
// per NUL-terminated record. Unlike --remote-debugging-port, nothing listens: only the process
// holding the pipe (the bridge) can drive the browser, never another user in the container.
import { EventEmitter } from 'node:events';
import type { Readable, Writable } from 'node:stream';
import { NotAvailableError } from '../protocol';

interface Pending { resolve: (v: unknown) => void; reject: (e: Error) => void; method: string }

export interface CdpEvent { method: string; params: unknown; sessionId?: string }

/** Splits a byte stream into NUL-terminated records, keeping a partial one for the next chunk. */
export class NulSplitter {
  private rest: Buffer[] = [];

  push(chunk: Buffer): string[] {
    const out: string[] = [];
    let start = 0;
    for (let i = chunk.indexOf(0); i >= 0; i = chunk.indexOf(0, start)) {
      this.rest.push(chunk.subarray(start, i));
      out.push(Buffer.concat(this.rest).toString('utf8'));
      this.rest = [];
      start = i + 1;
    }
    if (start < chunk.length) this.rest.push(chunk.subarray(start));
    return out;
  }
}

/** One browser connection: commands by id (optionally to an attached target's session), events by name. */
export class CdpPipe extends EventEmitter {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private _closed = false;

  constructor(private readonly toBrowser: Writable, fromBrowser: Readable) {
    super();
    const splitter = new NulSplitter();
    fromBrowser.on('data', (chunk: Buffer) => { for (const m of splitter.push(chunk)) this.receive(m); });
    fromBrowser.on('close', () => this.close('the browser closed its DevTools pipe'));
    fromBrowser.on('error', (err) => this.close(`DevTools pipe: ${err.message}`));
    toBrowser.on('error', (err) => this.close(`DevTools pipe: ${err.message}`));
  }

  get closed(): boolean { return this._closed; }

  send<T = unknown>(method: string, params: object = {}, sessionId?: string): Promise<T> {
    if (this._closed) return Promise.reject(new NotAvailableError(`${method}: the browser's DevTools pipe is closed`));
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject, method });
      this.toBrowser.write(`${JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) })}\0`);
    });
  }

  private receive(text: string): void {
    let msg: { id?: number; result?: unknown; error?: { message?: string }; method?: string; params?: unknown; sessionId?: string };
    try { msg = JSON.parse(text) as typeof msg; } catch { return; }
    if (typeof msg.id === 'number') {
      const p = this.pending.get(msg.id);
      if (!p) return;
      this.pending.delete(msg.id);
      if (msg.error) p.reject(new Error(`${p.method}: ${msg.error.message ?? 'DevTools error'}`));
      else p.resolve(msg.result);
    } else if (msg.method) {
      this.emit('event', { method: msg.method, params: msg.params, sessionId: msg.sessionId } satisfies CdpEvent);
    }
  }

  close(why = 'closed'): void {
    if (this._closed) return;
    this._closed = true;
    for (const p of this.pending.values()) p.reject(new NotAvailableError(`${p.method}: ${why}`));
    this.pending.clear();
    this.emit('close');
    this.toBrowser.end();
  }
}
