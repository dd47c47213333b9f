// list_dir: the entries of one folder with sizes, skipping build and dependency folders.
import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { defineTool } from '../toolRegistry';
import { ToolError } from '../toolError';
import type { ToolServices } from '../toolServices';
import { IGNORED_DIRS } from '../search';

/** Entries one call lists at most (a recursive listing of a large tree stops there). */
const MAX_ENTRIES = 2000;

export function listDirTool(s: ToolServices) {
  return defineTool({
    name: 'list_dir',
    group: 'idebench',
    effects: 'read',
    description: `List a folder of the workspace (folders first, with file sizes); with recursive, its whole tree down to max_depth, at most ${MAX_ENTRIES} entries. Skips ${IGNORED_DIRS.slice(0, 7).join(', ')}.`,
    params: z.object({
      relative_workspace_path: z.string().default('.').describe('Folder to list, relative to the workspace root'),
      recursive: z.boolean().default(false).describe('List sub-folders too, indented under their folder'),
      max_depth: z.int().min(1).max(20).default(5).describe('With recursive: how many levels below the folder to go'),
    }).strict(),
    timeoutMs: 20_000,
    run: async ({ relative_workspace_path, recursive, max_depth }) => {
      const abs = s.paths.resolve(relative_workspace_path, 'relative_workspace_path');
      if (!(await s.files.exists(abs))) throw new ToolError(`no such folder: ${relative_workspace_path}`, 'NotFound');
      if (!(await s.files.isDirectory(abs))) throw new ToolError(`${relative_workspace_path} is a file, not a folder`, 'NotADirectory');
      const lines: string[] = [];
      let cut = false;
      const walk = async (dir: string, depth: number): Promise<void> => {
        const entries = (await s.files.list(dir).catch(() => [])).filter((e) => !(e.isDirectory() && IGNORED_DIRS.includes(e.name)));
        entries.sort((a, b) => (a.isDirectory() === b.isDirectory() ? a.name.localeCompare(b.name) : a.isDirectory() ? -1 : 1));
        const indent = '  '.repeat(depth);
        for (const e of entries) {
          if (lines.length >= MAX_ENTRIES) { cut = true; return; }
          if (e.isDirectory()) {
            const n = await s.files.list(join(dir, e.name)).then((x) => x.length).catch(() => 0);
            lines.push(`${indent}[dir]  ${e.name}/ (${n} items)`);
            // Symbolic links are listed, never followed (no loops, nothing outside the workspace).
            if (recursive && depth + 1 < max_depth) await walk(join(dir, e.name), depth + 1);
          } else {
            const size = await lstat(join(dir, e.name)).then((st) => st.size).catch(() => 0);
            lines.push(`${indent}[file] ${e.name} (${size} bytes)${e.isSymbolicLink() ? ' [symlink]' : ''}`);
          }
        }
      };
      await walk(abs, 0);
      const note = cut ? `\n[stopped at ${MAX_ENTRIES} entries; list a sub-folder to see more]` : '';
      return `Contents of ${s.paths.display(abs)}:\n${lines.join('\n') || '(empty)'}${note}`;
    },
  });
}
