// The bridge's live view (noVNC files and its VNC WebSocket) reached through the inspector:
// /env/<id>/view/<file> is fetched from the bridge's /view/<file> with the environment's
// token as a bearer header added here, so the page only ever holds the inspector's token.
// The WebSocket is passed through as bytes after the upgrade (noVNC's subprotocol and all).
import { request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { relayUpgrade } from '../../bridge/common/relayUpgrade';
import type { EnvironmentInfo } from '../deployment/deployment';

export const VIEW_ROUTE = /^\/env\/([0-9a-f]{4,64})\/view\/(.*)$/;

/** Where the bridge answers: its address on the environment's own network. */
function bridgeAddress(info: EnvironmentInfo): { host: string; port: number } {
  const u = new URL(info.bridgeUrl);
  return { host: u.hostname, port: Number(u.port) };
}

/** Headers passed on to the bridge: none of the page's cookies or credentials. */
function forwardHeaders(req: IncomingMessage, info: EnvironmentInfo, upgrade: boolean): Record<string, string> {
  const b = bridgeAddress(info);
  const h: Record<string, string> = { host: `${b.host}:${b.port}`, authorization: `Bearer ${info.token}` };
  const pass = upgrade
    ? ['connection', 'upgrade', 'sec-websocket-key', 'sec-websocket-version', 'sec-websocket-protocol', 'sec-websocket-extensions']
    : ['accept', 'accept-encoding', 'if-none-match', 'if-modified-since', 'range'];
  for (const k of pass) {
    const v = req.headers[k];
    if (typeof v === 'string') h[k] = v;
  }
  return h;
}

export function proxyViewRequest(req: IncomingMessage, res: ServerResponse, info: EnvironmentInfo, rest: string, search: string): void {
  if (req.method !== 'GET' && req.method !== 'HEAD') { res.writeHead(405).end(); return; }
  const up = request({
    ...bridgeAddress(info), method: req.method, path: `/view/${rest}${search}`, headers: forwardHeaders(req, info, false),
  }, (r) => {
    const headers: Record<string, string | string[]> = {};
    for (const [k, v] of Object.entries(r.headers)) if (v !== undefined && k !== 'set-cookie' && k !== 'connection') headers[k] = v;
    res.writeHead(r.statusCode ?? 502, headers);
    r.pipe(res);
  });
  up.on('error', (err) => { if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' }); res.end(`the live view is not reachable: ${err.message}\n`); });
  up.end();
}

export function proxyViewUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer, info: EnvironmentInfo, rest: string): void {
  const up = request({
    ...bridgeAddress(info), method: 'GET', path: `/view/${rest}`, headers: forwardHeaders(req, info, true),
  });
  // A refusal from the bridge (no live view, wrong path) is passed on with its status.
  relayUpgrade(up, socket, head);
}
