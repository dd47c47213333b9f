// ide.workbench.clear: the workbench emptied in place (unsaved changes reverted, editors,
// groups, terminals and debug sessions closed), so that a checkpoint restore can swap the
// files under it and reopen its own editors without the seconds a workbench reload costs;
// with `layout`, also the layout a fresh workbench has (a recycled environment's next episode
// must not start from the last one's panels, views and focus); with `started`, also what the IDE
// started on demand since (StartedPart), which a fresh one has not.
import * as vscode from 'vscode';
import { ActionFailedError } from '../../../bridge/protocol';
import type { Dispatcher } from '../../../bridge/rpc/dispatcher';

function dirtyDocuments(): vscode.TextDocument[] {
  return vscode.workspace.textDocuments.filter((d) => d.isDirty);
}

function dirtyNames(): string[] {
  const notebooks = vscode.workspace.notebookDocuments.filter((n) => n.isDirty).map((n) => n.uri.fsPath || n.uri.toString());
  return [...dirtyDocuments().map((d) => d.uri.fsPath || d.uri.toString()), ...notebooks];
}

/** Something the IDE starts on demand that a fresh IDE has not: ended by `ide.workbench.clear` with `started`. */
export interface StartedPart {
  readonly name: string;
  /** Ends it if it was started; true when it was. */
  end(): Promise<boolean>;
}

export function registerWorkbench(d: Dispatcher, started: readonly StartedPart[] = []): void {
  d.register('ide.workbench.clear', async ({ revert, layout, started: endStarted }) => {
    const dirty = dirtyNames();
    if (dirty.length && !revert) throw new ActionFailedError(`unsaved changes in ${dirty.join(', ')} (pass revert: true to drop them)`);
    // Revert acts on the active editor: each dirty document is shown, then reverted.
    for (const doc of dirtyDocuments()) {
      await step(`reverting ${doc.uri.fsPath || doc.uri.toString()}`, async () => {
        await vscode.window.showTextDocument(doc, { preview: false, preserveFocus: false });
        await vscode.commands.executeCommand('workbench.action.files.revert');
      });
    }
    for (const nb of vscode.workspace.notebookDocuments.filter((n) => n.isDirty)) {
      await step(`reverting ${nb.uri.fsPath || nb.uri.toString()}`, async () => {
        await vscode.window.showNotebookDocument(nb, { preview: false });
        await vscode.commands.executeCommand('workbench.action.files.revert');
      });
    }
    // Closing a dirty editor would open a modal save prompt and hang the call: refuse instead.
    const left = dirtyNames();
    if (left.length) throw new ActionFailedError(`could not revert ${left.join(', ')}; nothing was closed`);
    const closedTabs = vscode.window.tabGroups.all.reduce((n, g) => n + g.tabs.length, 0);
    await step('closing the editors', () => vscode.commands.executeCommand('workbench.action.closeAllGroups'));
    const terminals = vscode.window.terminals.length;
    for (const t of vscode.window.terminals) t.dispose();
    let debugSessions = 0;
    if (vscode.debug.activeDebugSession) {
      debugSessions = 1;
      await step('stopping the debug session', () => vscode.debug.stopDebugging());
    }
    const ended: string[] = [];
    if (endStarted) for (const p of started) if (await step(`ending the ${p.name}`, () => p.end())) ended.push(p.name);
    if (layout) await freshLayout();
    return { reverted: dirty, closedTabs, terminals, debugSessions, ended };
  });
}

/** One step of the clear, whose failure (the IDE canceling it, say) says which step it was. */
async function step<T>(what: string, run: () => Thenable<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof ActionFailedError) throw err;
    throw new ActionFailedError(`${what}: ${(err as Error).message}`);
  }
}

/**
 * Commands that put the layout back as a fresh workbench has it (images/ide-settings: no
 * panel, no secondary side bar, the Explorer open). Each is harmless where its part is already
 * so; one the workbench does not know (another VS Code version) is skipped, and what stays
 * different is for the caller's check (the recycler's pristine check) to find.
 */
const FRESH_LAYOUT = [
  'workbench.action.closeQuickOpen',
  'workbench.action.exitZenMode',
  'workbench.action.exitFullScreen',
  'notifications.clearAll',
  'notifications.hideList',
  'workbench.action.closePanel',
  'workbench.action.closeAuxiliaryBar',
  'workbench.action.editorLayoutSingle',
  'search.action.clearSearchResults',
  'workbench.view.explorer',
  'workbench.files.action.refreshFilesExplorer',
  'workbench.files.action.collapseExplorerFolders',
  'workbench.action.focusActiveEditorGroup',
];

async function freshLayout(): Promise<void> {
  const known = new Set(await vscode.commands.getCommands(true));
  for (const command of FRESH_LAYOUT) {
    if (known.has(command)) await vscode.commands.executeCommand(command).then(undefined, () => undefined);
  }
}
