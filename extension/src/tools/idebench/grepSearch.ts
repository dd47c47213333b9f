// grep_search: regular-expression search over the workspace (ripgrep).
import { z } from 'zod';
import { defineTool } from '../toolRegistry';
import type { ToolServices } from '../toolServices';
import { grep } from '../search';

export function grepSearchTool(s: ToolServices) {
  return defineTool({
    name: 'grep_search',
    group: 'idebench',
    effects: 'read',
    description: 'Search file contents with a regular expression (ripgrep syntax) and get file:line: text matches. ' +
      'include_pattern / exclude_pattern are globs (e.g. "*.py"). Dependency and build folders are skipped.',
    params: z.object({
      query: z.string().min(1).describe('The regular expression'),
      case_sensitive: z.boolean().optional().describe('Default: case-insensitive unless the query has capitals'),
      include_pattern: z.string().optional(),
      exclude_pattern: z.string().optional(),
      max_results: z.int().min(1).max(5000).default(200),
    }).strict(),
    timeoutMs: 60_000,
    run: async (a, ctx) => {
      const { matches, more } = await grep({
        root: s.paths.root, env: s.env, signal: ctx.signal, pattern: a.query, caseSensitive: a.case_sensitive,
        include: a.include_pattern ? [a.include_pattern] : [], exclude: a.exclude_pattern ? [a.exclude_pattern] : [], maxResults: a.max_results,
      });
      if (!matches.length) return `No matches for ${JSON.stringify(a.query)}.`;
      const lines = matches.map((m) => `${m.file}:${m.line}: ${m.text}`);
      return `${matches.length}${more ? '+' : ''} matches:\n${lines.join('\n')}${more ? `\n[more matches exist; narrow the query or raise max_results (now ${a.max_results})]` : ''}`;
    },
  });
}
