// Turns one JSON-RPC message into one response, independent of the transport: the
// WebSocket server uses it, and unit tests call it in-process.
import type { z } from 'zod';
import {
  InvalidParamsError, InvalidRequestError, MethodNotFoundError, ParseError, PayloadTooLargeError,
  errorToWire, isMethodName, methods, type MethodName, type Params, type Result, type WireError,
} from '../protocol';

/** Per-connection state that handlers may keep (e.g. the delta baseline). */
export interface Session {
  readonly id: number;
  readonly state: Map<string, unknown>;
  readonly signal: AbortSignal;
}
export type Handler<M extends MethodName> = (params: Params<M>, session: Session) => Promise<Result<M>>;
type AnyHandler = (params: unknown, session: Session) => Promise<unknown>;

export interface RpcResponse { jsonrpc: '2.0'; id: string | number | null; result?: unknown; error?: WireError }

export const MAX_MESSAGE_BYTES = 8 * 1024 * 1024;

export class Dispatcher {
  private readonly handlers = new Map<string, AnyHandler>();

  register<M extends MethodName>(name: M, handler: Handler<M>): this {
    this.handlers.set(name, handler as AnyHandler);
    return this;
  }

  /**
   * Runs `guard` before every method starting with `prefix` (e.g. agent input waits while a
   * person holds control); a guard that throws answers the call with its error.
   */
  addGuard(prefix: string, guard: (method: string, session: Session) => Promise<void>): this {
    this.guards.push({ prefix, guard });
    return this;
  }
  private readonly guards: { prefix: string; guard: (m: string, s: Session) => Promise<void> }[] = [];

  /** Registers a prefix of methods served elsewhere (the extension's `ide.*`). */
  registerFallback(prefix: string, handler: (method: string, params: unknown, session: Session) => Promise<unknown>): this {
    this.fallbacks.push({ prefix, handler });
    return this;
  }
  private readonly fallbacks: { prefix: string; handler: (m: string, p: unknown, s: Session) => Promise<unknown> }[] = [];

  /** Answers one raw message; notifications (no id) get no answer. */
  handle(raw: string, session: Session): Promise<RpcResponse | undefined> {
    return answerMessage(raw, MAX_MESSAGE_BYTES, (method, params) => this.call(method, params, session));
  }

  /**
   * Answers a message with `err` without running it (the server refuses it, e.g. busy);
   * a notification (no id) gets no answer.
   */
  refuse(raw: string, err: Error): RpcResponse | undefined {
    const id = idOf(raw);
    return id === undefined ? undefined : { jsonrpc: '2.0', id, error: errorToWire(err) };
  }

  /** Validates params and result of a known method, or forwards to a fallback. */
  async call(method: string, rawParams: unknown, session: Session): Promise<unknown> {
    const handler = this.handlers.get(method);
    if (handler && isMethodName(method)) {
      const params = parse(methods[method].params, rawParams, 'params');
      for (const g of this.guards) if (method.startsWith(g.prefix)) await g.guard(method, session);
      const result = await handler(params, session);
      return parse(methods[method].result, result, 'result');
    }
    const fallback = this.fallbacks.find((f) => method.startsWith(f.prefix));
    if (fallback) return fallback.handler(method, rawParams, session);
    throw MethodNotFoundError.forMethod(method, [...this.handlers.keys()].sort());
  }
}

/**
 * The JSON-RPC envelope, shared by every server of the project: checks size and shape, runs
 * `call`, and answers with its result or its typed error; notifications get no answer.
 */
export async function answerMessage(raw: string, maxBytes: number, call: (method: string, params: unknown) => Promise<unknown>): Promise<RpcResponse | undefined> {
  let id: string | number | null = null;
  try {
    if (Buffer.byteLength(raw) > maxBytes) {
      id = idOf(raw) ?? null;
      throw PayloadTooLargeError.of(Buffer.byteLength(raw), maxBytes);
    }
    let msg: unknown;
    try { msg = JSON.parse(raw); } catch { throw new ParseError('message is not valid JSON'); }
    if (typeof msg !== 'object' || msg === null || Array.isArray(msg)) throw new InvalidRequestError('a request must be a JSON object');
    const req = msg as Record<string, unknown>;
    if (typeof req.id === 'string' || typeof req.id === 'number') id = req.id;
    else if (req.id !== undefined && req.id !== null) throw new InvalidRequestError('id must be a string or a number');
    if (req.jsonrpc !== '2.0') throw new InvalidRequestError('jsonrpc must be "2.0"');
    if (typeof req.method !== 'string') throw new InvalidRequestError('method must be a string');
    const result = await call(req.method, req.params ?? {});
    return req.id === undefined ? undefined : { jsonrpc: '2.0', id, result };
  } catch (err) {
    return { jsonrpc: '2.0', id, error: errorToWire(err) };
  }
}

/** The id of a request, read from the head of the message without parsing it all (null when unreadable). */
function idOf(raw: string): string | number | null | undefined {
  if (raw.length <= 1 << 20) {
    try {
      const msg = JSON.parse(raw) as { id?: unknown } | null;
      if (typeof msg !== 'object' || msg === null) return null;
      return typeof msg.id === 'string' || typeof msg.id === 'number' ? msg.id : msg.id === undefined ? undefined : null;
    } catch { return null; }
  }
  const m = /"id"\s*:\s*(-?\d+|"[^"\\]{0,100}")/.exec(raw.slice(0, 300));
  if (m) return m[1].startsWith('"') ? m[1].slice(1, -1) : Number(m[1]);
  return /"id"\s*:/.test(raw.slice(0, 300)) ? null : undefined;
}

function parse<T extends z.ZodType>(schema: T, value: unknown, root: string): z.output<T> {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const issues = r.error.issues.map((i) => `${[root, ...i.path].join('.')}: ${i.message}`);
  if (root === 'result') throw new Error(`handler returned an invalid result: ${issues.join('; ')}`);
  throw new InvalidParamsError(issues.join('; '), { issues });
}
