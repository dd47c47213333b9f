// One JSON-RPC message in, one answer out, for the Env server's methods: the pattern of the
// bridge's dispatcher (bridge/server/dispatcher.ts) over envProtocol's table. Params are
// checked on the way in and results on the way out; errors go out typed (errorToWire).
import type { z } from 'zod';
import {
  InvalidParamsError, InvalidRequestError, MethodNotFoundError, ParseError, PayloadTooLargeError, errorToWire, type WireError,
} from '../../bridge/protocol';
import { envMethods, isEnvMethod, type EnvMethodName, type EnvParams, type EnvResult } from './envProtocol';

export interface RpcResponse { jsonrpc: '2.0'; id: string | number | null; result?: unknown; error?: WireError }
export type EnvHandler<M extends EnvMethodName, C> = (params: EnvParams<M>, client: C) => Promise<EnvResult<M>>;

/** Screenshots travel as base64 inside JSON: a step's answer may be several MB. */
export const MAX_REQUEST_BYTES = 32 * 1024 * 1024;

export class EnvDispatcher<C> {
  private readonly handlers = new Map<string, (p: unknown, c: C) => Promise<unknown>>();

  register<M extends EnvMethodName>(name: M, handler: EnvHandler<M, C>): this {
    this.handlers.set(name, handler as (p: unknown, c: C) => Promise<unknown>);
    return this;
  }

  async handle(raw: string, client: C): Promise<RpcResponse | undefined> {
    let id: string | number | null = null;
    try {
      if (Buffer.byteLength(raw) > MAX_REQUEST_BYTES) throw PayloadTooLargeError.of(Buffer.byteLength(raw), MAX_REQUEST_BYTES);
      let msg: unknown;
      try { msg = JSON.parse(raw); } catch { throw new ParseError('message is not valid JSON'); }
      if (typeof msg !== 'object' || msg === null || Array.isArray(msg)) throw new InvalidRequestError('a request must be a JSON object');
      const req = msg as Record<string, unknown>;
      if (typeof req.id === 'string' || typeof req.id === 'number') id = req.id;
      else if (req.id !== undefined && req.id !== null) throw new InvalidRequestError('id must be a string or a number');
      if (req.jsonrpc !== '2.0') throw new InvalidRequestError('jsonrpc must be "2.0"');
      if (typeof req.method !== 'string') throw new InvalidRequestError('method must be a string');
      const result = await this.call(req.method, req.params ?? {}, client);
      return req.id === undefined ? undefined : { jsonrpc: '2.0', id, result };
    } catch (err) {
      return { jsonrpc: '2.0', id, error: errorToWire(err) };
    }
  }

  async call(method: string, rawParams: unknown, client: C): Promise<unknown> {
    const handler = this.handlers.get(method);
    if (!handler || !isEnvMethod(method)) throw MethodNotFoundError.forMethod(method, [...this.handlers.keys()].sort());
    const params = parse(envMethods[method].params, rawParams, 'params');
    return parse(envMethods[method].result, await handler(params, client), 'result');
  }
}

function parse<T extends z.ZodType>(schema: T, value: unknown, root: string): z.output<T> {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const issues = r.error.issues.map((i) => `${[root, ...i.path].join('.')}: ${i.message}`);
  if (root === 'result') throw new Error(`the server produced an invalid result: ${issues.join('; ')}`);
  throw new InvalidParamsError(issues.join('; '), { issues });
}
