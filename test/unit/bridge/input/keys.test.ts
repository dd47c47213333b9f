import { strict as assert } from 'node:assert';
import { InvalidParamsError } from '../../../../bridge/protocol';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseKeySequence } from '../../../../bridge/input/keys';
import { StepSchema, stepKind } from '../../../../host/taskEnv/stepSchema';

describe('key chords', () => {
  it('maps friendly names to X keysyms', () => {
    assert.deepEqual(parseKeySequence('ctrl+s'), ['ctrl+s']);
    assert.deepEqual(parseKeySequence('Enter'), ['Return']);
    assert.deepEqual(parseKeySequence('cmd+shift+P'), ['super+shift+p']);
    assert.deepEqual(parseKeySequence('pagedown esc f12'), ['Next', 'Escape', 'F12']);
  });
  it('splits a space-separated sequence of chords', () => {
    assert.deepEqual(parseKeySequence('ctrl+k ctrl+t'), ['ctrl+k', 'ctrl+t']);
  });
  it('accepts punctuation keys and a literal plus', () => {
    assert.deepEqual(parseKeySequence('ctrl+` ctrl+/ ctrl++'), ['ctrl+grave', 'ctrl+slash', 'ctrl+plus']);
  });
  it('passes raw keysym names through', () => {
    assert.deepEqual(parseKeySequence('KP_Enter XF86Copy'), ['KP_Enter', 'XF86Copy']);
  });
  it('refuses anything that is not a key name', () => {
    for (const bad of ['ctrl+$(id)', 'a;b', 'ctrl+', 'héllo', '']) {
      assert.throws(() => parseKeySequence(bad), InvalidParamsError, bad);
    }
  });
  it('refuses unknown key names with a typed error naming the valid keys and the nearest one', () => {
    assert.throws(() => parseKeySequence('ctrl+nosuchkey'), (e: Error) =>
      e instanceof InvalidParamsError && /'nosuchkey' is not a key name/.test(e.message) && /valid keys are .*enter.*f1 to f35/.test(e.message));
    assert.throws(() => parseKeySequence('ctrl+shft+p'), (e: Error) =>
      e instanceof InvalidParamsError && /'shft'.*did you mean 'shift'/.test(e.message));
    for (const bad of ['Retrun', 'ctrl+entr', 'f36', 'XF86NoSuchThing']) assert.throws(() => parseKeySequence(bad), InvalidParamsError, bad);
  });
  it('accepts keysyms in any unambiguous case, by number and by code point', () => {
    assert.deepEqual(parseKeySequence('kp_enter backspace F35 0xff0d U20AC adiaeresis'), ['KP_Enter', 'BackSpace', 'F35', '0xff0d', 'U20AC', 'adiaeresis']);
  });
  it('accepts every key step of every bundled task', () => {
    const seen: string[] = [];
    const visit = (v: unknown): void => {
      if (Array.isArray(v)) { v.forEach(visit); return; }
      if (typeof v !== 'object' || v === null) return;
      const step = StepSchema.safeParse(v);
      if (step.success && stepKind(step.data) === 'key') seen.push((step.data as { key: string }).key);
      else Object.values(v).forEach(visit);
    };
    const files = readdirSync('tasks', { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('task.json'));
    for (const f of files.map((f) => join('tasks', f))) visit(JSON.parse(readFileSync(f, 'utf8')));
    assert.ok(seen.length >= 20, `found only ${seen.length} key steps`);
    for (const keys of seen) assert.doesNotThrow(() => parseKeySequence(keys), keys);
  });
});
