// open_file and get_diagnostics: show a file in the IDE's editor at a line (what the person
// beside the agent then sees), and the problems the IDE's language services report, after
// waiting for them to catch up with recent edits (the same wait as ide.diagnostics).
import * as vscode from 'vscode';
import { z } from 'zod';
import type { Dispatcher, Session } from '../../../../bridge/rpc/dispatcher';
import type { Result } from '../../../../bridge/protocol';
import { defineTool } from '../toolRegistry';
import { ToolError } from '../toolError';
import type { ToolServices } from '../toolServices';
import { numbered, splitLines } from '../textEdits';
import { openDoc, rel } from './ideDocuments';

export function openFileTool(s: ToolServices) {
  return defineTool({
    name: 'open_file',
    group: 'ide',
    effects: 'write',
    description: 'Open a file in the IDE\'s editor and reveal a line (the cursor goes there), and show the lines around it.',
    params: z.object({
      file: z.string().min(1),
      line: z.int().min(1).default(1),
      column: z.int().min(1).default(1),
      preview: z.boolean().default(false).describe('Open as a preview tab (replaced by the next preview)'),
    }).strict(),
    timeoutMs: 20_000,
    run: async (a) => {
      const doc = await openDoc(s, a.file);
      if (a.line > doc.lineCount) throw new ToolError(`line ${a.line} is past the end of the file (${doc.lineCount} lines)`, 'OutOfRange');
      const pos = new vscode.Position(a.line - 1, Math.min(a.column - 1, doc.lineAt(a.line - 1).text.length));
      await vscode.window.showTextDocument(doc, { selection: new vscode.Range(pos, pos), preview: a.preview, preserveFocus: false });
      const from = Math.max(1, a.line - 5);
      const lines = splitLines(doc.getText()).slice(from - 1, a.line + 5);
      return `Opened ${rel(s, doc.uri)} at line ${a.line}, column ${pos.character + 1}:\n${numbered(lines, from)}`;
    },
  });
}

export function diagnosticsTool(s: ToolServices, d: Dispatcher) {
  const session: Session = { id: -1, state: new Map(), signal: new AbortController().signal };
  return defineTool({
    name: 'get_diagnostics',
    group: 'ide',
    effects: 'read',
    description: 'The problems (errors, warnings…) the IDE\'s language services report, for one file or the whole ' +
      'workspace, after waiting (up to wait_ms) for them to settle following recent edits.',
    params: z.object({
      file: z.string().min(1).optional(),
      severities: z.array(z.enum(['error', 'warning', 'information', 'hint'])).min(1).default(['error', 'warning']),
      wait_ms: z.int().min(0).max(20_000).default(5000),
      max_results: z.int().min(1).max(5000).default(200),
    }).strict(),
    timeoutMs: 30_000,
    run: async (a) => {
      const file = a.file ? s.paths.resolve(a.file, 'file') : undefined;
      const r = await d.call('ide.diagnostics', { file, severities: a.severities, waitMs: a.wait_ms, maxResults: a.max_results }, session) as Result<'ide.diagnostics'>;
      const where = file ? s.paths.display(file) : 'the workspace';
      if (!r.diagnostics.length) return `No ${a.severities.join('/')} problems in ${where}${r.settled ? '' : ' (language services were still busy)'}.`;
      const lines = r.diagnostics.map((x) => `${x.path ? s.paths.display(x.path) : x.uri}:${x.range.start.line}:${x.range.start.column} ${x.severity}${x.source ? ` [${x.source}]` : ''}: ${x.message}`);
      const c = r.counts;
      return `${c.error} errors, ${c.warning} warnings in ${where}${r.settled ? '' : ' (language services were still busy)'}:\n${lines.join('\n')}${r.truncated ? '\n[more not shown]' : ''}`;
    },
  });
}
