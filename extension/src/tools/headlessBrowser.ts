// A headless Chromium inside the container for the tools that render or drive web pages
// (view_html_preview, ui_test, create_diagram). It is separate from the kiosk window the agent
// sees, so rendering a preview never disturbs the IDE on screen. Started on first use, closed
// when idle. Spoken to over the DevTools protocol with flat sessions on one WebSocket.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { ToolError } from './toolError';

/* eslint-disable @typescript-eslint/no-explicit-any -- DevTools messages are JSON whose shape each caller knows by method */

/** Closed this long after its last use; a restart costs about a second. */
const IDLE_CLOSE_MS = 30_000;
/** How long a closed connection's error waits to learn how the process ended. */
const EXIT_REPORT_WAIT_MS = 2000;

interface Pending { resolve: (v: any) => void; reject: (e: Error) => void; method: string }

class Cdp {
  private next = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly listeners = new Set<(method: string, params: any, sessionId?: string) => void>();
  closed = false;

  /** why: what became of the browser process, asked when the connection closes. */
  constructor(private readonly ws: WebSocket, private readonly why: () => Promise<string> = async () => '') {
    ws.on('message', (data) => {
      const msg = JSON.parse(data.toString());
      if (typeof msg.id === 'number') {
        const p = this.pending.get(msg.id);
        if (!p) return;
        this.pending.delete(msg.id);
        if (msg.error) p.reject(new Error(`${p.method}: ${msg.error.message}`));
        else p.resolve(msg.result);
      } else if (msg.method) for (const l of this.listeners) l(msg.method, msg.params, msg.sessionId);
    });
    ws.on('close', () => {
      this.closed = true;
      void this.why().then((why) => {
        for (const p of this.pending.values()) p.reject(new Error(`the headless browser closed${why ? ` (${why})` : ''}`));
        this.pending.clear();
      });
    });
  }

  send(method: string, params: object = {}, sessionId?: string): Promise<any> {
    if (this.closed) return Promise.reject(new Error('the headless browser closed'));
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, method });
      this.ws.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
    });
  }

  on(l: (method: string, params: any, sessionId?: string) => void): () => void {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }

  close(): void { this.ws.close(); }
}

export interface Viewport { width: number; height: number; scale?: number }

/** One tab of the headless browser. */
export class HeadlessPage {
  readonly console: string[] = [];
  readonly errors: string[] = [];
  private readonly off: () => void;

  constructor(private readonly cdp: Cdp, readonly sessionId: string, readonly targetId: string) {
    this.off = cdp.on((method, params, sid) => {
      if (sid !== sessionId) return;
      if (method === 'Runtime.consoleAPICalled') this.console.push(`${params.type}: ${(params.args ?? []).map((a: any) => a.value ?? a.description ?? '').join(' ')}`);
      if (method === 'Runtime.exceptionThrown') this.errors.push(params.exceptionDetails?.exception?.description ?? params.exceptionDetails?.text ?? 'exception');
    });
  }

  send(method: string, params: object = {}): Promise<any> { return this.cdp.send(method, params, this.sessionId); }

  async setViewport(v: Viewport): Promise<void> {
    await this.send('Emulation.setDeviceMetricsOverride', { width: v.width, height: v.height, deviceScaleFactor: v.scale ?? 1, mobile: false });
  }

