// search_replace: exact-text replacement, unique unless replace_all.
import { z } from 'zod';
import { defineTool, IDE_EDIT_TIMEOUT_MS } from '../toolRegistry';
import { ToolError } from '../toolError';
import type { ToolServices } from '../toolServices';
import { occurrences, replaceUnique, snippet } from '../textEdits';
import { checkPythonSyntax } from './pythonCheck';

export function searchReplaceTool(s: ToolServices) {
  return defineTool({
    name: 'search_replace',
    group: 'idebench',
    effects: 'write',
    description: 'Replace old_string with new_string in a file. old_string must match exactly (whitespace included) and ' +
      'once, unless replace_all is true. Python files must still compile afterwards, or nothing is written.',
    params: z.object({
      file_path: z.string().min(1),
      old_string: z.string().min(1),
      new_string: z.string(),
      replace_all: z.boolean().default(false),
    }).strict(),
    timeoutMs: IDE_EDIT_TIMEOUT_MS,
    run: async (a) => {
      const abs = s.paths.resolve(a.file_path, 'file_path');
      const before = await s.files.readText(abs);
      let after: string;
      let line = 1;
      let count = 1;
      if (a.replace_all) {
        count = occurrences(before, a.old_string).length;
        if (!count) throw new ToolError('old_string was not found in the file; nothing was changed', 'NoMatch');
        after = before.split(a.old_string).join(a.new_string);
      } else ({ text: after, line } = replaceUnique(before, a.old_string, a.new_string, 'old_string'));
      await checkPythonSyntax(s, abs, after);
      await s.files.writeText(abs, after);
      return `Replaced ${count} occurrence${count > 1 ? 's' : ''} in ${s.paths.display(abs)}.${a.replace_all ? '' : `\n${snippet(after, line)}`}`;
    },
  });
}
