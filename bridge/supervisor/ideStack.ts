// The display, the IDE server and the browser window onto it, started in order and kept
// alive. "Ready" means the workbench has rendered in the browser, not just that ports answer.
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { get } from 'node:http';
import { EventEmitter } from 'node:events';
import type { Readable, Writable } from 'node:stream';
import { TimeoutError, type Health } from '../protocol';
import type { BridgeConfig } from '../config';
import { CdpPipe } from '../browser/cdpPipe';
import { WorkbenchPage } from '../browser/workbenchPage';
import type { ExtensionLink } from '../ide/extensionLink';
import { watchExtensionHostReturn, type ExtensionHostReturnWatch } from './extensionHostReturn';
import { SupervisedProcess } from './supervisedProcess';
import { writeXauthority } from './xauthority';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function httpOk(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = get(url, { timeout: 1000 }, (res) => { res.resume(); resolve(res.statusCode === 200); });
    req.on('error', () => resolve(false));
    req.on('timeout', () => { req.destroy(); resolve(false); });
  });
}

export function framebufferPath(cfg: BridgeConfig): string {
  return `${cfg.runDir}/fb/Xvfb_screen0`;
}

export class IdeStack extends EventEmitter {
  readonly display: SupervisedProcess;
  readonly ide: SupervisedProcess;
  readonly browser: SupervisedProcess;
  readonly page: WorkbenchPage;
  private rendered = false;
  private readonly startedAt = Date.now();
  private readyAfterMs: number | null = null;
  private readonly startup: Record<string, number> = { bridgeProcess: Math.round(process.uptime() * 1000) };
  private mark(milestone: string): void { this.startup[milestone] ??= Date.now() - this.startedAt; }
  private watching?: Promise<void>;
  private closed = false;
  /** The window is parked on about:blank by closeWorkbench (a restore swaps files meanwhile). */
  private workbenchClosed = false;

  constructor(private readonly cfg: BridgeConfig, private readonly link: ExtensionLink, private readonly log: (line: string) => void) {
    super();
    link.on('change', () => this.emit('change'));
    const displayNum = cfg.display.replace(/^:/, '').split('.')[0];
    const fbDir = `${cfg.runDir}/fb`;
    const ideUrl = `http://127.0.0.1:${cfg.idePort}/`;
    this.page = new WorkbenchPage(ideUrl);

    this.display = new SupervisedProcess({
      name: 'display',
      command: 'Xvfb',
      // -r: no auto-repeat. xdotool's key presses are synthetic: on a loaded machine the release
      // of a key can come late enough for the server to repeat it (ctrl+s typed "ssss" after
      // the save once ctrl was up). A person at the live view types through x11vnc, whose
      // viewer repeats keys itself.
      args: [cfg.display, '-screen', '0', `${cfg.width}x${cfg.height}x24`, '-nolisten', 'tcp', '-fbdir', fbDir, '-dpi', '96', '-auth', cfg.xauthority, '-r'],
      prepare: () => {
        mkdirSync(fbDir, { recursive: true });
        rmSync(`/tmp/.X${displayNum}-lock`, { force: true });
        writeXauthority(cfg.xauthority);
      },
      probe: async () => existsSync(`/tmp/.X11-unix/X${displayNum}`) && existsSync(framebufferPath(cfg)),
      startTimeoutMs: cfg.startTimeoutMs,
    }, log);

    const ideEnv = ideEnvironment(cfg);
    this.ide = new SupervisedProcess({
      name: 'ide',
      command: 'code-server',
      args: [
        '--auth', 'none', '--bind-addr', `${cfg.ideHost}:${cfg.idePort}`,
        '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust', '--disable-getting-started-override',
        '--ignore-last-opened', '--user-data-dir', cfg.userDataDir, '--extensions-dir', cfg.extensionsDir,
        cfg.workspace,
      ],
      env: ideEnv,
      ...(cfg.ideUser ? { user: cfg.ideUser } : {}),
      probe: () => httpOk(`http://127.0.0.1:${cfg.idePort}/healthz`),
      startTimeoutMs: cfg.startTimeoutMs,
    }, log);

    const profile = `${cfg.runDir}/chromium-profile`;
    this.browser = new SupervisedProcess({
      name: 'browser',
      command: 'chromium',
      args: [
        '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--no-default-browser-check',
        '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage',
        '--disable-features=Translate,MediaRouter,OptimizationHints', '--password-store=basic', '--disable-infobars',
        '--hide-crash-restore-bubble', `--user-data-dir=${profile}`, '--kiosk', '--window-position=0,0',
        `--window-size=${cfg.width},${cfg.height}`,
        // DevTools over fds 3/4, held by the bridge alone: a port would be open to every user here.
        '--remote-debugging-pipe', `--app=http://127.0.0.1:${cfg.port}/boot`,
      ],
      env: { ...bridgeSideEnv(), DISPLAY: cfg.display, XAUTHORITY: cfg.xauthority },
      pipes: true,
      onSpawn: (child) => this.page.attachBrowser(new CdpPipe(child.stdio[3] as Writable, child.stdio[4] as Readable)),
      prepare: () => rmSync(profile, { recursive: true, force: true }),
      probe: () => this.page.browserAnswers(),
      startTimeoutMs: cfg.startTimeoutMs,
    }, log);

    // A restarted IDE server drops the page's connection for good: reload the page.
    // Whenever the kiosk window loads a workbench again, its new extension host is the one to serve.
    this.ide.on('restarted', () => { this.rendered = false; link.kioskWindowLoading(); void this.page.reload().catch(() => undefined); this.watch(); });
    this.browser.on('restarted', () => { this.rendered = false; link.kioskWindowLoading(); this.page.disconnect(); this.watch(); });
    // The browser lost its display (it may have crashed with it): a fresh one on the new display,
    // then the workbench must render again before the environment is ready.
    this.display.on('restarted', () => {
      this.rendered = false;
      link.kioskWindowLoading();
      this.emit('change');
      void this.browser.restart().then(() => { this.page.disconnect(); this.watch(); }, (e: Error) => log(`browser after the display restart: ${e.message}`));
    });
    for (const p of [this.display, this.ide, this.browser]) {
      p.on('state', (state: string) => {
        if (state === 'ready') this.mark(p.spec.name);
        else this.rendered = false; // whatever restarts, the workbench must render again before "ready"
        this.emit('change');
      });
    }
    link.on('change', () => { if (link.connected) this.mark('extension'); });
    this.returnWatch = watchExtensionHostReturn({
      link, log,
      // Not while the bridge itself opens the workbench (a reset, a restart of the IDE): that waits for the host.
      canReload: () => this.rendered && !this.workbenchClosed && !this.opening && !this.closed && [this.display, this.ide, this.browser].every((p) => p.state === 'ready'),
      reload: () => { this.rendered = false; link.kioskWindowLoading(); this.emit('change'); void this.page.reload().catch(() => undefined); this.watch(); },
    });
  }

