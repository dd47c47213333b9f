// proc.* methods: readiness and restarting the IDE.
import type { Dispatcher } from '../rpc/dispatcher';
import type { IdeStack } from './ideStack';

/** `start` starts the IDE stack once (a held bridge's proc.start; a no-op after that). */
export function registerProc(d: Dispatcher, stack: IdeStack, start: () => void): void {
  d.register('proc.health', async () => stack.health());
  d.register('proc.start', async () => { start(); return stack.health(); });
  d.register('proc.waitReady', async (p) => stack.waitReady(p.timeoutMs));
  d.register('proc.restartIde', async (p) => stack.restartIde(p.timeoutMs));
  d.register('proc.closeWorkbench', async (p) => stack.closeWorkbench(p.clearState, p.timeoutMs));
  d.register('proc.openWorkbench', async (p) => stack.openWorkbench(p.timeoutMs));
}
