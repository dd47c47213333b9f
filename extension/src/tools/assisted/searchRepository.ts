// search_repository (PwP): text search over the repository, grouped by file.
import { z } from 'zod';
import { defineTool } from '../toolRegistry';
import type { ToolServices } from '../toolServices';
import { grep } from '../search';

export function searchRepositoryTool(s: ToolServices) {
  return defineTool({
    name: 'search_repository',
    group: 'assisted',
    effects: 'read',
    description: 'Search the repository for a text (or a regular expression with is_regex) and list the matching lines ' +
      'grouped by file. path limits the search to a folder; file_pattern to a glob such as "*.py".',
    params: z.object({
      query: z.string().min(1),
      is_regex: z.boolean().default(false),
      path: z.string().default('.'),
      file_pattern: z.string().optional(),
      case_sensitive: z.boolean().default(false),
      max_results: z.int().min(1).max(5000).default(100),
    }).strict(),
    timeoutMs: 60_000,
    run: async (a, ctx) => {
      const dir = s.paths.display(s.paths.resolve(a.path, 'path'));
      const { matches, more } = await grep({
        root: s.paths.root, env: s.env, signal: ctx.signal, pattern: a.query, fixed: !a.is_regex, caseSensitive: a.case_sensitive,
        include: a.file_pattern ? [a.file_pattern] : [], paths: [dir], maxResults: a.max_results,
      });
      if (!matches.length) return `No results for ${JSON.stringify(a.query)} in ${dir}.`;
      const byFile = new Map<string, string[]>();
      for (const m of matches) byFile.set(m.file, [...(byFile.get(m.file) ?? []), `  ${m.line}: ${m.text.trim()}`]);
      const body = [...byFile].map(([f, ls]) => `${f} (${ls.length})\n${ls.join('\n')}`).join('\n');
      return `${matches.length}${more ? '+' : ''} results in ${byFile.size} files:\n${body}${more ? `\n[more results exist; raise max_results (now ${a.max_results}) or narrow the search]` : ''}`;
    },
  });
}
