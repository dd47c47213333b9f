// delete_file: removes one file through the IDE (editors showing it close).
import { z } from 'zod';
import { defineTool } from '../toolRegistry';
import { ToolError } from '../toolError';
import type { ToolServices } from '../toolServices';

export function deleteFileTool(s: ToolServices) {
  return defineTool({
    name: 'delete_file',
    group: 'idebench',
    effects: 'destructive',
    description: 'Delete a file of the workspace. Folders are refused.',
    params: z.object({ target_file: z.string().min(1) }).strict(),
    timeoutMs: 20_000,
    run: async ({ target_file }) => {
      const abs = s.paths.resolve(target_file, 'target_file');
      if (abs === s.paths.root) throw new ToolError('refusing to delete the workspace root');
      if (!(await s.files.exists(abs))) throw new ToolError(`file not found: ${target_file}`, 'NotFound');
      if (await s.files.isDirectory(abs)) throw new ToolError(`${target_file} is a folder; delete_file deletes files only`, 'IsADirectory');
      await s.files.remove(abs);
      return `Deleted ${s.paths.display(abs)}.`;
    },
  });
}
