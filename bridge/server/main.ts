// The bridge daemon: the container's entrypoint. Starts the IDE stack, then serves the
// protocol. The socket opens at once so the host can watch start-up through proc.health.
import { chmodSync, mkdirSync } from 'node:fs';
import { bootPage } from '../browser/bootPage';
import { registerCapture } from '../capture/captureHandlers';
import { Framebuffer } from '../capture/framebuffer';
import { configFromEnv, type BridgeConfig } from '../config';
import { registerControl } from '../control/controlHandlers';
import { ControlState } from '../control/controlState';
import { registerDom } from '../dom/domHandlers';
import { notAnExtensionHost } from '../ide/extensionHostCheck';
import { ExtensionLink } from '../ide/extensionLink';
import { registerInput } from '../input/inputHandlers';
import { InputSync } from '../input/inputSync';
import { Keymap } from '../input/keymap';
import { Xdotool } from '../input/xdotool';
import { registerProc } from '../supervisor/procHandlers';
import { registerRuntime } from '../runtime/runtimeHandlers';
import { IdeStack, framebufferPath } from '../supervisor/ideStack';
import { IdeProxy } from '../view/ideProxy';
import { ViewServer } from '../view/viewServer';
import { VncServer } from '../view/vncServer';
import { Dispatcher } from '../rpc/dispatcher';
import { RpcServer } from './rpcServer';

/** A tools.call may run as long as its timeoutMs (or a tool's own deadline, at most an hour). */
function toolLinkTimeoutMs(params: unknown): number {
  const t = (params as { timeoutMs?: unknown } | null)?.timeoutMs;
  return (typeof t === 'number' && t > 0 ? Math.min(t, 3_600_000) : 3_600_000) + 15_000;
}

/** Commands run as the IDE user unless a call names another (as the bridge's own user when it is not root). */
const runtimeConfig = (cfg: BridgeConfig) => ({ runDir: cfg.runDir, defaultUser: cfg.ideUser?.name ?? String(process.getuid?.() ?? 0), workspace: cfg.workspace });

const log = (line: string) => process.stderr.write(`[bridge ${new Date().toISOString()}] ${line}\n`);

async function main(): Promise<void> {
  const cfg = configFromEnv();
  // The bridge's own files (the display's cookie, the framebuffer, the browser profile,
  // recordings) are out of the IDE user's reach when the bridge runs as another user.
  mkdirSync(cfg.runDir, { recursive: true, mode: 0o700 });
  chmodSync(cfg.runDir, 0o700);
  if (cfg.mode === 'runtime') return serveRuntimeOnly(cfg);
  // Every X client the bridge starts (xdotool, xmodmap, ffmpeg, x11vnc, the browser) presents the cookie.
  process.env.XAUTHORITY = cfg.xauthority;
  const link: ExtensionLink = new ExtensionLink(cfg.extensionPort, cfg.extensionToken, log, {
    checkPeer: (peerPort): Promise<string | null> => notAnExtensionHost(peerPort, cfg.extensionPort, stack.ide.status().pid, '/proc', cfg.ideUser),
    kioskLoadedAt: () => stack.page.evaluate<number>('performance.timeOrigin', 2000),
  });
  const stack = new IdeStack(cfg, link, log);
  const dispatcher = new Dispatcher();
  const framebuffer = new Framebuffer(framebufferPath(cfg));
  const xdo = new Xdotool(cfg.display);
  const dom = registerDom(dispatcher, {
    page: stack.page, framebuffer, screen: () => framebuffer.size ?? { width: cfg.width, height: cfg.height },
    key: async (keys) => { await xdo.run(['key', '--clearmodifiers', keys]); },
  });
  const keymap = new Keymap(cfg.display);
  stack.display.on('restarted', () => keymap.displayRestarted());
  registerInput(dispatcher, xdo, keymap, (mark, session) => dom.resolveMark(mark, session), new InputSync(xdo, stack.page));
  const recorder = registerCapture(dispatcher, { framebuffer, display: cfg.display, recordingsDir: cfg.recordingsDir });
  let started = false;
  const start = (): void => {
    if (started) return;
    started = true;
    void stack.start().catch((err: Error) => log(`start-up failed: ${err.message}`));
  };
  registerProc(dispatcher, stack, start);
  const transfers = registerRuntime(dispatcher, runtimeConfig(cfg));
  dispatcher.registerFallback('ide.', (method, params) => link.call(method, params));
  // Tools run in the extension, which owns their deadlines; the link only must not give up first.
  dispatcher.registerFallback('tools.', (method, params) => link.call(method, params, { timeoutMs: toolLinkTimeoutMs(params) }));

  const control = new ControlState();
  registerControl(dispatcher, control);
  // The live view (opt-in): noVNC on this port, x11vnc started when the first person watches.
  const vnc = cfg.view ? new VncServer(cfg.display, cfg.vncPort, log) : undefined;
  const view = vnc ? new ViewServer({ token: cfg.token, vnc, control, log }) : undefined;
  if (vnc) stack.display.on('restarted', () => void vnc.displayRestarted());

  const bootHtml = bootPage(stack.workbenchUrl, `http://127.0.0.1:${cfg.idePort}/healthz`);
  const server = new RpcServer({
    host: cfg.host, port: cfg.port, token: cfg.token, dispatcher, isReady: () => stack.ready, bootPage: bootHtml, log,
    routes: [new IdeProxy({ token: cfg.token, idePort: cfg.idePort, log }), ...(view ? [view] : [])],
  });
  await server.listen();
  log(`serving on ${cfg.host}:${cfg.port}`);

  const shutdown = async (signal: string) => {
    log(`${signal}: shutting down`);
    recorder.kill();
    view?.close();
    await vnc?.stop();
    control.dispose();
    transfers.dispose();
    await server.close();
    link.close();
    await stack.stop();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  // A bug in one handler must not take the daemon down with every session on it.
  process.on('uncaughtException', (err) => log(`uncaught: ${err.stack ?? err.message}`));
  process.on('unhandledRejection', (err) => log(`unhandled rejection: ${(err as Error)?.stack ?? String(err)}`));

  if (cfg.held) log('holding the IDE until proc.start');
  else start();
}

/** The runtime-only bridge (PWP_BRIDGE_MODE=runtime): runtime.* behind the token, nothing else started. */
async function serveRuntimeOnly(cfg: BridgeConfig): Promise<void> {
  const dispatcher = new Dispatcher();
  const transfers = registerRuntime(dispatcher, runtimeConfig(cfg));
  const server = new RpcServer({ host: cfg.host, port: cfg.port, token: cfg.token, dispatcher, isReady: () => true, log });
  await server.listen();
  log(`serving runtime.* only on ${cfg.host}:${cfg.port}`);
  const shutdown = async () => { transfers.dispose(); await server.close(); process.exit(0); };
  process.on('SIGTERM', () => void shutdown());
  process.on('SIGINT', () => void shutdown());
}

void main().catch((err: Error) => {
  log(`fatal: ${err.message}`);
  process.exit(1);
});
