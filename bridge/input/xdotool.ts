// Runs xdotool with an argv array (never a shell), one action at a time so that two
// callers' keystrokes cannot interleave.
import { execFile } from 'node:child_process';
import { ActionFailedError, TimeoutError } from '../protocol';
import { inputChildren } from './childSlots';

export class Xdotool {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly display: string, private readonly timeoutMs = 30_000) {}

  /** Runs one xdotool invocation after every earlier one has finished. */
  run(argv: string[]): Promise<string> {
    const next = this.queue.then(() => this.exec(argv));
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Runs `fn` (which may call `exec`) without letting another caller's input in between. */
  exclusive<T>(fn: (exec: (argv: string[]) => Promise<string>) => Promise<T>): Promise<T> {
    const next = this.queue.then(() => fn((argv) => this.exec(argv)));
    this.queue = next.catch(() => undefined);
    return next;
  }

  /**
   * Runs xdotool argv whose `mousemove --sync X Y` steps are dropped where the pointer is
   * already at X,Y: xdotool 3.20160805 (Debian's) waits about 15 s for a move that moves nothing.
   * The pointer is read first, in the same turn, so no other caller's input comes between.
   */
  runMoving(argv: string[]): Promise<string> {
    return this.exclusive(async (exec) => {
      const at = /X=(\d+)\s+Y=(\d+)/.exec(await exec(['getmouselocation', '--shell']));
      const out = dropNullMoves(argv, at ? { x: Number(at[1]), y: Number(at[2]) } : undefined);
      return out.length ? exec(out) : '';
    });
  }

  private exec(argv: string[]): Promise<string> {
    return inputChildren.run(() => new Promise((resolve, reject) => {
      execFile('xdotool', argv, { env: { ...process.env, DISPLAY: this.display, LC_ALL: 'C.UTF-8' }, timeout: this.timeoutMs, maxBuffer: 1 << 20 },
        (err, stdout, stderr) => {
          if (!err) return resolve(stdout);
          if ((err as NodeJS.ErrnoException & { killed?: boolean }).killed) return reject(new TimeoutError(`xdotool took longer than ${this.timeoutMs} ms`));
          reject(new ActionFailedError(`xdotool ${argv[0]} failed: ${(stderr || err.message).trim()}`, { argv }));
        });
    }));
  }
}

/** `argv` without its `mousemove --sync X Y` steps to where the pointer already is (`at`, then each earlier move's target). */
export function dropNullMoves(argv: readonly string[], at?: { x: number; y: number }): string[] {
  let x = at?.x ?? NaN;
  let y = at?.y ?? NaN;
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === 'mousemove' && argv[i + 1] === '--sync') {
      const [tx, ty] = [Number(argv[i + 2]), Number(argv[i + 3])];
      if (tx !== x || ty !== y) out.push('mousemove', '--sync', argv[i + 2], argv[i + 3]);
      [x, y] = [tx, ty];
      i += 3;
    } else {
      out.push(argv[i]);
    }
  }
  return out;
}
