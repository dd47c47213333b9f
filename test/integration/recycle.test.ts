// Recycling, on one real container (a pool that may start one environment only): a hostile
// episode leaves nothing to the next one, and the pristine check catches each hostile act when
// recycling is made to leave out the part that puts it back.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DockerDeployment } from '../../host/deployment/dockerDeployment';
import { Env } from '../../host/env/env';
import { EnvPool } from '../../host/env/pool';
import { recycle, type Baseline, type RecyclePart } from '../../host/checkpoint/recycle';
import { differences, fingerprint, PER_START } from '../../host/running/pristine';
import { readUserState } from '../../host/running/userState';
import type { Runtime } from '../../host/deployment/runtime';
import { startEnvironment } from '../../host/running/runningEnvironment';
import { takeBaseline } from '../../host/checkpoint/recycle';
import { testImage } from './environmentFixture';

const HOSTILE_EXTENSION = '/home/pwp/ide/extensions/pwp-test.hostile-0.0.1';

/** The hostile acts, by the recycling part that puts each back. */
const HOSTILE: Record<Exclude<RecyclePart, 'pointer'>, { act: (env: Env) => Promise<void>; caught: RegExp[] }> = {
  processes: {
    // A loop that edits the workspace later, and a daemon that double-forked away from its shell.
    act: async (env) => {
      await env.exec(['sh', '-c', 'nohup sh -c "while sleep 0.5; do date >> /workspace/later.txt; done" >/dev/null 2>&1 &']);
      await env.exec(['sh', '-c', '( setsid sh -c "exec sleep 100000" >/dev/null 2>&1 & ) ; exit 0']);
    },
    caught: [/^processes: added .*while sleep/, /^processes: added sleep 100000/],
  },
  input: {
    act: async (env) => {
      // Copied from an editor that has the focus (the copy may land after the keys: waited for on the display).
      const runtime = await env.deployment.runtime(env.unwrapped.info.id);
      await env.writeFile('main.txt', 'copy me\n'); // the recycled workspace is as at the start: empty
      await eventually(async () => {
        await env.client.call('ide.editors.open', { editors: [{ file: 'main.txt' }] });
        await env.client.call('input.key', { keys: 'ctrl+a' });
        await env.client.call('input.key', { keys: 'ctrl+c' });
        return (await readUserState(runtime)).input.selections?.includes('CLIPBOARD') ?? false;
      });
      await env.client.call('input.xdotool', { argv: ['keydown', 'shift'] });
    },
    caught: [/^input: .*"keys":\[\d+\].*CLIPBOARD/],
  },
  workbench: {
    // A setting and a keybinding changed through the IDE, a terminal and the panel left open, the
    // Search view shown in the side bar.
    act: async (env) => {
      await env.client.call('ide.settings.update', { key: 'editor.fontSize', value: 23, target: 'user' });
      await env.client.call('ide.keybindings.update', { add: [{ key: 'ctrl+alt+j', command: 'workbench.action.files.save' }] });
      await env.client.call('input.key', { keys: 'ctrl+shift+`' });
      await eventually(async () => (await env.client.call('ide.terminals', {})).terminals.length > 0);
      await env.client.call('input.key', { keys: 'ctrl+shift+f' });
    },
    caught: [/^ide\.settings: /, /^ide\.keybindings: /, /^ide\.terminals: /, /^marks: added .*Search/],
  },
  breakpoints: {
    act: async (env) => { await env.client.call('ide.debug.addBreakpoints', { breakpoints: [{ file: 'main.txt', line: 1 }] }); },
    caught: [/^ide\.breakpoints: /],
  },
  zoom: {
    // The browser's own zoom, which the page keeps across a reload.
    act: async (env) => {
      await env.client.call('input.key', { keys: 'ctrl+equal' });
      await eventually(async () => (await env.client.call('dom.zoom', {})).zoom > 1);
    },
    caught: [/^marks: /, /^screen: /],
  },
  files: {
    // Files outside the workspace, and an extension installed by hand.
    act: async (env) => {
      await env.exec(['sh', '-c', 'echo "alias ls=rm" >> ~/.bashrc && git config --global user.name hostile && echo left > /tmp/left-behind']);
      await env.exec(['sh', '-c', `mkdir -p ${HOSTILE_EXTENSION} && echo '{"name":"hostile","publisher":"pwp-test","version":"0.0.1","engines":{"vscode":"*"}}' > ${HOSTILE_EXTENSION}/package.json`]);
    },
    caught: [/^files: \/home\/pwp\/\.bashrc: /, /^files: \/home\/pwp\/\.gitconfig: absent/, /^files: \/tmp\/left-behind: absent/,
      /^files: \/home\/pwp\/ide\/extensions\/pwp-test\.hostile-0\.0\.1: absent/],
  },
};

