// ui_test: drive a headless Chromium inside the environment through a page (a server the agent
// started, or an HTML file of the workspace): navigate, click, type, wait, check the DOM, take
// screenshots. Stops at the first failing step.
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { defineTool, image, text } from '../toolRegistry';
import { ToolError } from '../toolError';
import type { ToolServices } from '../toolServices';
import type { HeadlessPage } from '../headlessBrowser';
import type { ToolContent } from '../../../../bridge/protocol';

const Step = z.object({
  action: z.enum(['navigate', 'click', 'type', 'press', 'wait_for', 'wait', 'assert_text', 'assert_exists', 'assert_not_exists', 'evaluate', 'screenshot']),
  selector: z.string().optional().describe('CSS selector (click, type, wait_for, assert_*; assert_text without one checks the whole page)'),
  text: z.string().optional().describe('type: the text; assert_text: the text expected inside the element'),
  key: z.string().optional().describe('press: Enter, Tab, Escape, Backspace'),
  url: z.string().optional().describe('navigate: the URL or workspace file'),
  script: z.string().optional().describe('evaluate: a JavaScript expression; its JSON value is reported'),
  timeout_ms: z.int().min(0).max(60_000).optional().describe('wait_for / wait: how long'),
}).strict();

export function uiTestTool(s: ToolServices) {
  const target = (u: string) => (/^https?:\/\//.test(u) ? u : pathToFileURL(s.paths.resolve(u, 'url')).href);
  return defineTool({
    name: 'ui_test',
    group: 'idebench',
    effects: 'write',
    openWorld: true,
    description: 'Test a web UI in a headless browser inside the environment. Opens url (http(s) URL, e.g. a server you ' +
      'started, or an HTML file of the workspace), runs the steps in order (navigate, click, type, press, wait_for, wait, ' +
      'assert_text, assert_exists, assert_not_exists, evaluate, screenshot) and returns a step log, console errors and ' +
      'a screenshot of the end state. Stops at the first failing step.',
    params: z.object({
      url: z.string().min(1),
      steps: z.array(Step).max(100).default([]),
      viewport_width: z.int().min(200).max(3840).default(1280),
      viewport_height: z.int().min(200).max(2160).default(800),
      final_screenshot: z.boolean().default(true),
    }).strict(),
    timeoutMs: 120_000,
    maxTimeoutMs: 600_000,
    run: (a) => {
      // Opening the page is done again if the browser dies before the first step; a step may
      // have changed something (a form posted to the agent's server), so none is.
      let stepsBegan = false;
      return s.browser.withPage({ width: a.viewport_width, height: a.viewport_height }, async (page) => {
        const log: string[] = [];
        const images: ToolContent[] = [];
        let failed = false;
        await page.navigate(target(a.url));
        log.push(`opened ${a.url}`);
        stepsBegan = true;
        for (const [i, st] of a.steps.entries()) {
          const n = `step ${i + 1} (${st.action}${st.selector ? ` ${st.selector}` : ''})`;
          try {
            const detail = await runStep(page, st, target);
            log.push(`PASS ${n}${detail ? `: ${detail}` : ''}`);
            if (st.action === 'screenshot') images.push(image(await page.screenshot()));
          } catch (err) {
            log.push(`FAIL ${n}: ${(err as Error).message}`);
            failed = true;
            break;
          }
        }
        if (a.final_screenshot || failed) images.push(image(await page.screenshot()));
        const title = await page.evaluate<string>('document.title').catch(() => '');
        const summary = `${failed ? 'ui_test FAILED' : 'ui_test passed'}: ${a.steps.length} step(s); page title ${JSON.stringify(title)}`;
        const consoleLines = [...page.errors.map((e) => `uncaught: ${e}`), ...page.console.filter((c) => c.startsWith('error') || c.startsWith('warn'))];
        return { isError: failed, content: [text(`${summary}\n${log.join('\n')}${consoleLines.length ? `\nconsole:\n${consoleLines.join('\n')}` : ''}`), ...images] };
      }, { retryIfBrowserDies: () => !stepsBegan });
    },
  });
}

async function waitFor(page: HeadlessPage, selector: string, timeoutMs: number, present = true): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const found = await page.evaluate<boolean>(`!!document.querySelector(${JSON.stringify(selector)})`);
    if (found === present) return;
    if (Date.now() >= end) throw new ToolError(`${present ? 'no element matches' : 'an element still matches'} ${selector} after ${timeoutMs} ms`, 'NotFound');
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function runStep(page: HeadlessPage, st: z.infer<typeof Step>, target: (u: string) => string): Promise<string> {
  const need = <T>(v: T | undefined, f: string): T => { if (v === undefined) throw new ToolError(`${f} is required for ${st.action}`); return v; };
  switch (st.action) {
    case 'navigate': await page.navigate(target(need(st.url, 'url'))); return '';
    case 'click': await waitFor(page, need(st.selector, 'selector'), st.timeout_ms ?? 2000); await page.click(st.selector!); await new Promise((r) => setTimeout(r, 100)); return '';
    case 'type': await waitFor(page, need(st.selector, 'selector'), st.timeout_ms ?? 2000); await page.type(st.selector!, need(st.text, 'text')); return '';
    case 'press': await page.press(need(st.key, 'key')); await new Promise((r) => setTimeout(r, 100)); return '';
    case 'wait_for': await waitFor(page, need(st.selector, 'selector'), st.timeout_ms ?? 5000); return '';
    case 'wait': await new Promise((r) => setTimeout(r, st.timeout_ms ?? 500)); return '';
    case 'assert_exists': await waitFor(page, need(st.selector, 'selector'), st.timeout_ms ?? 0); return '';
    case 'assert_not_exists': await waitFor(page, need(st.selector, 'selector'), st.timeout_ms ?? 0, false); return '';
    case 'assert_text': {
      const sel = st.selector;
      const got = await page.evaluate<string | null>(sel ? `document.querySelector(${JSON.stringify(sel)})?.innerText ?? null` : 'document.body.innerText');
      if (got === null) throw new ToolError(`no element matches ${sel}`, 'NotFound');
      if (!got.includes(need(st.text, 'text'))) throw new ToolError(`expected text ${JSON.stringify(st.text)}, found ${JSON.stringify(got.slice(0, 300))}`, 'AssertionFailed');
      return `found ${JSON.stringify(st.text)}`;
    }
    case 'evaluate': return JSON.stringify(await page.evaluate(need(st.script, 'script'))) ?? 'undefined';
    case 'screenshot': return 'screenshot taken';
  }
}
