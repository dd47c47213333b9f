// The Env in a real container: the conformance check, checkpoints (same container, a new
// container, after a process restart, CRIU refused clearly here), pause freezing everything.
import type { DockerDeployment } from '../../host/deployment/dockerDeployment';
import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { NotAvailableError } from '../../bridge/protocol';
import { CheckpointStore } from '../../host/checkpoint/checkpointStore';
import { checkEnv } from '../../host/env/checkEnv';
import { Env } from '../../host/env/env';
import { TimeLimit, WallClockLimit } from '../../host/env/wrappers';
import { waitForSettle } from '../../host/running/settle';
import { testImage } from './environmentFixture';
import { eventually } from './ideDriving';

const run = promisify(execFile);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function containerExists(env: Env, id: string): Promise<boolean> {
  const found = await (env.deployment as DockerDeployment).docker.listContainers({ all: true, filters: { label: [`pwp.environment=${id}`] } });
  return found.length > 0;
}

async function fileIn(env: Env, path: string): Promise<string | null> {
  try { return (await env.deployment.readFile(env.info.id, path)).toString('utf8'); } catch { return null; }
}

/** What a restore must bring back: files, the setting as the IDE sees it, editors and the cursor, local history. */
async function ideState(env: Env) {
  const c = env.client;
  const editors = await c.call('ide.editors', { maxTextChars: 0 });
  return {
    app: await fileIn(env, '/workspace/app.py'),
    extra: await fileIn(env, '/workspace/extra.txt'),
    fontSize: (await c.call('ide.settings.get', { key: 'editor.fontSize' })).value,
    workspaceRulers: (await c.call('ide.settings.get', { key: 'editor.rulers' })).workspaceValue,
    tabs: editors.groups.map((g) => g.tabs.map((t) => t.label)),
    active: editors.activeEditor ? { path: editors.activeEditor.path, cursor: editors.activeEditor.cursor } : null,
    history: (await c.call('ide.timeline', { file: 'app.py' })).entries.length,
    keybindings: JSON.stringify(await c.call('ide.keybindings.get', {})),
  };
}

