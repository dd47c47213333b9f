// list_dir: the entries of one folder with sizes, skipping build and dependency folders.
import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { defineTool } from '../toolRegistry';
import { ToolError } from '../toolError';
import type { ToolServices } from '../toolServices';
import { IGNORED_DIRS } from '../search';

export function listDirTool(s: ToolServices) {
  return defineTool({
    name: 'list_dir',
    group: 'idebench',
    effects: 'read',
    description: `List a folder of the workspace (folders first, with file sizes). Skips ${IGNORED_DIRS.slice(0, 7).join(', ')}.`,
    params: z.object({
      relative_workspace_path: z.string().default('.').describe('Folder to list, relative to the workspace root'),
    }).strict(),
    timeoutMs: 20_000,
    run: async ({ relative_workspace_path }) => {
      const abs = s.paths.resolve(relative_workspace_path, 'relative_workspace_path');
      if (!(await s.files.exists(abs))) throw new ToolError(`no such folder: ${relative_workspace_path}`, 'NotFound');
      if (!(await s.files.isDirectory(abs))) throw new ToolError(`${relative_workspace_path} is a file, not a folder`, 'NotADirectory');
      const entries = (await s.files.list(abs)).filter((e) => !(e.isDirectory() && IGNORED_DIRS.includes(e.name)));
      const rows = await Promise.all(entries.map(async (e) => {
        if (e.isDirectory()) {
          const n = await s.files.list(join(abs, e.name)).then((x) => x.length).catch(() => 0);
          return { dir: true, name: e.name, line: `[dir]  ${e.name}/ (${n} items)` };
        }
        const size = await lstat(join(abs, e.name)).then((st) => st.size).catch(() => 0);
        return { dir: false, name: e.name, line: `[file] ${e.name} (${size} bytes)${e.isSymbolicLink() ? ' [symlink]' : ''}` };
      }));
      rows.sort((a, b) => (a.dir === b.dir ? a.name.localeCompare(b.name) : a.dir ? -1 : 1));
      return `Contents of ${s.paths.display(abs)}:\n${rows.map((r) => r.line).join('\n') || '(empty)'}`;
    },
  });
}
