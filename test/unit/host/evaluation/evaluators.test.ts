// Graders that read files and state (no commands), against a local folder standing in for
// the verifier's filesystem; matchers, answers, image similarity and SQL result comparison.
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import sharp from 'sharp';
import { checkAnswer, firstNumber } from '../../../../host/evaluation/answerGrader';
import { EvaluatorSchema, type Evaluator } from '../../../../host/evaluation/evaluatorSchema';
import { evaluate } from '../../../../host/evaluation/evaluate';
import { matchesAny } from '../../../../host/evaluation/glob';
import { normalizeKeys } from '../../../../host/evaluation/ideGrader';
import { settingFromFiles } from '../../../../host/evaluation/ideGrader';
import { EXTENSIONS_DIR, PWP_EXTENSION_ID, ideStateNeeds, readIdeFiles, type IdeState } from '../../../../host/evaluation/ideState';
import { imageSimilarity } from '../../../../host/evaluation/imageSimilarity';
import { match } from '../../../../host/evaluation/matcher';
import { sameRows } from '../../../../host/evaluation/sqlGrader';
import type { Sandbox } from '../../../../host/evaluation/verifier';

/** The verifier's filesystem as a local folder; commands are not part of these tests. */
class FolderSandbox implements Sandbox {
  constructor(readonly root: string) {}
  put(path: string, content: string | Buffer): void {
    mkdirSync(dirname(join(this.root, path)), { recursive: true });
    writeFileSync(join(this.root, path), content);
  }
  async exec(): Promise<never> { throw new Error('no commands in unit tests'); }
  async readFile(path: string) { try { return readFileSync(join(this.root, path)); } catch { return undefined; } }
  async readTree(dir: string) {
    const base = join(this.root, dir);
    try { statSync(base); } catch { return undefined; }
    const out = new Map<string, Buffer>();
    const walk = (d: string) => {
      for (const e of readdirSync(d, { withFileTypes: true })) {
        const p = join(d, e.name);
        if (e.isDirectory()) walk(p);
        else out.set(relative(base, p), readFileSync(p));
      }
    };
    walk(base);
    return out;
  }
}

const grade = (e: unknown, sb: Sandbox) => evaluate(EvaluatorSchema.parse(e) as Evaluator, sb);

describe('matcher', () => {
  it('matches objects on the keys it names and arrays exactly', () => {
    assert.equal(match({ type: 'node', request: 'launch', extra: 1 }, { type: 'node' }).ok, true);
    assert.equal(match([1, 2], [1, 2]).ok, true);
    assert.equal(match([1, 2, 3], [1, 2]).ok, false);
    assert.match(match({ a: { b: 2 } }, { a: { b: 3 } }).why, /value\.a\.b: expected 3, found 2/);
  });
  it('has operators for regex, contains, numbers, absence, alternatives and negation', () => {
    assert.equal(match('Solarized Light', { $regex: '^solarized', $flags: 'i' }).ok, true);
    assert.equal(match(['--port', '5001'], { $contains: ['5001'] }).ok, true);
    assert.equal(match('run --port=5001', { $contains: '--port=5001' }).ok, true);
    assert.equal(match(1499.6, { $num: 1500, $tol: 0.5 }).ok, true);
    assert.equal(match('1500', { $num: 1500 }).ok, true);
    assert.equal(match(undefined, { $absent: true }).ok, true);
    assert.equal(match(false, { $absent: true }).ok, false);
    assert.equal(match('b', { $anyOf: ['a', 'b'] }).ok, true);
    assert.equal(match('a', { $not: 'a' }).ok, false);
    assert.equal(match({ a: 1, b: 2 }, { $eq: { a: 1 } }).ok, false);
  });
});

