// The command line's own cost: `pwp ls` (load the CLI and ls's modules only, ask the engine,
// print) beside `node -e 0` (what any Node program pays to start), wall time, p50 and p95, in
// the same run. docs/performance.md's target is `pwp ls` at most 300 ms on a quiet machine.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from '../../host/common/paths';
import { pct, timeIt } from './stats';

const run = promisify(execFile);

export async function benchCli(say: (line: string) => void, samples: number): Promise<{ figures: Record<string, number>; rows: [string, string, string, string][] }> {
  say(`cli: pwp ls and node -e 0, ${samples} times each`);
  const pwp = join(REPO_ROOT, 'bin', 'pwp');
  await run(pwp, ['ls']); // the V8 code cache beside the bundle is written on a first run
  // Taken in turns, so that a machine's load drifting during the part weighs on both alike.
  const ls: number[] = [];
  const node: number[] = [];
  for (let i = 0; i < samples; i++) {
    ls.push(...await timeIt(1, () => run(pwp, ['ls'])));
    node.push(...await timeIt(1, () => run(process.execPath, ['-e', '0'])));
  }
  const figures = { pwp_ls_p50_ms: pct(ls, 50), pwp_ls_p95_ms: pct(ls, 95), node_start_p50_ms: pct(node, 50), node_start_p95_ms: pct(node, 95) };
  return {
    figures,
    rows: [[
      'pwp ls p50 / p95 (wall)', `${figures.pwp_ls_p50_ms} / ${figures.pwp_ls_p95_ms} ms`,
      `${figures.node_start_p50_ms} / ${figures.node_start_p95_ms} ms (node -e 0)`, `${(figures.pwp_ls_p50_ms / figures.node_start_p50_ms).toFixed(1)}x node`,
    ]],
  };
}
