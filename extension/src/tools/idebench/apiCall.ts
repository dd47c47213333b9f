// api_call: an HTTP request made from inside the environment, so it reaches servers the agent
// started there (localhost).
import { z } from 'zod';
import { defineTool } from '../toolRegistry';
import { ToolError } from '../toolError';
import type { ToolServices } from '../toolServices';

export function apiCallTool(_s: ToolServices) {
  return defineTool({
    name: 'api_call',
    group: 'idebench',
    effects: 'write',
    openWorld: true,
    description: 'Make an HTTP request from inside the environment (e.g. to a server started in the background on ' +
      'localhost) and get the status, headers and body. json sets a JSON body and content type.',
    params: z.object({
      url: z.string().url(),
      method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']).default('GET'),
      headers: z.record(z.string(), z.string()).default({}),
      body: z.string().optional(),
      json: z.unknown().optional(),
      timeout_s: z.number().min(0.1).max(120).default(30),
    }).strict(),
    timeoutMs: 130_000,
    run: async (a, ctx) => {
      if (!/^https?:$/.test(new URL(a.url).protocol)) throw new ToolError('only http and https URLs are supported', 'InvalidUrl');
      if (a.body !== undefined && a.json !== undefined) throw new ToolError('give body or json, not both', 'InvalidArguments');
      const headers = { ...a.headers };
      let body = a.body;
      if (a.json !== undefined) { body = JSON.stringify(a.json); headers['content-type'] ??= 'application/json'; }
      const started = Date.now();
      let res: Response;
      try {
        res = await fetch(a.url, { method: a.method, headers, body, signal: AbortSignal.any([ctx.signal, AbortSignal.timeout(a.timeout_s * 1000)]), redirect: 'follow' });
      } catch (err) {
        const e = err as Error & { cause?: { code?: string; message?: string } };
        const why = e.name === 'TimeoutError' ? `no answer within ${a.timeout_s} s` : e.cause?.code ?? e.cause?.message ?? e.message;
        throw new ToolError(`request to ${a.url} failed: ${why}`, 'RequestFailed');
      }
      const text = a.method === 'HEAD' ? '' : await res.text();
      const headerList: string[] = [];
      res.headers.forEach((v, k) => headerList.push(`${k}: ${v}`));
      const headerLines = headerList.join('\n');
      let shown = text;
      if ((res.headers.get('content-type') ?? '').includes('json')) { try { shown = JSON.stringify(JSON.parse(text), null, 2); } catch { /* as is */ } }
      return `HTTP ${res.status} ${res.statusText} (${Date.now() - started} ms)\n${headerLines}\n\n${shown}`;
    },
  });
}
