// write_file: creates or overwrites a file through the IDE.
import { z } from 'zod';
import { defineTool, IDE_EDIT_TIMEOUT_MS } from '../toolRegistry';
import type { ToolServices } from '../toolServices';
import { checkPythonSyntax } from './pythonCheck';

export function writeFileTool(s: ToolServices) {
  return defineTool({
    name: 'write_file',
    group: 'idebench',
    effects: 'destructive',
    description: 'Create a file, or replace a file\'s whole content, with contents (folders are created as needed).',
    params: z.object({ file_path: z.string().min(1), contents: z.string() }).strict(),
    timeoutMs: IDE_EDIT_TIMEOUT_MS,
    run: async ({ file_path, contents }) => {
      const abs = s.paths.resolve(file_path, 'file_path');
      const warning = await checkPythonSyntax(s, abs, contents).then(() => '', (e: Error) => `\nWarning: ${e.message}`);
      const { created } = await s.files.writeText(abs, contents);
      return `${created ? 'Created' : 'Overwrote'} ${s.paths.display(abs)} (${Buffer.byteLength(contents)} bytes).${warning}`;
    },
  });
}
