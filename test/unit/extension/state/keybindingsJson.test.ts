import { strict as assert } from 'node:assert';
import { EMPTY_KEYBINDINGS, editKeybindings, normalizeKey, readKeybindings } from '../../../../extension/src/state/keybindingsJson';

const USER_FILE = `// Place your key bindings in this file to override the defaults
[
    // save all with a chord
    {
        "key": "ctrl+k s",
        "command": "workbench.action.files.saveAll"
    },
    {
        "key": "ctrl+shift+t",
        "command": "workbench.action.terminal.new",
        "when": "!terminalFocus", // only outside terminals
    },
    { "key": "f5", "command": "-workbench.action.debug.start" },
]
`;

describe('keybindings.json (JSONC) reading and editing', () => {
  it('reads entries from a file with comments and trailing commas', () => {
    const r = readKeybindings(USER_FILE);
    assert.deepEqual(r.errors, []);
    assert.deepEqual(r.keybindings, [
      { key: 'ctrl+k s', command: 'workbench.action.files.saveAll' },
      { key: 'ctrl+shift+t', command: 'workbench.action.terminal.new', when: '!terminalFocus' },
      { key: 'f5', command: '-workbench.action.debug.start' },
    ]);
  });

  it('treats an empty file as no keybindings and reports a broken one', () => {
    assert.deepEqual(readKeybindings('').keybindings, []);
    const broken = readKeybindings('[ { "key": "a", "command": "b" ');
    assert.ok(broken.errors.length > 0);
    assert.match(readKeybindings('{"key": "a"}').errors.at(-1)!.message, /not a JSON array/);
  });

  it('appends an entry and keeps the comments', () => {
    const r = editKeybindings(USER_FILE, [], [{ key: 'ctrl+alt+j', command: 'editor.action.joinLines', when: 'editorTextFocus', args: { n: 1 } }]);
    assert.equal(r.added, 1);
    assert.match(r.text, /\/\/ save all with a chord/);
    assert.match(r.text, /\/\/ only outside terminals/);
    const kb = readKeybindings(r.text).keybindings;
    assert.equal(kb.length, 4);
    assert.deepEqual(kb[3], { key: 'ctrl+alt+j', command: 'editor.action.joinLines', when: 'editorTextFocus', args: { n: 1 } });
    // The new entry is indented like the rest of the file.
    assert.match(r.text, /\n {4}\{\n {8}"key": "ctrl\+alt\+j"/);
  });

  it('removes entries by command, narrowed by key and when', () => {
    const byCommandAndKey = editKeybindings(USER_FILE, [{ command: 'workbench.action.terminal.new', key: 'Shift+Ctrl+T' }], []);
    assert.equal(byCommandAndKey.removed, 1);
    assert.deepEqual(readKeybindings(byCommandAndKey.text).keybindings.map((k) => k.command), ['workbench.action.files.saveAll', '-workbench.action.debug.start']);
    assert.match(byCommandAndKey.text, /\/\/ save all with a chord/);

    const wrongWhen = editKeybindings(USER_FILE, [{ command: 'workbench.action.terminal.new', when: 'terminalFocus' }], []);
    assert.equal(wrongWhen.removed, 0);
    assert.equal(wrongWhen.text, USER_FILE);

    const wrongKey = editKeybindings(USER_FILE, [{ command: 'workbench.action.files.saveAll', key: 'ctrl+k t' }], []);
    assert.equal(wrongKey.removed, 0);
  });

  it('removes every duplicate and then adds, in one edit', () => {
    const twice = editKeybindings(USER_FILE, [], [{ key: 'f1', command: 'x' }, { key: 'f2', command: 'x' }]).text;
    const r = editKeybindings(twice, [{ command: 'x' }], [{ key: 'f3', command: 'y' }]);
    assert.equal(r.removed, 2);
    assert.deepEqual(readKeybindings(r.text).keybindings.map((k) => `${k.key}=${k.command}`),
      ['ctrl+k s=workbench.action.files.saveAll', 'ctrl+shift+t=workbench.action.terminal.new', 'f5=-workbench.action.debug.start', 'f3=y']);
  });

  it('starts a missing file the way VS Code does', () => {
    const r = editKeybindings('', [], [{ key: 'ctrl+alt+u', command: 'workbench.action.files.newUntitledFile' }]);
    assert.ok(r.text.startsWith(EMPTY_KEYBINDINGS.split('\n')[0]));
    assert.deepEqual(readKeybindings(r.text).keybindings, [{ key: 'ctrl+alt+u', command: 'workbench.action.files.newUntitledFile' }]);
  });

  it('refuses to edit a file that is not an array', () => {
    assert.throws(() => editKeybindings('{"key": "a", "command": "b"}', [], [{ key: 'f1', command: 'c' }]), /not a JSON array/);
  });

  it('normalizes key sequences for matching', () => {
    assert.equal(normalizeKey(' Shift+Ctrl+A   ctrl+K '), 'ctrl+shift+a ctrl+k');
    assert.equal(normalizeKey('alt+ctrl+shift+f'), 'ctrl+shift+alt+f');
  });
});
