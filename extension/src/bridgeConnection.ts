// Keeps a WebSocket to the bridge open (reconnecting with backoff) and answers the
// bridge's ide.* requests with the dispatcher. No vscode import: unit-testable.
import WebSocket from 'ws';
import { EXTENSION_LINK_CLOSE, EXTENSION_LINK_MAX_PAYLOAD } from '../../bridge/protocol';
import type { Dispatcher, Session } from '../../bridge/rpc/dispatcher';


export interface BridgeConnectionOptions {
  url: string;
  dispatcher: Dispatcher;
  log: (line: string) => void;
}

export class BridgeConnection {
  private ws?: WebSocket;
  private disposed = false;
  private attempt = 0;
  private timer?: NodeJS.Timeout;
  private abort = new AbortController();

  constructor(private readonly opts: BridgeConnectionOptions) {}

  start(): void { this.connect(); }

  private connect(): void {
    if (this.disposed) return;
    const ws = new WebSocket(this.opts.url, { maxPayload: EXTENSION_LINK_MAX_PAYLOAD });
    this.ws = ws;
    this.abort = new AbortController();
    const session: Session = { id: 0, state: new Map(), signal: this.abort.signal };
    ws.on('open', () => { this.attempt = 0; this.opts.log('connected to the bridge'); });
    ws.on('message', (data) => {
      void this.opts.dispatcher.handle(data.toString(), session).then((res) => {
        if (res && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(res));
      });
    });
    ws.on('close', (code) => {
      this.abort.abort();
      if (this.disposed) return;
      if (code === EXTENSION_LINK_CLOSE.SUPERSEDED) { this.opts.log('a newer extension host serves the bridge; this one stops'); this.disposed = true; return; }
      if (code === EXTENSION_LINK_CLOSE.OTHER_WINDOW) { this.opts.log('the kiosk window\'s extension host serves the bridge; this window\'s does not'); this.disposed = true; return; }
      const delay = Math.min(2000, 100 * 2 ** this.attempt++);
      this.timer = setTimeout(() => this.connect(), delay);
    });
    ws.on('error', () => { /* close follows; reconnect there */ });
  }

  dispose(): void {
    this.disposed = true;
    clearTimeout(this.timer);
    this.ws?.close();
  }
}
