// get_file_outline (PwP): a file's classes and functions with line ranges, from the IDE.
import { z } from 'zod';
import { defineTool } from '../toolRegistry';
import type { ToolServices } from '../toolServices';
import { documentSymbols, openDoc, outline, rel } from '../ide/ideDocuments';

export function fileOutlineTool(s: ToolServices) {
  return defineTool({
    name: 'get_file_outline',
    group: 'assisted',
    effects: 'read',
    description: 'The outline of a file: its classes, functions, methods and top-level variables with line ranges, as ' +
      'the IDE\'s Outline view shows them.',
    params: z.object({ file: z.string().min(1) }).strict(),
    timeoutMs: 30_000,
    run: async ({ file }, ctx) => {
      const doc = await openDoc(s, file);
      const symbols = await documentSymbols(doc, 15_000, ctx.signal);
      if (!symbols?.length) return `${rel(s, doc.uri)} (${doc.lineCount} lines, ${doc.languageId}): no outline (${symbols === undefined ? 'no language support for it' : 'no symbols'}).`;
      return `${rel(s, doc.uri)} (${doc.lineCount} lines, ${doc.languageId}):\n${outline(symbols).join('\n')}`;
    },
  });
}
