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
