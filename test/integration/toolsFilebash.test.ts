// tools.* end to end, the computer-use group: tools.list, file_edit and the persistent bash,
// in a real container; every change checked on disk or in IDE state, every bad call checked
// to change nothing.
import { strict as assert } from 'node:assert';
import { InvalidParamsError } from '../../bridge/protocol';
import { useEnvironment } from './environmentFixture';
import { eventually } from './ideDriving';
import { callTool, execIn, fileIn, textOf } from './toolsFixture';

const FILES = {
  'notes.txt': 'alpha\nbeta\ngamma\n',
  'dup.txt': 'same\nother\nsame\n',
  'src/app.py': 'def main():\n    return 1\n',
};

describe('tools.*: tools.list, file_edit and bash', function () {
  this.timeout(300_000); // a hang detector: a loaded machine needs several of the waits on state below
  const env = useEnvironment(FILES);

  it('lists every tool with a group, a description and an object JSON Schema', async () => {
    const { tools } = await env().client.call('tools.list', {});
    const names = tools.map((t) => t.name);
    assert.equal(new Set(names).size, names.length, 'names are unique');
    for (const expected of [
      'file_edit', 'bash', 'search_repository', 'get_diff_patch', 'zoom_in', 'rename_symbol', 'debug', 'profile', 'run_tests', 'read_file', 'edit_file',
      'ui_test', 'create_diagram', 'web_search', 'read_output',
    ]) {
      assert.ok(names.includes(expected), `${expected} is listed`);
    }
    for (const t of tools) {
      assert.equal(t.inputSchema.type, 'object', `${t.name} has an object schema`);
      assert.ok(t.description.length > 20, `${t.name} is described`);
      assert.ok(t.timeoutMs > 0 && t.maxTimeoutMs >= t.timeoutMs);
    }
    const filebash = await env().client.call('tools.list', { groups: ['filebash'] });
    assert.deepEqual(filebash.tools.map((t) => t.name).sort(), ['bash', 'file_edit', 'read_output']);
  });

  it('file_edit views a file with line numbers and a folder as a listing', async () => {
    const { client } = env();
    const view = await callTool(client, 'file_edit', { command: 'view', path: 'notes.txt', view_range: [2, -1] });
    assert.equal(view.isError, false);
    assert.match(textOf(view), /\n {5}2\tbeta\n {5}3\tgamma$/);
    const dir = await callTool(client, 'file_edit', { command: 'view', path: '/workspace' });
    assert.match(textOf(dir), /src\/app\.py/);
  });

  it('file_edit str_replace edits through the IDE (a local-history entry) and undo_edit restores the file', async () => {
    const { client } = env();
    await callTool(client, 'open_file', { file: 'notes.txt' });
    const before = (await client.call('ide.timeline', { file: 'notes.txt' })).entries.length;
    const r = await callTool(client, 'file_edit', { command: 'str_replace', path: 'notes.txt', old_str: 'beta', new_str: 'BETA' });
    assert.equal(r.isError, false, textOf(r));
    assert.equal(await fileIn(env(), '/workspace/notes.txt'), 'alpha\nBETA\ngamma\n');
    const editor = (await client.call('ide.editors', {})).activeEditor!;
    assert.equal(editor.path, '/workspace/notes.txt');
    assert.match(editor.visibleText, /^alpha\nBETA\ngamma/, 'the open editor shows the edit');
    assert.equal(editor.dirty, false, 'and it is saved');
    // The IDE writes its local-history index a moment after the save.
    await eventually(() => client.call('ide.timeline', { file: 'notes.txt' }), (t) => t.entries.length > before, 60_000,
      'a local-history entry from the save (it went through the IDE)');
    await callTool(client, 'file_edit', { command: 'insert', path: 'notes.txt', insert_line: 1, new_str: 'inserted' });
    assert.equal(await fileIn(env(), '/workspace/notes.txt'), 'alpha\ninserted\nBETA\ngamma\n');
    await callTool(client, 'file_edit', { command: 'undo_edit', path: 'notes.txt' });
    assert.equal(await fileIn(env(), '/workspace/notes.txt'), 'alpha\nBETA\ngamma\n');
    await callTool(client, 'file_edit', { command: 'undo_edit', path: 'notes.txt' });
    assert.equal(await fileIn(env(), '/workspace/notes.txt'), 'alpha\nbeta\ngamma\n');
  });

  it('file_edit create makes a new file, refuses to overwrite, and undo_edit removes it', async () => {
    const { client } = env();
    const r = await callTool(client, 'file_edit', { command: 'create', path: 'pkg/new.py', file_text: 'X = 1\n' });
    assert.equal(r.isError, false, textOf(r));
    assert.equal(await fileIn(env(), '/workspace/pkg/new.py'), 'X = 1\n');
    const again = await callTool(client, 'file_edit', { command: 'create', path: 'pkg/new.py', file_text: 'other' });
    assert.equal(again.isError, true);
    assert.match(textOf(again), /already exists/);
    assert.equal(await fileIn(env(), '/workspace/pkg/new.py'), 'X = 1\n');
    await callTool(client, 'file_edit', { command: 'undo_edit', path: 'pkg/new.py' });
    assert.equal(await fileIn(env(), '/workspace/pkg/new.py'), null);
  });

  it('file_edit refuses an ambiguous or missing str_replace, naming the lines, and changes nothing', async () => {
    const { client } = env();
    const amb = await callTool(client, 'file_edit', { command: 'str_replace', path: 'dup.txt', old_str: 'same', new_str: 'x' });
    assert.equal(amb.isError, true);
    assert.match(textOf(amb), /occurs 2 times \(lines 1, 3\)/);
    const none = await callTool(client, 'file_edit', { command: 'str_replace', path: 'dup.txt', old_str: 'absent', new_str: 'x' });
    assert.match(textOf(none), /not found/);
    const missing = await callTool(client, 'file_edit', { command: 'view', path: 'nope.txt' });
    assert.equal(missing.isError, true);
    assert.match(textOf(missing), /not found/);
    assert.equal(await fileIn(env(), '/workspace/dup.txt'), FILES['dup.txt']);
  });

  it('refuses paths that escape the workspace by .. or by a symlink, and writes nothing outside', async () => {
    const { client } = env();
    await execIn(env(), ['sh', '-c', 'mkdir -p /tmp/outside && echo secret > /tmp/outside/s.txt && ln -sfn /tmp/outside /workspace/out']);
    for (const path of ['../etc/passwd', '/etc/passwd', 'out/s.txt', 'src/../../tmp/outside/s.txt']) {
      const r = await callTool(client, 'file_edit', { command: 'view', path });
      assert.equal(r.isError, true, path);
      assert.match(textOf(r), /outside the workspace/, path);
    }
    const create = await callTool(client, 'file_edit', { command: 'create', path: 'out/pwned.txt', file_text: 'x' });
    assert.equal(create.isError, true);
    const edit = await callTool(client, 'file_edit', { command: 'str_replace', path: 'out/s.txt', old_str: 'secret', new_str: 'gone' });
    assert.equal(edit.isError, true);
    assert.equal(await fileIn(env(), '/tmp/outside/pwned.txt'), null);
    assert.equal(await fileIn(env(), '/tmp/outside/s.txt'), 'secret\n');
  });

  it('rejects arguments of the wrong type with InvalidParamsError naming the field', async () => {
    const { client } = env();
    await assert.rejects(callTool(client, 'file_edit', { command: 'view', path: 5 }), (e: Error) => e instanceof InvalidParamsError && /args\.path/.test(e.message));
    await assert.rejects(callTool(client, 'file_edit', { command: 'explode', path: 'a' }), (e: Error) => e instanceof InvalidParamsError && /args\.command/.test(e.message));
    await assert.rejects(callTool(client, 'no_such_tool', {}), (e: Error) => e instanceof InvalidParamsError && /unknown tool/.test(e.message));
  });

  it('bash keeps cwd and variables between calls, runs as the container user, without the bridge\'s secrets', async () => {
    const { client } = env();
    await callTool(client, 'bash', { command: 'cd src && export GREETING=hi' });
    const r = await callTool(client, 'bash', { command: 'pwd; echo $GREETING; id -un; env | grep -c "^PWP_" || true' });
    assert.equal(textOf(r), '/workspace/src\nhi\npwp\n0');
    const fail = await callTool(client, 'bash', { command: 'ls /nonexistent' });
    assert.match(textOf(fail), /No such file[\s\S]*\[exit code 2\]/);
  });

  it('bash returns partial output on a soft timeout, keeps waiting on request, and interrupts at the hard timeout', async () => {
    const { client } = env();
    // The command goes on only when the test says so (a file appears), not after a time: it is
    // still running for the refused call, whatever the load. Its first line has to come out
    // within the soft timeout; 3 s is plenty for an echo.
    const gate = '/tmp/pwp-bash-go-on';
    const soft = await callTool(client, 'bash', { command: `echo first; until [ -e ${gate} ]; do sleep 0.1; done; sleep 2; echo second`, soft_timeout_s: 3 });
    assert.match(textOf(soft), /^first\n\[no output for 3 s; the command is still running/);
    const busy = await callTool(client, 'bash', { command: 'echo other' });
    assert.equal(busy.isError, true);
    // The wait is asked for before the command may go on, so it is waiting when the command ends:
    // a command that ends with nobody waiting leaves "No command is running." (the 2 s after the
    // gate only cover a wait request overtaken by the touch).
    const waiting = callTool(client, 'bash', { wait: true, soft_timeout_s: 120 });
    await execIn(env(), ['touch', gate]);
    assert.equal(textOf(await waiting), 'second');
    const hard = await callTool(client, 'bash', { command: 'echo begun; sleep 61; echo never', hard_timeout_s: 3 });
    assert.match(textOf(hard), /^begun\n\[the command ran longer than 3 s and was interrupted/);
    assert.equal((await execIn(env(), ['sh', '-c', 'ps -eo args= | grep -cx "sleep 61" || true'])).trim(), '0', 'the command was stopped');
    assert.equal(textOf(await callTool(client, 'bash', { command: 'echo next' })), 'next');
  });

  it('bash interrupts a running command on request, and restart gives a fresh shell in the workspace', async () => {
    const { client } = env();
    await callTool(client, 'bash', { command: 'sleep 62', soft_timeout_s: 0.3 });
    const intr = await callTool(client, 'bash', { interrupt: true });
    assert.match(textOf(intr), /Interrupted/);
    assert.equal((await execIn(env(), ['sh', '-c', 'ps -eo args= | grep -cx "sleep 62" || true'])).trim(), '0');
    await callTool(client, 'bash', { command: 'cd /tmp && export KEEP=1' });
    await callTool(client, 'bash', { restart: true });
    assert.equal(textOf(await callTool(client, 'bash', { command: 'pwd; echo "[$KEEP]"' })), '/workspace\n[]');
  });

  it('bash runs background processes that can be listed, tailed and killed', async () => {
    const { client } = env();
    const start = await callTool(client, 'bash', { command: 'for i in 1 2 3; do echo tick$i; sleep 0.2; done; sleep 67', background: true });
    const id = Number(/\{"tail_id": (\d+)\}/.exec(textOf(start))![1]);
    // The three ticks take 0.4 s at least; a loaded machine takes longer: wait for them.
    await eventually(async () => textOf(await callTool(client, 'bash', { tail_id: id })), (t) => /tick1\ntick2\ntick3/.test(t), 60_000, 'the three ticks in the tail');
    assert.match(textOf(await callTool(client, 'bash', { list_background: true })), new RegExp(`\\[${id}\\] pid \\d+ running`));
    assert.match(textOf(await callTool(client, 'bash', { kill_id: id })), /killed by SIGTERM/);
    assert.equal((await execIn(env(), ['sh', '-c', 'ps -eo args= | grep -cx "sleep 67" || true'])).trim(), '0', 'the process group is gone');
  });

  it('caps a huge output with a note and pages through it with read_output', async () => {
    const { client } = env();
    const r = await callTool(client, 'bash', { command: 'seq 1 100000' }, { maxOutputChars: 5000 });
    assert.ok(r.truncated);
    assert.equal(r.truncated.totalChars, 588894);
    assert.match(textOf(r), /output truncated: showing characters 0-5000 of 588894\. Call read_output/);
    const page = await callTool(client, 'read_output', r.truncated.next.args);
    // Lines 1-999 take 3888 characters, then 5 each: character 5000 is the third of "1222\n".
    assert.match(textOf(page), /^22\n1223\n1224\n/);
    assert.match(textOf(page), /characters 5000-10000 of 588894/);
  });

  it('records every call in the tool log with its arguments, result size, duration and error', async () => {
    const { client } = env();
    const { entries } = await client.call('tools.log', {});
    assert.ok(entries.length >= 20);
    const create = entries.find((e) => e.name === 'file_edit' && (e.args as { command?: string }).command === 'create')!;
    assert.equal(create.isError, false);
    assert.ok(create.resultChars > 0 && create.durationMs >= 0);
    const bad = entries.find((e) => e.name === 'no_such_tool')!;
    assert.match(bad.error!, /unknown tool/);
    const escaped = entries.find((e) => (e.args as { path?: string }).path === '../etc/passwd')!;
    assert.equal(escaped.isError, true);
    const later = await client.call('tools.log', { sinceId: entries.at(-1)!.id });
    assert.equal(later.entries.length, 0);
  });
});
