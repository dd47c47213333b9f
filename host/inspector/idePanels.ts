// The IDE-state panels of the inspector, read over the bridge's ide.* methods and shaped for
// display. Settings that differ from the defaults have no one ide.* call: the keys written in
// the user and workspace settings files are read from the container, then each is asked of
// the IDE (effective value, default, scope), and those equal to their default are dropped.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { parse as parseJsonc } from 'jsonc-parser';
import type { BridgeClient } from '../client/bridgeClient';
import { paths } from '../common/paths';
import type { Panels, SettingRow } from './messages';

const USER_SETTINGS = '/home/pwp/ide/user-data/User/settings.json';
const WORKSPACE_SETTINGS = '/workspace/.vscode/settings.json';

export type FileReader = (path: string) => Promise<string | null>;

let imageSettings: Record<string, unknown> | undefined;
function imageDefaults(): Record<string, unknown> {
  if (!imageSettings) {
    try { imageSettings = parseJsonc(readFileSync(join(paths.images, 'ide', 'settings.json'), 'utf8')) as Record<string, unknown>; } catch { imageSettings = {}; }
  }
  return imageSettings;
}

export async function readEditors(client: BridgeClient): Promise<Panels['editors']> {
  const e = await client.call('ide.editors', { maxTextChars: 0 });
  const a = e.activeEditor;
  return {
    groups: e.groups.map((g) => ({
      viewColumn: g.viewColumn, active: g.active,
      tabs: g.tabs.map((t) => ({ label: t.label, path: t.path, dirty: t.dirty, active: t.active, preview: t.preview })),
    })),
    active: a ? { path: a.path, uri: a.uri, languageId: a.languageId, line: a.cursor.line, column: a.cursor.column, dirty: a.dirty, lineCount: a.lineCount } : null,
  };
}

export async function readDiagnostics(client: BridgeClient): Promise<Panels['diagnostics']> {
  const d = await client.call('ide.diagnostics', { open: 'none', maxResults: 500 });
  const rank: Record<string, number> = { error: 0, warning: 1, information: 2, hint: 3 };
  return {
    counts: d.counts,
    items: d.diagnostics
      .map((x) => ({ path: x.path, uri: x.uri, line: x.range.start.line, column: x.range.start.column, severity: x.severity, message: x.message, source: x.source }))
      .sort((x, y) => rank[x.severity] - rank[y.severity] || (x.path ?? '').localeCompare(y.path ?? '') || x.line - y.line),
  };
}

/** Keys a settings file sets: plain keys, and `[lang]` blocks' keys with their language. */
export function settingsKeys(text: string | null): { key: string; languageId: string | null }[] {
  if (!text) return [];
  const obj = parseJsonc(text, [], { allowTrailingComma: true }) as Record<string, unknown> | undefined;
  if (!obj || typeof obj !== 'object') return [];
  const out: { key: string; languageId: string | null }[] = [];
  for (const [k, v] of Object.entries(obj)) {
    if (/^(\[[^\]]+\])+$/.test(k) && v && typeof v === 'object') {
      for (const lang of k.slice(1, -1).split('][')) for (const sub of Object.keys(v as object)) out.push({ key: sub, languageId: lang });
    } else {
      out.push({ key: k, languageId: null });
    }
  }
  return out;
}

export class SettingsPanel {
  private lastFiles: string | undefined;
  private last: Panels['settings'] | undefined;

  constructor(private readonly client: () => BridgeClient, private readonly readFile: FileReader) {}

  async read(): Promise<Panels['settings']> {
    const [user, workspace] = await Promise.all([this.readFile(USER_SETTINGS), this.readFile(WORKSPACE_SETTINGS)]);
    const files = JSON.stringify([user, workspace]);
    // Settings change only through these files: unchanged files, unchanged panel.
    if (files === this.lastFiles && this.last) return this.last;
    const seen = new Set<string>();
    const keys = [...settingsKeys(user), ...settingsKeys(workspace)].filter((k) => {
      const id = `${k.languageId ?? ''}\u0000${k.key}`;
      if (seen.has(id)) return false;
      seen.add(id);
      return true;
    });
    const image = imageDefaults();
    const rows: SettingRow[] = [];
    await Promise.all(keys.map(async ({ key, languageId }) => {
      const s = await this.client().call('ide.settings.get', { key, ...(languageId ? { languageId } : {}) }).catch(() => null);
      if (!s) return;
      const def = languageId && s.language ? (s.language.defaultValue !== undefined ? s.language.defaultValue : s.defaultValue) : s.defaultValue;
      if (isDeepStrictEqual(s.value, def)) return;
      rows.push({
        key, languageId, value: s.value, defaultValue: def, source: s.source,
        imageDefault: !languageId && s.source === 'user' && key in image && isDeepStrictEqual(image[key], s.userValue),
      });
    }));
    rows.sort((a, b) => Number(a.imageDefault) - Number(b.imageDefault) || a.key.localeCompare(b.key) || (a.languageId ?? '').localeCompare(b.languageId ?? ''));
    this.lastFiles = files;
    this.last = { rows };
    return this.last;
  }
}

export async function readExtensions(client: BridgeClient): Promise<Panels['extensions']> {
  const e = await client.call('ide.extensions', { kind: 'all' });
  return {
    user: e.extensions.filter((x) => !x.builtin).map((x) => ({ id: x.id, version: x.version, displayName: x.displayName, enabled: x.enabled, active: x.active })),
    builtinCount: e.extensions.filter((x) => x.builtin).length,
    colorTheme: e.colorTheme.label ?? e.colorTheme.id,
    iconTheme: e.iconTheme.label ?? e.iconTheme.id,
    productIconTheme: e.productIconTheme.label ?? e.productIconTheme.id,
  };
}

export async function readTimeline(client: BridgeClient, file: string | null): Promise<Panels['timeline']> {
  if (!file) return { file: null, entries: [] };
  const t = await client.call('ide.timeline', { file });
  return { file: t.path ?? file, entries: t.entries.map((e) => ({ id: e.id, time: e.time, label: e.label, source: e.source, size: e.size })).reverse() };
}

export async function readDebug(client: BridgeClient): Promise<Panels['debug']> {
  const d = await client.call('ide.debug', {});
  return {
    breakpoints: d.breakpoints.map((b) => ({
      id: b.id, enabled: b.enabled,
      where: b.kind === 'function' ? `function ${b.functionName}` : b.path ? `${b.path}:${b.line}` : (b.uri ?? b.kind),
      condition: b.condition, hitCondition: b.hitCondition, logMessage: b.logMessage,
    })),
    sessions: d.sessions.map((s) => ({ id: s.id, name: s.name, type: s.type, active: s.id === d.activeSessionId })),
  };
}

export async function readTerminals(client: BridgeClient): Promise<Panels['terminals']> {
  const t = await client.call('ide.terminals', {});
  return {
    terminals: t.terminals.map((x) => ({
      index: x.index, name: x.name, active: x.active, processId: x.processId, cwd: x.cwd,
      running: x.children.map((c) => c.commandLine.join(' ') || c.name),
    })),
  };
}
