// The Chromium DevTools connection to the IDE workbench page. Used to know when the
// workbench has rendered, to reload it after the IDE server restarts, and by dom.*.
import CDP from 'chrome-remote-interface';
import { NotAvailableError } from '../protocol';

type Client = CDP.Client;

export class WorkbenchPage {
  private client?: Client;
  private connecting?: Promise<Client>;

  constructor(private readonly port: number, private readonly urlPrefix: string) {}

  /** The CDP client for the workbench tab, connecting (again) when needed. */
  async cdp(): Promise<Client> {
    if (this.client) return this.client;
    this.connecting ??= this.connect().finally(() => { this.connecting = undefined; });
    return this.connecting;
  }

  private async connect(): Promise<Client> {
    let targets: CDP.Target[];
    try {
      targets = await CDP.List({ port: this.port, host: '127.0.0.1' });
    } catch (err) {
      throw new NotAvailableError(`browser DevTools endpoint not reachable: ${(err as Error).message}`);
    }
    // about:blank: the window parked by a restore (IdeStack.closeWorkbench) is still the IDE's.
    const page = targets.find((t) => t.type === 'page' && t.url.startsWith(this.urlPrefix))
      ?? targets.find((t) => t.type === 'page' && t.url === 'about:blank');
    if (!page) throw new NotAvailableError('the IDE workbench page is not open in the browser');
    const client = await CDP({ port: this.port, host: '127.0.0.1', target: page.id });
    client.on('disconnect', () => { if (this.client === client) this.client = undefined; });
    this.client = client;
    return client;
  }

  /** Evaluates an expression in the page and returns its JSON value. */
  async evaluate<T>(expression: string, timeoutMs = 5000): Promise<T> {
    const client = await this.cdp();
    const r = await client.Runtime.evaluate({ expression, returnByValue: true, awaitPromise: true, timeout: timeoutMs });
    if (r.exceptionDetails) throw new Error(`page script failed: ${r.exceptionDetails.exception?.description ?? r.exceptionDetails.text}`);
    return r.result.value as T;
  }

  /**
   * True once the workbench's main parts are laid out and, when the workspace has files,
   * the explorer lists them: the screen then shows a usable IDE, not a loading shell.
   */
  async isRendered(expectExplorerRows: boolean): Promise<boolean> {
    return this.evaluate<boolean>(`(() => {
      const visible = (sel) => { const e = document.querySelector(sel); if (!e) return false; const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
      return visible('.monaco-workbench') && visible('.part.activitybar') && visible('.part.statusbar') && visible('.part.editor')
        && (!visible('.part.sidebar') || !!document.querySelector('.explorer-folders-view'))
        && (!${expectExplorerRows} || !visible('.part.sidebar') || !!document.querySelector('.explorer-folders-view .monaco-list-row'));
    })()`, 2000).catch(() => false);
  }

  async reload(): Promise<void> {
    const client = await this.cdp();
    await client.Page.reload({ ignoreCache: false });
  }

  /**
   * Navigates the window and waits for the new document's load event. A leave-page prompt
   * (beforeunload) is accepted: the caller means to leave.
   */
  async navigate(url: string, timeoutMs: number): Promise<void> {
    const client = await this.cdp();
    await client.Page.enable();
    const unsubscribe: (() => void)[] = [];
    unsubscribe.push(client.Page.javascriptDialogOpening(() => void client.Page.handleJavaScriptDialog({ accept: true }).catch(() => undefined)));
    try {
      const loaded = new Promise<void>((resolve) => {
        const t = setTimeout(resolve, timeoutMs);
        unsubscribe.push(client.Page.loadEventFired(() => { clearTimeout(t); resolve(); }));
      });
      await client.Page.navigate({ url });
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
    await client.Storage.clearDataForOrigin({ origin, storageTypes: 'indexeddb,local_storage,websql' });
  }

  disconnect(): void {
    const c = this.client;
    this.client = undefined;
    void c?.close().catch(() => undefined);
  }
}