describe('answers', () => {
  const A = (expected: string | number, m: string, extra = {}) => EvaluatorSchema.parse({ kind: 'answer', expected, match: m, ...extra }) as Extract<Evaluator, { kind: 'answer' }>;
  it('compares exactly after trimming quotes, case and a final full stop', () => {
    assert.equal(checkAnswer(A('fib', 'exact'), '  `Fib`. ').ok, true);
    assert.equal(checkAnswer(A('fib', 'exact'), 'fibonacci').ok, false);
    assert.equal(checkAnswer(A('fib', 'exact'), '').why, 'no answer was given');
  });
  it('compares numbers with a tolerance, finding the number in the text', () => {
    assert.equal(firstNumber('about 1,234.5 ms'), 1234.5);
    assert.equal(checkAnswer(A(42, 'numeric'), 'The value is 42').ok, true);
    assert.equal(checkAnswer(A(0.3, 'numeric', { tolerance: 0.01 }), '0.305').ok, true);
    assert.equal(checkAnswer(A(0.3, 'numeric', { tolerance: 0.01 }), '0.32').ok, false);
  });
  it('matches regular expressions and substrings', () => {
    assert.equal(checkAnswer(A('^\\(?3, ?4\\)?$', 'regex'), '(3, 4)').ok, true);
    assert.equal(checkAnswer(A('3, 4', 'contains'), 'shape is (3, 4)').ok, true);
  });
});

