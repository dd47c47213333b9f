// Relays a WebSocket (an HTTP upgrade) to an upstream server: the upstream's own status line and
// headers go back verbatim, then bytes flow both ways until either side closes. A refusal from
// upstream (no upgrade) is passed on with its status. The bridge's /ide/ proxy and the
// inspector's /view/ proxy both use it.
import type { ClientRequest } from 'node:http';
import type { Duplex } from 'node:stream';

/** Sends `up` (a GET with the client's upgrade headers) and splices its socket to `socket`. */
export function relayUpgrade(up: ClientRequest, socket: Duplex, head: Buffer, onError: (err: Error) => void = () => undefined): void {
  up.on('upgrade', (res, upstream, upstreamHead) => {
    const lines = [`HTTP/1.1 ${res.statusCode} ${res.statusMessage}`];
    for (let i = 0; i < res.rawHeaders.length; i += 2) lines.push(`${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}`);
    socket.write(`${lines.join('\r\n')}\r\n\r\n`);
    if (upstreamHead.length) socket.write(upstreamHead);
    if (head.length) upstream.write(head);
    upstream.pipe(socket);
    socket.pipe(upstream);
    const end = () => { upstream.destroy(); socket.destroy(); };
    for (const s of [upstream, socket]) { s.on('error', end); s.on('close', end); }
  });
  up.on('response', (res) => {
    socket.end(`HTTP/1.1 ${res.statusCode} ${res.statusMessage}\r\nConnection: close\r\n\r\n`);
    res.resume();
  });
  up.on('error', (err) => { onError(err); socket.end('HTTP/1.1 502 Bad Gateway\r\nConnection: close\r\n\r\n'); });
  up.end();
}
