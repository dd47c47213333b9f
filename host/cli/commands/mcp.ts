// `pwp mcp`: an MCP server on stdin/stdout for one environment — attached to a running one
// (--env) or started for the session and removed when the client disconnects. stdout belongs
// to the protocol; progress goes to stderr.
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { connectEnvironment, startEnvironment } from '../../env/running/runningEnvironment';
import { ensureImage } from '../../image/buildImage';
import { paths } from '../../paths';
import { PwpMcpServer, type McpEnvironment } from '../../mcp/mcpServer';
import { TRAJECTORY_FILE } from '../../trajectory/trajectoryFile';
import { docker } from '../context';
import { UsageError, parseIntArg, parseSize, progress } from '../output';

interface McpOptions {
  env?: string; image?: string; workspace?: string; display: string; memory: string; view: boolean; record?: string | false; label?: string[];
}

function parseLabels(items: string[] = []): Record<string, string> {
  return Object.fromEntries(items.map((kv) => {
    const i = kv.indexOf('=');
    if (i < 1) throw new UsageError(`--label must look like key=value, got '${kv}'`);
    return [kv.slice(0, i), kv.slice(i + 1)];
  }));
}

export function register(program: Command): void {
  program.command('mcp')
    .description('serve one environment to an MCP client over stdio (screenshot, Set-of-Marks, input, IDE state, IDE tools, checkpoints)')
    .option('--env <id>', 'attach to this running environment (default: start one, removed when the client disconnects)')
    .option('--image <tag>', 'image for a started environment (default: built from this tree)')
    .option('--workspace <dir>', 'host folder copied to /workspace of a started environment')
    .option('--display <WxH>', 'screen size of a started environment', '1280x800')
    .option('--memory <MiB>', 'memory limit of a started environment', '2048')
    .option('--no-view', 'do not serve the live view from a started environment (no person can watch or take over)')
    .option('--record <dir>', 'trajectory folder for the actions taken (default: .pwp/runs/mcp-<time>-<env>)')
    .option('--no-record', 'record nothing')
    .option('--label <key=value...>', 'extra labels for a started environment')
    .action(async (o: McpOptions) => {
      const labels = parseLabels(o.label);
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      let owned: string | undefined;
      let closing = false;
      const environment = (async (): Promise<McpEnvironment> => {
        const deployment = docker();
        if (o.env) {
          const info = await deployment.get(o.env);
          progress(`pwp mcp: attaching to environment ${info.id}`);
          const { client } = await connectEnvironment(info, 60_000);
          const recordDir = o.record === false ? undefined : resolve(o.record ?? join(paths.state, 'runs', `mcp-${stamp}-${info.id}`));
          return { deployment, info, client, recordDir };
        }
        const image = o.image ?? (await ensureImage({ docker: deployment.docker, progress }));
        const dir = o.record === false ? undefined : resolve(o.record ?? join(paths.state, 'runs', `mcp-${stamp}`));
        progress(`pwp mcp: starting an environment from ${image}`);
        const env = await startEnvironment(deployment, {
          image, workspaceDir: o.workspace ? resolve(o.workspace) : undefined, display: parseSize(o.display),
          memoryMb: parseIntArg('--memory', o.memory), view: o.view,
          labels: { ...labels, 'pwp.mcp': '1', ...(dir ? { 'pwp.trajectory': join(dir, TRAJECTORY_FILE) } : {}) },
        });
        if (closing) {
          // The client left while the environment was starting.
          env.client.close();
          await deployment.remove(env.info.id).catch(() => undefined);
          throw new Error('the client disconnected');
        }
        owned = env.info.id;
        progress(`pwp mcp: environment ${env.info.id} ready in ${(env.startMs / 1000).toFixed(1)} s${env.info.viewUrl ? ` (watch: pwp serve --env ${env.info.id})` : ''}`);
        return { deployment, info: env.info, client: env.client, recordDir: dir };
      })();
      const server = new PwpMcpServer(environment, { log: progress });

      // A client may kill the server a few seconds after closing its stdin (the SDK's does, after
      // 2 s and 4 s): the removal is asked of Docker first, before anything else is shut down.
      async function cleanup(): Promise<void> {
        closing = true;
        const id = owned;
        owned = undefined;
        const removal = id ? docker().remove(id).then(() => progress(`pwp mcp: removed environment ${id}`), (err: Error) => progress(`pwp mcp: could not remove ${id}: ${err.message}`)) : undefined;
        await server.close().catch(() => undefined);
        (await environment.catch(() => null))?.client.close();
        await removal;
      }
      let exiting = false;
      const exit = () => {
        if (exiting) return;
        exiting = true;
        void cleanup().finally(() => process.exit(0));
      };
      process.stdin.once('end', exit);
      process.stdin.once('close', exit);
      for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(sig, exit);
      const transport = new StdioServerTransport();
      transport.onclose = exit;
      await server.connect(transport);
      await environment.catch((err: Error) => progress(`pwp mcp: no environment: ${err.message}`));
      await new Promise(() => undefined); // serve until the client goes away
    });
}
