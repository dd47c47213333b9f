// file_edit: the computer-use file editor (view, create, str_replace, insert, undo_edit), with
// every change made through the IDE. undo_edit restores the content before the last edit.
import { join } from 'node:path';
import { z } from 'zod';
import { defineTool, IDE_EDIT_TIMEOUT_MS } from '../toolRegistry';
import { ToolError } from '../toolError';
import type { FileAccess, ToolServices } from '../toolServices';
import { insertAfterLine, numbered, replaceUnique, snippet, splitLines } from '../textEdits';

const SKIP_DIRS = new Set(['node_modules', '.git', '__pycache__', '.venv']);

async function listTree(files: FileAccess, dir: string, depth: number, prefix = ''): Promise<string[]> {
  const entries = (await files.list(dir)).filter((e) => !e.name.startsWith('.')).sort((a, b) => a.name.localeCompare(b.name));
  const out: string[] = [];
  for (const e of entries) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory()) {
      out.push(`${rel}/`);
      if (depth > 1 && !SKIP_DIRS.has(e.name)) out.push(...await listTree(files, join(dir, e.name), depth - 1, rel));
    } else out.push(rel);
  }
  return out;
}

export function fileEditTool(s: ToolServices) {
  /** Previous contents per file, newest last (null: the file did not exist). */
  const history = new Map<string, (string | null)[]>();
  const remember = (abs: string, before: string | null) => {
    const h = history.get(abs) ?? [];
    h.push(before);
    if (h.length > 50) h.shift();
    history.set(abs, h);
  };

  return defineTool({
    name: 'file_edit',
    group: 'filebash',
    effects: 'destructive',
    description:
      'View, create and edit files in the workspace (through the IDE, so open editors and local history stay right).\n' +
      '* view: a file with line numbers (view_range [start, end] limits it; end -1 is the last line), or a directory listed two levels deep.\n' +
      '* create: a new file with file_text (refuses to overwrite an existing file).\n' +
      '* str_replace: replace old_str, which must occur exactly once, with new_str.\n' +
      '* insert: insert new_str after line insert_line (0 inserts at the top).\n' +
      '* undo_edit: restore the file as it was before the last edit made with this tool.',
    params: z.object({
      command: z.enum(['view', 'create', 'str_replace', 'insert', 'undo_edit']),
      path: z.string().min(1).describe('File or directory: absolute, or relative to the workspace'),
      view_range: z.array(z.int()).length(2).optional().describe('view: [first line, last line], 1-based; -1 as last means the end'),
      file_text: z.string().optional().describe('create: the content'),
      old_str: z.string().optional().describe('str_replace: the exact text to replace'),
      new_str: z.string().optional().describe('str_replace: the replacement (default empty); insert: the text to insert'),
      insert_line: z.int().min(0).optional().describe('insert: the line after which to insert'),
    }).strict(),
    timeoutMs: IDE_EDIT_TIMEOUT_MS,
    run: async (a) => {
      const abs = s.paths.resolve(a.path, 'path');
      const shown = s.paths.display(abs);
      const need = <T>(v: T | undefined, field: string): T => {
        if (v === undefined) throw new ToolError(`${field} is required for the ${a.command} command`, 'MissingArgument');
        return v;
      };
      switch (a.command) {
        case 'view': {
          if (await s.files.isDirectory(abs)) {
            if (a.view_range) throw new ToolError('view_range cannot be used when path is a directory');
            const items = await listTree(s.files, abs, 2);
            return `Files and directories up to 2 levels deep in ${shown} (hidden items and node_modules excluded):\n${items.join('\n') || '(empty)'}`;
          }
          const lines = splitLines(await s.files.readText(abs));
          let [from, to] = a.view_range ?? [1, lines.length];
          if (to === -1) to = lines.length;
          if (a.view_range) {
            if (from < 1 || from > Math.max(1, lines.length)) throw new ToolError(`view_range: first line ${from} is out of range (the file has ${lines.length} lines)`, 'OutOfRange');
            if (to < from || to > lines.length) throw new ToolError(`view_range: last line ${to} must be between ${from} and ${lines.length}, or -1`, 'OutOfRange');
          }
          return `Here's the result of running \`cat -n\` on ${shown}:\n${numbered(lines.slice(from - 1, to), from)}`;
        }
        case 'create': {
          const content = need(a.file_text, 'file_text');
          if (await s.files.exists(abs)) throw new ToolError(`${shown} already exists; create does not overwrite files (use str_replace, or delete it first)`, 'AlreadyExists');
          await s.files.writeText(abs, content);
          remember(abs, null);
          return `File created successfully at: ${shown}`;
        }
        case 'str_replace': {
          const before = await s.files.readText(abs);
          const r = replaceUnique(before, need(a.old_str, 'old_str'), a.new_str ?? '');
          await s.files.writeText(abs, r.text);
          remember(abs, before);
          return `The file ${shown} has been edited. Here's a snippet of it:\n${snippet(r.text, r.line, 4, 4 + (a.new_str ?? '').split('\n').length)}\nReview the changes and make sure they are as expected.`;
        }
        case 'insert': {
          const before = await s.files.readText(abs);
          const line = need(a.insert_line, 'insert_line');
          const after = insertAfterLine(before, line, need(a.new_str, 'new_str'));
          await s.files.writeText(abs, after);
          remember(abs, before);
          return `The file ${shown} has been edited. Here's a snippet of it:\n${snippet(after, line + 1, 4, 4 + need(a.new_str, 'new_str').split('\n').length)}\nReview the changes and make sure they are as expected.`;
        }
        case 'undo_edit': {
          const h = history.get(abs);
          if (!h?.length) throw new ToolError(`no edit of ${shown} to undo`, 'NothingToUndo');
          const prev = h.pop()!;
          if (prev === null) {
            await s.files.remove(abs);
            return `Undid the creation of ${shown}: the file is removed.`;
          }
          await s.files.writeText(abs, prev);
          return `Last edit to ${shown} undone. The file is now:\n${numbered(splitLines(prev).slice(0, 60))}${splitLines(prev).length > 60 ? '\n…' : ''}`;
        }
      }
    },
  });
}
