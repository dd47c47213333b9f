// Who may talk to a pwp server: the one token check and Origin rule shared by the bridge's
// endpoints (RPC, live view, IDE proxy, extension link) and the host's servers (Env server,
// inspector, MCP over HTTP). A token is compared in constant time; browsers always send an
// Origin on a WebSocket handshake and programs send none, so a page from another origin is
// refused whatever token it got hold of.
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

/** A service mounted on a server's port beside its own (live view, IDE proxy, MCP): it checks its own access and returns true when it answered. */
export interface HttpRoute {
  handleRequest(req: IncomingMessage, res: ServerResponse): boolean;
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean;
}

export function tokenMatches(expected: string, given: string | null | undefined): boolean {
  if (!given) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The token a request carries as `Authorization: Bearer …`, if any. */
export function bearerToken(req: IncomingMessage): string | undefined {
  const auth = req.headers.authorization;
  return auth?.startsWith('Bearer ') ? auth.slice(7) : undefined;
}

/** The value of cookie `name`, if the request carries it. */
export function cookieValue(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return undefined;
}

/**
 * A page's request: the token in the URL (`?token=`, the link a person is given; the server
 * then sets the cookie so the token leaves the address bar), as a Bearer header, or in the
 * server's cookie. `fromQuery` says the first, so the caller sets the cookie.
 */
export function pageAuthorized(req: IncomingMessage, token: string, cookieName: string): { ok: boolean; fromQuery: boolean } {
  const query = new URL(req.url ?? '/', 'http://x').searchParams.get('token');
  if (tokenMatches(token, query)) return { ok: true, fromQuery: true };
  if (tokenMatches(token, bearerToken(req))) return { ok: true, fromQuery: false };
  return { ok: tokenMatches(token, cookieValue(req, cookieName)), fromQuery: false };
}

/**
 * A page may open a socket only when it was served by this same server (Origin = the Host it
 * asked for); programs send no Origin.
 */
export function originAllowed(req: IncomingMessage): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  const host = req.headers.host;
  return !!host && (origin === `http://${host}` || origin === `https://${host}`);
}

/** Ends an upgrade with an HTTP error and a JSON-RPC style body. */
export function refuseUpgrade(socket: Duplex, status: string, code: number, message: string): void {
  const body = JSON.stringify({ error: { code, message } });
  socket.end(`HTTP/1.1 ${status}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}
