// edit_file: IDE-Bench's line edits (REPLACE, INSERT, DELETE). A Python file that would no
// longer compile is left untouched and the error is returned.
import { z } from 'zod';
import { defineTool, IDE_EDIT_TIMEOUT_MS } from '../toolRegistry';
import type { ToolServices } from '../toolServices';
import { editLines, snippet } from '../textEdits';
import { checkPythonSyntax } from './pythonCheck';

export function editFileTool(s: ToolServices) {
  return defineTool({
    name: 'edit_file',
    group: 'idebench',
    effects: 'write',
    description: 'Edit a file by lines. REPLACE: lines start_line..end_line become content. INSERT: content goes before ' +
      'start_line (line count + 1 appends). DELETE: lines start_line..end_line are removed. Lines are 1-based and ' +
      'inclusive. For Python files the result must compile, otherwise nothing is written and the error is returned.',
    params: z.object({
      target_file: z.string().min(1),
      operation: z.enum(['REPLACE', 'INSERT', 'DELETE']),
      start_line: z.int().min(1),
      end_line: z.int().min(1).optional().describe('Last line for REPLACE and DELETE (default: start_line)'),
      content: z.string().optional().describe('The new lines for REPLACE and INSERT'),
    }).strict(),
    timeoutMs: IDE_EDIT_TIMEOUT_MS,
    run: async (a) => {
      const abs = s.paths.resolve(a.target_file, 'target_file');
      const before = await s.files.readText(abs);
      const after = editLines(before, a.operation, a.start_line, a.end_line, a.content);
      await checkPythonSyntax(s, abs, after);
      await s.files.writeText(abs, after);
      return `${a.operation} applied to ${s.paths.display(abs)}:\n${snippet(after, a.start_line, 3, 3 + (a.content ?? '').split('\n').length)}`;
    },
  });
}
