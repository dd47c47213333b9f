// The tools' headless Chromium (this machine's, as the container's), killed under a call as
// the kernel or a crash would: the call's error says how the process ended, and a render that
// may run again does, on a new browser.
import { strict as assert } from 'node:assert';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HeadlessBrowser } from '../../../../extension/src/tools/headlessBrowser';

describe('tools: the headless browser when its process dies', function () {
  this.timeout(60_000);
  let dir: string;
  let browser: HeadlessBrowser;
  // Chromium started through a script that leaves its pid behind (exec keeps the pid).
  const killBrowser = () => process.kill(Number(readFileSync(join(dir, 'pid'), 'utf8')), 'SIGKILL');
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pwp-headless-test-'));
    const exe = join(dir, 'chromium');
    writeFileSync(exe, `#!/bin/sh\necho $$ > ${join(dir, 'pid')}\nexec chromium "$@"\n`);
    chmodSync(exe, 0o755);
    browser = new HeadlessBrowser({ PATH: process.env.PATH, HOME: dir }, () => undefined, exe);
  });
  afterEach(() => { browser.dispose(); rmSync(dir, { recursive: true, force: true }); });

  it('fails a call under way with how the process ended, and does not run it again unless asked', async () => {
    let runs = 0;
    await assert.rejects(browser.withPage({ width: 400, height: 300 }, async (page) => {
      runs++;
      killBrowser();
      return page.evaluate('1 + 1');
    }), /the headless browser closed \(exited with SIGKILL/);
    assert.equal(runs, 1);
    assert.equal(await browser.withPage({ width: 400, height: 300 }, (page) => page.evaluate('2 + 2')), 4, 'the next call starts a new browser');
  });

  it('runs a render once more on a new browser when asked, and asks first', async () => {
    let runs = 0;
    let asked = 0;
    const value = await browser.withPage({ width: 400, height: 300 }, async (page) => {
      if (++runs === 1) killBrowser();
      return page.evaluate('6 * 7');
    }, { retryIfBrowserDies: () => (asked++, true) });
    assert.deepEqual([value, runs, asked], [42, 2, 1]);
    await assert.rejects(browser.withPage({ width: 400, height: 300 }, async (page) => {
      killBrowser();
      return page.evaluate('1');
    }, { retryIfBrowserDies: () => false }), /the headless browser closed/);
  });
});
