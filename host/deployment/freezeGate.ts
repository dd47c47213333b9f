// Keeps `docker exec` and the cgroup freezer (pause) apart, per container, in this process.
// An exec that starts while its container is frozen puts runc's init process into the frozen
// cgroup: it never runs, `runc exec` never returns, and it holds the container's lock in the
// engine's shim, so the unpause that would thaw it waits behind it. The container then stays
// paused for good and, on Docker 20.10, every inspect of it hangs (and with it every listing of
// environments). So: a pause waits for the execs under way to end and new execs wait for the
// unpause; a pause that would wait longer than its bound is refused (the checkpoint then reads
// the files live, and says so), never left half-way.
import { NotAvailableError } from '../../bridge/protocol';

const gates = new Map<string, Gate>();
const EXEC_WAIT_MS = 600_000;

class Gate {
  running = 0;
  frozen = false;
  /** Frozen until someone resumes it (Env.pause: a person looking), not for a checkpoint's moment. */
  held = false;
  /** Called when the container thaws (execs waiting to start) or the last exec ends (a pause waiting). */
  private waiting: (() => void)[] = [];

  wake(): void {
    for (const w of this.waiting.splice(0)) w();
  }

  until(ready: () => boolean, deadline: number): Promise<boolean> {
    if (ready()) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => { this.waiting = this.waiting.filter((w) => w !== check); resolve(ready()); }, Math.max(0, deadline - Date.now()));
      const check = () => {
        if (ready()) { clearTimeout(timer); resolve(true); } else this.waiting.push(check);
      };
      this.waiting.push(check);
    });
  }
}

function gate(containerId: string): Gate {
  let g = gates.get(containerId);
  if (!g) gates.set(containerId, g = new Gate());
  return g;
}

/** Runs an exec once its container is not frozen, counting it as under way until it ends. */
export async function whileThawed<T>(containerId: string, exec: () => Promise<T>): Promise<T> {
  const g = gate(containerId);
  if (g.frozen && g.held) throw new NotAvailableError(`container ${containerId.slice(0, 12)} is paused: resume it before running commands in it`);
  // A checkpoint's freeze lasts seconds; one that outlives EXEC_WAIT_MS was not ended (its unpause
  // failed): the exec fails rather than wait for ever or wedge the engine.
  if (g.frozen && !(await g.until(() => !g.frozen, Date.now() + EXEC_WAIT_MS))) {
    throw new Error(`container ${containerId.slice(0, 12)} stayed paused for ${EXEC_WAIT_MS / 1000} s; the command was not run`);
  }
  g.running++;
  try {
    return await exec();
  } finally {
    g.running--;
    g.wake();
  }
}

/**
 * Freezes the container with `pause` once no exec of this process runs in it (waiting up to
 * `waitMs` for those under way); new execs wait until `thaw`. False, and nothing frozen, when
 * the execs under way did not end in time.
 */
export async function freezeWhenIdle(containerId: string, pause: () => Promise<void>, o: { waitMs: number; held?: boolean }): Promise<boolean> {
  const g = gate(containerId);
  if (g.frozen) throw new NotAvailableError(`container ${containerId.slice(0, 12)} is already paused`);
  g.frozen = true;
  g.held = !!o.held;
  const waitMs = o.waitMs;
  try {
    if (!(await g.until(() => g.running === 0, Date.now() + waitMs))) {
      g.frozen = false;
      g.wake();
      return false;
    }
    await pause();
    return true;
  } catch (err) {
    g.frozen = false;
    g.wake();
    throw err;
  }
}

/** Thaws the container with `unpause` and lets the execs waiting for it start (they go on waiting where it failed). */
export async function thaw(containerId: string, unpause: () => Promise<void>): Promise<void> {
  const g = gate(containerId);
  await unpause();
  g.frozen = false;
  g.held = false;
  g.wake();
}

/** Forgets a removed container. */
export function forgetGate(containerId: string): void {
  gates.delete(containerId);
}
