// Who holds the IDE (agent or person) and the person's recorded input. Pure state with
// waiters; the live view feeds events in, control.* handlers and the input gate read it.
import { EventEmitter } from 'node:events';
import { TimeoutError, type ControlStatus, type HumanEvent } from '../protocol';

type Holder = ControlStatus['holder'];
/** An event as the decoder produces it, before it gets a sequence number and a time. */
export type NewHumanEvent =
  | { kind: 'key'; down: boolean; keysym: number; name: string }
  | { kind: 'pointer'; x: number; y: number; buttons: number; action: 'press' | 'release' | 'wheel' | 'move' }
  | { kind: 'clipboard'; text: string };

export const MAX_EVENTS = 10_000;

export class ControlState extends EventEmitter {
  private holder: Holder = 'agent';
  private message: string | null = null;
  private answer: string | null = null;
  private since = Date.now();
  private returnsAt: number | null = null;
  private returnTimer?: NodeJS.Timeout;
  private inputWaitMs = 60_000;
  private viewers = 0;
  private readonly events: HumanEvent[] = [];
  private seq = 0;

  constructor(private readonly now: () => number = Date.now) { super(); this.setMaxListeners(0); }

  status(): ControlStatus {
    return {
      holder: this.holder, message: this.message, answer: this.answer, since: this.since, returnsAt: this.returnsAt,
      inputWaitMs: this.inputWaitMs, viewers: this.viewers, lastEventSeq: this.seq,
    };
  }

  request(message: string, timeoutMs: number, inputWaitMs: number): ControlStatus {
    clearTimeout(this.returnTimer);
    this.inputWaitMs = inputWaitMs;
    this.returnsAt = timeoutMs > 0 ? this.now() + timeoutMs : null;
    if (timeoutMs > 0) this.returnTimer = setTimeout(() => this.handBack(), timeoutMs);
    this.answer = null;
    this.set('human', message);
    return this.status();
  }

  /** Control returns to the agent, with the person's answer if they gave one. */
  handBack(answer?: string): ControlStatus {
    clearTimeout(this.returnTimer);
    this.returnsAt = null;
    if (this.holder === 'human') this.answer = answer?.trim() ? answer : null;
    this.set('agent', null);
    return this.status();
  }

  /** Resolves when `holder` holds control, or after timeoutMs (check the status). */
  async wait(holder: Holder, timeoutMs: number, signal?: AbortSignal): Promise<ControlStatus> {
    if (this.holder === holder || timeoutMs <= 0) return this.status();
    await new Promise<void>((resolve) => {
      const done = () => { clearTimeout(t); this.off('change', check); signal?.removeEventListener('abort', done); resolve(); };
      const check = () => { if (this.holder === holder) done(); };
      const t = setTimeout(done, timeoutMs);
      this.on('change', check);
      signal?.addEventListener('abort', done, { once: true });
    });
    return this.status();
  }

  /** The gate in front of agent input: waits while the person holds control, at most inputWaitMs. */
  async agentTurn(method: string, signal?: AbortSignal): Promise<void> {
    if (this.holder === 'agent') return;
    const s = await this.wait('agent', this.inputWaitMs, signal);
    if (s.holder !== 'agent') {
      throw new TimeoutError(`${method}: the person still has control after ${this.inputWaitMs} ms (asked: "${s.message}"); ` +
        'wait with control.wait or hand control back with control.handBack');
    }
  }

  viewerJoined(): void { this.viewers++; this.emit('change'); }
  viewerLeft(): void { this.viewers = Math.max(0, this.viewers - 1); this.emit('change'); }

  record(e: NewHumanEvent): HumanEvent {
    const event = { ...e, seq: ++this.seq, t: this.now() } as HumanEvent;
    this.events.push(event);
    if (this.events.length > MAX_EVENTS) this.events.splice(0, this.events.length - MAX_EVENTS);
    this.emit('event', event);
    return event;
  }

  eventsSince(since: number, max: number): { events: HumanEvent[]; next: number; dropped: number } {
    const first = this.events.length ? this.events[0].seq : this.seq + 1;
    const dropped = Math.max(0, first - 1 - since);
    const events = this.events.filter((e) => e.seq > since).slice(0, max);
    // A `since` beyond the latest event means the bridge restarted: start over from its count.
    const next = events.length ? events[events.length - 1].seq : Math.min(since, this.seq);
    return { events, next, dropped };
  }

  private set(holder: Holder, message: string | null): void {
    this.holder = holder;
    this.message = message;
    this.since = this.now();
    this.emit('change');
  }

  dispose(): void { clearTimeout(this.returnTimer); }
}
