// `pwp serve`: the web inspector on 127.0.0.1 (live environments, pair programming,
// trajectories) and, on the same port, the Env server for programs (ws://HOST:PORT/env,
// JSON-RPC 2.0, bearer token; host/envServer). Prints the URLs with the token and runs until
// interrupted; the environments the Env server opened are removed when it stops.
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { DEFAULT_KEEP, EnvServer, ENV_PATH } from '../../envServer/envServer';
import { InspectorServer } from '../../inspector/inspectorServer';
import { McpHttpRoute, MCP_PATH } from '../../mcp/mcpHttp';
import { deployment } from '../context';
import { UsageError, parseIntArg, printJson, progress } from '../output';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

export function register(program: Command): void {
  program.command('serve')
    .description('web inspector (live screen, Set-of-Marks, IDE panels, taking control, trajectories) and the Env server for programs (/env)')
    .option('--port <n>', 'port (default: any free one)', '0')
    .option('--host <addr>', 'interface for the Env server, e.g. 0.0.0.0 (default 127.0.0.1); every connection still needs the token', '127.0.0.1')
    .option('--max-envs <n>', 'Env server: environments it runs at most', '8')
    .option('--keep <n>', 'Env server: a closed episode\'s environment is recycled for the next one; this many wait idle per image (0: each is removed)', String(DEFAULT_KEEP))
    .option('--grace <seconds>', 'Env server: how long a disconnected client\'s environments are kept (clients may set their own)', '30')
    .option('--trajectory <path...>', 'trajectory folder(s) or trajectory.jsonl file(s) to open (no environment needed)')
    .option('--runs <dir...>', 'folders whose trajectories the page lists (default: .pwp/runs)')
    .option('--env <id>', 'print the URL that opens this environment')
    .option('--token <token>', 'the token the page and Env server clients must present (default: a random one; also PWP_INSPECTOR_TOKEN)')
    .option('--all-users', 'show every pwp environment on this machine, not only yours')
    .option('--json', 'print {url, token, envServer} as JSON once serving')
    .action(async (o: {
      port: string; host: string; maxEnvs: string; keep: string; grace: string; trajectory?: string[]; runs?: string[]; env?: string; token?: string; json?: boolean;
      allUsers?: boolean;
    }) => {
      const token = o.token ?? process.env.PWP_INSPECTOR_TOKEN;
      if (token !== undefined && !/^[A-Za-z0-9_-]{16,200}$/.test(token)) throw new UsageError('--token must be 16-200 letters, digits, _ or -');
      const maxEnvironments = parseIntArg('--max-envs', o.maxEnvs);
      if (maxEnvironments < 1) throw new UsageError('--max-envs must be at least 1');
      const keep = parseIntArg('--keep', o.keep);
      const d = deployment();
      let envServer: EnvServer | undefined;
      let mcp: McpHttpRoute | undefined;
      const routes = [{
        handleRequest: (...a: Parameters<EnvServer['handleRequest']>) => envServer?.handleRequest(...a) || mcp?.handleRequest(...a) || false,
        handleUpgrade: (...a: Parameters<EnvServer['handleUpgrade']>) => envServer?.handleUpgrade(...a) ?? false,
      }];
      let server: InspectorServer;
      try {
        server = await InspectorServer.start({
          deployment: d, port: parseIntArg('--port', o.port), token, host: o.host, routes,
          runsRoots: o.runs?.map((r) => resolve(r)), trajectories: o.trajectory, log: progress, allUsers: o.allUsers,
        });
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'EADDRINUSE') throw new UsageError(`port ${o.port} is in use`);
        if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') throw new UsageError(`--host ${o.host} is not an interface of this machine`);
        throw err;
      }
      envServer = new EnvServer({ token: server.token, deployment: d, maxEnvironments, keep, defaultGraceMs: parseIntArg('--grace', o.grace) * 1000, log: progress });
      mcp = new McpHttpRoute({ token: server.token, deployment: d, log: progress });
      const shownHost = o.host === '0.0.0.0' || o.host === '::' ? '<this machine\'s address>' : o.host.includes(':') ? `[${o.host}]` : o.host;
      const envUrl = `ws://${LOOPBACK.has(o.host) ? '127.0.0.1' : shownHost}:${server.listeningPort}${ENV_PATH}`;
      const url = o.trajectory?.length === 1 ? server.trajectoryUrl(o.trajectory[0]) : o.env ? server.envUrl(o.env) : server.url;
      const mcpUrl = `${envUrl.replace(/^ws/, 'http').replace(/\/env$/, MCP_PATH)}/<environment id>`;
      if (o.json) printJson({ url, token: server.token, envServer: envUrl, schemas: `${envUrl.replace(/^ws/, 'http')}/schemas`, mcp: mcpUrl });
      else {
        console.log(`pwp inspector: ${url}`);
        console.log(`pwp Env server: ${envUrl}  (JSON-RPC 2.0; Authorization: Bearer ${server.token}; schemas at ${envUrl.replace(/^ws/, 'http')}/schemas)`);
        console.log(`pwp MCP (Streamable HTTP): ${mcpUrl}  (same bearer token; attaches to a running environment)`);
        if (LOOPBACK.has(o.host)) console.log('  (only this machine can reach them; the token is the key. Ctrl-C stops it and removes the environments the Env server opened.)');
        else console.log(`  the Env server listens on ${o.host}: other machines can reach it, and every connection must present the token. The inspector pages answer only at 127.0.0.1. Ctrl-C stops it.`);
      }
      await new Promise<void>((done) => {
        const stop = () => { void mcp!.close().then(() => envServer!.close()).then(() => server.close()).finally(done); };
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
    });
}
