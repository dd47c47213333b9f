// ide.settings.get / ide.settings.update through WorkspaceConfiguration, so values, scopes and
// writes are exactly the IDE's.
import * as vscode from 'vscode';
import { ActionFailedError, InvalidParamsError, type Result } from '../../../bridge/protocol';
import type { Dispatcher } from '../../../bridge/rpc/dispatcher';
import { resolveFile } from './resources';
import { settingSource } from './settingsScope';

interface Scope { key: string; languageId?: string; file?: string }

function configScope(s: Scope): vscode.ConfigurationScope | undefined {
  const uri = s.file !== undefined ? resolveFile(s.file) : undefined;
  if (s.languageId) return { uri, languageId: s.languageId };
  return uri;
}

function readSetting(s: Scope): Result<'ide.settings.get'> {
  const config = vscode.workspace.getConfiguration(undefined, configScope(s));
  const i = config.inspect(s.key);
  return {
    key: s.key,
    value: config.get(s.key),
    source: settingSource(i),
    defaultValue: i?.defaultValue,
    userValue: i?.globalValue,
    workspaceValue: i?.workspaceValue,
    workspaceFolderValue: i?.workspaceFolderValue,
    language: s.languageId ? {
      languageId: s.languageId,
      defaultValue: i?.defaultLanguageValue,
      userValue: i?.globalLanguageValue,
      workspaceValue: i?.workspaceLanguageValue,
      workspaceFolderValue: i?.workspaceFolderLanguageValue,
    } : null,
    languageIds: i?.languageIds ?? [],
  };
}

const TARGET = {
  user: vscode.ConfigurationTarget.Global,
  workspace: vscode.ConfigurationTarget.Workspace,
  workspaceFolder: vscode.ConfigurationTarget.WorkspaceFolder,
} as const;

export function registerSettings(d: Dispatcher): void {
  d.register('ide.settings.get', async (p) => readSetting(p));
  d.register('ide.settings.update', async (p) => {
    if (p.target === 'workspaceFolder' && p.file === undefined && !vscode.workspace.workspaceFolders?.length) {
      throw new InvalidParamsError('params.target: workspaceFolder needs an open workspace folder');
    }
    // A workspaceFolder write needs a resource to pick the folder: default to the first one.
    const file = p.file ?? (p.target === 'workspaceFolder' ? vscode.workspace.workspaceFolders![0].uri.toString() : undefined);
    const scope = { key: p.key, languageId: p.languageId, file };
    const config = vscode.workspace.getConfiguration(undefined, configScope(scope));
    try {
      await config.update(p.key, p.value, TARGET[p.target], p.languageId ? true : undefined);
    } catch (err) {
      throw new ActionFailedError(`could not write ${p.key} to ${p.target} settings: ${(err as Error).message}`);
    }
    return readSetting(scope);
  });
}
