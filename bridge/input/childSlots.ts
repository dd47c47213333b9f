// A cap on the input tools' child processes (xdotool, xmodmap) running at once, whatever the
// callers do: a flood of calls then waits in a queue instead of failing with `spawn EAGAIN`
// when the container's process limit is reached.

export class ChildSlots {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly max: number) {}

  /** Runs `fn` once fewer than `max` others are running. */
  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.running >= this.max) await new Promise<void>((r) => this.waiting.push(r));
    else this.running++;
    try {
      return await fn();
    } finally {
      // Hand the slot straight to the next waiter, or give it back.
      const next = this.waiting.shift();
      if (next) next(); else this.running--;
    }
  }
}

/** Shared by every input tool of the bridge. */
export const inputChildren = new ChildSlots(4);
