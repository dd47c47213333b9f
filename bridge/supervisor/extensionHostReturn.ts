// Brings the kiosk window's extension host back when the IDE does not. VS Code restarts a
// remote extension host that exited only if it learns within 2 s how it exited (its workbench
// drops the restart without a word when that question times out, as it does on a loaded
// machine) and only twice in 5 minutes (the third exit gets a prompt nobody answers): past either,
// ide.* would stay unavailable for good. Once the host that served has been away for a while
// with the workbench shown, the window is reloaded, which starts a new one. The while counts from
// the later of the host's leaving and the workbench's last render (a host starts after the
// render, slowly on a loaded machine) and doubles with each reload the watch makes, so that a
// slow start is not cut short again and again.
import type { EventEmitter } from 'node:events';

/** How long the extension host may stay away before the window is reloaded: VS Code's own restart takes seconds. */
const EXTENSION_HOST_RETURN_MS = 30_000;

export interface ExtensionHostReturnOptions {
  /** The link to the extension host: `connected`, and 'change' when that may have changed. */
  link: Pick<EventEmitter, 'on'> & { readonly connected: boolean };
  /** Whether reloading would bring one back now (the workbench shown, every process up, the window not parked). */
  canReload(): boolean;
  /** Reloads the kiosk window. */
  reload(): void;
  log(line: string): void;
  /** Runs `fn` once after `ms`, returning how to cancel it (default: a timer that keeps no process alive; tests run it by hand). */
  after?: (ms: number, fn: () => void) => () => void;
}

function timer(ms: number, fn: () => void): () => void {
  const t = setTimeout(fn, ms);
  t.unref();
  return () => clearTimeout(t);
}

/** The most the wait grows to after reloads that brought no host back. */
const LONGEST_WAIT_FACTOR = 8;

export interface ExtensionHostReturnWatch {
  /** The workbench rendered (again): a host may take a while to start after that, counted from now. */
  rendered(): void;
  stop(): void;
}

/** Watches the link from its first connection on. */
export function watchExtensionHostReturn(o: ExtensionHostReturnOptions): ExtensionHostReturnWatch {
  const after = o.after ?? timer;
  let waitMs = EXTENSION_HOST_RETURN_MS;
  let cancel: (() => void) | undefined;
  let away = false;
  let stopped = false;
  const arm = () => {
    cancel?.();
    cancel = undefined;
    if (stopped || !away) return;
    cancel = after(waitMs, () => {
      cancel = undefined;
      if (stopped || o.link.connected) return;
      if (o.canReload()) {
        o.log(`the extension host has been away ${waitMs} ms with the workbench shown: reloading the window for a new one`);
        waitMs = Math.min(waitMs * 2, EXTENSION_HOST_RETURN_MS * LONGEST_WAIT_FACTOR);
        o.reload();
      }
      // Reloading, or not the time to (a reload or a restore under way): looked at again later.
      arm();
    });
  };
  o.link.on('change', () => {
    if (o.link.connected) { away = false; waitMs = EXTENSION_HOST_RETURN_MS; arm(); } else if (!away) { away = true; arm(); }
  });
  return {
    rendered: () => { if (away) arm(); },
    stop: () => { stopped = true; cancel?.(); cancel = undefined; },
  };
}
