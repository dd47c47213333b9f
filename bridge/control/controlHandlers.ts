// control.* methods, and the gate that holds agent input while a person has control.
import type { Dispatcher } from '../rpc/dispatcher';
import type { ControlState } from './controlState';

export function registerControl(d: Dispatcher, control: ControlState): void {
  d.register('control.status', async () => control.status());
  d.register('control.request', async (p) => control.request(p.message, p.timeoutMs, p.inputWaitMs));
  d.register('control.handBack', async (p) => control.handBack(p.answer));
  d.register('control.wait', async (p, session) => control.wait(p.holder, p.timeoutMs, session.signal));
  d.register('control.events', async (p) => control.eventsSince(p.since, p.max));
  d.addGuard('input.', (method, session) => control.agentTurn(method, session.signal));
}
