// A model server for tests: speaks the OpenAI chat-completions API (POST /v1/chat/completions)
// and the Anthropic messages API (POST /v1/messages) on 127.0.0.1, and answers each request
// from a script. The script sees the request, so a scripted "model" can read the task and the
// Set-of-Marks listing from the prompt and act on what is really on the screen. Every request
// (headers and body) is kept for the test to check.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Api = 'openai' | 'anthropic';

export interface RecordedRequest {
  api: Api;
  path: string;
  headers: IncomingHttpHeaders;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  /** 0-based, over all requests this server got. */
  n: number;
}

export interface ScriptedReply {
  status?: number;
  headers?: Record<string, string>;
  body: unknown;
}

/** Answers one request; `turn` counts the requests of this API, 0-based. */
export type Script = (req: RecordedRequest, turn: number) => ScriptedReply | Promise<ScriptedReply>;

export class ScriptedModelServer {
  readonly requests: RecordedRequest[] = [];
  private readonly turns: Record<Api, number> = { openai: 0, anthropic: 0 };
  /** Errors thrown by the script (a test fails on them; the client sees a 599). */
  readonly scriptErrors: Error[] = [];

  private constructor(private readonly server: Server, private readonly script: Script) {}

  static async start(script: Script): Promise<ScriptedModelServer> {
    let self: ScriptedModelServer | undefined;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        void self!.handle(req.method ?? 'GET', req.url ?? '/', req.headers, Buffer.concat(chunks).toString('utf8')).then((r) => {
          res.writeHead(r.status ?? 200, { 'content-type': 'application/json', ...r.headers });
          res.end(JSON.stringify(r.body));
        });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    self = new ScriptedModelServer(server, script);
    return self;
  }

  get port(): number { return (this.server.address() as AddressInfo).port; }
  /** For the openai SDK (and OPENAI_BASE_URL). */
  get openaiBaseURL(): string { return `http://127.0.0.1:${this.port}/v1`; }
  /** For the Anthropic SDK (and ANTHROPIC_BASE_URL). */
  get anthropicBaseURL(): string { return `http://127.0.0.1:${this.port}`; }