describe('file, diff and IDE graders', () => {
  let sb: FolderSandbox;
  beforeEach(() => { sb = new FolderSandbox(mkdtempSync(join(tmpdir(), 'pwp-sb-'))); });
  afterEach(() => rmSync(sb.root, { recursive: true, force: true }));

  it('checks file content, patterns and JSON with comments', async () => {
    sb.put('workspace/a.py', 'def area(w, h):\n    return w * h\n');
    sb.put('workspace/.vscode/settings.json', '{\n  // comment\n  "files.exclude": { "**/*.log": true, },\n}\n');
    const ok = await grade({ kind: 'files', checks: [
      { path: 'a.py', contains: ['def area'], notContains: ['width'], matches: ['^\\s+return w \\* h$'] },
      { path: '.vscode/settings.json', json: { 'files.exclude': { '**/*.log': true } } },
      { path: 'gone.txt', exists: false },
    ] }, sb);
    assert.equal(ok.score, 1, ok.summary);
    const bad = await grade(
      {
        kind: 'files',
        checks: [
          { path: 'a.py', equals: 'def area(w, h):\n    return h * w\n' },
          { path: 'a.py', contains: ['def area'] },
        ],
        scoring: 'fraction',
      },
      sb,
    );
    assert.equal(bad.score, 0.5);
    assert.equal(bad.passed, false);
    assert.match(bad.summary, /line 2: found " {4}return w \* h", expected " {4}return h \* w"/);
  });

  it('grades a saved Mermaid flowchart on its structure, naming what is missing, and a file that is no flowchart with the parser\'s reason', async () => {
    sb.put('workspace/docs/flow.mmd', '%% request path\nflowchart LR\n  c[Client] --> a(API)\n  a -->|read| d[(DB)]\n');
    const spec = { format: 'mermaid', nodes: ['Client', 'API', 'DB'], edges: [['Client', 'API'], ['API', 'DB', 'read']] };
    const ok = await grade({ kind: 'files', checks: [{ path: 'docs/flow.mmd', diagram: spec }] }, sb);
    assert.equal(ok.score, 1, ok.summary);
    const missing = await grade({ kind: 'files', checks: [{ path: 'docs/flow.mmd', diagram: { ...spec, nodes: [...spec.nodes, 'Cache'], edges: [...spec.edges, ['API', 'Cache']] } }] }, sb);
    assert.equal(missing.score, 0);
    assert.match(missing.summary, /missing nodes: "Cache"; missing edges: "API" --> "Cache"/);
    sb.put('workspace/docs/flow.mmd', 'flowchart LR\n  c[Client --> a\n');
    const broken = await grade({ kind: 'files', checks: [{ path: 'docs/flow.mmd', diagram: spec }] }, sb);
    assert.equal(broken.score, 0);
    assert.match(broken.summary, /not a Mermaid flowchart this check can read: line 2: the label of node c is not closed/);
    const none = await grade({ kind: 'files', checks: [{ path: 'docs/none.mmd', diagram: spec }] }, sb);
    assert.match(none.summary, /no such file/);
    assert.throws(() => EvaluatorSchema.parse({ kind: 'files', checks: [{ path: 'a.mmd', diagram: { format: 'mermaid' } }] }), /a diagram check names at least one node or edge/);
    assert.throws(() => EvaluatorSchema.parse({ kind: 'files', checks: [{ path: 'a.mmd', diagram: { format: 'plantuml', nodes: ['A'] } }] }));
  });

  it('compares files with hidden expected copies and finds changes elsewhere', async () => {
    sb.put('pwp/initial/workspace/a.txt', 'old\n');
    sb.put('pwp/initial/workspace/b.txt', 'keep\n');
    sb.put('pwp/hidden/expected/a.txt', 'new\n');
    sb.put('workspace/a.txt', 'new\n');
    sb.put('workspace/b.txt', 'keep\n');
    sb.put('workspace/__pycache__/x.pyc', 'cache');
    assert.equal((await grade({ kind: 'diff', expected: 'expected' }, sb)).score, 1);
    sb.put('workspace/b.txt', 'changed\n');
    sb.put('workspace/c.txt', 'added\n');
    const r = await grade({ kind: 'diff', expected: 'expected' }, sb);
    assert.equal(r.score, 0);
    assert.match(r.summary, /unexpected changes: b\.txt \(changed\), c\.txt \(added\)/);
  });

  it('does not count the hidden files the verifier copied over the workspace as the agent\'s changes', async () => {
    sb.put('pwp/initial/workspace/a.txt', 'old\n');
    sb.put('pwp/hidden/expected/a.txt', 'new\n');
    sb.put('pwp/hidden/workspace/tests/test_a.py', 'def test(): pass\n');
    sb.put('workspace/a.txt', 'new\n');
    sb.put('workspace/tests/test_a.py', 'def test(): pass\n');
    const r = await grade({ kind: 'diff', expected: 'expected' }, sb);
    assert.equal(r.score, 1, r.summary);
  });

  it('checks settings at a scope, keybindings, extensions, themes, breakpoints and launch configurations', async () => {
    const setting = (key: string, value: unknown, extra = {}) => ({
      key,
      value,
      source: 'user' as const,
      defaultValue: null,
      userValue: value,
      workspaceValue: undefined,
      workspaceFolderValue: undefined,
      language: null,
      languageIds: [],
      ...extra,
    });
    const state: IdeState = {
      capturedAt: '', errors: [], timeline: { 'a.txt': [] },
      settings: {
        'editor.formatOnSave@python': setting('editor.formatOnSave', true, { source: 'userLanguage' as const, userValue: undefined, language: { languageId: 'python', defaultValue: undefined, userValue: true, workspaceValue: undefined, workspaceFolderValue: undefined } }),
        'editor.formatOnSave': setting('editor.formatOnSave', false, { source: 'default' as const, userValue: undefined, defaultValue: false }),
      },
      keybindings: { path: '', errors: [], keybindings: [{ key: 'Shift+Ctrl+D', command: 'editor.action.copyLinesDownAction', when: 'editorTextFocus' }] },
      extensions: [{ id: 'PwpTest.tiny-theme', version: '1.0.0', builtin: false, enabled: true, active: false }],
      colorTheme: { id: 'Solarized Light', label: 'Solarized Light', extensionId: 'vscode.theme-solarized-light', kind: 'light' },
      breakpoints: [{ id: '1', kind: 'source', enabled: true, condition: 'i == 42', hitCondition: null, logMessage: null, uri: null, path: '/workspace/loop.py', line: 7, column: 1, functionName: null }],
      files: {
        errors: [],
        userSettings: { '[python]': { 'editor.formatOnSave': true }, 'workbench.colorTheme': 'Solarized Light' },
        keybindings: [{ key: 'Shift+Ctrl+D', command: 'editor.action.copyLinesDownAction', when: 'editorTextFocus' }],
        extensions: [{ id: 'PwpTest.tiny-theme', version: '1.0.0' }],
      },
    };
    sb.put('pwp/ide/state.json', JSON.stringify(state));
    sb.put('workspace/.vscode/launch.json', '{ // flask\n "configurations": [{ "type": "debugpy", "request": "launch", "module": "flask", "args": ["run", "--port", "5001"] }] }');
    const r = await grade({ kind: 'ide', checks: [
      { setting: 'editor.formatOnSave', languageId: 'python', value: true },
      { setting: 'editor.formatOnSave', value: false },
      { keybinding: { key: 'ctrl+shift+d', command: 'editor.action.copyLinesDownAction' } },
      { extension: 'pwptest.tiny-theme', enabled: true },
      { colorTheme: 'Solarized Light' },
      { breakpoint: { file: 'loop.py', line: 7, condition: { $regex: '^i\\s*==\\s*42$' } } },
      { launch: { module: 'flask', args: { $contains: ['5001'] } } },
      { timeline: { file: 'a.txt', minEntries: 0 } },
    ] }, sb);
    assert.equal(r.score, 1, JSON.stringify(r.checks, null, 1));
    const bad = await grade({ kind: 'ide', checks: [{ breakpoint: { file: 'loop.py', line: 7, condition: 'i == 41' } }, { extension: 'other.ext' }], scoring: 'fraction' }, sb);
    assert.equal(bad.score, 0);
    assert.match(bad.checks![0].why, /no matching breakpoint \(breakpoints: \/workspace\/loop\.py:7 if i == 42\)/);
    assert.equal(bad.checks![1].why, 'not in the extensions folder');
  });

  it('scores forged ide.* answers 0: keybindings, extensions, settings and themes come from the IDE\'s files', async () => {
    const forged: IdeState = {
      capturedAt: '',
      errors: [],
      timeline: {},
      settings: {
        'editor.fontSize': {
          key: 'editor.fontSize',
          value: 15,
          source: 'user',
          defaultValue: 14,
          userValue: 15,
          workspaceValue: undefined,
          workspaceFolderValue: undefined,
          language: null,
          languageIds: [],
        },
      },
      keybindings: { path: '', errors: [], keybindings: [{ key: 'ctrl+alt+d', command: 'editor.action.duplicateSelection' }] },
      extensions: [{ id: 'pwptasks.ocean-theme', version: '1.0.0', builtin: false, enabled: true, active: true }],
      colorTheme: { id: 'Ocean Breeze', label: 'Ocean Breeze', extensionId: 'pwptasks.ocean-theme', kind: 'dark' },
      files: { errors: [], userSettings: { 'workbench.startupEditor': 'none' }, keybindings: [], extensions: [] },
    };
    sb.put('pwp/ide/state.json', JSON.stringify(forged));
    const r = await grade({ kind: 'ide', scoring: 'fraction', checks: [
      { keybinding: { key: 'ctrl+alt+d', command: 'editor.action.duplicateSelection' } },
      { extension: 'pwptasks.ocean-theme', enabled: true },
      { setting: 'editor.fontSize', value: 15 },
      { colorTheme: 'Ocean Breeze' },
      { launch: { module: 'flask' } },
    ] }, sb);
    assert.equal(r.score, 0, JSON.stringify(r.checks, null, 1));
    assert.match(r.checks![2].why, /expected 15, found 14 \(from the registered default\)/);
  });

  it('scores 0 with tampering suspected when a user extension declares pwp\'s own id (it would answer ide.* in place of the built-in)', async () => {
    const disk: Record<string, string> = {
      [`${EXTENSIONS_DIR}/extensions.json`]: '[]',
      [`${EXTENSIONS_DIR}/innocent-1.0.0/package.json`]: JSON.stringify({ publisher: 'someone', name: 'innocent', version: '1.0.0' }),
      [`${EXTENSIONS_DIR}/unlisted/package.json`]: JSON.stringify({ publisher: 'PWP', name: 'pwp-ide-bridge', version: '99.0.0' }),
    };
    const files = await readIdeFiles(async (p) => (p in disk ? Buffer.from(disk[p]) : undefined), async () => ['innocent-1.0.0', 'unlisted']);
    assert.equal(files.shadowsPwpExtension, `${EXTENSIONS_DIR}/unlisted`);
    assert.equal((await readIdeFiles(async (p) => (p in disk ? Buffer.from(disk[p]) : undefined), async () => ['innocent-1.0.0'])).shadowsPwpExtension, undefined);
    const state: IdeState = {
      capturedAt: '', errors: [], timeline: {}, settings: {},
      breakpoints: [{ id: '1', kind: 'source', enabled: true, condition: null, hitCondition: null, logMessage: null, uri: null, path: '/workspace/loop.py', line: 7, column: 1, functionName: null }],
      files: { ...files, userSettings: {}, keybindings: [] },
    };
    sb.put('pwp/ide/state.json', JSON.stringify(state));
    const r = await grade({ kind: 'ide', checks: [{ breakpoint: { file: 'loop.py', line: 7 } }] }, sb);
    assert.equal(r.score, 0);
    assert.match(r.tampering?.reason ?? '', /tampering suspected: .*unlisted declares pwp's own extension id/);
  });

  it('knows the built-in extension\'s id from extension/package.json, whose version no user copy can exceed', () => {
    const manifest = JSON.parse(readFileSync(join(__dirname, '../../../../extension/package.json'), 'utf8')) as { publisher: string; name: string; version: string };
    assert.equal(`${manifest.publisher}.${manifest.name}`, PWP_EXTENSION_ID);
    // VS Code replaces a built-in extension with a user-installed one of a higher version; each
    // part at the largest number semver accepts leaves no valid higher version to install.
    assert.deepEqual(manifest.version.split('.').map(Number), [Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER]);
  });

  it('reads settings in VS Code\'s order: language-specific first, workspace over machine over user, objects merged with the default', () => {
    const files = {
      workspace: { 'files.exclude': { build: true }, 'editor.tabSize': 4 },
      user: { '[yaml]': { 'editor.tabSize': 2 }, 'editor.tabSize': 8 },
      machine: { 'editor.tabSize': 6 },
    };
    assert.deepEqual(settingFromFiles(files, 'editor.tabSize', 'yaml', 'effective'), { value: 2, source: 'user settings.json [yaml]' });
    assert.deepEqual(settingFromFiles(files, 'editor.tabSize', undefined, 'effective'), { value: 4, source: 'workspace settings.json' });
    assert.deepEqual(settingFromFiles(files, 'editor.tabSize', undefined, 'user').value, 6);
    assert.deepEqual(settingFromFiles(files, 'files.exclude', undefined, 'effective', { value: { '**/.git': true } }).value, { '**/.git': true, build: true });
    assert.deepEqual(settingFromFiles({}, 'editor.rulers', undefined, 'workspace', { value: [] }), { value: undefined, source: 'no settings file' });
  });

  it('fails IDE checks with the reason when the state could not be read', async () => {
    sb.put('pwp/ide/state.json', JSON.stringify({ capturedAt: '', settings: {}, timeline: {}, errors: ['the IDE\'s files: no such container'] }));
    const r = await grade({ kind: 'ide', checks: [{ keybinding: { key: 'ctrl+k', command: 'x' } }] }, sb);
    assert.equal(r.score, 0);
    assert.match(r.summary, /no keybindings\.json \(the IDE's files: no such container\)/);
  });

  it('normalizes key chords as the IDE does', () => {
    assert.equal(normalizeKeys('Shift+Ctrl+D'), 'ctrl+shift+d');
    assert.equal(normalizeKeys('ctrl+k  ctrl+T'), 'ctrl+k ctrl+t');
  });

  it('scores an `all` evaluator by its weakest part', async () => {
    sb.put('workspace/a.txt', 'x');
    sb.put('pwp/answer.txt', '7');
    const r = await grade({ kind: 'all', evaluators: [{ kind: 'files', checks: [{ path: 'a.txt', equals: 'x' }] }, { kind: 'answer', expected: 8, match: 'numeric' }] }, sb);
    assert.deepEqual([r.score, r.passed, r.parts!.map((p) => p.score)], [0, false, [1, 0]]);
  });

  it('passes an `any` evaluator on one equivalent answer, scored by its best part, and fails it when none holds', async () => {
    sb.put('workspace/a.txt', 'x');
    sb.put('pwp/answer.txt', '7');
    const either = (n: number) =>
      grade(
        {
          kind: 'any',
          evaluators: [
            { kind: 'answer', expected: n, match: 'numeric' },
            { kind: 'files', checks: [{ path: 'a.txt', equals: 'y' }] },
          ],
        },
        sb,
      );
    const one = await either(7);
    assert.deepEqual([one.kind, one.score, one.passed, one.parts!.map((p) => p.passed)], ['any', 1, true, [true, false]]);
    const none = await either(8);
    assert.deepEqual([none.score, none.passed], [0, false]);
    assert.match(none.summary, /^any of: answer: .* \| files: /);
  });

  it('passes an `any` IDE check on one equivalent answer (two command ids for one key) and fails it with every alternative\'s reason', async () => {
    const state = (keybindings: { key: string; command: string }[]): IdeState => ({
      capturedAt: '',
      errors: [],
      timeline: {},
      settings: {},
      files: { errors: [], keybindings, extensions: [] },
    });
    const check = { kind: 'ide', checks: [
      { any: [
        { keybinding: { key: 'ctrl+alt+l', command: 'editor.action.formatDocument' } },
        { keybinding: { key: 'ctrl+alt+l', command: 'editor.action.formatDocument.none' } },
      ] },
      { setting: 'editor.tabSize', value: { $absent: true } },
    ] };
    sb.put('pwp/ide/state.json', JSON.stringify(state([{ key: 'Alt+Ctrl+L', command: 'editor.action.formatDocument.none' }])));
    const one = await grade(check, sb);
    assert.deepEqual([one.score, one.passed, one.checks!.map((c) => c.ok)], [1, true, [true, true]], JSON.stringify(one.checks, null, 1));
    assert.equal(one.checks![0].why, '(2) passes: keybindings.json binds it');

    sb.put('pwp/ide/state.json', JSON.stringify(state([{ key: 'ctrl+alt+k', command: 'editor.action.formatDocument' }])));
    const none = await grade(check, sb);
    assert.deepEqual([none.score, none.passed], [0, false]);
    assert.equal(none.checks![0].name, 'any of (1) keybinding ctrl+alt+l → editor.action.formatDocument | (2) keybinding ctrl+alt+l → editor.action.formatDocument.none');
    assert.equal(none.checks![0].why, 'none passes: (1) keybindings.json has no such entry (1 entries); (2) keybindings.json has no such entry (1 entries)');
    assert.match(none.summary, /^1\/2 checks pass; any of \(1\) keybinding .* none passes: \(1\) .*; \(2\) /);
  });

  it('passes an `any` file check when every field of one alternative holds, and names each alternative\'s failing fields when none does', async () => {
    sb.put('workspace/out.json', '{ "command": "workbench.action.files.save" }');
    const check = (first: string) => ({ kind: 'files', scoring: 'fraction', checks: [{ any: [
      { path: 'out.json', json: { command: first } },
      { path: 'out.json', contains: ['files.save'], notContains: ['saveAll'] },
    ] }] });
    const one = await grade(check('workbench.action.files.saveAll'), sb);
    assert.deepEqual([one.score, one.passed], [1, true], one.summary);
    assert.match(one.checks![0].why, /^\(2\) passes: found, not found$/);
    sb.put('workspace/out.json', '{ "command": "workbench.action.files.saveAll" }');
    const none = await grade(check('editor.action.save'), sb);
    assert.deepEqual([none.score, none.passed, none.checks!.length], [0, false, 1]);
    assert.match(none.checks![0].why, /^none passes: \(1\) out\.json\.command: expected "editor\.action\.save", found "workbench\.action\.files\.saveAll".*; \(2\) out\.json: does not contain "saveAll": found$/);
  });

  it('asks the IDE for the settings and timelines that the alternatives of an `any` check read', () => {
    const needs = ideStateNeeds(
      EvaluatorSchema.parse({
        kind: 'ide',
        checks: [{ any: [{ setting: 'files.autoSave', value: 'afterDelay' }, { timeline: { file: 'a.txt', minEntries: 2 } }] }],
      }),
    );
    assert.deepEqual(needs, { settings: [{ key: 'files.autoSave', languageId: undefined }], timeline: ['a.txt'] });
  });
});

describe('image similarity', () => {
  const chart = (shift = 0, color = '#1f77b4') => sharp({ create: { width: 320, height: 200, channels: 3, background: '#ffffff' } })
    .composite([{ input: Buffer.from(`<svg width="320" height="200"><rect x="${40 + shift}" y="60" width="60" height="120" fill="${color}"/><rect x="${160 + shift}" y="20" width="60" height="160" fill="${color}"/></svg>`), top: 0, left: 0 }])
    .png().toBuffer();
  it('scores identical images 1, a blank image 0, and a close one in between', async () => {
    const ref = await chart();
    assert.equal((await imageSimilarity(ref, ref)).score, 1);
    const blank = await sharp({ create: { width: 320, height: 200, channels: 3, background: '#ffffff' } }).png().toBuffer();
    assert.equal((await imageSimilarity(blank, ref)).score, 0);
    const near = (await imageSimilarity(await chart(4), ref)).score;
    const recolored = (await imageSimilarity(await chart(0, '#d62728'), ref)).score;
    assert.ok(near > 0.7 && near < 1, `shifted by 4 px: ${near}`);
    assert.ok(recolored < near, `other colour ${recolored} vs shifted ${near}`);
  });
  it('compares images of different sizes at the reference size', async () => {
    const ref = await chart();
    const big = await sharp(ref).resize(640, 400).png().toBuffer();
    assert.ok((await imageSimilarity(big, ref)).score > 0.9);
  });
});

describe('helpers', () => {
  it('compares SQL results as sets unless order matters', () => {
    assert.equal(sameRows([[1, 'a'], [2, 'b']], [[2, 'b'], [1, 'a']], false), true);
    assert.equal(sameRows([[1, 'a'], [2, 'b']], [[2, 'b'], [1, 'a']], true), false);
    assert.equal(sameRows([[1]], [[1], [2]], false), false);
  });
  it('matches path globs: ** across folders, * and ? within one, {a,b} and [ab] as alternatives, dotfiles like any name', () => {
    assert.equal(matchesAny('src/__pycache__/a.pyc', ['**/__pycache__/**']), true);
    assert.equal(matchesAny('__pycache__/a.pyc', ['**/__pycache__/**']), true);
    assert.equal(matchesAny('.vscode/settings.json', ['.vscode/**']), true);
    assert.equal(matchesAny('a/b.log', ['*.log']), false);
    assert.equal(matchesAny('a/b.log', ['**/*.log']), true);
    assert.equal(matchesAny('build/out.js', ['{build,dist}/**']), true);
    assert.equal(matchesAny('dist/out.js', ['{build,dist}/**']), true);
    assert.equal(matchesAny('lib/out.js', ['{build,dist}/**']), false);
    assert.equal(matchesAny('log-a.txt', ['log-[ab].txt']), true);
    assert.equal(matchesAny('log-c.txt', ['log-[ab].txt']), false);
    assert.equal(matchesAny('{build,dist}/x', ['{build,dist}/**']), false, 'braces are alternatives, not literal text');
    assert.equal(matchesAny('a/.mocharc.json', ['**/.mocharc.*']), true);
    assert.equal(matchesAny('x', []), false);
  });
});
