// The IDE state an evaluator needs, taken from the agent's environment before it goes and
// handed to the verifier as JSON. What the agent may legitimately change is read from the
// IDE's own files through the container engine (`files`: settings.json of the user and the
// machine, keybindings.json, the installed extensions); nothing in the container can answer
// in their place. Only what the IDE alone knows comes from its ide.* answers: registered
// default values of settings, which extensions are enabled, breakpoints, local history.
// A read that fails is recorded, not fatal: a check on what could not be read fails with
// that reason.
import type { Result } from '../../bridge/protocol';
import type { BridgeClient } from '../client/bridgeClient';
import { checkLeaves, leaves, type Evaluator } from './evaluatorSchema';
import { parseJsonWithComments } from './jsonWithComments';

export interface IdeState {
  capturedAt: string;
  /** ide.settings.get results by `key` or `key@languageId`. */
  settings: Record<string, Result<'ide.settings.get'>>;
  /** The keybindings as the IDE reports them: a record of the run, not graded (files.keybindings is). */
  keybindings?: Result<'ide.keybindings.get'>;
  extensions?: { id: string; version: string; builtin: boolean; enabled: boolean; active: boolean }[];
  colorTheme?: Result<'ide.extensions'>['colorTheme'];
  iconTheme?: Result<'ide.extensions'>['iconTheme'];
  breakpoints?: Result<'ide.debug'>['breakpoints'];
  /** The IDE's files as the container holds them (read through the engine, not the IDE). */
  files?: IdeFiles;
  /** Local history by workspace-relative path. */
  timeline: Record<string, Result<'ide.timeline'>['entries']>;
  /** Calls that failed, as `method: message`. */
  errors: string[];
}

export interface IdeFiles {
  /** Parsed settings.json of the user and of the machine (code-server's remote settings); undefined when there is none. */
  userSettings?: Record<string, unknown>;
  machineSettings?: Record<string, unknown>;
  /** The entries of the user's keybindings.json (undefined when there is none). */
  keybindings?: { key: string; command: string; when?: string }[];
  /** Extensions installed in the extensions folder: listed in extensions.json, not marked obsolete, with a package.json. */
  extensions?: { id: string; version: string }[];
  /**
   * A folder of the user's extensions that declares pwp's own extension id: VS Code lets a
   * user-installed extension of a higher version replace a built-in one, so its code would
   * answer every ide.* call in place of the root-owned built-in.
   */
  shadowsPwpExtension?: string;
  errors: string[];
}

export interface IdeStateNeeds {
  settings: { key: string; languageId?: string }[];
  timeline: string[];
}

export function settingKey(key: string, languageId?: string): string {
  return languageId ? `${key}@${languageId}` : key;
}

/** What the evaluator's IDE checks read (settings and timelines are asked for by name). */
export function ideStateNeeds(evaluator: Evaluator): IdeStateNeeds {
  const needs: IdeStateNeeds = { settings: [], timeline: [] };
  for (const e of leaves(evaluator)) {
    if (e.kind !== 'ide') continue;
    for (const c of checkLeaves(e.checks)) {
      if ('setting' in c) needs.settings.push({ key: c.setting, languageId: c.languageId });
      if ('timeline' in c) needs.timeline.push(c.timeline.file);
      // For their registered defaults, when no settings file names a theme.
      if ('colorTheme' in c) needs.settings.push({ key: 'workbench.colorTheme' });
      if ('iconTheme' in c) needs.settings.push({ key: 'workbench.iconTheme' });
    }
  }
  return needs;
}

export const USER_SETTINGS_FILE = '/home/pwp/ide/user-data/User/settings.json';
export const MACHINE_SETTINGS_FILE = '/home/pwp/ide/user-data/Machine/settings.json';
export const KEYBINDINGS_FILE = '/home/pwp/ide/user-data/User/keybindings.json';
export const EXTENSIONS_DIR = '/home/pwp/ide/extensions';
/** The most of one IDE file grading reads (the agent can make any of them any size). */
export const IDE_FILE_MAX = 16 * 1024 * 1024;
/** The files readIdeFiles reads first, whatever they say. */
export const IDE_FILES = [USER_SETTINGS_FILE, MACHINE_SETTINGS_FILE, KEYBINDINGS_FILE, `${EXTENSIONS_DIR}/extensions.json`, `${EXTENSIONS_DIR}/.obsolete`];
/** The id of pwp's built-in extension (extension/package.json: publisher.name). */
export const PWP_EXTENSION_ID = 'pwp.pwp-ide-bridge';