  private async handle(method: string, url: string, headers: IncomingHttpHeaders, text: string): Promise<ScriptedReply> {
    const path = url.split('?')[0];
    const api: Api | null = method === 'POST' && path === '/v1/chat/completions' ? 'openai' : method === 'POST' && path === '/v1/messages' ? 'anthropic' : null;
    if (!api) return { status: 404, body: { error: { message: `no route ${method} ${path}` } } };
    let body: unknown;
    try { body = JSON.parse(text); } catch { return { status: 400, body: { error: { message: 'body is not JSON' } } }; }
    const req: RecordedRequest = { api, path, headers, body, n: this.requests.length };
    this.requests.push(req);
    try {
      return await this.script(req, this.turns[api]++);
    } catch (err) {
      this.scriptErrors.push(err as Error);
      return { status: 599, body: { error: { message: `script error: ${(err as Error).message}` } } };
    }
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

// ---- replies ----

let seq = 0;
const id = (prefix: string) => `${prefix}_${Date.now().toString(36)}${(seq++).toString(36)}`;

export interface ScriptedCall { name: string; args: unknown }

/** A chat.completion; `args` that are a string go out as written (to script malformed JSON). */
export function openaiReply(o: { text?: string; calls?: ScriptedCall[]; usage?: { in: number; out: number }; model?: string }): ScriptedReply {
  const calls = o.calls ?? [];
  return {
    body: {
      id: id('chatcmpl'), object: 'chat.completion', created: Math.floor(Date.now() / 1000), model: o.model ?? 'scripted-model',
      choices: [{
        index: 0, finish_reason: calls.length ? 'tool_calls' : 'stop', logprobs: null,
        message: {
          role: 'assistant', content: o.text ?? null, refusal: null,
          ...(calls.length ? {
            tool_calls: calls.map((c) => ({ id: id('call'), type: 'function', function: { name: c.name, arguments: typeof c.args === 'string' ? c.args : JSON.stringify(c.args) } })),
          } : {}),
        },
      }],
      usage: { prompt_tokens: o.usage?.in ?? 1000, completion_tokens: o.usage?.out ?? 50, total_tokens: (o.usage?.in ?? 1000) + (o.usage?.out ?? 50) },
    },
  };
}

/** A messages response with text and tool_use blocks. */
export function anthropicReply(o: { text?: string; calls?: ScriptedCall[]; usage?: { in: number; out: number }; model?: string }): ScriptedReply {
  const calls = o.calls ?? [];
  const content: unknown[] = [];
  if (o.text) content.push({ type: 'text', text: o.text, citations: null });
  for (const c of calls) content.push({ type: 'tool_use', id: id('toolu'), name: c.name, input: c.args });
  return {
    body: {
      id: id('msg'), type: 'message', role: 'assistant', model: o.model ?? 'scripted-model', content,
      stop_reason: calls.length ? 'tool_use' : 'end_turn', stop_sequence: null,
      usage: { input_tokens: o.usage?.in ?? 1000, output_tokens: o.usage?.out ?? 50, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    },
  };
}

/** An API error as each provider writes it; retry-after-ms keeps the SDK's backoff short. */
export function errorReply(api: Api, status: number, message = `scripted HTTP ${status}`): ScriptedReply {
  const type = status === 429 ? 'rate_limit_error' : status >= 500 ? 'api_error' : 'invalid_request_error';
  return {
    status,
    headers: { 'retry-after-ms': '50' },
    body: api === 'openai' ? { error: { message, type, param: null, code: null } } : { type: 'error', error: { type, message } },
  };
}

// ---- reading requests ----

/** Every text in the request's messages, in order (tool results included). */
export function requestTexts(req: RecordedRequest): string[] {
  const out: string[] = [];
  const visit = (c: unknown): void => {
    if (typeof c === 'string') { out.push(c); return; }
    if (Array.isArray(c)) { c.forEach(visit); return; }
    if (c && typeof c === 'object') {
      const o = c as Record<string, unknown>;
      if (o.type === 'text' && typeof o.text === 'string') out.push(o.text);
      if (o.type === 'tool_result') visit(o.content);
    }
  };
  for (const m of req.body.messages as { content: unknown }[]) visit(m.content);
  return out;
}

/** The Set-of-Marks listing of the latest observation in the request: [id] [role] [text] lines. */
export function latestMarks(req: RecordedRequest): { id: number; role: string; text: string }[] {
  const texts = requestTexts(req).filter((t) => t.includes('Set-of-Marks elements'));
  const last = texts[texts.length - 1];
  if (!last) return [];
  const listing = last.slice(last.indexOf('Set-of-Marks elements'));
  return listing.split('\n').map((l) => /^\[(\d+)\] \[([^\]]*)\] \[(.*)\]$/.exec(l)).filter((m): m is RegExpExecArray => !!m)
    .map((m) => ({ id: Number(m[1]), role: m[2], text: m[3] }));
}

/** The id of the first mark whose role and text match, or a clear failure naming what was there. */
export function findMark(req: RecordedRequest, role: RegExp, text: RegExp): number {
  const marks = latestMarks(req);
  const m = marks.find((k) => role.test(k.role) && text.test(k.text));
  if (!m) throw new Error(`no mark with role ${role} and text ${text} in the listing (${marks.length} marks: ${marks.slice(0, 60).map((k) => `[${k.id}] [${k.role}] [${k.text}]`).join(' ')})`);
  return m.id;
}

/**
 * A scripted model's patience, as a real model's: the mark when the listing has it; undefined
 * while it has not appeared yet (a file clicked open can take longer than a step's settle on a
 * loaded machine), when the script should wait and look again; findMark's error after `max` waits.
 * `count` is how many waits the script asked for, which the test's step counts add.
 */
export class MarkWaits {
  count = 0;
  constructor(private readonly max = 20) {}

  find(req: RecordedRequest, role: RegExp, text: RegExp): number | undefined {
    try { return findMark(req, role, text); } catch (err) {
      if (this.count >= this.max) throw err;
      this.count++;
      return undefined;
    }
  }
}

/** The tool results (OpenAI tool messages, Anthropic tool_result blocks) of the request's last turn, as text. */
export function lastToolResults(req: RecordedRequest): { text: string; isError: boolean }[] {
  const msgs = req.body.messages as { role: string; content: unknown; tool_call_id?: string }[];
  if (req.api === 'openai') {
    const out: { text: string; isError: boolean }[] = [];
    for (let i = msgs.length - 1; i >= 0 && msgs[i].role !== 'assistant'; i--) {
      if (msgs[i].role === 'tool') {
        const text = typeof msgs[i].content === 'string' ? msgs[i].content as string : JSON.stringify(msgs[i].content);
        out.unshift({ text, isError: text.startsWith('ERROR:') });
      }
    }
    return out;
  }
  const last = msgs[msgs.length - 1];
  if (!Array.isArray(last.content)) return [];
  return (last.content as Record<string, unknown>[]).filter((b) => b.type === 'tool_result').map((b) => ({
    text: Array.isArray(b.content) ? (b.content as Record<string, unknown>[]).filter((c) => c.type === 'text').map((c) => String(c.text)).join('\n') : String(b.content ?? ''),
    isError: b.is_error === true,
  }));
}

/** Images anywhere in the request (user content and tool results). */
export function countRequestImages(req: RecordedRequest): number {
  let n = 0;
  const visit = (c: unknown): void => {
    if (Array.isArray(c)) { c.forEach(visit); return; }
    if (c && typeof c === 'object') {
      const o = c as Record<string, unknown>;
      if (o.type === 'image_url' || o.type === 'image') n++;
      if (o.type === 'tool_result') visit(o.content);
    }
  };
  for (const m of req.body.messages as { content: unknown }[]) visit(m.content);
  return n;
}