  private readonly returnWatch: ExtensionHostReturnWatch;
  /** The bridge is opening the workbench (openWorkbench, restartIde) and waits for its extension host itself. */
  private opening = false;

  /** The workbench URL the boot page leads to. */
  get workbenchUrl(): string {
    return `http://127.0.0.1:${this.cfg.idePort}/?folder=${encodeURIComponent(this.cfg.workspace)}`;
  }

  async start(): Promise<void> {
    await this.display.start();
    // The browser starts beside the IDE server; its boot page waits for the server.
    await Promise.all([this.ide.start(), this.browser.start()]);
    this.watch();
  }

  get ready(): boolean {
    const ready = this.isReady();
    if (ready) this.readyAfterMs ??= Date.now() - this.startedAt;
    return ready;
  }

  /**
   * Ready = every process up, the workbench rendered and our extension connected. The
   * extension host starts about two seconds after the workbench renders, and until it has,
   * the workbench is still settling: keys sent earlier can land in a quick open that the
   * start-up then closes. So readiness waits for it.
   */
  private isReady(): boolean {
    return this.rendered && this.link.connected && [this.display, this.ide, this.browser].every((p) => p.state === 'ready');
  }

  health(): Health {
    return {
      ready: this.ready,
      uptimeMs: Date.now() - this.startedAt,
      readyAfterMs: this.readyAfterMs,
      startup: this.startup,
      display: { width: this.cfg.width, height: this.cfg.height },
      components: {
        display: this.display.status(),
        ide: this.ide.status(),
        browser: this.browser.status(),
        workbench: { state: this.rendered ? 'ready' : 'starting', restarts: 0, pid: null, lastError: null },
        extension: { state: this.link.connected ? 'ready' : 'starting', restarts: 0, pid: null, lastError: null },
      },
    };
  }

  async waitReady(timeoutMs: number): Promise<Health> {
    const deadline = Date.now() + timeoutMs;
    while (!this.ready) {
      if (Date.now() >= deadline) {
        const h = this.health();
        const waiting = Object.entries(h.components).filter(([, c]) => c.state !== 'ready').map(([n, c]) => `${n}: ${c.state}${c.lastError ? ` (${c.lastError})` : ''}`);
        throw new TimeoutError(`IDE not ready after ${timeoutMs} ms; waiting for ${waiting.join(', ') || 'the workbench'}`);
      }
      await new Promise<void>((resolve) => {
        const done = () => { clearTimeout(t); this.off('change', done); resolve(); };
        const t = setTimeout(done, 200);
        this.on('change', done);
      });
    }
    return this.health();
  }