/** An object (or undefined) from a JSON-with-comments file, its syntax errors recorded. */
function jsonFile(text: string | undefined, name: string, errors: string[]): unknown {
  if (text === undefined) return undefined;
  const parsed = parseJsonWithComments(text);
  if (parsed.error) errors.push(`${name}: ${parsed.error}`);
  return parsed.value;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The IDE's settings, keybindings and installed extensions from its files. */
export async function readIdeFiles(readFile: (path: string) => Promise<Buffer | undefined>, listExtensionFolders?: () => Promise<string[]>): Promise<IdeFiles> {
  const files: IdeFiles = { errors: [] };
  const text = async (p: string) => (await readFile(p))?.toString('utf8');
  const user = jsonFile(await text(USER_SETTINGS_FILE), 'user settings.json', files.errors);
  if (isObject(user)) files.userSettings = user;
  const machine = jsonFile(await text(MACHINE_SETTINGS_FILE), 'machine settings.json', files.errors);
  if (isObject(machine)) files.machineSettings = machine;
  const keys = jsonFile(await text(KEYBINDINGS_FILE), 'keybindings.json', files.errors);
  if (Array.isArray(keys)) {
    files.keybindings = keys.filter(isObject).filter((k) => typeof k.key === 'string' && typeof k.command === 'string')
      .map((k) => ({ key: String(k.key), command: String(k.command), ...(typeof k.when === 'string' ? { when: k.when } : {}) }));
  } else if (keys === undefined) files.keybindings = [];
  const listed = jsonFile(await text(`${EXTENSIONS_DIR}/extensions.json`), 'extensions.json', files.errors);
  const obsolete = jsonFile(await text(`${EXTENSIONS_DIR}/.obsolete`), '.obsolete', files.errors);
  files.extensions = [];
  for (const e of Array.isArray(listed) ? listed.filter(isObject) : []) {
    const loc = typeof e.relativeLocation === 'string' ? e.relativeLocation : '';
    if (!loc || loc.includes('/') || loc.startsWith('.') || (isObject(obsolete) && obsolete[loc])) continue;
    const manifest = jsonFile(await text(`${EXTENSIONS_DIR}/${loc}/package.json`), `${loc}/package.json`, files.errors);
    if (!isObject(manifest) || typeof manifest.publisher !== 'string' || typeof manifest.name !== 'string') continue;
    files.extensions.push({ id: `${manifest.publisher}.${manifest.name}`, version: String(manifest.version ?? '') });
  }
  // Every folder, listed in extensions.json or not: the IDE may pick up an unlisted one.
  for (const folder of (await listExtensionFolders?.()) ?? []) {
    if (!folder || folder.includes('/')) continue;
    const manifest = jsonFile(await text(`${EXTENSIONS_DIR}/${folder}/package.json`), `${folder}/package.json`, []);
    if (isObject(manifest) && `${manifest.publisher}.${manifest.name}`.toLowerCase() === PWP_EXTENSION_ID) {
      files.shadowsPwpExtension = `${EXTENSIONS_DIR}/${folder}`;
    }
  }
  return files;
}

/**
 * Reads the IDE's files (with `readFile`, a read of the environment's files through the
 * engine), and from the IDE: the settings `needs` names (for their registered defaults),
 * extensions and themes, breakpoints, keybindings (recorded, not graded), local history.
 */
export async function captureIdeState(client: BridgeClient, needs: IdeStateNeeds, readFile?: (path: string) => Promise<Buffer | undefined>,
  listExtensionFolders?: () => Promise<string[]>): Promise<IdeState> {
  const state: IdeState = { capturedAt: new Date().toISOString(), settings: {}, timeline: {}, errors: [] };
  const attempt = async <T>(what: string, f: () => Promise<T>): Promise<T | undefined> => {
    try { return await f(); } catch (err) { state.errors.push(`${what}: ${(err as Error).message}`); return undefined; }
  };
  for (const s of needs.settings) {
    const r = await attempt(`ide.settings.get ${settingKey(s.key, s.languageId)}`, () => client.call('ide.settings.get', { key: s.key, languageId: s.languageId }));
    if (r) state.settings[settingKey(s.key, s.languageId)] = r;
  }
  state.keybindings = await attempt('ide.keybindings.get', () => client.call('ide.keybindings.get', {}));
  const ext = await attempt('ide.extensions', () => client.call('ide.extensions', { kind: 'all' }));
  if (ext) {
    state.extensions = ext.extensions.map((e) => ({ id: e.id, version: e.version, builtin: e.builtin, enabled: e.enabled, active: e.active }));
    state.colorTheme = ext.colorTheme;
    state.iconTheme = ext.iconTheme;
  }
  state.breakpoints = (await attempt('ide.debug', () => client.call('ide.debug', {})))?.breakpoints;
  if (readFile) {
    state.files = await attempt('the IDE\'s files', () => readIdeFiles(readFile, listExtensionFolders));
  }
  for (const file of needs.timeline) {
    const t = await attempt(`ide.timeline ${file}`, () => client.call('ide.timeline', { file }));
    if (t) state.timeline[file] = t.entries;
  }
  return state;
}
