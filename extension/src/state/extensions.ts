// ide.extensions and ide.extensions.install: installed extensions, what the running IDE has
// loaded, the active themes, and installing a .vsix through the IDE's own command.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import { ActionFailedError, InvalidParamsError } from '../../../bridge/protocol';
import type { Dispatcher } from '../../../bridge/rpc/dispatcher';
import {
  findTheme, manifestId, mergeExtensions, readBuiltinExtensions, readUserExtensions,
  type ExtensionRecord, type InstalledOnDisk, type Manifest, type Running,
} from './extensionsList';

const KIND: Record<vscode.ColorThemeKind, 'light' | 'dark' | 'highContrast' | 'highContrastLight'> = {
  [vscode.ColorThemeKind.Light]: 'light',
  [vscode.ColorThemeKind.Dark]: 'dark',
  [vscode.ColorThemeKind.HighContrast]: 'highContrast',
  [vscode.ColorThemeKind.HighContrastLight]: 'highContrastLight',
};

function isBuiltin(e: vscode.Extension<unknown>): boolean {
  const flag = (e.packageJSON as { isBuiltin?: unknown }).isBuiltin;
  if (typeof flag === 'boolean') return flag;
  return e.extensionPath.startsWith(join(vscode.env.appRoot, 'extensions'));
}

function running(): Running[] {
  return vscode.extensions.all.map((e) => {
    const m = e.packageJSON as Manifest;
    return { id: e.id, version: m.version ?? '0.0.0', displayName: m.displayName ?? null, path: e.extensionPath, active: e.isActive, builtin: isBuiltin(e) };
  });
}

/** The user extensions folder: where this extension is installed, or the bridge's layout. */
function extensionsDir(context: vscode.ExtensionContext): string {
  const parent = dirname(context.extensionPath);
  if (existsSync(join(parent, 'extensions.json'))) return parent;
  return join(process.env.HOME ?? '/home/pwp', 'ide', 'extensions');
}

function readVsixManifest(vsix: string): Promise<Manifest> {
  return new Promise((resolve, reject) => {
    execFile('unzip', ['-p', vsix, 'extension/package.json'], { maxBuffer: 16 * 1024 * 1024 }, (err, stdout) => {
      if (err) return reject(new InvalidParamsError(`params.vsix: ${vsix} is not a readable .vsix (no extension/package.json inside)`));
      try { resolve(JSON.parse(stdout) as Manifest); } catch { reject(new InvalidParamsError(`params.vsix: extension/package.json in ${vsix} is not JSON`)); }
    });
  });
}

function waitForExtension(id: string, version: string | undefined, timeoutMs: number): Promise<boolean> {
  const loaded = () => {
    const e = vscode.extensions.getExtension(id);
    return !!e && (!version || (e.packageJSON as Manifest).version === version);
  };
  if (loaded()) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (v: boolean) => { clearTimeout(timer); sub.dispose(); resolve(v); };
    const sub = vscode.extensions.onDidChange(() => { if (loaded()) done(true); });
    const timer = setTimeout(() => done(loaded()), timeoutMs);
  });
}

function waitUntilUnloaded(ids: readonly string[], timeoutMs: number): Promise<string[]> {
  const loaded = () => ids.filter((id) => vscode.extensions.getExtension(id));
  if (!loaded().length) return Promise.resolve([]);
  return new Promise((resolve) => {
    const done = () => { clearTimeout(timer); sub.dispose(); resolve(loaded()); };
    const sub = vscode.extensions.onDidChange(() => { if (!loaded().length) done(); });
    const timer = setTimeout(done, timeoutMs);
  });
}

export function registerExtensions(d: Dispatcher, context: vscode.ExtensionContext): void {
  // Built-ins ship with the IDE and never change while it runs: read their manifests once,
  // now, so that the first ide.extensions call does not wait for a hundred files.
  const builtins: Promise<InstalledOnDisk[]> = readBuiltinExtensions(join(vscode.env.appRoot, 'extensions'));
  async function list(): Promise<ExtensionRecord[]> {
    const [builtin, user] = await Promise.all([builtins, readUserExtensions(extensionsDir(context))]);
    return mergeExtensions(running(), [...builtin, ...user]);
  }

  d.register('ide.extensions', async ({ kind }) => {
    const all = await list();
    const manifests = vscode.extensions.all.map((e) => ({ id: e.id, manifest: e.packageJSON as Manifest }));
    const wb = vscode.workspace.getConfiguration('workbench');
    const setting = (key: string) => { const v = wb.get<unknown>(key); return typeof v === 'string' && v !== '' ? v : null; };
    return {
      extensions: all.filter((e) => kind === 'all' || (kind === 'builtin') === e.builtin),
      colorTheme: { ...findTheme(manifests, 'themes', setting('colorTheme')), kind: KIND[vscode.window.activeColorTheme.kind] },
      iconTheme: findTheme(manifests, 'iconThemes', setting('iconTheme')),
      productIconTheme: findTheme(manifests, 'productIconThemes', setting('productIconTheme')),
    };
  });

  // A recycled IDE's way back to its start's extensions without a reload: the workbench drops an
  // extension it uninstalls from the running host unless the extension was activated.
  d.register('ide.extensions.uninstall', async ({ keep, timeoutMs }) => {
    const kept = new Set(keep.map((k) => k.toLowerCase()));
    const doomed = (await readUserExtensions(extensionsDir(context))).map((e) => e.id).filter((id) => !kept.has(id.toLowerCase()));
    const uninstalled: string[] = [];
    for (const id of doomed) {
      try {
        await vscode.commands.executeCommand('workbench.extensions.uninstallExtension', id);
        uninstalled.push(id);
      } catch (err) {
        throw new ActionFailedError(`the IDE could not uninstall ${id}: ${(err as Error).message}`);
      }
    }
    return { uninstalled, stillLoaded: await waitUntilUnloaded(uninstalled, timeoutMs) };
  });

  d.register('ide.extensions.install', async ({ vsix, timeoutMs }) => {
    if (!(await stat(vsix).catch(() => undefined))?.isFile()) throw new InvalidParamsError(`params.vsix: no file ${vsix} in the container`);
    const manifest = await readVsixManifest(vsix);
    const id = manifestId(manifest);
    if (!id) throw new InvalidParamsError(`params.vsix: the manifest in ${vsix} has no publisher and name`);
    try {
      await vscode.commands.executeCommand('workbench.extensions.installExtension', vscode.Uri.file(vsix));
    } catch (err) {
      throw new ActionFailedError(`the IDE could not install ${vsix}: ${(err as Error).message}`);
    }
    const loaded = await waitForExtension(id, manifest.version, timeoutMs);
    const record = (await list()).find((e) => e.id.toLowerCase() === id.toLowerCase());
    if (!record) throw new ActionFailedError(`the IDE reported ${id} installed, but it is not in the extensions folder`);
    return { extension: record, loaded };
  });
}
