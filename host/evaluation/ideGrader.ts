// `ide` evaluators: settings, keybindings, extensions, themes, breakpoints, launch
// configurations and local history, from the IDE state the verifier received. Whatever the
// agent may change is judged from files: the settings.json files (workspace, machine, user,
// with VS Code's precedence), keybindings.json, the extensions folder, launch.json and the
// `launch` settings. An ide.* answer counts only for what the IDE alone knows: a setting's
// registered default when no file sets it, whether an installed extension is enabled,
// breakpoints and local history (see docs/grading-and-security.md for why those can be
// trusted). A forged answer about anything else changes nothing.
import { checkLeaves, type IdeCheck, type IdeEvaluator } from './evaluatorSchema';
import { anyOf, fromChecks, type CheckResult, type EvaluationResult } from './evaluationResult';
import { parseJsonWithComments } from './jsonWithComments';
import { IDE_FILE_MAX, settingKey, type IdeState } from './ideState';
import { match } from './matcher';
import type { Sandbox } from './verifier';

/** Key chords as VS Code compares them: lower case, modifiers in one order. */
export function normalizeKeys(keys: string): string {
  const order = ['ctrl', 'shift', 'alt', 'meta', 'cmd', 'win'];
  return keys.trim().toLowerCase().split(/\s+/).map((chord) => {
    const parts = chord.split('+');
    const key = parts.pop()!;
    return [...parts.sort((a, b) => order.indexOf(a) - order.indexOf(b)), key].join('+');
  }).join(' ');
}

type Json = Record<string, unknown>;
interface SettingFiles { workspace?: Json; machine?: Json; user?: Json }

function fileValue(file: Json | undefined, key: string, languageId?: string): unknown {
  const scope = languageId ? file?.[`[${languageId}]`] : file;
  return scope && typeof scope === 'object' ? (scope as Json)[key] : undefined;
}

/**
 * A setting's value at a scope from the files, in VS Code's order: language-specific values
 * (workspace, machine, user, registered default) before plain ones (workspace, machine,
 * user, registered default); object values merge across the layers, as VS Code merges them
 * (`files.exclude` keeps the default's entries). The defaults come from the IDE.
 */
export function settingFromFiles(
  files: SettingFiles, key: string, languageId: string | undefined, scope: 'effective' | 'user' | 'workspace' | 'workspaceFolder',
  defaults: { value?: unknown; languageValue?: unknown } = {},
): { value: unknown; source: string } {
  const layers: [string, Json | undefined][] = scope === 'effective' ? [['workspace', files.workspace], ['machine', files.machine], ['user', files.user]]
    : scope === 'user' ? [['machine', files.machine], ['user', files.user]] : [['workspace', files.workspace]];
  // Highest precedence first.
  const found: { value: unknown; source: string }[] = [];
  if (languageId) {
    for (const [name, f] of layers) { const v = fileValue(f, key, languageId); if (v !== undefined) found.push({ value: v, source: `${name} settings.json [${languageId}]` }); }
    if (scope === 'effective' && defaults.languageValue !== undefined) found.push({ value: defaults.languageValue, source: `the registered default for ${languageId}` });
  }
  for (const [name, f] of layers) { const v = fileValue(f, key); if (v !== undefined) found.push({ value: v, source: `${name} settings.json` }); }
  if (scope === 'effective' && defaults.value !== undefined) found.push({ value: defaults.value, source: 'the registered default' });
  if (!found.length) return { value: undefined, source: 'no settings file' };
  const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (!isObj(found[0].value)) return found[0];
  const objects = found.filter((f) => isObj(f.value));
  return { value: Object.assign({}, ...objects.reverse().map((f) => f.value as Json)), source: objects.map((f) => f.source).reverse().join(' + ') };
}

function launchConfigurations(files: SettingFiles, launchJson: string | undefined): { configs: unknown[]; problem?: string } {
  const configs: unknown[] = [];
  let problem: string | undefined;
  if (launchJson !== undefined) {
    const parsed = parseJsonWithComments(launchJson);
    if (parsed.error) problem = `.vscode/launch.json is not valid JSON: ${parsed.error}`;
    const list = (parsed.value as { configurations?: unknown })?.configurations;
    if (Array.isArray(list)) configs.push(...list);
  }
  // The `launch` setting of the settings files holds configurations too.
  for (const f of [files.workspace, files.machine, files.user]) {
    const list = (f?.launch as { configurations?: unknown } | undefined)?.configurations;
    if (Array.isArray(list)) configs.push(...list);
  }
  return { configs, problem };
}