/** A .vsix of a manifest and its files, packaged by vsce. */
function packageVsix(manifest: Record<string, unknown>, files: Record<string, string>): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'pwp-vsix-'));
  try {
    writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest));
    writeFileSync(join(dir, 'LICENSE'), 'MIT\n');
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    const vsce = [require.resolve('@vscode/vsce/vsce'), 'package', '--no-dependencies', '--allow-missing-repository', '--skip-license'];
    execFileSync(process.execPath, [...vsce, '-o', join(dir, 'x.vsix')], { cwd: dir, stdio: 'ignore' });
    return readFileSync(join(dir, 'x.vsix'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function eventually(check: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out waiting for a condition');
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('recycling (real container)', function () {
  this.timeout(30 * 60_000);
  let pool: EnvPool;
  let env: Env;
  let runtime: Runtime;
  let baseline: Baseline;

  before(async () => {
    const deployment = new DockerDeployment();
    // total 1: the second episode can only be the first one's container, recycled.
    pool = new EnvPool({ size: 1, total: 1, deployment, recycle: {}, spec: { image: await testImage(), labels: { 'pwp.test': '1' } } });
    env = new Env({ pool, observe: [] });
  });
  after(async () => {
    await env?.close();
    await pool?.close();
  });

  it('a hostile episode leaves nothing to the next one, which runs in the same container', async () => {
    const first = await env.reset({ options: { files: { 'main.txt': 'one\n' }, open: ['main.txt'] } });
    const id = first.info.envId;
    baseline = pool.baselineOf(id)!;
    assert.ok(baseline, 'the pool took a baseline');
    for (const h of Object.values(HOSTILE)) await h.act(env);
    const second = await env.reset({ options: { files: { 'main.txt': 'two\n' } } });
    assert.equal(second.info.envId, id, 'the same container, recycled');
    assert.ok(second.info.recycled, 'reset says it was recycled');
    runtime = await env.deployment.runtime(id);
    const user = await readUserState(runtime);
    assert.deepEqual(user.stray, [], 'no process of the last episode runs');
    assert.deepEqual(user.input, { keys: [], buttons: [], selections: [] }, 'no key held, no clipboard');
    assert.equal((await env.readFile('/workspace/later.txt')), undefined, 'the loop did not write after the recycle');
    assert.equal((await env.readFile('/workspace/main.txt'))?.toString(), 'two\n');
    assert.equal(await env.readFile('/home/pwp/.gitconfig'), undefined);
    assert.equal(await env.readFile('/tmp/left-behind'), undefined);
    assert.doesNotMatch((await env.readFile('/home/pwp/.bashrc'))!.toString(), /alias ls=rm/);
    assert.equal((await env.exec(['test', '-e', HOSTILE_EXTENSION])).exitCode, 1, 'the extension is gone');
    assert.equal((await env.client.call('ide.settings.get', { key: 'editor.fontSize' })).userValue, undefined);
    assert.ok(!JSON.stringify(await env.client.call('ide.keybindings.get', {})).includes('ctrl+alt+j'));
    assert.deepEqual((await env.client.call('ide.terminals', {})).terminals, []);
    assert.deepEqual((await env.client.call('ide.debug', {})).breakpoints, []);
    assert.equal((await env.client.call('dom.zoom', {})).zoom, 1);
    assert.ok(!(await env.client.call('ide.extensions', { kind: 'user' })).extensions.length, 'no user extension is installed or loaded');
  });

  it('a recycled environment is as another container freshly started from the image (each start\'s identity left out)', async () => {
    const deployment = new DockerDeployment();
    const other = await startEnvironment(deployment, { image: await testImage(), labels: { 'pwp.test': '1' } });
    try {
      const fresh = await takeBaseline(deployment, other.info, other.client);
      // The recycled one with nothing in its workspace, as the fresh one has.
      const { info, client } = env.unwrapped;
      assert.deepEqual((await recycle(env.deployment, info, client, baseline)).differences, []);
      const found = differences(fresh.fingerprint, await fingerprint(runtime, client));
      const perStart = (d: string) => PER_START.some((p) => d.startsWith(`files: ${p}`));
      assert.deepEqual(found.filter((d) => !perStart(d)), [], 'only each start\'s identity differs');
      // The screen is compared with each container's own start (userState.py keeps the frame in it).
      assert.ok(found.some(perStart), 'the two starts have identities of their own (the mask is needed)');
    } finally {
      other.client.close();
      await deployment.remove(other.info.id).catch(() => undefined);
    }
  });

  for (const [part, h] of Object.entries(HOSTILE) as [RecyclePart, typeof HOSTILE[keyof typeof HOSTILE]][]) {
    it(`the pristine check catches what recycling leaves when it skips its ${part} part`, async () => {
      assert.ok(baseline, 'the first test took the baseline');
      const { info, client } = env.unwrapped;
      await h.act(env);
      const left = await recycle(env.deployment, info, client, baseline, { skip: [part], reload: false });
      assert.equal(left.pristine, false);
      for (const re of h.caught) assert.ok(left.differences.some((d) => re.test(d)), `${re} among:\n${left.differences.join('\n')}`);
      const clean = await recycle(env.deployment, info, client, baseline);
      assert.deepEqual(clean.differences, []);
      assert.deepEqual(differences(baseline.fingerprint, await fingerprint(runtime, client)), []);
    });
  }
  // Without a Git repository: the Git extension notices a repository gone with the workspace in
  // its own time, which on a loaded machine can outlast the in-place check's looks (the recycle
  // then reloads, the safe way).
  it('an episode that debugged Python is recycled in place (the language server and the debug entry ended)', async () => {
    const run = { name: 'Run prog', type: 'debugpy', request: 'launch', program: '${workspaceFolder}/prog.py', console: 'internalConsole' };
    const launch = { version: '0.2.0', configurations: [run] };
    // The program waits for a file the test writes once the extension has seen its session start:
    // a program that ends at once can end before the extension hears its session began, and a
    // wait for "no sessions" would then pass before the session is there.
    const prog = 'import os, time\nopen("/workspace/ran.txt", "w").write("ran")\nwhile not os.path.exists("/workspace/go"):\n    time.sleep(0.05)\n';
    await env.reset({ options: { files: { 'prog.py': prog, '.vscode/launch.json': JSON.stringify(launch) }, open: ['prog.py'] } });
    const debugEntry = async () => (await env.client.call('dom.marks', {})).marks.some((m) => m.part === 'statusbar' && /^Debug\b/.test(m.text));
    assert.equal(await debugEntry(), false, 'a fresh IDE shows no debug entry');
    await env.client.call('input.key', { keys: 'f5' });
    await eventually(debugEntry);
    // The program ran (its session started), and its session ended.
    await eventually(async () => (await env.readFile('/workspace/ran.txt')) !== undefined);
    await eventually(async () => (await env.client.call('ide.debug', {})).sessions.length > 0);
    await env.writeFile('go', '');
    await eventually(async () => (await env.client.call('ide.debug', {})).sessions.length === 0);
    const pyright = async () => (await env.exec(['pgrep', '-f', 'pyright/langserver'])).exitCode === 0;
    await eventually(pyright);
    const { info, client } = env.unwrapped;
    const r = await recycle(env.deployment, info, client, pool.baselineOf(info.id)!);
    assert.deepEqual(r.differences, []);
    assert.equal(r.how, 'in-place', r.reason);
    assert.equal(await debugEntry(), false);
    assert.equal(await pyright(), false, 'the language server a fresh IDE has not started is stopped');
  });
  it('an extension installed through the IDE is uninstalled in place; one that ran code makes the recycle reload the workbench', async () => {
    const { info, client } = env.unwrapped;
    const base = pool.baselineOf(info.id)!;
    const install = async (manifest: Record<string, unknown>, files: Record<string, string>) => {
      await env.writeFile(`${String(manifest.name)}.vsix`, packageVsix(manifest, files));
      const r = await client.call('ide.extensions.install', { vsix: `/workspace/${String(manifest.name)}.vsix` });
      assert.equal(r.loaded, true);
    };
    const engines = { vscode: '^1.80.0' };
    const theme = { name: 'calm-theme', publisher: 'pwptest', version: '1.0.0', license: 'MIT', engines, contributes: { themes: [{ label: 'Calm', uiTheme: 'vs-dark', path: './calm.json' }] } };
    await install(theme, { 'calm.json': JSON.stringify({ name: 'Calm', type: 'dark', colors: {} }) });
    const quiet = await recycle(env.deployment, info, client, base);
    assert.deepEqual([quiet.how, quiet.differences], ['in-place', []], quiet.reason);
    const code = { name: 'busy-ext', publisher: 'pwptest', version: '1.0.0', license: 'MIT', engines, main: './main.js', activationEvents: ['*'] };
    await install(code, { 'main.js': 'exports.activate = () => { globalThis.pwpTestBusy = setInterval(() => undefined, 1000); };\n' });
    const busy = await recycle(env.deployment, info, client, base);
    assert.deepEqual([busy.how, busy.differences], ['reload', []]);
    assert.match(busy.reason ?? '', /ran code.*pwptest\.busy-ext/);
    assert.deepEqual((await client.call('ide.extensions', { kind: 'user' })).extensions, []);
  });
});
