import { z } from 'zod';
import { Empty, method } from './common';

// Pair programming: who drives the IDE, and what the person did through the live view.
// A person can always type and click in the live view; while the person *holds* control
// (after an agent asked for help), the agent's input.* calls wait until it is handed back.

const Holder = z.enum(['agent', 'human']);

export const ControlStatus = z.object({
  holder: Holder,
  /** What the agent asked the person to do, while the person holds control. */
  message: z.string().nullable(),
  /** What the person answered when handing control back (null without an answer); cleared by the next request. */
  answer: z.string().nullable(),
  /** ms since the epoch when the holder last changed */
  since: z.number(),
  /** ms since the epoch at which control returns to the agent by itself, if it was given a limit */
  returnsAt: z.number().nullable(),
  /** How long an agent's input.* call waits for control before failing with TimeoutError. */
  inputWaitMs: z.int(),
  /** People connected to the live view now. */
  viewers: z.int(),
  /** Sequence number of the latest recorded human input event (0 when there is none). */
  lastEventSeq: z.int(),
});
export type ControlStatus = z.infer<typeof ControlStatus>;

/** Input a person made through the live view, decoded from the VNC (RFB) client messages. */
export const HumanEvent = z.discriminatedUnion('kind', [
  z.object({
    seq: z.int(),
    /** ms since the epoch, as the bridge received it */
    t: z.number(),
    kind: z.literal('key'),
    down: z.boolean(),
    /** X keysym number; `name` is its readable name (`a`, `Return`, `Control_L`, `U+20AC`). */
    keysym: z.int(),
    name: z.string(),
  }),
  z.object({
    seq: z.int(),
    t: z.number(),
    kind: z.literal('pointer'),
    x: z.int(),
    y: z.int(),
    /** Button mask after the event: bit 0 left, 1 middle, 2 right, 3/4 wheel up/down, 5/6 wheel left/right. */
    buttons: z.int(),
    /** press, release, wheel, or move (moves are thinned to at most one per 100 ms). */
    action: z.enum(['press', 'release', 'wheel', 'move']),
  }),
  z.object({ seq: z.int(), t: z.number(), kind: z.literal('clipboard'), text: z.string() }),
]);
export type HumanEvent = z.infer<typeof HumanEvent>;

export const controlMethods = {
  'control.status': method('Who drives the IDE now (agent or human), the hand-off message and the live-view viewers.', Empty, ControlStatus),
  'control.request': method(
    'The agent asks the person to take over, with a message saying what it needs. Until the person hands control back ' +
      '(control.handBack, or the button in the live view) or timeoutMs passes, the agent\'s input.* calls wait ' +
      '(each at most inputWaitMs, then TimeoutError).',
    z.object({
      message: z.string().min(1).max(2000),
      /** Control returns to the agent by itself after this long; 0 means only a hand-back returns it. */
      timeoutMs: z.int().min(0).max(24 * 3600_000).default(0),
      inputWaitMs: z.int().min(0).max(3600_000).default(60_000),
    }).strict(),
    ControlStatus,
  ),
  'control.handBack': method(
    'The person hands control back to the agent, optionally with an answer to what it asked (in `answer` of the status ' +
      'until the next request); waiting input.* calls proceed.',
    z.object({ answer: z.string().max(10_000).optional() }).strict(),
    ControlStatus,
  ),
  'control.wait': method(
    'Wait (at most timeoutMs) until the given party holds control; returns the status either way (check `holder`).',
    z.object({ holder: Holder.default('agent'), timeoutMs: z.int().min(0).max(600_000).default(60_000) }).strict(),
    ControlStatus,
  ),
  'control.events': method(
    'Human input events recorded from the live view after sequence number `since`, oldest first. The bridge keeps ' +
      'the latest 10 000; `dropped` says how many after `since` were already discarded.',
    z.object({ since: z.int().min(0).default(0), max: z.int().min(1).max(10_000).default(1000) }).strict(),
    z.object({ events: z.array(HumanEvent), next: z.int(), dropped: z.int() }),
  ),
};
