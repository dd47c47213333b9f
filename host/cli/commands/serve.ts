// `pwp serve`: the web inspector on 127.0.0.1 (live environments, pair programming,
// trajectories). Prints the URL with its token and runs until interrupted.
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { InspectorServer } from '../../inspector/inspectorServer';
import { docker } from '../context';
import { UsageError, parseIntArg, printJson, progress } from '../output';

export function register(program: Command): void {
  program.command('serve')
    .description('web inspector: live screen, Set-of-Marks, IDE panels, taking control, and a trajectory viewer')
    .option('--port <n>', 'port on 127.0.0.1 (default: any free one)', '0')
    .option('--trajectory <path...>', 'trajectory folder(s) or trajectory.jsonl file(s) to open (no environment needed)')
    .option('--runs <dir...>', 'folders whose trajectories the page lists (default: .pwp/runs)')
    .option('--env <id>', 'print the URL that opens this environment')
    .option('--token <token>', 'the token the page must present (default: a random one; also PWP_INSPECTOR_TOKEN)')
    .option('--all-users', 'show every pwp environment on this machine, not only yours')
    .option('--json', 'print {url} as JSON once serving')
    .action(async (o: { port: string; trajectory?: string[]; runs?: string[]; env?: string; token?: string; json?: boolean; allUsers?: boolean }) => {
      const token = o.token ?? process.env.PWP_INSPECTOR_TOKEN;
      if (token !== undefined && !/^[A-Za-z0-9_-]{16,200}$/.test(token)) throw new UsageError('--token must be 16-200 letters, digits, _ or -');
      let server: InspectorServer;
      try {
        server = await InspectorServer.start({
          deployment: docker(), port: parseIntArg('--port', o.port), token,
          runsRoots: o.runs?.map((r) => resolve(r)), trajectories: o.trajectory, log: progress, allUsers: o.allUsers,
        });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE') throw new UsageError(`port ${o.port} is in use`);
        throw err;
      }
      const url = o.trajectory?.length === 1 ? server.trajectoryUrl(o.trajectory[0]) : o.env ? server.envUrl(o.env) : server.url;
      if (o.json) printJson({ url, token: server.token });
      else {
        console.log(`pwp inspector: ${url}`);
        console.log('  (only this machine can reach it; the token in the URL is the key. Ctrl-C stops it.)');
      }
      await new Promise<void>((done) => {
        const stop = () => { void server.close().finally(done); };
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
    });
}
