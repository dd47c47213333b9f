import { z } from 'zod';
import { Empty, method } from './common';

// ide.* methods are served by the extension inside the IDE's extension host. Positions are
// 1-based (line 1, column 1 is the first character), as the IDE's status bar shows them;
// columns count UTF-16 code units. A `file` argument is an absolute path, a path relative to
// the first workspace folder, or a URI (`file:///…`, `untitled:Untitled-1`).

const Position = z.object({ line: z.int().min(1), column: z.int().min(1) });
export type IdePosition = z.infer<typeof Position>;
const Range = z.object({ start: Position, end: Position });
export type IdeRange = z.infer<typeof Range>;
const FileArg = z.string().min(1).max(4096);
/** A resource as the IDE names it, and its file-system path when it is a file. */
const Resource = { uri: z.string(), path: z.string().nullable() };
/** A settings or keybindings value: any JSON. */
const Json = z.unknown();

// ---- editors --------------------------------------------------------------------------------

const Tab = z.object({
  label: z.string(),
  kind: z.enum(['text', 'diff', 'notebook', 'notebookDiff', 'custom', 'webview', 'terminal', 'other']),
  uri: z.string().nullable(),
  path: z.string().nullable(),
  /** The left side of a diff tab. */
  originalUri: z.string().nullable(),
  languageId: z.string().nullable(),
  dirty: z.boolean(),
  active: z.boolean(),
  pinned: z.boolean(),
  preview: z.boolean(),
});
const Selection = z.object({
  /** Where the selection started and where the cursor is (the moving end). */
  anchor: Position,
  active: Position,
  start: Position,
  end: Position,
  empty: z.boolean(),
  /** The selected text, cut at maxTextChars. */
  text: z.string(),
});
const ActiveEditor = z.object({
  ...Resource,
  languageId: z.string(),
  viewColumn: z.int().nullable(),
  lineCount: z.int(),
  dirty: z.boolean(),
  untitled: z.boolean(),
  eol: z.enum(['LF', 'CRLF']),
  tabSize: z.union([z.int(), z.string()]).nullable(),
  insertSpaces: z.union([z.boolean(), z.string()]).nullable(),
  cursor: Position,
  selections: z.array(Selection),
  visibleRanges: z.array(Range),
  /** The text of the visible ranges (lines joined with \n), cut at maxTextChars. */
  visibleText: z.string(),
  visibleTextTruncated: z.boolean(),
});
const VisibleEditor = z.object({
  ...Resource, languageId: z.string(), viewColumn: z.int().nullable(), visibleRanges: z.array(Range),
  /** Where its cursor is (each visible editor keeps its own). */
  cursor: Position,
});

// ---- diagnostics ----------------------------------------------------------------------------

const Severity = z.enum(['error', 'warning', 'information', 'hint']);
const Diagnostic = z.object({
  ...Resource,
  range: Range,
  severity: Severity,
  message: z.string(),
  source: z.string().nullable(),
  code: z.string().nullable(),
});
export type IdeDiagnostic = z.infer<typeof Diagnostic>;

// ---- settings and keybindings ---------------------------------------------------------------

const SettingsTarget = z.enum(['user', 'workspace', 'workspaceFolder']);
const SettingSource = z.enum([
  'default', 'user', 'workspace', 'workspaceFolder',
  'defaultLanguage', 'userLanguage', 'workspaceLanguage', 'workspaceFolderLanguage', 'none',
]);
export type SettingSource = z.infer<typeof SettingSource>;
const Setting = z.object({
  key: z.string(),
  /** The effective value for the scope asked about (absent when nothing defines it). */
  value: Json,
  /** The most specific scope that defines the effective value. */
  source: SettingSource,
  defaultValue: Json,
  userValue: Json,
  workspaceValue: Json,
  workspaceFolderValue: Json,
  language: z.object({
    languageId: z.string(),
    defaultValue: Json,
    userValue: Json,
    workspaceValue: Json,
    workspaceFolderValue: Json,
  }).nullable(),
  /** Languages that override this key somewhere. */
  languageIds: z.array(z.string()),
});
const SettingScope = {
  key: z.string().min(1).max(500),
  /** Read or write the language-specific value (`[python]` block). */
  languageId: z.string().min(1).max(100).optional(),
  /** A file or folder that selects the workspace folder for `workspaceFolder` values. */
  file: FileArg.optional(),
};
const Keybinding = z.object({
  key: z.string().min(1).max(200),
  command: z.string().min(1).max(500),
  when: z.string().max(2000).optional(),
  args: Json.optional(),
});
const KeybindingsFile = z.object({
  path: z.string(),
  keybindings: z.array(Keybinding),
  /** JSONC syntax errors in the file (the IDE ignores entries it cannot parse). */
  errors: z.array(z.object({ message: z.string(), offset: z.int() })),
});