  async restartIde(timeoutMs: number): Promise<Health> {
    this.opening = true;
    try {
      this.rendered = false;
      this.link.kioskWindowLoading();
      await this.ide.restart();
      await this.page.reload().catch(() => undefined);
      this.watch();
      return await this.waitReady(timeoutMs);
    } finally {
      this.opening = false;
    }
  }

  /**
   * Parks the window on about:blank so the workbench shuts down (flushing its state) and its
   * extension host stops, optionally forgetting the browser-side workbench state (IndexedDB:
   * open editors, layout, view state). The IDE server keeps running.
   */
  async closeWorkbench(clearState: boolean, timeoutMs: number): Promise<Health> {
    this.workbenchClosed = true;
    this.rendered = false;
    this.emit('change');
    await this.page.navigate('about:blank', timeoutMs);
    await this.until(() => !this.link.connected, timeoutMs);
    if (clearState) await this.page.clearOriginData(`http://127.0.0.1:${this.cfg.idePort}`);
    return this.health();
  }

  /** Opens the workbench after closeWorkbench; returns once it rendered and ide.* is served again. */
  async openWorkbench(timeoutMs: number): Promise<Health> {
    this.opening = true;
    try {
      return await this.openWorkbenchNow(timeoutMs);
    } finally {
      this.opening = false;
    }
  }

  private async openWorkbenchNow(timeoutMs: number): Promise<Health> {
    const t0 = Date.now();
    const deadline = t0 + timeoutMs;
    this.workbenchClosed = false;
    this.rendered = false;
    this.link.kioskWindowLoading();
    await this.page.navigate(this.workbenchUrl, timeoutMs);
    const loaded = Date.now() - t0;
    this.watch();
    const rendered = (await this.until(() => this.rendered, Math.max(0, deadline - Date.now()))) ? Date.now() - t0 : null;
    await this.waitReady(Math.max(0, deadline - Date.now()));
    if (!(await this.until(() => this.link.connected, Math.max(0, deadline - Date.now())))) {
      throw new TimeoutError(`the workbench rendered but its extension host did not connect within ${timeoutMs} ms`);
    }
    this.log(`workbench reopened: page loaded after ${loaded} ms, rendered after ${rendered} ms, extension after ${Date.now() - t0} ms`);
    return this.health();
  }

  /** Resolves true once `cond` holds (re-checked on every change), false after timeoutMs. */
  private async until(cond: () => boolean, timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (!cond()) {
      if (Date.now() >= deadline) return false;
      await new Promise<void>((resolve) => {
        const done = () => { clearTimeout(t); this.off('change', done); resolve(); };
        const t = setTimeout(done, Math.min(200, Math.max(1, deadline - Date.now())));
        this.on('change', done);
      });
    }
    return true;
  }

  /** Polls the page until the workbench has rendered; one poller at a time. */
  private watch(): void {
    this.watching ??= (async () => {
      const expectRows = (() => { try { return readdirSync(this.cfg.workspace).length > 0; } catch { return false; } })();
      while (!this.closed && !this.rendered && !this.workbenchClosed) {
        if (this.browser.state === 'ready' && this.ide.state === 'ready' && (await this.page.isRendered(expectRows))) {
          this.rendered = true;
          this.returnWatch.rendered();
          this.mark('workbench');
          this.log(`workbench rendered after ${Date.now() - this.startedAt} ms`);
          this.emit('change');
          break;
        }
        await sleep(100);
      }
    })().finally(() => { this.watching = undefined; });
  }

  async stop(): Promise<void> {
    this.closed = true;
    this.returnWatch.stop();
    this.page.disconnect();
    await this.browser.stop();
    await this.ide.stop();
    await this.display.stop();
  }
}

/**
 * The IDE's environment: its own user's, without the host's token or the display's cookie. The
 * extension's token is in it (the extension host reads it from there), so the link also checks
 * who connects (extensionHostCheck.ts) and grading never trusts what the link answers.
 */
function ideEnvironment(cfg: BridgeConfig): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, PWP_EXTENSION_PORT: String(cfg.extensionPort), PWP_EXTENSION_TOKEN: cfg.extensionToken };
  for (const k of ['PWP_TOKEN', 'PWP_TOKEN_FILE', 'XAUTHORITY', 'DISPLAY']) delete env[k];
  if (cfg.ideUser) Object.assign(env, { HOME: cfg.ideUser.home, USER: cfg.ideUser.name, LOGNAME: cfg.ideUser.name, SHELL: '/bin/bash' });
  return env;
}

/** The browser runs as the bridge's user, on the display, and needs neither token. */
function bridgeSideEnv(): NodeJS.ProcessEnv {
  const { PWP_TOKEN: _t, PWP_TOKEN_FILE: _f, ...rest } = process.env;
  return rest;
}
