// IDE-native refactoring: rename_symbol (through the language server's rename, never a text
// replace), code_actions (list or apply quick fixes and refactorings), organize_imports and
// format_document. Every change is applied as a workspace edit and saved.
import * as vscode from 'vscode';
import { z } from 'zod';
import { defineTool } from '../toolRegistry';
import { ToolError } from '../toolError';
import type { ToolServices } from '../toolServices';
import { PositionArgs, applyAndSave, openDoc, markWarm, patienceFor, positionOf, rel, untilAnswer } from './ideDocuments';

function editSummary(s: ToolServices, edit: vscode.WorkspaceEdit): string {
  return edit.entries().map(([uri, edits]) => `  ${rel(s, uri)}: ${edits.length} edit${edits.length === 1 ? '' : 's'}`).join('\n');
}

export function renameSymbolTool(s: ToolServices) {
  return defineTool({
    name: 'rename_symbol',
    group: 'ide',
    effects: 'write',
    description: 'Rename the symbol at a position (or the named symbol) everywhere it is used, through the language ' +
      'server (imports and references in other files follow; strings and comments do not). Changed files are saved.',
    params: z.object({
      file: z.string().min(1),
      line: z.int().min(1).optional().describe(PositionArgs.line),
      column: z.int().min(1).optional().describe(PositionArgs.column),
      symbol: z.string().min(1).optional().describe(PositionArgs.symbol),
      new_name: z.string().min(1).regex(/^[^\s]+$/, 'must not contain whitespace'),
    }).strict(),
    timeoutMs: 60_000,
    run: async (a, ctx) => {
      const doc = await openDoc(s, a.file);
      const pos = positionOf(doc, a);
      let edit: vscode.WorkspaceEdit | undefined;
      try {
        edit = await untilAnswer(
          () => vscode.commands.executeCommand<vscode.WorkspaceEdit>('vscode.executeDocumentRenameProvider', doc.uri, pos, a.new_name),
          (v) => !v || v.size === 0,
          patienceFor(doc),
          ctx.signal,
        );
        markWarm(doc, !!edit && edit.size > 0);
      } catch (err) {
        throw new ToolError(`the language server cannot rename the symbol at ${rel(s, doc.uri)}:${pos.line + 1}:${pos.character + 1}: ${(err as Error).message}`, 'RenameFailed');
      }
      if (!edit || edit.size === 0) throw new ToolError(`no rename is possible at ${rel(s, doc.uri)}:${pos.line + 1}:${pos.character + 1} (no symbol there, or no language server for ${doc.languageId})`, 'RenameFailed');
      const outside = edit.entries().filter(([u]) => u.scheme !== 'file' || !u.fsPath.startsWith(`${s.paths.root}/`));
      if (outside.length) throw new ToolError(`the rename would change files outside the workspace (${outside.map(([u]) => u.toString()).join(', ')}); nothing was changed`, 'PathOutsideWorkspace');
      const summary = editSummary(s, edit);
      const uris = await applyAndSave(edit);
      return `Renamed to ${a.new_name} in ${uris.length} file(s):\n${summary}`;
    },
  });
}

const ActionArgs = {
  file: z.string().min(1),
  start_line: z.int().min(1),
  end_line: z.int().min(1).optional(),
};

async function actionsAt(s: ToolServices, file: string, start: number, end: number | undefined, kind: string | undefined) {
  const doc = await openDoc(s, file);
  if (start > doc.lineCount) throw new ToolError(`start_line ${start} is past the end of the file (${doc.lineCount} lines)`, 'OutOfRange');
  const last = Math.min(end ?? start, doc.lineCount);
  const range = new vscode.Range(start - 1, 0, last - 1, doc.lineAt(last - 1).text.length);
  const actions = await vscode.commands.executeCommand<(vscode.CodeAction | vscode.Command)[]>('vscode.executeCodeActionProvider', doc.uri, range, kind, 50) ?? [];
  return { doc, actions };
}

async function perform(action: vscode.CodeAction | vscode.Command): Promise<vscode.Uri[]> {
  if ('edit' in action || 'kind' in action || 'diagnostics' in action) {
    const ca = action as vscode.CodeAction;
    const uris = ca.edit ? await applyAndSave(ca.edit) : [];
    if (ca.command) await vscode.commands.executeCommand(ca.command.command, ...(ca.command.arguments ?? []));
    if (ca.command) await vscode.workspace.saveAll(false);
    return uris;
  }
  const cmd = action as vscode.Command;
  await vscode.commands.executeCommand(cmd.command, ...(cmd.arguments ?? []));
  await vscode.workspace.saveAll(false);
  return [];
}

