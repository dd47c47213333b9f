// Watches debug adapters' messages (a tracker on every session) so the debug tool can wait for
// a stop and read the program's output. Parent/child sessions (js-debug) are all seen.
import * as vscode from 'vscode';

export interface SessionState {
  session: vscode.DebugSession;
  stopped?: { threadId: number; reason: string; description?: string; text?: string };
  output: string;
  terminated: boolean;
  exitCode?: number;
}

export class DebugSessions implements vscode.Disposable {
  readonly states = new Map<string, SessionState>();
  private readonly listeners = new Set<() => void>();
  private readonly subs: vscode.Disposable[];

  constructor() {
    this.subs = [
      vscode.debug.registerDebugAdapterTrackerFactory('*', {
        createDebugAdapterTracker: (session) => {
          const st: SessionState = { session, output: '', terminated: false };
          this.states.set(session.id, st);
          return {
            // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a DAP event's body depends on its event
            onDidSendMessage: (m: { type?: string; event?: string; body?: any }) => {
              if (m.type !== 'event') return;
              if (m.event === 'stopped') st.stopped = { threadId: m.body?.threadId ?? 1, reason: m.body?.reason ?? 'stopped', description: m.body?.description, text: m.body?.text };
              else if (m.event === 'continued') st.stopped = undefined;
              else if (m.event === 'output' && m.body?.category !== 'telemetry' && typeof m.body?.output === 'string') st.output = (st.output + m.body.output).slice(-200_000);
              else if (m.event === 'exited') st.exitCode = m.body?.exitCode;
              else if (m.event === 'terminated') st.terminated = true;
              this.notify();
            },
            onExit: () => { st.terminated = true; this.notify(); },
          };
        },
      }),
      vscode.debug.onDidTerminateDebugSession((s) => { const st = this.states.get(s.id); if (st) st.terminated = true; this.notify(); }),
    ];
  }

  private notify(): void { for (const l of [...this.listeners]) l(); }

  /** Waits until check() gives a value, something changes it, or the time is up. */
  async until<T>(check: () => T | undefined, timeoutMs: number, signal?: AbortSignal): Promise<T | undefined> {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const v = check();
      if (v !== undefined || Date.now() >= end || signal?.aborted) return v;
      await new Promise<void>((resolve) => {
        const t = setTimeout(done, Math.min(250, end - Date.now()));
        function done() { clearTimeout(t); resolve(); }
        this.listeners.add(done);
        setTimeout(() => this.listeners.delete(done), 300);
      });
    }
  }

  /** Sessions that belong to one launch: the root and its children. */
  family(rootId: string): SessionState[] {
    const out: SessionState[] = [];
    for (const st of this.states.values()) {
      let s: vscode.DebugSession | undefined = st.session;
      while (s && s.id !== rootId) s = s.parentSession;
      if (s) out.push(st);
    }
    return out;
  }

  dispose(): void { for (const s of this.subs) s.dispose(); }
}
