// The live view in a real browser: the noVNC page (served by the bridge behind the token)
// loads in headless Chromium and shows the IDE; keys typed there reach the IDE and are
// recorded as the person's; the agent can hand control to the person and get it back.
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Frame } from 'playwright-core';
import sharp from 'sharp';
import { Env } from '../../host/env/env';
import { RecordTrajectory } from '../../host/trajectory/recordTrajectory';
import { readTrajectory } from '../../host/trajectory/trajectoryFile';
import { testImage } from './environmentFixture';
import { eventually } from './ideDriving';

const RESULTS = join(__dirname, '../../test-results');

async function distinctColours(png: Buffer): Promise<number> {
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  const seen = new Set<number>();
  for (let i = 0; i < data.length; i += info.channels * 3) seen.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
  return seen.size;
}

describe('live view: noVNC in a real browser, human input recorded, hand-off', function () {
  this.timeout(10 * 60_000);
  let browser: Browser;
  let vnc: Frame;
  const dir = mkdtempSync(join(tmpdir(), 'pwp-live-'));
  let env: RecordTrajectory;

  before(async function () {
    this.timeout(30 * 60_000);
    const image = await testImage();
    env = new RecordTrajectory(new Env({ image, view: true, labels: { 'pwp.test': '1' }, observe: [] }), dir, { humanPollMs: 200 });
    await env.reset({ options: { files: { 'notes.txt': 'first line\n' }, open: [{ file: 'notes.txt', line: 2, column: 1 }] } });
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu'] });
  });
  after(async () => {
    await browser?.close();
    await env?.close();
  });

  it('loads the token-protected page, connects and shows the IDE (the page is not blank)', async () => {
    const url = env.unwrapped.info.viewUrl;
    // The bridge's port on the environment's own network (nothing is published).
    assert.ok(url && url.startsWith(env.unwrapped.info.bridgeUrl.replace(/^ws:/, 'http:').replace(/\/rpc$/, '/view/')), `view URL: ${url}`);
    const denied = await fetch(url.replace(/token=[^&]+/, 'token=wrong'));
    assert.equal(denied.status, 401);
    const page = await browser.newPage({ viewport: { width: 1300, height: 900 } });
    await page.goto(url);
    const frame = page.frame({ url: /vnc\.html/ });
    assert.ok(frame, 'the noVNC frame');
    vnc = frame;
    // The page reloads noVNC by itself if a network change on this Docker host broke its loading.
    await eventually(async () => {
      vnc = page.frame({ url: /vnc\.html/ })!;
      return vnc.evaluate(() => document.documentElement.classList.contains('noVNC_connected')).catch(() => false);
    }, (ok) => ok, 90_000, 'noVNC connected');
    // Wait until the first full frame has been drawn onto the canvas.
    await eventually(async () => distinctColours(await page.screenshot()), (n) => n > 50, 60_000, 'the IDE drawn in the page');
    mkdirSync(RESULTS, { recursive: true });
    const shot = await page.screenshot({ path: join(RESULTS, 'live-view.png') });
    assert.ok(await distinctColours(shot) > 50, 'the live view shows a blank page');
    // The bridge counts the viewer once the page's connection has reached it.
    await eventually(() => env.unwrapped.client.call('control.status', {}), (s) => s.viewers === 1, 60_000, 'one viewer');
  });

  it('delivers keys typed in the page to the IDE and records them as human input', async () => {
    await vnc.evaluate(() => (document.querySelector('#noVNC_container canvas') as HTMLCanvasElement).focus());
    await vnc.page().keyboard.type('qzx', { delay: 30 });
    const client = env.unwrapped.client;
    await eventually(() => client.call('ide.editors', { maxTextChars: 1000 }), (e) => !!e.activeEditor?.visibleText.includes('qzx'), 60_000, 'qzx in the editor');
    await env.flushHuman();
    const human = readTrajectory(dir).records.filter((r) => r.type === 'human');
    const downs = human.map((r) => (r.type === 'human' && r.event.kind === 'key' && r.event.down ? r.event.name : null)).filter(Boolean);
    assert.deepEqual(downs.slice(-3), ['q', 'z', 'x']);
    assert.ok(human.every((r) => r.type === 'human' && r.actor === 'human'));
  });

  it('hands control to the person: agent input waits until the page hands it back', async () => {
    const base = env.unwrapped;
    // Control comes back by itself after timeoutMs: far longer than a loaded machine needs to show the page's button.
    const handOff = base.handOff('please review the file', { timeoutMs: 5 * 60_000 });
    await eventually(() => base.client.call('control.status', {}), (s) => s.holder === 'human', 60_000, 'the person holding control');
    const page = vnc.page();
    const button = page.locator('#handBack');
    await button.waitFor({ state: 'visible', timeout: 60_000 });
    assert.match(await page.locator('#message').textContent() ?? '', /please review the file/);
    // The agent acts only now: its input waits a bounded time for control (control.request's
    // inputWaitMs), so the wait for the page above must not count against it.
    let stepDone = false;
    const step = env.step({ type: 'key', keys: 'End' }).then((r) => { stepDone = true; return r; });
    // Proves something does not happen, so it has to let time pass: a slow machine can only make
    // the key reach the bridge later, which weakens the check but never fails it.
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(stepDone, false, 'the agent\'s key went through while the person had control');
    await button.click();
    const status = await handOff;
    assert.equal(status.holder, 'agent');
    const r = await step;
    assert.equal(r.info.error, undefined);
  });
});