// ---- timeline -------------------------------------------------------------------------------

const TimelineEntry = z.object({
  id: z.string(),
  /** ms since the epoch */
  timestamp: z.number(),
  time: z.string(),
  /** The IDE's source id: default.source (a save), undoRedo.source, localHistoryRestore.source, moved.source… */
  source: z.string(),
  /** What the IDE's Timeline view shows for the entry ("File Saved", "Undo / Redo"…). */
  label: z.string(),
  sourceDescription: z.string().nullable(),
  size: z.int().nullable(),
});

// ---- extensions -----------------------------------------------------------------------------

const ExtensionInfo = z.object({
  id: z.string(),
  version: z.string(),
  displayName: z.string().nullable(),
  builtin: z.boolean(),
  /** Loaded in the running extension host (installed but disabled, or waiting for a reload, is false). */
  enabled: z.boolean(),
  active: z.boolean(),
  path: z.string().nullable(),
});
const Theme = z.object({
  /** The id the settings store (`workbench.colorTheme` etc.); null when none is set (icon theme off). */
  id: z.string().nullable(),
  label: z.string().nullable(),
  /** The extension that contributes it, when one does. */
  extensionId: z.string().nullable(),
});

// ---- debug and terminals --------------------------------------------------------------------

const Breakpoint = z.object({
  id: z.string(),
  kind: z.enum(['source', 'function', 'other']),
  enabled: z.boolean(),
  condition: z.string().nullable(),
  hitCondition: z.string().nullable(),
  logMessage: z.string().nullable(),
  uri: z.string().nullable(),
  path: z.string().nullable(),
  line: z.int().nullable(),
  column: z.int().nullable(),
  functionName: z.string().nullable(),
});
const BreakpointOptions = {
  enabled: z.boolean().default(true),
  condition: z.string().max(2000).optional(),
  hitCondition: z.string().max(200).optional(),
  logMessage: z.string().max(2000).optional(),
};
const NewBreakpoint = z.union([
  z.object({ file: FileArg, line: z.int().min(1), column: z.int().min(1).optional(), ...BreakpointOptions }).strict(),
  z.object({ functionName: z.string().min(1).max(500), ...BreakpointOptions }).strict(),
]);
const DebugSession = z.object({
  id: z.string(),
  name: z.string(),
  type: z.string(),
  active: z.boolean(),
  parentId: z.string().nullable(),
  workspaceFolder: z.string().nullable(),
  request: z.string().nullable(),
});
const ProcessInfo = z.object({
  pid: z.int(),
  /** argv from /proc/<pid>/cmdline */
  commandLine: z.array(z.string()),
  name: z.string(),
});
const TerminalInfo = z.object({
  index: z.int(),
  name: z.string(),
  active: z.boolean(),
  processId: z.int().nullable(),
  exitCode: z.int().nullable(),
  /** The shell's argv, read from /proc; null when the process is gone or not visible. */
  commandLine: z.array(z.string()).nullable(),
  cwd: z.string().nullable(),
  /** Processes started from the shell (what is running in the terminal now), parents first. */
  children: z.array(ProcessInfo.extend({ ppid: z.int() })),
});

