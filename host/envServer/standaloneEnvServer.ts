// An Env server on its own port at 127.0.0.1 (no inspector): what pwp run and pwp bench start
// for outside agents (--agent-cmd), and what tests use.
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EnvServer, ENV_PATH, type EnvServerOptions } from './envServer';

export interface StandaloneEnvServer {
  server: EnvServer;
  /** ws://127.0.0.1:PORT/env */
  url: string;
  token: string;
  close(): Promise<void>;
}

export async function startEnvServer(o: Partial<EnvServerOptions> & { port?: number } = {}): Promise<StandaloneEnvServer> {
  const token = o.token ?? randomBytes(24).toString('base64url');
  const server = new EnvServer({ ...o, token });
  const http: Server = createServer((req, res) => {
    if (!server.handleRequest(req, res)) res.writeHead(404).end();
  });
  http.on('upgrade', (req, socket, head) => {
    if (!server.handleUpgrade(req, socket, head)) socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n');
  });
  await new Promise<void>((ok, fail) => { http.once('error', fail); http.listen(o.port ?? 0, '127.0.0.1', () => ok()); });
  const port = (http.address() as AddressInfo).port;
  return {
    server, token, url: `ws://127.0.0.1:${port}${ENV_PATH}`,
    async close() {
      await server.close();
      await new Promise<void>((ok) => http.close(() => ok()));
      http.closeAllConnections();
    },
  };
}
