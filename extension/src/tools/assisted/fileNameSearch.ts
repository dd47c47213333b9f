// file_name_search (PwP): files whose name matches a glob or contains a text.
import { z } from 'zod';
import { defineTool } from '../toolRegistry';
import type { ToolServices } from '../toolServices';
import { listFiles } from '../search';

/** A shell glob (* ? [..]) as a regular expression over a file name. */
export function globToRegExp(glob: string): RegExp {
  let re = '';
  for (const ch of glob) re += ch === '*' ? '.*' : ch === '?' ? '.' : /[.+^${}()|\\]/.test(ch) ? `\\${ch}` : ch;
  return new RegExp(`^${re}$`, 'i');
}

export function fileNameSearchTool(s: ToolServices) {
  return defineTool({
    name: 'file_name_search',
    group: 'assisted',
    effects: 'read',
    description: 'Find files by name: a glob such as "*.test.ts" or "config.*", or a plain text the name contains ' +
      '(case-insensitive). Returns workspace-relative paths.',
    params: z.object({ name: z.string().min(1), path: z.string().default('.'), max_results: z.int().min(1).max(5000).default(200) }).strict(),
    timeoutMs: 30_000,
    run: async ({ name, path, max_results }, ctx) => {
      const dir = s.paths.display(s.paths.resolve(path, 'path'));
      const files = await listFiles(s.paths.root, s.env, ctx.signal, dir);
      const test = /[*?[]/.test(name) ? ((b: string) => globToRegExp(name).test(b)) : ((b: string) => b.toLowerCase().includes(name.toLowerCase()));
      const found = files.filter((f) => test(f.slice(f.lastIndexOf('/') + 1)));
      if (!found.length) return `No file name matches ${JSON.stringify(name)} (${files.length} files searched).`;
      return `${found.slice(0, max_results).join('\n')}${found.length > max_results ? `\n[${found.length - max_results} more]` : ''}`;
    },
  });
}
