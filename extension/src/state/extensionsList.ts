// Installed extensions as the disk has them (built-ins under the app root, user extensions in
// the extensions folder's extensions.json), merged with what the running extension host has
// loaded, and the theme lookups. No vscode import.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface ExtensionRecord {
  id: string;
  version: string;
  displayName: string | null;
  builtin: boolean;
  enabled: boolean;
  active: boolean;
  path: string | null;
}

export interface Manifest {
  name?: string;
  publisher?: string;
  version?: string;
  displayName?: string;
  contributes?: {
    themes?: { id?: string; label?: string }[];
    iconThemes?: { id?: string; label?: string }[];
    productIconThemes?: { id?: string; label?: string }[];
  };
}

/** A manifest with its %placeholders% resolved from package.nls.json, as the IDE shows it. */
export async function readManifest(dir: string): Promise<Manifest | undefined> {
  let text: string;
  try { text = await readFile(join(dir, 'package.json'), 'utf8'); } catch { return undefined; }
  let nls: Record<string, unknown> = {};
  try { nls = JSON.parse(await readFile(join(dir, 'package.nls.json'), 'utf8')); } catch { /* none */ }
  const resolve = (v: unknown): unknown => {
    if (typeof v === 'string') {
      const m = /^%(.+)%$/.exec(v);
      if (!m) return v;
      const t = nls[m[1]];
      return typeof t === 'string' ? t : typeof t === 'object' && t && typeof (t as { message?: unknown }).message === 'string' ? (t as { message: string }).message : v;
    }
    if (Array.isArray(v)) return v.map(resolve);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, resolve(x)]));
    return v;
  };
  try { return resolve(JSON.parse(text)) as Manifest; } catch { return undefined; }
}

export function manifestId(m: Manifest): string | undefined {
  return m.publisher && m.name ? `${m.publisher}.${m.name}` : undefined;
}

export interface InstalledOnDisk { id: string; version: string; displayName: string | null; path: string; builtin: boolean }

export async function readBuiltinExtensions(builtinDir: string): Promise<InstalledOnDisk[]> {
  let names: string[];
  try { names = await readdir(builtinDir); } catch { return []; }
  const out: InstalledOnDisk[] = [];
  for (const name of names.sort()) {
    const m = await readManifest(join(builtinDir, name));
    const id = m && manifestId(m);
    if (!m || !id) continue;
    out.push({ id, version: m.version ?? '0.0.0', displayName: m.displayName ?? null, path: join(builtinDir, name), builtin: true });
  }
  return out;
}

interface ExtensionsJsonEntry {
  identifier?: { id?: string };
  version?: string;
  location?: { path?: string; fsPath?: string } | string;
  relativeLocation?: string;
}

/** User extensions from <extensions-dir>/extensions.json (the IDE's own list of what is installed). */
export async function readUserExtensions(extensionsDir: string): Promise<InstalledOnDisk[]> {
  let list: ExtensionsJsonEntry[];
  try { list = JSON.parse(await readFile(join(extensionsDir, 'extensions.json'), 'utf8')); } catch { return []; }
  if (!Array.isArray(list)) return [];
  const out: InstalledOnDisk[] = [];
  for (const e of list) {
    const path = e.relativeLocation ? join(extensionsDir, e.relativeLocation)
      : typeof e.location === 'string' ? e.location : e.location?.fsPath ?? e.location?.path;
    const m = path ? await readManifest(path) : undefined;
    const id = (m && manifestId(m)) ?? e.identifier?.id;
    if (!id) continue;
    out.push({ id, version: e.version ?? m?.version ?? '0.0.0', displayName: m?.displayName ?? null, path: path ?? '', builtin: false });
  }
  return out;
}

export interface Running { id: string; version: string; displayName: string | null; path: string; active: boolean; builtin: boolean }

/** Everything installed, marked enabled when the running host has it loaded. Ids compare case-insensitively. */
export function mergeExtensions(running: readonly Running[], onDisk: readonly InstalledOnDisk[]): ExtensionRecord[] {
  const byId = new Map<string, ExtensionRecord>();
  for (const e of onDisk)
    byId.set(e.id.toLowerCase(), {
      id: e.id,
      version: e.version,
      displayName: e.displayName,
      builtin: e.builtin,
      enabled: false,
      active: false,
      path: e.path || null,
    });
  for (const r of running) {
    byId.set(r.id.toLowerCase(), { id: r.id, version: r.version, displayName: r.displayName, builtin: r.builtin, enabled: true, active: r.active, path: r.path });
  }
  return [...byId.values()].sort((a, b) => Number(a.builtin) - Number(b.builtin) || a.id.localeCompare(b.id));
}

export type ThemeKind = 'themes' | 'iconThemes' | 'productIconThemes';

/** The contribution a theme setting names: settings store a theme's `id`, or its `label` when it has none. */
export function findTheme(manifests: readonly { id: string; manifest: Manifest }[], kind: ThemeKind, settingValue: string | null) {
  if (!settingValue) return { id: settingValue, label: null, extensionId: null };
  for (const { id, manifest } of manifests) {
    for (const t of manifest.contributes?.[kind] ?? []) {
      if ((t.id ?? t.label) === settingValue || t.label === settingValue) return { id: settingValue, label: t.label ?? t.id ?? null, extensionId: id };
    }
  }
  return { id: settingValue, label: null, extensionId: null };
}
