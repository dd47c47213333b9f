import { z } from 'zod';
import { Empty, method } from './common';

const ComponentState = z.enum(['starting', 'ready', 'restarting', 'failed', 'stopped']);
const Component = z.object({
  state: ComponentState,
  restarts: z.int(),
  pid: z.int().nullable(),
  lastError: z.string().nullable(),
});
export const Health = z.object({
  ready: z.boolean(),
  uptimeMs: z.number(),
  /** ms from bridge start to first full readiness, null until then */
  readyAfterMs: z.number().nullable(),
  /** ms from bridge start at which each part first became ready (where start-up time goes) */
  startup: z.record(z.string(), z.number()),
  display: z.object({ width: z.int(), height: z.int() }),
  components: z.record(z.string(), Component),
});
export type Health = z.infer<typeof Health>;

export const procMethods = {
  'proc.health': method('Readiness of the display, IDE server and browser; never waits.', Empty, Health),
  'proc.start': method(
    'Start the display, IDE server and browser of a bridge started with PWP_START=held (the host has put the ' +
      'environment\'s files in through runtime.*); returns at once, proc.waitReady says when it is ready. ' +
      'Does nothing when they already started.',
    Empty,
    Health,
  ),
  'proc.waitReady': method(
    'Wait until the IDE workbench has rendered and every component is ready.',
    z.object({ timeoutMs: z.int().min(0).max(600_000).default(60_000) }).strict(),
    Health,
  ),
  'proc.closeWorkbench': method(
    'Navigate the IDE window away from the workbench: the workbench shuts down (writing out its state) and its ' +
      'extension host stops; the IDE server keeps running and the environment reports not ready. With clearState ' +
      'the browser also forgets the workbench\'s stored layout (open editors, view state), so proc.openWorkbench ' +
      'starts as a fresh window does. For swapping the IDE\'s files underneath it (checkpoint restores).',
    z.object({ clearState: z.boolean().default(true), timeoutMs: z.int().min(0).max(60_000).default(10_000) }).strict(),
    Health,
  ),
  'proc.openWorkbench': method(
    'Open the workbench again after proc.closeWorkbench; returns when it has rendered and its extension host is ' +
      'connected (ide.* works).',
    z.object({ timeoutMs: z.int().min(0).max(600_000).default(60_000) }).strict(),
    Health,
  ),
  'proc.restartIde': method(
    'Restart the IDE server and reload the browser; returns when the workbench is ready again.',
    z.object({ timeoutMs: z.int().min(0).max(600_000).default(60_000) }).strict(),
    Health,
  ),
};
