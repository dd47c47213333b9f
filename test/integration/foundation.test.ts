// The foundation, end to end in a real container: the IDE renders, input reaches it,
// capture reflects it, bad requests are refused, and a crashed IDE comes back.
import { strict as assert } from 'node:assert';
import sharp from 'sharp';
import {
  InvalidParamsError, MethodNotFoundError, UnauthorizedError,
} from '../../bridge/protocol';
import { BridgeClient } from '../../host/client/bridgeClient';
import { screenshot } from '../../host/env/observation';
import { waitForSettle } from '../../host/running/settle';
import { useEnvironment } from './environmentFixture';
import { eventually, execIn, openWithKeyboard } from './ideDriving';

const NOTES = 'notes.txt';

async function pixelsOf(png: Buffer): Promise<{ width: number; height: number; distinctColors: number; stdev: number }> {
  const img = sharp(png);
  const { data, info } = await img.raw().toBuffer({ resolveWithObject: true });
  const colors = new Set<number>();
  for (let i = 0; i < data.length; i += info.channels * 7) colors.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
  const stats = await sharp(png).stats();
  return { width: info.width, height: info.height, distinctColors: colors.size, stdev: stats.channels[0].stdev };
}

describe('foundation: a real IDE in a real container', function () {
  this.timeout(300_000); // a hang detector: waits on state are bounded at 120 s each, and a loaded machine needs several
  const longFile = Array.from({ length: 300 }, (_, i) => `line ${i + 1}`).join('\n');
  /** Saves land on disk a little after ctrl+s; wait for them (bounded) before comparing. */
  const fileBecomes = async (path: string, expected: string) => {
    const last = await eventually(() => env().readFile(path), (t) => t === expected, 60_000, `${path} saved`).catch(() => undefined);
    assert.equal(last ?? (await env().readFile(path)), expected);
  };
  const env = useEnvironment({ [NOTES]: 'first line\n', 'src/app.py': 'print("hi")\n', 'long.txt': longFile });
  /**
   * Marks the screen as it is now, and returns a wait until more than `pixels` of it have changed
   * since. On a loaded machine the browser may draw a change the workbench has made long after:
   * a quiet screen alone does not show that the drawing is done. Its own baseline, so the
   * connection's default one (what the test asserts on) does not move.
   */
  const screenMark = async (name: string) => {
    await env().client.call('capture.delta', { includeImage: false, baseline: name });
    let changed = 0;
    return (pixels: number, what: string) => eventually(async () => {
      changed += (await env().client.call('capture.delta', { includeImage: false, baseline: name })).changedPixels;
      return changed;
    }, (n) => n > pixels, 60_000, what);
  };

  it('reports ready only with every component up, the workbench rendered and the extension connected', async () => {
    const h = await env().client.call('proc.health', {});
    assert.equal(h.ready, true);
    for (const [name, c] of Object.entries(h.components)) assert.equal(c.state, 'ready', name);
    assert.ok(h.readyAfterMs! >= h.startup.workbench && h.readyAfterMs! >= h.startup.extension);
  });

  it('shows the IDE on screen: not blank, at the display size, with the explorer listing the workspace', async () => {
    const png = (await screenshot(env().client)).data;
    const p = await pixelsOf(png);
    assert.equal(p.width, 1280);
    assert.equal(p.height, 800);
    assert.ok(p.distinctColors > 20, `only ${p.distinctColors} colours: blank screen?`);
    assert.ok(p.stdev > 5);
    // The explorer's first row (the file notes.txt, sorted after the folder src) is where a
    // person would click; clicking it opens the file, which proves the row is the file.
    const shot = await env().client.call('capture.screenshot', { format: 'jpeg', quality: 50 });
    assert.equal(Buffer.from(shot.data, 'base64').subarray(0, 2).toString('hex'), 'ffd8');
  });

  it('has its effect when a known element is clicked: an explorer row opens its file', async () => {
    const { client } = env();
    // Rows under the workspace root start at y≈102 and are 22 px tall: src/, long.txt, notes.txt.
    await client.call('input.click', { x: 120, y: 146, count: 2 }); // a double click opens the file and focuses the editor
    await eventually(() => client.call('ide.editors', {}), (e) => e.activeEditor?.path === `/workspace/${NOTES}`, 60_000, 'notes.txt active');
    await client.call('input.key', { keys: 'ctrl+end' });
    await client.call('input.type', { text: 'clicked' });
    await client.call('input.key', { keys: 'ctrl+s' });
    await waitForSettle(client, { quietMs: 300 });
    await fileBecomes(`/workspace/${NOTES}`, 'first line\nclicked');
  });

  it('types any text exactly, including {}"\'$\\ and non-ASCII, and saves it to disk', async () => {
    const { client } = env();
    await openWithKeyboard(client, NOTES);
    await client.call('input.key', { keys: 'ctrl+a' });
    const text = 'Symbols {}"\'$\\ `~!@#%^&*()[]<>|;:,./? Grüße ÄÖÜ ß — 日本語 ✓ 🎉 end\nsecond line done';
    await client.call('input.type', { text });
    await client.call('input.key', { keys: 'ctrl+s' });
    await waitForSettle(client, { quietMs: 300 });
    await fileBecomes(`/workspace/${NOTES}`, text);
  });

  it('types fast without dropping or reordering characters', async () => {
    const { client } = env();
    await openWithKeyboard(client, NOTES);
    await client.call('input.key', { keys: 'ctrl+a' });
    // Brackets and quotes are left out: the editor auto-closes them, as it would for a person.
    const alphabet = [...'!#$%&*+,-./0123456789:;=?@ABCDEFGHIJKLMNOPQRSTUVWXYZ\\^_abcdefghijklmnopqrstuvwxyz|~'];
    let text = '';
    for (let i = 0; i < 800; i++) text += alphabet[(i * 37) % alphabet.length] + (i % 50 === 49 ? 'éÖ' : '');
    const r = await client.call('input.type', { text });
    assert.ok(r.chars === [...text].length);
    await client.call('input.key', { keys: 'ctrl+s' });
    await waitForSettle(client, { quietMs: 300 });
    await fileBecomes(`/workspace/${NOTES}`, text);
  });

  it('does not repeat a held key on its own: a late key release on a loaded machine types nothing more', async () => {
    const out = await execIn(env(), ['sh', '-c', 'XAUTHORITY=/tmp/pwp/xauthority DISPLAY=:1 xset q'], 'root');
    assert.match(out, /auto repeat:\s+off/, out);
  });

  it('moves the pointer and reports its position', async () => {
    const { client } = env();
    await client.call('input.move', { x: 640, y: 400 });
    assert.deepEqual(await client.call('capture.cursor', {}), { x: 640, y: 400 });
    await client.call('input.xdotool', { command: 'xdotool mousemove 700 450' });
    assert.deepEqual(await client.call('capture.cursor', {}), { x: 700, y: 450 });
  });

  it('returns an empty delta when nothing changed, and the changed box when something did', async () => {
    const { client } = env();
    // Once the screen is still, a delta against the last one is empty (on a loaded machine the
    // IDE may still be drawing for a while: asked again until it is still).
    await client.call('capture.delta', {});
    const same = await eventually(() => client.call('capture.delta', {}), (d) => !d.changed, 120_000, 'a still screen');
    assert.equal(same.box, null);
    assert.equal(same.image, null);
    assert.equal(same.changedPixels, 0);
    const sideBarShown = async () => (await client.call('dom.marks', {})).marks.some((m) => m.part === 'sidebar');
    const shown = await sideBarShown();
    const drawn = await screenMark('sidebar');
    await client.call('input.key', { keys: 'ctrl+b' }); // toggles the side bar
    // Wait until the workbench has taken the key, the browser has drawn it, and the drawing has ended.
    await eventually(sideBarShown, (on) => on !== shown, 60_000, 'the side bar toggled');
    await drawn(1000, 'the side bar toggled on screen');
    await waitForSettle(client, { quietMs: 300 });
    const diff = await client.call('capture.delta', {});
    assert.equal(diff.changed, true);
    assert.ok(diff.box!.width > 100 && diff.changedPixels > 1000);
    assert.ok(diff.image && diff.image.width === diff.box!.width);
    await client.call('input.key', { keys: 'ctrl+b' });
    await eventually(sideBarShown, (on) => on === shown, 60_000, 'the side bar back');
    await waitForSettle(client, { quietMs: 300 });
  });

  it('opens a context menu with a right click and closes it with escape', async () => {
    const { client } = env();
    await client.call('capture.delta', { includeImage: false });
    const drawn = await screenMark('menu');
    await client.call('input.click', { x: 800, y: 300, button: 'right' });
    const menuOpen = async () => (await client.call('dom.marks', {})).marks.some((m) => m.part === 'menu');
    await eventually(menuOpen, (open) => open, 60_000, 'the context menu');
    await drawn(100, 'the context menu on screen');
    await waitForSettle(client, { quietMs: 300 });
    assert.equal((await client.call('capture.delta', { includeImage: false })).changed, true);
    await client.call('input.key', { keys: 'escape' });
    await eventually(menuOpen, (open) => !open, 60_000, 'the context menu closed');
    await waitForSettle(client, { quietMs: 300 });
  });

  it('scrolls the editor with the wheel and selects text by dragging', async () => {
    const { client } = env();
    await openWithKeyboard(client, 'long.txt');
    await client.call('capture.delta', { includeImage: false });
    const drawn = await screenMark('scroll');
    await client.call('input.scroll', { x: 800, y: 400, direction: 'down', amount: 10 });
    await eventually(() => client.call('ide.editors', { maxTextChars: 0 }), (e) => (e.activeEditor?.visibleRanges[0]?.start.line ?? 1) > 1, 60_000, 'the editor scrolled');
    await drawn(1000, 'the scrolled lines on screen');
    await waitForSettle(client, { quietMs: 300 });
    const scrolled = await client.call('capture.delta', { includeImage: false });
    assert.ok(scrolled.changed && scrolled.box!.height > 300, 'the editor content moved');
    // Drag across the first visible line, then copy-free check: typing replaces the selection.
    await client.call('input.key', { keys: 'ctrl+home' });
    // The drag aims at the first line on screen: wait until the editor shows line 1 at the top.
    await eventually(() => client.call('ide.editors', { maxTextChars: 0 }), (e) => e.activeEditor?.visibleRanges[0]?.start.line === 1, 120_000, 'line 1 at the top');
    await waitForSettle(client, { quietMs: 200 });
    await client.call('input.drag', { from: { x: 424, y: 96 }, to: { x: 600, y: 96 } });
    await eventually(() => client.call('ide.editors', { maxTextChars: 0 }), (e) => e.activeEditor?.selections[0]?.empty === false, 120_000, 'a selection made by the drag');
    await client.call('input.type', { text: 'DRAGGED' });
    await client.call('input.key', { keys: 'ctrl+s' });
    await waitForSettle(client, { quietMs: 300 });
    await eventually(() => env().readFile('/workspace/long.txt'), (t) => t.split('\n')[0] === 'DRAGGED', 60_000, 'the dragged line replaced');
  });

  it('records the screen to an MP4 file', async () => {
    const { client } = env();
    const { path } = await client.call('capture.recordStart', { fps: 10, path: '/tmp/pwp/recordings/test.mp4' });
    await client.call('input.key', { keys: 'ctrl+b' });
    // A recording of some length on purpose (durationMs >= 1000 below): a slow machine only makes it longer.
    await new Promise((r) => setTimeout(r, 1200));
    await client.call('input.key', { keys: 'ctrl+b' });
    const stop = await client.call('capture.recordStop', {});
    assert.equal(stop.path, path);
    assert.ok(stop.bytes > 1000 && stop.durationMs >= 1000);
    const head = await env().deployment.readFile(env().info.id, path);
    assert.equal(head.subarray(4, 8).toString(), 'ftyp');
  });

  it('refuses bad requests with typed errors and keeps serving', async () => {
    const { client, info } = env();
    await assert.rejects(BridgeClient.connect(info.bridgeUrl, 'not-the-token-000000000000'), UnauthorizedError);
    await assert.rejects(client.callUnchecked('input.frobnicate', {}), MethodNotFoundError);
    await assert.rejects(client.callUnchecked('input.click', { x: 'left' }), (e: Error) => e instanceof InvalidParamsError && /params\.x/.test(e.message));
    await assert.rejects(client.callUnchecked('input.key', { keys: 'ctrl+$(touch /tmp/pwned)' }), InvalidParamsError);
    await assert.rejects(client.call('input.xdotool', { command: 'type hi; touch /tmp/pwned' }), /shell syntax/);
    await assert.rejects(client.call('input.xdotool', { command: 'type `touch /tmp/pwned`' }), /shell syntax/);
    await assert.rejects(client.call('input.xdotool', { command: 'exec touch /tmp/pwned' }), /not allowed/);
    await assert.rejects(client.call('input.xdotool', { argv: ['mousemove', '1', '1', 'exec', 'touch', '/tmp/pwned'] }), /not allowed/);
    assert.equal((await execIn(env(), ['sh', '-c', 'ls /tmp/pwned 2>/dev/null || echo absent'])).trim(), 'absent');
    const h = await client.call('proc.health', {});
    assert.equal(h.ready, true);
  });

  it('keeps the bridge\'s token out of reach of the programs in the container', async () => {
    const { info } = env();
    const out = await execIn(env(), ['bash', '-c', `
      n=0; for f in /proc/[0-9]*/environ; do { tr '\\0' '\\n' < "$f"; } 2>/dev/null | grep -qF -- "$1" && n=$((n+1)); done
      echo "environments holding it: $n"; ls /tmp/.pwp-bridge-token 2>&1 | grep -c 'No such file'`, 'check', info.token]);
    assert.equal(out.trim(), 'environments holding it: 0\n1');
  });

  it('refuses a program in the container that presents the extension link\'s token, and the IDE keeps answering', async () => {
    // What an agent could do from the IDE's terminal: read the link's token from the extension
    // host's environment and offer to serve ide.* itself (and so forge the state tasks are graded on).
    const impostor = `
      const [port, token] = process.argv.slice(1);
      const ws = new WebSocket('ws://127.0.0.1:' + port + '/?token=' + token + '&activated=' + Date.now() * 2);
      ws.onmessage = (e) => { const m = JSON.parse(e.data); ws.send(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: { workspaceFolders: ['/forged'] } })); };
      ws.onclose = (e) => { console.log('closed ' + e.code); process.exit(0); };
      setTimeout(() => { console.log('still connected'); process.exit(0); }, 60000);`;
    const out = await execIn(env(), ['bash', '-c', `
      pid=$(pgrep -f -- '--type=extensionHost' | head -1)
      var() { tr '\\0' '\\n' < /proc/$pid/environ | sed -n "s/^$1=//p"; }
      [ -n "$(var PWP_EXTENSION_TOKEN)" ] || { echo "no token in the environment of $pid"; exit 1; }
      node -e "$1" "$(var PWP_EXTENSION_PORT)" "$(var PWP_EXTENSION_TOKEN)"`, 'impostor', impostor]);
    assert.equal(out.trim(), 'closed 4003');
    const status = await env().client.call('ide.status', {});
    assert.deepEqual(status.workspaceFolders, ['/workspace']);
  });

  it('recovers when the browser is killed inside the container', async function () {
    this.timeout(300_000);
    const { client } = env();
    const before = await client.call('proc.health', {});
    // The browser runs as the bridge's user (root), out of the IDE user's reach.
    await execIn(env(), ['pkill', '-KILL', '-f', '/usr/lib/chromium/chromium'], 'root');
    // Until the supervisor has seen the death, the stack still reads ready: wait for the restart.
    await eventually(() => client.call('proc.health', {}), (h) => h.components.browser.restarts > before.components.browser.restarts, 90_000, 'the browser restarted');
    const h = await client.call('proc.waitReady', { timeoutMs: 90_000 }, { timeoutMs: 100_000 });
    assert.equal(h.ready, true);
    const marks = await client.call('dom.marks', {});
    assert.ok(marks.marks.length > 5, 'the workbench is back on screen');
  });

  it('recovers when code-server is killed inside the container', async function () {
    this.timeout(360_000);
    const { client } = env();
    const before = await client.call('proc.health', {});
    await execIn(env(), ['pkill', '-KILL', '-f', 'code-server']);
    await eventually(() => client.call('proc.health', {}), (h) => h.components.ide.restarts > before.components.ide.restarts, 120_000, 'the IDE restarted');
    const h = await client.call('proc.waitReady', { timeoutMs: 120_000 }, { timeoutMs: 130_000 });
    assert.equal(h.ready, true);
    const status = await client.call('ide.status', {});
    assert.deepEqual(status.workspaceFolders, ['/workspace']);
    const p = await pixelsOf((await screenshot(client)).data);
    assert.ok(p.distinctColors > 20);
  });
});
