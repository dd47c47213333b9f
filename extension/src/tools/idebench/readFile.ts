// read_file: a file's lines with numbers, paged by offset/limit.
import { z } from 'zod';
import { defineTool } from '../toolRegistry';
import type { ToolServices } from '../toolServices';
import { numbered, splitLines } from '../textEdits';

export function readFileTool(s: ToolServices) {
  return defineTool({
    name: 'read_file',
    group: 'idebench',
    effects: 'read',
    description: 'Read a file of the workspace with line numbers. offset is the first line (1-based) and limit the number of ' +
      'lines (default 400); the answer says how to read on when the file is longer.',
    params: z.object({
      target_file: z.string().min(1).describe('Path of the file, relative to the workspace or absolute'),
      offset: z.int().min(1).default(1).describe('First line to read (1-based)'),
      limit: z.int().min(1).max(10_000).default(400).describe('How many lines to read'),
    }).strict(),
    timeoutMs: 20_000,
    run: async ({ target_file, offset, limit }) => {
      const abs = s.paths.resolve(target_file, 'target_file');
      const lines = splitLines(await s.files.readText(abs));
      const name = s.paths.display(abs);
      if (lines.length === 0) return `${name} is empty.`;
      if (offset > lines.length) return `offset ${offset} is past the end of ${name} (${lines.length} lines).`;
      const end = Math.min(lines.length, offset + limit - 1);
      const body = numbered(lines.slice(offset - 1, end), offset);
      const more = end < lines.length ? `\n[showing lines ${offset}-${end} of ${lines.length}; read on with {"target_file": ${JSON.stringify(target_file)}, "offset": ${end + 1}}]` : '';
      return `${name} (lines ${offset}-${end} of ${lines.length}):\n${body}${more}`;
    },
  });
}
