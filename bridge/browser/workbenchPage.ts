// The Chromium DevTools connection to the IDE workbench page. Used to know when the
// workbench has rendered, to reload it after the IDE server restarts, and by dom.*. It runs
// over the browser's DevTools pipe (cdpPipe.ts), which only the bridge holds.
import { NotAvailableError } from '../protocol';
import type { CdpEvent, CdpPipe } from './cdpPipe';

interface TargetInfo { targetId: string; type: string; url: string }

/** The workbench tab: commands go to its session, events from it reach `on` handlers. */
export interface PageSession {
  send<T = unknown>(method: string, params?: object): Promise<T>;
  /** Calls `handler` for each event named `method` from this page; returns the unsubscribe. */
  on(method: string, handler: (params: unknown) => void): () => void;
}

export class WorkbenchPage {
  private pipe?: CdpPipe;
  private client?: PageSession;
  private connecting?: Promise<PageSession>;
  /** Stops routing the current session's events. */
  private detach?: () => void;
  /** Scripts every document of the page runs first (addInitScript), given again to each new session. */
  private readonly initScripts = new Set<string>();

  constructor(private readonly urlPrefix: string) {}

  /** The browser (re)started with this pipe: earlier sessions are gone. */
  attachBrowser(pipe: CdpPipe): void {
    this.pipe?.close('the browser restarted');
    this.disconnect();
    this.pipe = pipe;
    pipe.on('close', () => { if (this.pipe === pipe) { this.pipe = undefined; this.client = undefined; } });
  }

  /** True once the browser answers on its pipe (its readiness probe). */
  async browserAnswers(): Promise<boolean> {
    return !!this.pipe && (await this.pipe.send('Browser.getVersion').then(() => true, () => false));
  }

  /** The session on the workbench tab, attaching (again) when needed. */
  async cdp(): Promise<PageSession> {
    if (this.client) return this.client;
    this.connecting ??= this.connect().finally(() => { this.connecting = undefined; });
    return this.connecting;
  }

  private async connect(): Promise<PageSession> {
    const pipe = this.pipe;
    if (!pipe || pipe.closed) throw new NotAvailableError('the browser is not running');
    const { targetInfos } = await pipe.send<{ targetInfos: TargetInfo[] }>('Target.getTargets');
    // about:blank: the window parked by a restore (IdeStack.closeWorkbench) is still the IDE's.
    const page = targetInfos.find((t) => t.type === 'page' && t.url.startsWith(this.urlPrefix))
      ?? targetInfos.find((t) => t.type === 'page' && t.url === 'about:blank');
    if (!page) throw new NotAvailableError('the IDE workbench page is not open in the browser');
    const { sessionId } = await pipe.send<{ sessionId: string }>('Target.attachToTarget', { targetId: page.targetId, flatten: true });
    const handlers = new Map<string, Set<(params: unknown) => void>>();
    const onEvent = (e: CdpEvent) => {
      if (e.method === 'Target.detachedFromTarget' && (e.params as { sessionId?: string }).sessionId === sessionId) {
        if (this.client === session) this.disconnect();
        else pipe.off('event', onEvent);
        return;
      }
      if (e.sessionId === sessionId) for (const h of handlers.get(e.method) ?? []) h(e.params);
    };
    pipe.on('event', onEvent);
    const session: PageSession = {
      send: (method, params) => pipe.send(method, params ?? {}, sessionId),
      on: (method, handler) => {
        const set = handlers.get(method) ?? new Set();
        set.add(handler);
        handlers.set(method, set);
        return () => { set.delete(handler); };
      },
    };
    for (const source of this.initScripts) await session.send('Page.addScriptToEvaluateOnNewDocument', { source });
    if (this.pipe === pipe) {
      this.disconnect();
      this.client = session;
      this.detach = () => { pipe.off('event', onEvent); void pipe.send('Target.detachFromTarget', { sessionId }).catch(() => undefined); };
    }
    return session;
  }

  /** Runs `source` in every document (every frame) the page loads from now on, before its own scripts. */
  async addInitScript(source: string): Promise<void> {
    if (this.initScripts.has(source)) return;
    const client = await this.cdp();
    await client.send('Page.addScriptToEvaluateOnNewDocument', { source });
    this.initScripts.add(source);
  }

  /** Evaluates an expression in the page and returns its JSON value. */
  async evaluate<T>(expression: string, timeoutMs = 5000): Promise<T> {
    const client = await this.cdp();
    const r = await client.send<{ result: { value?: unknown }; exceptionDetails?: { text: string; exception?: { description?: string } } }>(
      'Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true, timeout: timeoutMs });
    if (r.exceptionDetails) throw new Error(`page script failed: ${r.exceptionDetails.exception?.description ?? r.exceptionDetails.text}`);
    return r.result.value as T;
  }

  /**
   * True once the workbench's main parts are laid out and, when the workspace has files,
   * the explorer lists them: the screen then shows a usable IDE, not a loading shell. And once
   * the workbench has created its contributions of the Restored phase, which it does when idle
   * (performance mark `code/didCreateWorkbenchContributions/3`): among them is the tracker that
   * writes local history on save, and a save before it exists leaves no Timeline entry. A
   * workbench that marks none of its phases (another version) is not waited for.
   */
  async isRendered(expectExplorerRows: boolean): Promise<boolean> {
    return this.evaluate<boolean>(`(() => {
      const visible = (sel) => { const e = document.querySelector(sel); if (!e) return false; const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
      const marked = (name) => performance.getEntriesByName(name, 'mark').length > 0;
      return (marked('code/didCreateWorkbenchContributions/3') || !marked('code/didCreateWorkbenchContributions/1'))
        && visible('.monaco-workbench') && visible('.part.activitybar') && visible('.part.statusbar') && visible('.part.editor')
        && (!visible('.part.sidebar') || !!document.querySelector('.explorer-folders-view'))
        && (!${expectExplorerRows} || !visible('.part.sidebar') || !!document.querySelector('.explorer-folders-view .monaco-list-row'));
    })()`, 2000).catch(() => false);
  }

  async reload(): Promise<void> {
    const client = await this.cdp();
    await client.send('Page.reload', { ignoreCache: false });
  }

  /**
   * Navigates the window and waits for the new document's load event. A leave-page prompt
   * (beforeunload) is accepted: the caller means to leave.
   */
  async navigate(url: string, timeoutMs: number): Promise<void> {
    const client = await this.cdp();
    await client.send('Page.enable');
    const unsubscribe: (() => void)[] = [];
    unsubscribe.push(client.on('Page.javascriptDialogOpening', () => void client.send('Page.handleJavaScriptDialog', { accept: true }).catch(() => undefined)));
    try {
      const loaded = new Promise<void>((resolve) => {
        const t = setTimeout(resolve, timeoutMs);
        unsubscribe.push(client.on('Page.loadEventFired', () => { clearTimeout(t); resolve(); }));
      });
      await client.send('Page.navigate', { url });
      await loaded;
    } finally {
      for (const u of unsubscribe) u();
    }
  }

  /**
   * Forgets the state a web app keeps for an origin (IndexedDB and local storage: the
   * workbench's layout, open editors, view state). The HTTP and code caches stay, so the
   * next load is as fast as a reload.
   */
  async clearOriginData(origin: string): Promise<void> {
    const client = await this.cdp();
    await client.send('Storage.clearDataForOrigin', { origin, storageTypes: 'indexeddb,local_storage,websql' });
  }

  /** Forgets the page's session (the browser or the page went away); the next call attaches again. */
  disconnect(): void {
    this.client = undefined;
    this.detach?.();
    this.detach = undefined;
  }
}
