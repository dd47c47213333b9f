import { strict as assert } from 'node:assert';
import { InvalidParamsError } from '../../../../bridge/protocol';
import { parseXdotoolChain, parseXdotoolCommand, splitWords } from '../../../../bridge/input/xdotoolCommand';

describe('PwP-style xdotool strings', () => {
  it('parses a chained command into argv without the program name', () => {
    assert.deepEqual(parseXdotoolCommand('xdotool mousemove 1000 1200 click 1'), ['mousemove', '1000', '1200', 'click', '1']);
    assert.deepEqual(parseXdotoolCommand('key ctrl+s'), ['key', 'ctrl+s']);
  });
  it('keeps quoted text as one word, literally', () => {
    assert.deepEqual(splitWords(`type 'a; b $(c) \`d\`'`), ['type', 'a; b $(c) `d`']);
    assert.deepEqual(splitWords('type "say \\"hi\\""'), ['type', 'say "hi"']);
  });
  it('refuses unquoted shell syntax, naming it', () => {
    const cases: [string, RegExp][] = [
      ['type hi; rm -rf /', /\(;\)/],
      ['type $(id)', /\$\( \)/],
      ['type `id`', /backticks/],
      ['type a | cat', /\|/],
      ['type a && b', /&/],
      ['type a > /tmp/x', /redirection/],
      ['type $HOME', /variable/],
    ];
    for (const [cmd, re] of cases) {
      assert.throws(() => parseXdotoolCommand(cmd), (e: Error) => e instanceof InvalidParamsError && re.test(e.message), cmd);
    }
  });
  it('allows only input subcommands, anywhere in a chain', () => {
    assert.throws(() => parseXdotoolCommand('exec touch /tmp/x'), InvalidParamsError);
    assert.throws(() => parseXdotoolCommand('mousemove 1 1 exec touch /tmp/x'), InvalidParamsError);
    assert.throws(() => parseXdotoolCommand('search --name x windowkill'), InvalidParamsError);
    assert.throws(() => parseXdotoolCommand('click 1 sleep 3600'), /0 to 10 seconds/);
  });
  it('reports unterminated quotes', () => {
    assert.throws(() => parseXdotoolCommand(`type 'abc`), /unterminated single quote/);
  });
  it('splits PwP && chains into argvs run in order, && inside quotes being text', () => {
    assert.deepEqual(parseXdotoolChain("xdotool mousemove 1000 1200 click 1 && xdotool type 'hello world'"),
      [['mousemove', '1000', '1200', 'click', '1'], ['type', 'hello world']]);
    assert.deepEqual(parseXdotoolChain(`xdotool type 'a && b'`), [['type', 'a && b']]);
    assert.deepEqual(parseXdotoolChain('key ctrl+a&&key Delete'), [['key', 'ctrl+a'], ['key', 'Delete']]);
  });
  it('refuses a chain with an empty part or a bad part before anything runs', () => {
    assert.throws(() => parseXdotoolChain('key ctrl+a &&'), /empty command/);
    assert.throws(() => parseXdotoolChain('key ctrl+a && exec touch /tmp/x'), InvalidParamsError);
    assert.throws(() => parseXdotoolChain('key ctrl+a && type a | cat'), /\|/);
  });
  it('refuses options that read a file, in every spelling getopt_long_only accepts', () => {
    for (const cmd of ['type --file /etc/shadow', 'type -file /etc/shadow', 'type --fi /etc/shadow', 'type --file=/etc/shadow',
      'type hello --file /etc/shadow', 'key --file /etc/shadow ctrl+s', 'mousemove 1 1 type -f /etc/shadow', 'type --constructor x']) {
      assert.throws(() => parseXdotoolCommand(cmd), (e: Error) => e instanceof InvalidParamsError && /not allowed/.test(e.message), cmd);
    }
  });
  it('keeps the input options and text after --', () => {
    assert.deepEqual(parseXdotoolCommand('type --delay 20 -- --file'), ['type', '--delay', '20', '--', '--file']);
    assert.deepEqual(parseXdotoolCommand('key --clearmodifiers --delay=30 ctrl+alt+Delete'), ['key', '--clearmodifiers', '--delay=30', 'ctrl+alt+Delete']);
    assert.deepEqual(parseXdotoolCommand('mousemove_relative -- -10 20'), ['mousemove_relative', '--', '-10', '20']);
  });
  it('refuses key names xdotool would skip silently, naming the valid ones', () => {
    for (const cmd of ['key ctrl+nosuchkey', 'keydown shft', 'key ctrl+s bogus']) {
      assert.throws(() => parseXdotoolCommand(cmd), (e: Error) => e instanceof InvalidParamsError && /is not a key name.*valid keys are/.test(e.message), cmd);
    }
    assert.deepEqual(parseXdotoolCommand('keydown Shift_L keyup 0xff13 key 38'), ['keydown', 'Shift_L', 'keyup', '0xff13', 'key', '38']);
  });
});