export function codeActionsTool(s: ToolServices) {
  return defineTool({
    name: 'code_actions',
    group: 'ide',
    effects: 'write',
    description: 'Quick fixes and refactorings the IDE offers for a line range (e.g. add a missing import, fix a ' +
      'problem). Without apply, lists them numbered; with apply (the number or the exact title) performs one and saves.',
    params: z.object({
      ...ActionArgs,
      kind: z.string().optional().describe('Only this kind, e.g. "quickfix", "refactor", "source.organizeImports"'),
      apply: z.union([z.int().min(1), z.string().min(1)]).optional(),
    }).strict(),
    timeoutMs: 60_000,
    run: async (a) => {
      const { doc, actions } = await actionsAt(s, a.file, a.start_line, a.end_line, a.kind);
      const title = (x: vscode.CodeAction | vscode.Command) => x.title;
      if (a.apply === undefined) {
        if (!actions.length) return `No code actions for ${rel(s, doc.uri)} lines ${a.start_line}-${a.end_line ?? a.start_line}.`;
        return actions.map((x, i) => `${i + 1}. ${title(x)}${'kind' in x && x.kind ? ` [${x.kind.value}]` : ''}${'isPreferred' in x && x.isPreferred ? ' (preferred)' : ''}`).join('\n');
      }
      const chosen = typeof a.apply === 'number' ? actions[a.apply - 1] : actions.find((x) => title(x) === a.apply);
      if (!chosen) throw new ToolError(`no code action ${JSON.stringify(a.apply)}; available: ${actions.map((x, i) => `${i + 1}. ${title(x)}`).join('; ') || 'none'}`, 'NotFound');
      const uris = await perform(chosen);
      return `Applied "${title(chosen)}"${uris.length ? ` (changed ${uris.map((u) => rel(s, u)).join(', ')})` : ''}.`;
    },
  });
}

export function organizeImportsTool(s: ToolServices) {
  return defineTool({
    name: 'organize_imports',
    group: 'ide',
    effects: 'write',
    description: 'Sort and clean up the imports of a file with the language server\'s "Organize Imports", and save it.',
    params: z.object({ file: z.string().min(1) }).strict(),
    timeoutMs: 60_000,
    run: async ({ file }, ctx) => {
      const doc = await openDoc(s, file);
      const last = doc.lineAt(doc.lineCount - 1);
      const range = new vscode.Range(0, 0, last.lineNumber, last.text.length);
      // The last argument resolves the actions' edits (TypeScript computes them lazily).
      const actions =
        (await untilAnswer(
          () =>
            vscode.commands.executeCommand<vscode.CodeAction[]>(
              'vscode.executeCodeActionProvider',
              doc.uri,
              range,
              vscode.CodeActionKind.SourceOrganizeImports.value,
              10,
            ),
          (v) => !v?.length,
          10_000,
          ctx.signal,
        )) ?? [];
      const action = actions.find((x) => x.kind && vscode.CodeActionKind.SourceOrganizeImports.contains(x.kind)) ?? actions[0];
      if (!action) throw new ToolError(`no "Organize Imports" for ${doc.languageId} files here`, 'NotAvailable');
      const before = doc.getText();
      await perform(action);
      return before === doc.getText() ? `The imports of ${rel(s, doc.uri)} were already organized.` : `Organized the imports of ${rel(s, doc.uri)}.`;
    },
  });
}

export function formatDocumentTool(s: ToolServices) {
  return defineTool({
    name: 'format_document',
    group: 'ide',
    effects: 'write',
    description: 'Format a file with the IDE\'s formatter for its language (Format Document), and save it.',
    params: z.object({ file: z.string().min(1), tab_size: z.int().min(1).max(16).default(4), insert_spaces: z.boolean().default(true) }).strict(),
    timeoutMs: 60_000,
    run: async (a) => {
      const doc = await openDoc(s, a.file);
      const edits = await vscode.commands.executeCommand<vscode.TextEdit[]>('vscode.executeFormatDocumentProvider', doc.uri, {
        tabSize: a.tab_size,
        insertSpaces: a.insert_spaces,
      });
      if (edits === undefined) throw new ToolError(`no formatter for ${doc.languageId} files in the IDE`, 'NotAvailable');
      if (!edits.length) return `${rel(s, doc.uri)} is already formatted.`;
      const edit = new vscode.WorkspaceEdit();
      edit.set(doc.uri, edits);
      await applyAndSave(edit);
      return `Formatted ${rel(s, doc.uri)} (${edits.length} edit${edits.length === 1 ? '' : 's'}).`;
    },
  });
}