export const ideMethods = {
  'ide.status': method(
    'The extension host: VS Code version, workspace folders, extension version.',
    Empty,
    z.object({
      vscodeVersion: z.string(),
      appName: z.string(),
      extensionVersion: z.string(),
      workspaceFolders: z.array(z.string()),
      uptimeMs: z.number(),
    }),
  ),

  'ide.editors': method(
    'Open editors and tabs in every tab group, the active editor (file, language, cursor, selections, visible ' +
      'range, dirty state) and the text it shows. Positions are 1-based.',
    z.object({ maxTextChars: z.int().min(0).max(1_000_000).default(20_000) }).strict(),
    z.object({
      groups: z.array(z.object({ viewColumn: z.int(), active: z.boolean(), tabs: z.array(Tab) })),
      activeEditor: ActiveEditor.nullable(),
      visibleEditors: z.array(VisibleEditor),
    }),
  ),

  'ide.editors.open': method(
    'Open files in editors, in order, each at a cursor position (1-based) in a tab group (viewColumn 1 is the ' +
      'first group; a higher one opens a group beside it), as pinned or preview tabs; the editor named by `active` ' +
      '(default the last) gets the focus. Used to bring back a saved editor layout.',
    z.object({
      editors: z.array(z.object({
        file: FileArg,
        cursor: Position.optional(),
        viewColumn: z.int().min(1).max(9).default(1),
        preview: z.boolean().default(false),
      }).strict()).min(1).max(100),
      active: z.int().min(0).max(99).optional(),
    }).strict(),
    z.object({ opened: z.array(z.object({ ...Resource, viewColumn: z.int().nullable(), cursor: Position })) }),
  ),

  'ide.editors.unsaved': method(
    'The full text of every document with unsaved changes (what a checkpoint keeps of unsaved editors).',
    z.object({ maxChars: z.int().min(0).max(20_000_000).default(5_000_000) }).strict(),
    z.object({ documents: z.array(z.object({ ...Resource, text: z.string(), truncated: z.boolean() })) }),
  ),

  'ide.editors.setText': method(
    'Replace a document\'s whole text through the IDE without saving it (its editor is left with unsaved ' +
      'changes, as a restore of unsaved editors needs). The file must exist; its editor is not opened.',
    z.object({ file: FileArg, text: z.string().max(20_000_000) }).strict(),
    z.object({ ...Resource, dirty: z.boolean() }),
  ),

  'ide.userData.write': method(
    'Write (or, with text null, delete) files of the IDE user folder (settings.json, keybindings.json, tasks.json, ' +
      'snippets/…) through the workbench, which then takes them up as if the user had saved them; a file changed on ' +
      'disk behind its back is not noticed. Paths are relative to the user folder.',
    z.object({
      files: z.array(z.object({
        path: z.string().min(1).max(512).regex(/^[^/\\\0]/, 'a path relative to the user folder'),
        text: z.string().max(5_000_000).nullable(),
      }).strict()).min(1).max(200),
    }).strict(),
    z.object({ written: z.array(z.string()), deleted: z.array(z.string()) }),
  ),

  'ide.workbench.clear': method(
    'Clear the workbench so a checkpoint can be restored into it without a reload: unsaved changes are reverted ' +
      '(with revert: true; without it the call fails naming them and changes nothing), every editor and tab group ' +
      'is closed, terminals are disposed and debug sessions stopped. With layout: true the layout is also put back as ' +
      'a fresh workbench has it: panel, secondary side bar, quick input, notifications and zen mode closed, the ' +
      'Explorer shown in the side bar with its folders collapsed, search results and query cleared, and the focus on ' +
      'the (empty) editor group. With started: true, what the IDE starts on demand and a fresh one has not started ' +
      'yet is ended as well: the Python language server stopped (it starts again with the next Python document) ' +
      'and the status bar\'s debug entry a debug session leaves behind removed (this writes the user settings: ' +
      'a caller that puts them back does so afterwards). `ended` names what was.',
    z.object({ revert: z.boolean().default(false), layout: z.boolean().default(false), started: z.boolean().default(false) }).strict(),
    z.object({ reverted: z.array(z.string()), closedTabs: z.int(), terminals: z.int(), debugSessions: z.int(), ended: z.array(z.string()) }),
  ),

  'ide.diagnostics': method(
    'Problems the IDE knows (errors, warnings…), optionally for one file or folder. With waitMs it first waits ' +
      '(at most waitMs) until diagnostics and documents have stopped changing for quietMs, so results are fresh after ' +
      'an edit or a file written on disk. A named file that is not open is opened as a document (open: "document") ' +
      'so language services see it; TypeScript/JavaScript only check files open in editor tabs (open: "editor" ' +
      'opens it as a preview tab without taking focus). Python syntax errors come from the source "pwp-python".',
    z.object({
      file: FileArg.optional(),
      severities: z.array(Severity).min(1).optional(),
      waitMs: z.int().min(0).max(20_000).default(0),
      quietMs: z.int().min(50).max(10_000).default(1000),
      open: z.enum(['none', 'document', 'editor']).default('document'),
      maxResults: z.int().min(1).max(10_000).default(1000),
    }).strict(),
    z.object({
      diagnostics: z.array(Diagnostic),
      counts: z.object({ error: z.int(), warning: z.int(), information: z.int(), hint: z.int() }),
      truncated: z.boolean(),
      /** False when waitMs ran out while things were still changing. */
      settled: z.boolean(),
      waitedMs: z.number(),
    }),
  ),

  'ide.settings.get': method(
    'A setting (any key): its effective value and which scope it comes from (default, user, workspace, ' +
      'workspaceFolder, or their language-specific forms), with the value at every scope.',
    z.object(SettingScope).strict(),
    Setting,
  ),
  'ide.settings.update': method(
    'Write a setting to user, workspace or workspaceFolder settings, optionally language-specific; omit value ' +
      'to remove it. Returns the setting as ide.settings.get reads it afterwards.',
    z.object({ ...SettingScope, value: Json.optional(), target: SettingsTarget.default('user') }).strict(),
    Setting,
  ),

  'ide.keybindings.get': method('The user keybindings (keybindings.json in the IDE user data).', Empty, KeybindingsFile),
  'ide.keybindings.update': method(
    'Edit the user keybindings.json, keeping its comments and layout: remove entries that match (command, and key ' +
      'and when if given), then append entries. A command prefixed with "-" removes a default binding. The IDE ' +
      'reloads the file by itself.',
    z.object({
      remove: z.array(z.object({ command: z.string().min(1).max(500), key: z.string().max(200).optional(), when: z.string().max(2000).optional() }).strict()).max(200).default([]),
      add: z.array(Keybinding.strict()).max(200).default([]),
    }).strict(),
    KeybindingsFile.extend({ removed: z.int(), added: z.int() }),
  ),

  'ide.timeline': method(
    'The local-history entries of a file, oldest first (the IDE records one on each save it makes, on ' +
      'undo/redo saves, restores and moves).',
    z.object({ file: FileArg }).strict(),
    z.object({ ...Resource, historyDir: z.string().nullable(), entries: z.array(TimelineEntry) }),
  ),
  'ide.timeline.read': method(
    'The content of one local-history entry.',
    z.object({ file: FileArg, entryId: z.string().min(1).max(200), maxChars: z.int().min(0).max(10_000_000).default(1_000_000) }).strict(),
    z.object({ entry: TimelineEntry, content: z.string(), truncated: z.boolean() }),
  ),
  'ide.timeline.restore': method(
    'Restore a workspace file to a local-history entry through the IDE (an edit of the open document, then a ' +
      'save), so editors, undo and the timeline stay coherent.',
    z.object({ file: FileArg, entryId: z.string().min(1).max(200) }).strict(),
    z.object({ ...Resource, restoredFrom: TimelineEntry, saved: z.boolean(), bytes: z.int() }),
  ),

  'ide.extensions': method(
    'Installed extensions (user and built-in) with versions and whether they are enabled, and the active color, ' +
      'file-icon and product-icon themes.',
    z.object({ kind: z.enum(['all', 'user', 'builtin']).default('all') }).strict(),
    z.object({
      extensions: z.array(ExtensionInfo),
      colorTheme: Theme.extend({ kind: z.enum(['light', 'dark', 'highContrast', 'highContrastLight']) }),
      iconTheme: Theme,
      productIconTheme: Theme,
    }),
  ),
  'ide.extensions.install': method(
    'Install an extension from a .vsix file inside the container, through the IDE; waits (at most timeoutMs) ' +
      'until the running IDE has loaded it.',
    z.object({ vsix: z.string().min(1).max(4096), timeoutMs: z.int().min(0).max(20_000).default(15_000) }).strict(),
    z.object({ extension: ExtensionInfo, loaded: z.boolean() }),
  ),

  'ide.extensions.uninstall': method(
    'Uninstall, through the IDE, every user extension but those kept (ids, any case); waits (at most timeoutMs) ' +
      'until the running IDE has unloaded each. One it keeps loaded (it ran code: its host must start again for ' +
      'it to go) is listed in stillLoaded; one the IDE does not know as installed is left to the caller.',
    z.object({ keep: z.array(z.string().min(1).max(300)).max(1000), timeoutMs: z.int().min(0).max(20_000).default(5_000) }).strict(),
    z.object({ uninstalled: z.array(z.string()), stillLoaded: z.array(z.string()) }),
  ),

  'ide.debug': method(
    'Breakpoints (with conditions, hit counts, log messages) and debug sessions.',
    Empty,
    z.object({ breakpoints: z.array(Breakpoint), sessions: z.array(DebugSession), activeSessionId: z.string().nullable() }),
  ),
  'ide.debug.addBreakpoints': method(
    'Add source breakpoints (file, 1-based line) or function breakpoints, optionally conditional, with a hit ' +
      'count condition or as logpoints.',
    z.object({ breakpoints: z.array(NewBreakpoint).min(1).max(200) }).strict(),
    z.object({ added: z.array(Breakpoint) }),
  ),
  'ide.debug.removeBreakpoints': method(
    'Remove breakpoints by id, by file (and line), or all of them.',
    z.union([
      z.object({ ids: z.array(z.string()).min(1).max(1000) }).strict(),
      z.object({ file: FileArg, line: z.int().min(1).optional() }).strict(),
      z.object({ all: z.literal(true) }).strict(),
    ]),
    z.object({ removed: z.int() }),
  ),

  'ide.terminals': method(
    'The integrated terminals: name, shell process id and command line, working directory, and the processes ' +
      'running in them (read from /proc).',
    Empty,
    z.object({ terminals: z.array(TerminalInfo) }),
  ),
};
