// run_tests: runs Python tests through the IDE's Test Explorer (our pytest controller) and
// returns each test's outcome.
import { z } from 'zod';
import { defineTool } from '../toolRegistry';
import type { ToolServices } from '../toolServices';
import type { PytestController } from './pytestController';

export function runTestsTool(s: ToolServices, pytest: PytestController) {
  return defineTool({
    name: 'run_tests',
    group: 'ide',
    effects: 'write',
    description: 'Run Python tests (pytest) through the IDE\'s Test Explorer; results also show in its Test Results view. ' +
      'tests selects node ids ("tests/test_a.py::test_x"), files or folders; none runs all. list_only only discovers.',
    params: z.object({
      tests: z.array(z.string().min(1)).default([]),
      list_only: z.boolean().default(false),
      extra_args: z.array(z.string()).default([]).describe('More pytest arguments, e.g. ["-x"]'),
      timeout_s: z.number().min(1).max(1800).default(600),
    }).strict(),
    timeoutMs: 1_810_000,
    run: async (a, ctx) => {
      const sel = a.tests.map((t) => { const [file, ...rest] = t.split('::'); return [s.paths.display(s.paths.resolve(file, 'tests')), ...rest].join('::'); });
      if (a.list_only) {
        const { nodeIds, errors } = await pytest.discover(ctx.signal);
        return `${nodeIds.length} tests:\n${nodeIds.join('\n')}${errors ? `\nCollection problems:\n${errors}` : ''}`;
      }
      const r = await pytest.run(sel, a.extra_args, ctx.signal, a.timeout_s * 1000);
      const counts = new Map<string, number>();
      for (const o of r.outcomes) counts.set(o.outcome, (counts.get(o.outcome) ?? 0) + 1);
      const summary = [...counts].map(([k, n]) => `${n} ${k}`).join(', ') || 'no tests ran';
      const lines = r.outcomes.map((o) => `${o.outcome.toUpperCase().padEnd(7)} ${o.nodeId}${o.message ? ` - ${o.message}` : ''}`);
      const tail = r.outcomes.some((o) => o.outcome === 'failed' || o.outcome === 'error') || !r.outcomes.length ? `\nOutput (last part):\n${r.output.split('\n').slice(-60).join('\n')}` : '';
      return { isError: r.exitCode === null, content: [{ type: 'text', text: `${summary}${r.exitCode === null ? ' (timed out)' : ''}\n${lines.join('\n')}${tail}` }] };
    },
  });
}
