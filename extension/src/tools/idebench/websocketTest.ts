// websocket_test: connect to a WebSocket server from inside the environment, send messages,
// and report what comes back.
import WebSocket from 'ws';
import { z } from 'zod';
import { defineTool, text } from '../toolRegistry';
import { ToolError } from '../toolError';

export function websocketTestTool() {
  return defineTool({
    name: 'websocket_test',
    group: 'idebench',
    effects: 'write',
    openWorld: true,
    description: 'Open a WebSocket (ws:// or wss://) from inside the environment, send messages in order, collect what ' +
      'the server sends until wait_ms after the last message, then close. expect_substring fails the test when no ' +
      'received message contains it.',
    params: z.object({
      url: z.string().regex(/^wss?:\/\//, 'must start with ws:// or wss://'),
      messages: z.array(z.string()).default([]),
      headers: z.record(z.string(), z.string()).default({}),
      wait_ms: z.int().min(0).max(60_000).default(1500),
      connect_timeout_ms: z.int().min(100).max(30_000).default(5000),
      expect_substring: z.string().optional(),
    }).strict(),
    timeoutMs: 100_000,
    run: async (a, ctx) => {
      const log: string[] = [];
      const received: string[] = [];
      const t0 = Date.now();
      const at = () => `+${Date.now() - t0}ms`;
      const ws = new WebSocket(a.url, { headers: a.headers, handshakeTimeout: a.connect_timeout_ms });
      const closed = new Promise<void>((resolve) => ws.on('close', (code, reason) => { log.push(`${at()} closed (${code}${reason.length ? ` ${reason}` : ''})`); resolve(); }));
      ws.on('message', (data, isBinary) => {
        const m = isBinary ? `<binary ${(data as Buffer).length} bytes>` : data.toString();
        received.push(m);
        log.push(`${at()} < ${m}`);
      });
      try {
        await new Promise<void>((resolve, reject) => {
          ws.once('open', () => resolve());
          ws.once('error', (e) => reject(e));
          ws.once('unexpected-response', (_req, res) => reject(new Error(`the server answered HTTP ${res.statusCode} instead of upgrading`)));
          ctx.signal.addEventListener('abort', () => reject(new Error('stopped')), { once: true });
        });
      } catch (err) {
        ws.terminate();
        throw new ToolError(`could not connect to ${a.url}: ${(err as Error).message}`, 'ConnectFailed');
      }
      log.unshift(`${at()} connected to ${a.url}`);
      for (const m of a.messages) {
        ws.send(m);
        log.push(`${at()} > ${m}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      await Promise.race([closed, new Promise((r) => setTimeout(r, a.wait_ms))]);
      if (ws.readyState === WebSocket.OPEN) { ws.close(1000); await Promise.race([closed, new Promise((r) => setTimeout(r, 1000))]); }
      const summary = `${received.length} message(s) received.`;
      if (a.expect_substring !== undefined && !received.some((m) => m.includes(a.expect_substring!))) {
        return { isError: true, content: [text(`FAILED: no received message contains ${JSON.stringify(a.expect_substring)}. ${summary}\n${log.join('\n')}`)] };
      }
      return `${a.expect_substring !== undefined ? 'PASSED. ' : ''}${summary}\n${log.join('\n')}`;
    },
  });
}