  private waitEvent(name: string, timeoutMs: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const t = setTimeout(() => { off(); reject(new ToolError(`the page did not finish loading within ${timeoutMs} ms`, 'Timeout')); }, timeoutMs);
      const off = this.cdp.on((method, _p, sid) => { if (sid === this.sessionId && method === name) { clearTimeout(t); off(); resolve(); } });
    });
  }

  async navigate(url: string, timeoutMs = 15_000): Promise<void> {
    const loaded = this.waitEvent('Page.loadEventFired', timeoutMs);
    const r = await this.send('Page.navigate', { url });
    if (r.errorText) { loaded.catch(() => undefined); throw new ToolError(`could not load ${url}: ${r.errorText}`, 'NavigationFailed'); }
    await loaded;
  }

  async setContent(html: string, timeoutMs = 15_000): Promise<void> {
    const { frameTree } = await this.send('Page.getFrameTree');
    const loaded = this.waitEvent('Page.loadEventFired', timeoutMs);
    await this.send('Page.setDocumentContent', { frameId: frameTree.frame.id, html });
    await Promise.race([loaded, new Promise((r) => setTimeout(r, 300))]).catch(() => undefined);
  }

  /** Evaluates an expression in the page (awaiting promises) and returns its JSON value. */
  async evaluate<T = unknown>(expression: string): Promise<T> {
    const r = await this.send('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true });
    if (r.exceptionDetails) throw new ToolError(`script error: ${r.exceptionDetails.exception?.description ?? r.exceptionDetails.text}`, 'ScriptError');
    return r.result.value as T;
  }

  async screenshot(opts: { fullPage?: boolean; clip?: { x: number; y: number; width: number; height: number }; format?: 'png' | 'jpeg' } = {}): Promise<Buffer> {
    let clip = opts.clip;
    if (opts.fullPage && !clip) {
      const m = await this.send('Page.getLayoutMetrics');
      const size = m.cssContentSize ?? m.contentSize;
      clip = { x: 0, y: 0, width: Math.min(4000, Math.ceil(size.width)), height: Math.min(8000, Math.ceil(size.height)) };
    }
    const r = await this.send('Page.captureScreenshot', {
      format: opts.format ?? 'png', captureBeyondViewport: !!clip, ...(clip ? { clip: { ...clip, scale: 1 } } : {}),
    });
    return Buffer.from(r.data, 'base64');
  }

  /** The centre of the first element matching a CSS selector, scrolled into view. */
  async locate(selector: string): Promise<{ x: number; y: number }> {
    const box = await this.evaluate<{ x: number; y: number; w: number; h: number } | null>(`(() => {
      const el = document.querySelector(${JSON.stringify(selector)});
      if (!el) return null;
      el.scrollIntoView({ block: 'center', inline: 'center' });
      const r = el.getBoundingClientRect();
      return { x: r.left, y: r.top, w: r.width, h: r.height };
    })()`);
    if (!box) throw new ToolError(`no element matches the selector ${selector}`, 'NotFound');
    if (box.w === 0 && box.h === 0) throw new ToolError(`the element ${selector} is not visible (zero size)`, 'NotVisible');
    return { x: box.x + box.w / 2, y: box.y + box.h / 2 };
  }

  async click(selector: string): Promise<void> {
    const { x, y } = await this.locate(selector);
    for (const type of ['mouseMoved', 'mousePressed', 'mouseReleased']) {
      await this.send('Input.dispatchMouseEvent', { type, x, y, button: 'left', clickCount: type === 'mouseMoved' ? 0 : 1 });
    }
  }

  async type(selector: string, text: string): Promise<void> {
    await this.click(selector);
    await this.evaluate(`(() => { const el = document.querySelector(${JSON.stringify(selector)}); if (el && 'select' in el) el.select(); })()`);
    await this.send('Input.insertText', { text });
  }

  async press(key: string): Promise<void> {
    const codes: Record<string, number> = { Enter: 13, Tab: 9, Escape: 27, Backspace: 8 };
    const base = { key, code: key, windowsVirtualKeyCode: codes[key] ?? 0 };
    await this.send('Input.dispatchKeyEvent', { type: 'keyDown', ...base, ...(key === 'Enter' ? { text: '\r' } : {}) });
    await this.send('Input.dispatchKeyEvent', { type: 'keyUp', ...base });
  }

  async close(): Promise<void> {
    this.off();
    await this.cdp.send('Target.closeTarget', { targetId: this.targetId }).catch(() => undefined);
  }
}

export class HeadlessBrowser {
  private proc?: ChildProcess;
  private cdp?: Cdp;
  private starting?: Promise<Cdp>;
  private profile?: string;
  private idleTimer?: NodeJS.Timeout;
  private open = 0;
  /** How each browser process ended, for the error of calls that were under way. */
  private readonly exits = new WeakMap<ChildProcess, string>();

  constructor(private readonly env: NodeJS.ProcessEnv, private readonly log: (line: string) => void, private readonly executable = 'chromium') {}