describe('Env: the gymnasium-style contract, checkpoints and pause, in real containers', function () {
  this.timeout(10 * 60_000);
  let image: string;
  const stateDir = mkdtempSync(join(tmpdir(), 'pwp-state-test-'));
  const store = new CheckpointStore(join(stateDir, 'checkpoints'));
  before(async function () { this.timeout(30 * 60_000); image = await testImage(); });

  it('passes checkEnv, also behind wrappers, and close() leaves no container behind', async () => {
    const env = new Env({ image, labels: { 'pwp.test': '1' }, checkpoints: store });
    const wrapped = new WallClockLimit(new TimeLimit(env, 100), 10 * 60_000);
    let id: string;
    try {
      const r = await checkEnv(wrapped, { files: { 'hello.txt': 'hi\n' } });
      assert.ok(r.checked.length >= 8, r.checked.join('\n'));
      id = r.envId;
    } catch (err) {
      await env.close();
      throw err;
    }
    // checkEnv closed it; the id is gone from docker.
    assert.equal(await containerExists(env, id), false, 'the container is still there after close()');
  });

  describe('checkpoints and pause on one environment', () => {
    // Made once the image is known (a describe body runs before any before hook: \`image\` is unset there).
    let env: Env;
    before(() => { env = new Env({ image, labels: { 'pwp.test': '1' }, checkpoints: store, observe: [] }); });
    after(() => env?.close());

    it('restores files, a user and a workspace setting, local history and the open editors with the cursor after further edits', async () => {
      await env.reset({ options: {
        files: { 'app.py': 'def main():\n    return 1\n' + '# filler\n'.repeat(40), 'notes.txt': 'notes\n', 'other.txt': 'other\n' },
        settings: { 'editor.fontSize': 15 },
        open: ['notes.txt', { file: 'app.py', line: 2, column: 5 }],
      } });
      const c = env.client;
      // An edit through the IDE, saved (a local-history entry), and a setting changed through the IDE.
      await env.step({ type: 'type', text: 'x = ' });
      await env.step({ type: 'key', keys: 'ctrl+s' });
      await eventually(() => fileIn(env, '/workspace/app.py'), (t) => !!t?.includes('    x = return 1'), 60_000, 'the save');
      await c.call('ide.settings.update', { key: 'editor.fontSize', value: 17 });
      await c.call('ide.keybindings.update', { add: [{ key: 'ctrl+alt+j', command: 'editor.action.joinLines' }] });
      await c.call('ide.editors.open', { editors: [{ file: 'app.py', cursor: { line: 30, column: 3 } }] });
      // The IDE writes its local-history entry for the save a moment after the file.
      await eventually(() => c.call('ide.timeline', { file: 'app.py' }), (t) => t.entries.length >= 1, 60_000, 'the local-history entry of the save');
      const before = await ideState(env);
      assert.deepEqual(before.active, { path: '/workspace/app.py', cursor: { line: 30, column: 3 } });
      assert.equal(before.fontSize, 17);
      assert.ok(before.history >= 1);

      const m = await env.checkpoint('edited');
      assert.equal(m.editors.tabs.length, 2);

      // Further edits: the file, a new file, the setting, the editors.
      await c.call('ide.editors.open', { editors: [{ file: 'app.py', cursor: { line: 1, column: 1 } }] });
      await env.step({ type: 'type', text: 'LATER ' });
      await env.step({ type: 'key', keys: 'ctrl+s' });
      await eventually(() => fileIn(env, '/workspace/app.py'), (t) => !!t?.startsWith('LATER '), 60_000, 'the later save');
      await env.exec(['sh', '-c', 'echo new > /workspace/extra.txt']);
      // A workspace setting the IDE picks up from .vscode/settings.json by its file watcher:
      // the restore must wait until the IDE has dropped it again.
      await env.exec(['sh', '-c', 'mkdir -p /workspace/.vscode && echo \'{ "editor.rulers": [80] }\' > /workspace/.vscode/settings.json']);
      await eventually(() => c.call('ide.settings.get', { key: 'editor.rulers' }), (v) => JSON.stringify(v.workspaceValue) === '[80]', 60_000, 'the workspace setting');
      await c.call('ide.settings.update', { key: 'editor.fontSize', value: 22 });
      await c.call('ide.keybindings.update', { remove: [{ command: 'editor.action.joinLines' }], add: [{ key: 'ctrl+alt+k', command: 'editor.action.deleteLines' }] });
      // Another editor in a second group: a restore that let the workbench bring back its
      // last layout would show it again.
      await c.call('ide.editors.open', { editors: [{ file: 'other.txt', viewColumn: 2 }] });
      // And an unsaved edit there, which a restore in place must drop without a save prompt.
      await env.step({ type: 'type', text: 'UNSAVED ' });
      await eventually(() => c.call('ide.editors', { maxTextChars: 0 }), (e) => e.groups.some((g) => g.tabs.some((t) => t.dirty)), 60_000, 'the unsaved edit');
      const changed = await ideState(env);
      assert.notDeepEqual(changed, before);
      assert.equal(changed.extra, 'new\n');

      const r = await env.restore('edited');
      console.log(`      restore in the same container: ${r.durationMs} ms ${r.how} ${JSON.stringify(r.phases)}`);
      assert.equal(r.how, 'in-place', `reloaded: ${r.reloadReason}`);
      assert.deepEqual(await ideState(env), before);
      const tabs = (await c.call('ide.editors', { maxTextChars: 0 })).groups.flatMap((g) => g.tabs);
      assert.deepEqual(tabs.filter((t) => t.dirty).map((t) => t.label), []);
      assert.equal(await fileIn(env, '/workspace/other.txt'), 'other\n');
    });

    it('restores into a new container, from a checkpoint another process can list', async () => {
      // Another process (the CLI) sees the checkpoint on disk.
      const { stdout } = await run(join(__dirname, '../../bin/pwp'), ['checkpoints', '--json'], { env: { ...process.env, PWP_STATE_DIR: stateDir } });
      assert.deepEqual((JSON.parse(stdout) as { name: string }[]).map((c) => c.name), ['edited']);
      const oldId = env.info.id;
      const expected = await ideState(env);
      const r = await env.restore('edited', { newContainer: true });
      console.log(`      restore into a new container: ${r.durationMs} ms ${JSON.stringify(r.phases)}`);
      assert.notEqual(env.info.id, oldId);
      assert.equal(await containerExists(env, oldId), false);
      assert.deepEqual(await ideState(env), expected);
    });

    it('brings an unsaved editor back with its unsaved text, in place and through a workbench reload', async () => {
      const c = env.client;
      await c.call('ide.editors.open', { editors: [{ file: 'notes.txt', cursor: { line: 1, column: 1 } }] });
      await env.step({ type: 'type', text: 'DRAFT ' });
      const dirtyNotes = (e: Awaited<ReturnType<typeof c.call<'ide.editors'>>>) => e.groups.some((g) => g.tabs.some((t) => t.dirty && t.label === 'notes.txt'));
      await eventually(() => c.call('ide.editors', { maxTextChars: 0 }), dirtyNotes, 60_000, 'notes.txt unsaved');
      const m = await env.checkpoint('draft');
      assert.ok(m.editors.tabs.some((t) => t.dirty));
      await env.step({ type: 'key', keys: 'ctrl+s' });
      await eventually(() => fileIn(env, '/workspace/notes.txt'), (t) => t === 'DRAFT notes\n', 60_000, 'the save');

      for (const reload of [false, true]) {
        const r = await env.restore('draft', { reload });
        console.log(`      restore with an unsaved editor: ${r.durationMs} ms ${r.how} ${JSON.stringify(r.phases)}`);
        assert.equal(r.how, reload ? 'reload' : 'in-place');
        assert.equal(await fileIn(env, '/workspace/notes.txt'), 'notes\n');
        const e = await eventually(() => c.call('ide.editors', { maxTextChars: 10_000 }), dirtyNotes, 60_000, 'notes.txt unsaved again');
        assert.match(e.activeEditor?.visibleText ?? '', /DRAFT notes/);
      }
    });

    it('refuses process (CRIU) checkpoints here with a clear reason', async () => {
      await assert.rejects(env.checkpoint('with-processes', { criu: true }), (e: unknown) =>
        e instanceof NotAvailableError && /CRIU/.test((e as Error).message) && /experimental|criu check|not installed/.test((e as Error).message));
      assert.ok(!new CheckpointStore(store.root).list().some((c) => c.name === 'with-processes'));
    });

    it('freezes the container while paused: a clock ticking inside records nothing until resume', async () => {
      // Started in the background by a shell that exits at once: a detached exec would keep
      // its HTTP connection to dockerd open for minutes after the container is gone.
      await env.exec(['sh', '-c', '(while :; do date +%s%3N >> /tmp/ticks; sleep 0.05; done) >/dev/null 2>&1 &']);
      const ticksIn = async () => ((await fileIn(env, '/tmp/ticks')) ?? '').trim().split('\n').filter(Boolean).map(Number);
      await eventually(ticksIn, (t) => t.length >= 2, 60_000, 'the clock ticking');
      await env.pause();
      const pausedAt = Date.now(); // docker pause has returned: the cgroup is frozen from here on
      // Time has to pass while frozen: the gap below is at least this long, and a slow machine
      // only makes it longer.
      await sleep(2000);
      const resumedAt = Date.now();
      await env.resume();
      const ticks = await eventually(ticksIn, (t) => t.some((x) => x > resumedAt), 60_000, 'the clock ticking again after resume');
      const during = ticks.filter((t) => t > pausedAt + 50 && t < resumedAt - 50);
      assert.deepEqual(during, [], 'the clock inside ticked while the container was paused');
      assert.ok(ticks.some((t) => t < pausedAt) && ticks.some((t) => t > resumedAt), 'it ticked before and after');
      const gap = Math.max(...ticks.slice(1).map((t, i) => t - ticks[i]));
      assert.ok(gap >= 1800, `largest gap between ticks ${gap} ms`);
      // And the IDE works again at once.
      const s = await env.step({ type: 'key', keys: 'shift' });
      assert.equal(s.info.error, undefined);
      await waitForSettle(env.client);
    });
  });
});
