// IDE-native navigation: document_symbols, workspace_symbols, go_to_definition, find_references,
// all answered by the IDE's language services (TypeScript built in, Python by pyright).
import * as vscode from 'vscode';
import { z } from 'zod';
import { defineTool } from '../toolRegistry';
import type { ToolServices } from '../toolServices';
import { PositionArgs, describeLocation, documentSymbols, kindName, openDoc, outline, markWarm, patienceFor, positionOf, rel, toLocation, untilAnswer } from './ideDocuments';

const At = {
  file: z.string().min(1),
  line: z.int().min(1).optional().describe(PositionArgs.line),
  column: z.int().min(1).optional().describe(PositionArgs.column),
  symbol: z.string().min(1).optional().describe(PositionArgs.symbol),
};

export function documentSymbolsTool(s: ToolServices) {
  return defineTool({
    name: 'document_symbols',
    group: 'ide',
    effects: 'read',
    description: 'The symbols of a file (classes, functions, methods, variables…) as an outline with line ranges, from the IDE\'s language server.',
    params: z.object({ file: z.string().min(1) }).strict(),
    timeoutMs: 30_000,
    run: async ({ file }, ctx) => {
      const doc = await openDoc(s, file);
      const symbols = await documentSymbols(doc, 15_000, ctx.signal);
      if (!symbols?.length) return `No symbols in ${rel(s, doc.uri)} (language ${doc.languageId}${symbols === undefined ? ': no symbol provider for it' : ''}).`;
      return `${rel(s, doc.uri)}:\n${outline(symbols).join('\n')}`;
    },
  });
}

export function workspaceSymbolsTool(s: ToolServices) {
  return defineTool({
    name: 'workspace_symbols',
    group: 'ide',
    effects: 'read',
    description: 'Find symbols by name across the workspace (the IDE\'s "Go to Symbol in Workspace").',
    params: z.object({ query: z.string().min(1), max_results: z.int().min(1).max(1000).default(50) }).strict(),
    timeoutMs: 30_000,
    run: async ({ query, max_results }, ctx) => {
      const found = await untilAnswer(
        () => vscode.commands.executeCommand<vscode.SymbolInformation[]>('vscode.executeWorkspaceSymbolProvider', query),
        (v) => !v?.length,
        8000,
        ctx.signal,
      );
      const inside = (found ?? []).filter((x) => x.location.uri.scheme === 'file' && x.location.uri.fsPath.startsWith(s.paths.root));
      if (!inside.length) return `No symbol matches ${JSON.stringify(query)}.`;
      const lines = inside.slice(0, max_results).map((x) => `${kindName(x.kind)} ${x.containerName ? `${x.containerName}.` : ''}${x.name}  ${rel(s, x.location.uri)}:${x.location.range.start.line + 1}`);
      return `${lines.join('\n')}${inside.length > max_results ? `\n[${inside.length - max_results} more]` : ''}`;
    },
  });
}

export function goToDefinitionTool(s: ToolServices) {
  return defineTool({
    name: 'go_to_definition',
    group: 'ide',
    effects: 'read',
    description: 'Where the symbol at a position (or the named symbol) is defined, with the defining line. Also opens it in the editor when reveal is true.',
    params: z.object({ ...At, reveal: z.boolean().default(false) }).strict(),
    timeoutMs: 30_000,
    run: async (a, ctx) => {
      const doc = await openDoc(s, a.file);
      const pos = positionOf(doc, a);
      const defs = await untilAnswer(
        () => vscode.commands.executeCommand<(vscode.Location | vscode.LocationLink)[]>('vscode.executeDefinitionProvider', doc.uri, pos),
        (v) => !v?.length,
        patienceFor(doc),
        ctx.signal,
      );
      markWarm(doc, !!defs?.length);
      if (!defs?.length) return `No definition found for the symbol at ${rel(s, doc.uri)}:${pos.line + 1}:${pos.character + 1}.`;
      const locs = defs.map(toLocation);
      if (a.reveal) await vscode.window.showTextDocument(locs[0].uri, { selection: locs[0].range, preview: true });
      return (await Promise.all(locs.map((l) => describeLocation(s, l.uri, l.range)))).join('\n');
    },
  });
}

export function findReferencesTool(s: ToolServices) {
  return defineTool({
    name: 'find_references',
    group: 'ide',
    effects: 'read',
    description: 'Every reference to the symbol at a position (or the named symbol) across the workspace, from the language server.',
    params: z.object({ ...At, include_declaration: z.boolean().default(true), max_results: z.int().min(1).max(5000).default(200) }).strict(),
    timeoutMs: 60_000,
    run: async (a, ctx) => {
      const doc = await openDoc(s, a.file);
      const pos = positionOf(doc, a);
      const refs = await untilAnswer(
        () => vscode.commands.executeCommand<vscode.Location[]>('vscode.executeReferenceProvider', doc.uri, pos),
        (v) => !v?.length,
        patienceFor(doc),
        ctx.signal,
      );
      markWarm(doc, !!refs?.length);
      let list = refs ?? [];
      if (!a.include_declaration) {
        const defs = (await vscode.commands.executeCommand<(vscode.Location | vscode.LocationLink)[]>('vscode.executeDefinitionProvider', doc.uri, pos) ?? []).map(toLocation);
        list = list.filter((r) => !defs.some((d) => d.uri.toString() === r.uri.toString() && d.range.intersection(r.range)));
      }
      if (!list.length) return `No references found for the symbol at ${rel(s, doc.uri)}:${pos.line + 1}:${pos.character + 1}.`;
      const files = new Set(list.map((r) => r.uri.toString()));
      const lines = await Promise.all(list.slice(0, a.max_results).map((r) => describeLocation(s, r.uri, r.range)));
      return `${list.length} references in ${files.size} files:\n${lines.join('\n')}${list.length > a.max_results ? `\n[${list.length - a.max_results} more]` : ''}`;
    },
  });
}
