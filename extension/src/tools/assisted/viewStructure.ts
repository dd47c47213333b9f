// view_structure (PwP): the folder tree of the repository (or a part of it) to a depth.
import { join } from 'node:path';
import { z } from 'zod';
import { defineTool } from '../toolRegistry';
import { ToolError } from '../toolError';
import type { FileAccess, ToolServices } from '../toolServices';
import { IGNORED_DIRS } from '../search';

export async function tree(files: FileAccess, dir: string, depth: number, maxEntries: number, showHidden: boolean): Promise<{ lines: string[]; cut: boolean }> {
  const lines: string[] = [];
  let cut = false;
  const walk = async (d: string, level: number, indent: string) => {
    let entries = await files.list(d).catch(() => []);
    entries = entries.filter((e) => (showHidden || !e.name.startsWith('.')) && !(e.isDirectory() && IGNORED_DIRS.includes(e.name)))
      .sort((a, b) => (a.isDirectory() === b.isDirectory() ? a.name.localeCompare(b.name) : a.isDirectory() ? -1 : 1));
    for (const e of entries) {
      if (lines.length >= maxEntries) { cut = true; return; }
      lines.push(`${indent}${e.name}${e.isDirectory() ? '/' : ''}`);
      if (e.isDirectory() && level < depth) await walk(join(d, e.name), level + 1, `${indent}  `);
    }
  };
  await walk(dir, 1, '');
  return { lines, cut };
}

export function viewStructureTool(s: ToolServices) {
  return defineTool({
    name: 'view_structure',
    group: 'assisted',
    effects: 'read',
    description: 'Show the folder structure of the repository (or of path) as an indented tree, folders first, to depth ' +
      'levels. Dependency, cache and build folders are left out.',
    params: z.object({
      path: z.string().default('.'),
      depth: z.int().min(1).max(20).default(3),
      show_hidden: z.boolean().default(false),
      max_entries: z.int().min(1).max(20_000).default(1000),
    }).strict(),
    timeoutMs: 30_000,
    run: async (a) => {
      const abs = s.paths.resolve(a.path, 'path');
      if (!(await s.files.isDirectory(abs))) throw new ToolError(`${a.path} is not a folder`, 'NotADirectory');
      const t = await tree(s.files, abs, a.depth, a.max_entries, a.show_hidden);
      return `${s.paths.display(abs)}/\n${t.lines.map((l) => `  ${l}`).join('\n')}${t.cut ? `\n[stopped after ${a.max_entries} entries; use a deeper path or raise max_entries]` : ''}`;
    },
  });
}
