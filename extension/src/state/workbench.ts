// ide.workbench.clear: the workbench emptied in place (unsaved changes reverted, editors,
// groups, terminals and debug sessions closed), so that a checkpoint restore can swap the
// files under it and reopen its own editors without the seconds a workbench reload costs.
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

export function registerWorkbench(d: Dispatcher): void {
  d.register('ide.workbench.clear', async ({ revert }) => {
    const dirty = dirtyNames();
    if (dirty.length && !revert) throw new ActionFailedError(`unsaved changes in ${dirty.join(', ')} (pass revert: true to drop them)`);
    // Revert acts on the active editor: each dirty document is shown, then reverted.
    for (const doc of dirtyDocuments()) {
      await vscode.window.showTextDocument(doc, { preview: false, preserveFocus: false });
      await vscode.commands.executeCommand('workbench.action.files.revert');
    }
    for (const nb of vscode.workspace.notebookDocuments.filter((n) => n.isDirty)) {
      await vscode.window.showNotebookDocument(nb, { preview: false });
      await vscode.commands.executeCommand('workbench.action.files.revert');
    }
    // Closing a dirty editor would open a modal save prompt and hang the call: refuse instead.
    const left = dirtyNames();
    if (left.length) throw new ActionFailedError(`could not revert ${left.join(', ')}; nothing was closed`);
    const closedTabs = vscode.window.tabGroups.all.reduce((n, g) => n + g.tabs.length, 0);
    await vscode.commands.executeCommand('workbench.action.closeAllGroups');
    const terminals = vscode.window.terminals.length;
    for (const t of vscode.window.terminals) t.dispose();
    let debugSessions = 0;
    if (vscode.debug.activeDebugSession) {
      debugSessions = 1;
      await vscode.debug.stopDebugging();
    }
    return { reverted: dirty, closedTabs, terminals, debugSessions };
  });
}