  private start(): Promise<Cdp> {
    if (this.cdp && !this.cdp.closed) return Promise.resolve(this.cdp);
    this.starting ??= new Promise<Cdp>((resolve, reject) => {
      if (this.profile) rmSync(this.profile, { recursive: true, force: true });
      this.profile = mkdtempSync(join(tmpdir(), 'pwp-headless-'));
      const proc = spawn(this.executable, [
        // One process (no zygote, GPU or renderer processes): about 250 MB instead of 700 MB,
        // which matters in an environment meant to fit in 1 GiB.
        '--headless=new', '--single-process', '--no-zygote', '--disable-features=site-per-process,Translate,MediaRouter,OptimizationHints',
        '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--no-default-browser-check',
        '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-extensions', '--mute-audio',
        '--hide-scrollbars', '--remote-debugging-port=0', '--remote-debugging-address=127.0.0.1', `--user-data-dir=${this.profile}`, 'about:blank',
      ], { env: this.env, stdio: ['ignore', 'ignore', 'pipe'] });
      this.proc = proc;
      let err = '';
      const fail = (msg: string) => { this.starting = undefined; reject(new ToolError(`the headless browser did not start: ${msg}`, 'NotAvailable')); };
      const t = setTimeout(() => { proc.kill('SIGKILL'); fail(`no DevTools endpoint after 20 s; stderr: ${err.slice(-500)}`); }, 20_000);
      proc.on('error', (e) => { clearTimeout(t); fail(e.message); });
      proc.on('exit', (code, signal) => {
        this.exits.set(proc, `exited with ${signal ?? `code ${code}`}; stderr: ${err.trim().split('\n').slice(-3).join(' | ').slice(0, 600)}`);
        // A browser closed for idling exits after a new one may have started: leave that one be.
        if (this.proc !== proc) return;
        this.log(`headless browser ${this.exits.get(proc)}`);
        this.cdp?.close();
        this.cdp = undefined;
        this.proc = undefined;
      });
      proc.stderr!.on('data', (d: Buffer) => {
        err += d.toString();
        const m = /DevTools listening on (ws:\/\/\S+)/.exec(err);
        if (!m || this.cdp) return;
        clearTimeout(t);
        const ws = new WebSocket(m[1], { maxPayload: 256 * 1024 * 1024 });
        ws.once('open', () => { this.cdp = new Cdp(ws, () => this.exitOf(proc)); this.starting = undefined; this.log('headless browser started'); resolve(this.cdp); });
        ws.once('error', (e) => fail(e.message));
      });
    });
    return this.starting;
  }

  /**
   * How a browser process ended. Its DevTools connection usually closes before the exit is
   * reported, so this waits for the exit a little; a browser still running was closed by us.
   */
  private async exitOf(proc: ChildProcess): Promise<string> {
    const end = Date.now() + EXIT_REPORT_WAIT_MS;
    while (!this.exits.has(proc) && proc.exitCode === null && proc.signalCode === null && Date.now() < end) {
      await new Promise((r) => setTimeout(r, 50));
    }
    return (
      this.exits.get(proc) ??
      (proc.exitCode === null && proc.signalCode === null ? 'its process was still running' : `exited with ${proc.signalCode ?? `code ${proc.exitCode}`}`)
    );
  }

  /**
   * Runs fn with a fresh tab, closed afterwards. A render without side effects may pass
   * retryIfBrowserDies: a browser that dies under it (killed for memory, crashed) is restarted
   * and fn runs once more. A function instead of true is asked after the death: true if what
   * fn had done so far may be done again.
   */
  async withPage<T>(viewport: Viewport, fn: (page: HeadlessPage) => Promise<T>, opts: { retryIfBrowserDies?: boolean | (() => boolean) } = {}): Promise<T> {
    try {
      return await this.onePage(viewport, fn);
    } catch (err) {
      const retry = typeof opts.retryIfBrowserDies === 'function' ? opts.retryIfBrowserDies() : !!opts.retryIfBrowserDies;
      if (!retry || !/the headless browser closed/.test((err as Error).message)) throw err;
      this.log(`retrying after: ${(err as Error).message}`);
      return this.onePage(viewport, fn);
    }
  }

  private async onePage<T>(viewport: Viewport, fn: (page: HeadlessPage) => Promise<T>): Promise<T> {
    clearTimeout(this.idleTimer);
    this.open++;
    try {
      const cdp = await this.start();
      const { targetId } = await cdp.send('Target.createTarget', { url: 'about:blank' });
      const { sessionId } = await cdp.send('Target.attachToTarget', { targetId, flatten: true });
      const page = new HeadlessPage(cdp, sessionId, targetId);
      try {
        await Promise.all([page.send('Page.enable'), page.send('Runtime.enable'), page.setViewport(viewport)]);
        return await fn(page);
      } finally {
        await page.close();
      }
    } finally {
      if (--this.open === 0) this.idleTimer = setTimeout(() => this.dispose(), IDLE_CLOSE_MS);
    }
  }

  dispose(): void {
    clearTimeout(this.idleTimer);
    this.cdp?.close();
    this.cdp = undefined;
    if (this.proc) { try { this.proc.kill('SIGKILL'); } catch { /* gone */ } }
    this.proc = undefined;
    if (this.profile) rmSync(this.profile, { recursive: true, force: true });
  }
}
