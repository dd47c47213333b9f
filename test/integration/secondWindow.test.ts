// A person opening the advertised IDE URL in a second browser must not take the agent's IDE
// state with it: that window starts an extension host of its own, and ide.* (what graders and
// panels read) keeps answering for the kiosk window the agent sees. Real container, real
// code-server, a real second Chromium through the bridge's /ide/ proxy.
import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { chromium, type Browser } from 'playwright-core';
import { Env } from '../../host/env/env';
import { StepSchema } from '../../host/taskEnv/stepSchema';
import { eventually } from '../../host/common/eventually';
import { runSteps } from '../../host/taskEnv/steps';
import { testImage, testPool } from './environmentFixture';

const bridgeLog = async (id: string) => {
  const { stdout, stderr } = await promisify(execFile)('docker', ['logs', `pwp-${id}`], { maxBuffer: 1 << 24 });
  return stdout + stderr;
};

describe('a second browser on the IDE URL does not take over ide.*', function () {
  this.timeout(15 * 60_000); // a hang detector: the waits on state below add up to 10 minutes at most
  let env: Env;
  let browser: Browser;

  before(async function () {
    this.timeout(30 * 60_000);
    env = new Env({ image: await testImage(), pool: await testPool(), labels: { 'pwp.test': '1' }, observe: [] });
    await env.reset({ options: { files: { 'kiosk.py': 'print("kiosk")\n', 'other.py': 'print("other")\n' }, open: ['kiosk.py'] } });
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu'] });
  });
  after(async () => {
    await browser?.close();
    await env?.close();
  });

  it('keeps answering for the kiosk window while a second window opens another file, and after it closes', async () => {
    const { id, ideUrl } = env.info;
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(ideUrl);
    // The second window's workbench renders and its extension host dials the bridge, which refuses it.
    await eventually(() => bridgeLog(id), (log) => /refused the extension host of another browser window/.test(log), 180_000, 'the second window\'s extension host refused');
    // In the second window, open the other file by its own keyboard.
    await page.locator('.monaco-workbench').waitFor({ timeout: 120_000 });
    // Each look waits long enough for a loaded machine: starting over (Escape) would throw away a
    // quick open that is only slow. A press the workbench was not ready for is pressed again.
    await eventually(async () => {
      await page.keyboard.press('Escape');
      await page.keyboard.press('Control+P');
      const box = page.locator('.quick-input-widget input');
      if (!(await box.waitFor({ state: 'visible', timeout: 30_000 }).then(() => true, () => false))) return [];
      await box.fill('other.py');
      // Enter picks the first entry: wait until the search has put other.py there.
      await page.locator('.quick-input-list .monaco-list-row').first().filter({ hasText: 'other.py' }).waitFor({ timeout: 60_000 }).catch(() => undefined);
      await page.keyboard.press('Enter');
      await page.locator('.tab', { hasText: 'other.py' }).waitFor({ timeout: 60_000 }).catch(() => undefined);
      return page.locator('.tab').allTextContents();
    }, (tabs) => tabs.some((t) => t.includes('other.py')), 300_000, 'other.py open in the second window');

    const editors = await env.query('ide.editors', { maxTextChars: 0 });
    assert.match(editors.activeEditor?.path ?? '', /\/kiosk\.py$/, JSON.stringify(editors).slice(0, 500));
    assert.ok(!JSON.stringify(editors).includes('other.py'), 'the second window\'s editor is not among the kiosk\'s');

    await page.close();
    const after = await env.query('ide.editors', { maxTextChars: 0 });
    assert.match(after.activeEditor?.path ?? '', /\/kiosk\.py$/);
    // And the agent's own actions still reach the IDE it sees.
    const r = await env.step({ type: 'ide', method: 'ide.editors.open', params: { editors: [{ file: 'other.py' }] } });
    assert.equal(r.info.error, undefined);
    const now = await env.query('ide.editors', { maxTextChars: 0 });
    assert.match(now.activeEditor?.path ?? '', /\/other\.py$/);
  });

  it('follows the kiosk window through a Reload Window of its own: the new window\'s extension host serves, and typing lands in the file it opens', async () => {
    const reloadAt = Date.now();
    await runSteps([StepSchema.parse({ palette: 'Developer: Reload Window' })], env, '/nonexistent');
    // The reloaded window's extension serves ide.* again: it opens a file there and the keys typed land in it.
    // The old window may still answer for a while after the palette step: wait for an extension activated since.
    await eventually(() => env.query('ide.status', {}), (s) => s.uptimeMs < Date.now() - reloadAt, 180_000, 'ide.* answering from the reloaded window');
    await eventually(async () => {
      const r = await env.step({ type: 'ide', method: 'ide.editors.open', params: { editors: [{ file: 'kiosk.py', cursor: { line: 1, column: 1 } }] } });
      return r.info.error ? null : (await env.query('ide.editors', { maxTextChars: 0 })).activeEditor?.path ?? null;
    }, (p) => /\/kiosk\.py$/.test(p ?? ''), 180_000, 'kiosk.py open in the reloaded window');
    await env.step({ type: 'type', text: '# after reload\n' });
    await env.step({ type: 'key', keys: 'ctrl+s' });
    await eventually(async () => (await env.readFile('kiosk.py'))?.toString() ?? '', (t) => t.startsWith('# after reload\n'), 60_000, 'the typed line saved');
  });
});
