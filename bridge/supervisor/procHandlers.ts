// proc.* methods: readiness and restarting the IDE.
import type { Dispatcher } from '../rpc/dispatcher';
import type { IdeStack } from './ideStack';

export function registerProc(d: Dispatcher, stack: IdeStack): void {
  d.register('proc.health', async () => stack.health());
  d.register('proc.waitReady', async (p) => stack.waitReady(p.timeoutMs));
  d.register('proc.restartIde', async (p) => stack.restartIde(p.timeoutMs));
  d.register('proc.closeWorkbench', async (p) => stack.closeWorkbench(p.clearState, p.timeoutMs));
  d.register('proc.openWorkbench', async (p) => stack.openWorkbench(p.timeoutMs));
}
