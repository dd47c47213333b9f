// get_diff_patch (PwP): what changed in the workspace since the task started, as a patch.
import { z } from 'zod';
import type { Baseline } from '../baseline';
import { defineTool } from '../toolRegistry';
import type { ToolServices } from '../toolServices';

export function diffPatchTool(s: ToolServices, baseline: Baseline) {
  return defineTool({
    name: 'get_diff_patch',
    group: 'assisted',
    effects: 'read',
    description: 'The changes made to the workspace since the task started (new, edited and deleted files) as a unified ' +
      'diff patch, optionally for some paths only; stat_only gives the per-file summary.',
    params: z.object({ paths: z.array(z.string().min(1)).default([]), stat_only: z.boolean().default(false) }).strict(),
    timeoutMs: 120_000,
    run: async (a) => {
      const paths = a.paths.map((p) => s.paths.display(s.paths.resolve(p, 'paths')));
      const patch = await baseline.diff(paths, a.stat_only);
      return patch.trim() ? patch : 'No changes since the task started.';
    },
  });
}
