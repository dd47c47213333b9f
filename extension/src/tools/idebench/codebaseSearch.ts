// codebase_search: find the code most relevant to a natural-language query. Offline there is
// no embedding model: this ranks by the query's terms (identifier parts included), weighted by
// how rare each term is, and returns the best regions with context.
import { join } from 'node:path';
import { z } from 'zod';
import { defineTool } from '../toolRegistry';
import type { ToolServices } from '../toolServices';
import { grep, queryTerms } from '../search';
import { numbered, splitLines } from '../textEdits';

export function codebaseSearchTool(s: ToolServices) {
  return defineTool({
    name: 'codebase_search',
    group: 'idebench',
    effects: 'read',
    description: 'Find code relevant to a question or description ("where are passwords hashed"). Ranks regions by the ' +
      'query\'s words and identifier parts (lexical ranking; no embedding model offline) and shows each with context.',
    params: z.object({
      query: z.string().min(1),
      target_directories: z.array(z.string()).optional().describe('Folders to search (default: the whole workspace)'),
      max_results: z.int().min(1).max(50).default(8),
    }).strict(),
    timeoutMs: 60_000,
    run: async (a, ctx) => {
      const terms = queryTerms(a.query);
      if (!terms.length) return 'The query has no searchable words.';
      const paths = (a.target_directories ?? []).map((d) => s.paths.display(s.paths.resolve(d, 'target_directories')));
      const hits = await Promise.all(
        terms.map((t) => grep({ root: s.paths.root, env: s.env, signal: ctx.signal, pattern: t, fixed: true, caseSensitive: false, paths, maxResults: 2000 })),
      );
      // Rare terms weigh more (idf over files); each region is a window of lines around hits.
      const regions = new Map<string, { file: string; line: number; score: number; terms: Set<string> }>();
      hits.forEach(({ matches }, i) => {
        const files = new Set(matches.map((m) => m.file));
        const idf = Math.log(1 + 50 / (1 + files.size));
        for (const m of matches) {
          const key = `${m.file}:${Math.floor((m.line - 1) / 15)}`;
          const r = regions.get(key) ?? { file: m.file, line: m.line, score: 0, terms: new Set<string>() };
          r.score += idf * (r.terms.has(terms[i]) ? 0.3 : 1) * (/\b(def|class|function|interface|type|const|let|var|fn|func)\b/.test(m.text) ? 1.5 : 1);
          r.terms.add(terms[i]);
          r.line = Math.min(r.line, m.line);
          regions.set(key, r);
        }
      });
      const best = [...regions.values()].map((r) => ({ ...r, score: r.score * r.terms.size })).sort((x, y) => y.score - x.score).slice(0, a.max_results);
      if (!best.length) return `Nothing in the workspace matches the terms ${terms.join(', ')}.`;
      const parts = await Promise.all(best.map(async (r) => {
        const lines = splitLines(await s.files.readText(join(s.paths.root, r.file)).catch(() => ''));
        const from = Math.max(1, r.line - 3);
        const to = Math.min(lines.length, r.line + 12);
        return `${r.file}:${from}-${to} (matches: ${[...r.terms].join(', ')})\n${numbered(lines.slice(from - 1, to), from)}`;
      }));
      return parts.join('\n\n');
    },
  });
}
