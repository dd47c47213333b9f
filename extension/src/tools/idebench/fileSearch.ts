// file_search: fuzzy search of file paths.
import { z } from 'zod';
import { defineTool } from '../toolRegistry';
import type { ToolServices } from '../toolServices';
import { fuzzyScore, listFiles } from '../search';

export function fileSearchTool(s: ToolServices) {
  return defineTool({
    name: 'file_search',
    group: 'idebench',
    effects: 'read',
    description: 'Find files by fuzzy matching of their path (like the IDE\'s Go to File). Best matches first.',
    params: z.object({
      query: z.string().min(1).describe('Part of a file name or path'),
      max_results: z.int().min(1).max(500).default(20),
    }).strict(),
    timeoutMs: 30_000,
    run: async ({ query, max_results }, ctx) => {
      const files = await listFiles(s.paths.root, s.env, ctx.signal);
      const ranked = files.map((f) => ({ f, score: fuzzyScore(f, query) })).filter((x) => x.score > 0).sort((a, b) => b.score - a.score || a.f.localeCompare(b.f));
      if (!ranked.length) return `No file path matches ${JSON.stringify(query)} (${files.length} files searched).`;
      const shown = ranked.slice(0, max_results).map((x) => x.f);
      return `${shown.join('\n')}${ranked.length > shown.length ? `\n[${ranked.length - shown.length} more matches]` : ''}`;
    },
  });
}