function checkOne(c: IdeCheck, state: IdeState | null, launch: { configs: unknown[]; problem?: string }, files: SettingFiles): CheckResult {
  const unread = (what: string) => ({ ok: false, why: `the IDE state has no ${what}${state?.errors.length ? ` (${state.errors.join('; ')})` : ''}` });
  const noFiles = !state?.files;
  if ('setting' in c) {
    const name = `setting ${c.setting}${c.languageId ? ` for ${c.languageId}` : ''}${c.scope !== 'effective' ? ` (${c.scope})` : ''}`;
    if (noFiles) return { name, ...unread("settings files") };
    const ide = state?.settings[settingKey(c.setting, c.languageId)];
    const { value, source } = settingFromFiles(files, c.setting, c.languageId, c.scope, { value: ide?.defaultValue, languageValue: ide?.language?.defaultValue });
    const m = match(value, c.value, c.setting);
    return { name, ok: m.ok, why: m.ok ? `${m.why} (from ${source})` : `${m.why} (from ${source})` };
  }
  if ('keybinding' in c) {
    const name = `keybinding ${c.keybinding.key} → ${c.keybinding.command}${c.present ? '' : ' absent'}`;
    const entries = state?.files?.keybindings;
    if (!entries) return { name, ...unread('keybindings.json') };
    const want = normalizeKeys(c.keybinding.key);
    const found = entries.find((k) => normalizeKeys(k.key) === want && k.command === c.keybinding.command
      && (c.keybinding.when === undefined || match(k.when, c.keybinding.when).ok));
    const ok = !!found === c.present;
    return { name, ok, why: found ? `keybindings.json binds it${k2s(found.when)}` : `keybindings.json has no such entry (${entries.length} entries)` };
  }
  if ('extension' in c) {
    const name = `extension ${c.extension}${c.enabled !== undefined ? (c.enabled ? ' enabled' : ' disabled') : ''}`;
    const installed = state?.files?.extensions;
    if (!installed) return { name, ...unread('extensions folder') };
    const same = (id: string) => id.toLowerCase() === c.extension.toLowerCase();
    // Built-in extensions ship with the IDE (root-owned): only the IDE lists them.
    const builtin = state?.extensions?.find((x) => x.builtin && same(x.id));
    const onDisk = installed.find((x) => same(x.id));
    const version = onDisk?.version ?? builtin?.version;
    if (!version) return { name, ok: !c.installed, why: 'not in the extensions folder' };
    if (!c.installed) return { name, ok: false, why: `installed (${version})` };
    if (c.enabled === undefined) return { name, ok: true, why: `installed (${version})` };
    const e = state?.extensions?.find((x) => same(x.id));
    if (!e) return { name, ok: false, why: `installed (${version}), but the IDE does not report it loaded` };
    return { name, ok: e.enabled === c.enabled, why: `installed (${version}), ${e.enabled ? 'enabled' : 'not enabled'}` };
  }
  if ('colorTheme' in c || 'iconTheme' in c) {
    const which = 'colorTheme' in c ? 'colorTheme' : 'iconTheme';
    if (noFiles) return { name: which, ...unread('settings files') };
    const key = `workbench.${which}`;
    const { value, source } = settingFromFiles(files, key, undefined, 'effective', { value: state?.settings[key]?.defaultValue });
    const m = match(value, 'colorTheme' in c ? c.colorTheme : c.iconTheme, which);
    return { name: which, ok: m.ok, why: `${m.why} (from ${source})` };
  }
  if ('breakpoint' in c) {
    const b = c.breakpoint;
    const name = `breakpoint at ${b.file}:${b.line}${c.present ? '' : ' absent'}`;
    if (!state?.breakpoints) return { name, ...unread('breakpoints') };
    const path = `/workspace/${b.file}`;
    const at = state.breakpoints.filter((x) => x.path === path && x.line === b.line);
    const good = at.find((x) => (b.condition === undefined || match(x.condition, b.condition).ok)
      && (b.hitCondition === undefined || match(x.hitCondition, b.hitCondition).ok)
      && (b.logMessage === undefined || match(x.logMessage, b.logMessage).ok)
      && (b.enabled === undefined || x.enabled === b.enabled));
    const ok = !!good === c.present;
    const seen = state.breakpoints.map((x) => `${x.path ?? x.functionName}:${x.line ?? ''}${x.condition ? ` if ${x.condition}` : ''}`).join(', ') || 'none';
    return { name, ok, why: good ? `found${good.condition ? ` with condition ${JSON.stringify(good.condition)}` : ''}` : `no matching breakpoint (breakpoints: ${seen})` };
  }
  if ('launch' in c) {
    const name = 'launch configuration';
    const results = launch.configs.map((cfg) => match(cfg, c.launch, 'configuration'));
    const ok = results.some((r) => r.ok);
    return { name, ok, why: ok ? 'a configuration matches' : launch.problem ?? (results.length ? results.map((r) => r.why).join('; ') : 'no launch configurations') };
  }
  const t = c.timeline;
  const name = `local history of ${t.file}`;
  const entries = state?.timeline[t.file];
  if (!entries) return { name, ...unread(`local history of ${t.file}`) };
  return { name, ok: entries.length >= t.minEntries, why: `${entries.length} entries` };
}

const k2s = (when: string | undefined) => (when ? ` when ${when}` : '');

export async function gradeIde(e: IdeEvaluator, sandbox: Sandbox): Promise<EvaluationResult> {
  const t0 = Date.now();
  const raw = await sandbox.readFile('/pwp/ide/state.json');
  const state = raw ? (JSON.parse(raw.toString('utf8')) as IdeState | null) : null;
  const launchJson = checkLeaves(e.checks).some((c) => 'launch' in c) ? (await sandbox.readFile('/workspace/.vscode/launch.json', { maxBytes: IDE_FILE_MAX }))?.toString('utf8') : undefined;
  const wsText = (await sandbox.readFile('/workspace/.vscode/settings.json', { maxBytes: IDE_FILE_MAX }))?.toString('utf8');
  const ws = wsText !== undefined ? parseJsonWithComments(wsText).value : undefined;
  const obj = (v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) ? v as Json : undefined);
  const files: SettingFiles = { workspace: obj(ws), machine: state?.files?.machineSettings, user: state?.files?.userSettings };
  const launch = launchConfigurations(files, launchJson);
  const one = (c: IdeCheck) => checkOne(c, state, launch, files);
  const result = fromChecks('ide', e.checks.map((c) => ('any' in c ? anyOf(c.any.map((a) => [one(a)])) : one(c))), e.scoring, t0);
  const shadow = state?.files?.shadowsPwpExtension;
  if (!shadow) return result;
  // The IDE's answers came from the agent's code: nothing read through the extension counts.
  const reason = `tampering suspected: ${shadow} declares pwp's own extension id, so its code, not the built-in extension, answered the IDE state`;
  return { ...result, score: 0, passed: false, summary: reason, tampering: { reason, findings: [] } };
}
