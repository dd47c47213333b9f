// Runs one argv for runtime.exec (and for the archive methods' tar): as a given user, with
// a deadline, capped output, and an environment without the bridge's secrets. The same
// semantics as `docker exec` through host/deployment/dockerRuntime.ts: the deadline is GNU
// `timeout` (exit code 124), a detached command is started by a shell that exits at once.
import { spawn, type StdioOptions } from 'node:child_process';
import { constants } from 'node:os';
import type { UserEntry } from './users';

export interface RunOptions {
  user: UserEntry;
  cwd: string;
  env?: Record<string, string>;
  stdin?: Buffer | number;
  /** A file descriptor that receives stdout instead of the capped buffer (archives). */
  stdoutFd?: number;
  timeoutSec?: number;
  maxOutputBytes: number;
  detach?: boolean;
  /** Whether this process may switch users (it runs as root); otherwise it runs as itself. */
  canSwitchUser: boolean;
}

export interface RunResult {
  exitCode: number;
  signal: string | null;
  stdout: string;
  stderr: string;
  stdoutTruncated: boolean;
  stderrTruncated: boolean;
  timedOut: boolean;
  durationMs: number;
}

/** The container's environment less what only the bridge may know (tokens, the display's cookie). */
export function commandEnvironment(user: UserEntry, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('PWP_') && k !== 'XAUTHORITY' && k !== 'DISPLAY') env[k] = v;
  return { ...env, HOME: user.home, USER: user.name, LOGNAME: user.name, ...extra };
}

class Capped {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  truncated = false;
  constructor(private readonly cap: number) {}
  add(c: Buffer): void {
    if (this.size + c.length > this.cap) this.truncated = true;
    if (this.size >= this.cap) return;
    const part = c.subarray(0, this.cap - this.size);
    this.chunks.push(part);
    this.size += part.length;
  }
  text(): string { return Buffer.concat(this.chunks).toString('utf8'); }
}

const DETACH = ['sh', '-c', '"$@" </dev/null >>/tmp/pwp-detached.log 2>&1 &', 'pwp-detach'];

export function runCommand(argv: string[], o: RunOptions): Promise<RunResult> {
  const t0 = Date.now();
  const timeout = o.timeoutSec ? ['timeout', '-k', '5', String(o.timeoutSec)] : [];
  const [cmd, ...args] = [...(o.detach ? DETACH : []), ...timeout, ...argv];
  const identity = o.canSwitchUser ? { uid: o.user.uid, gid: o.user.gid } : {};
  const stdio: StdioOptions = [typeof o.stdin === 'number' ? o.stdin : 'pipe', o.stdoutFd ?? 'pipe', 'pipe'];
  const out = new Capped(o.maxOutputBytes);
  const err = new Capped(o.maxOutputBytes);
  return new Promise((resolve) => {
    const done = (exitCode: number, signal: string | null, spawnError?: string) => resolve({
      exitCode, signal, stdout: out.text(), stderr: spawnError ?? err.text(), stdoutTruncated: out.truncated, stderrTruncated: err.truncated,
      timedOut: timeout.length > 0 && exitCode === 124, durationMs: Date.now() - t0,
    });
    const child = spawn(cmd, args, { cwd: o.cwd, env: commandEnvironment(o.user, o.env), stdio, ...identity });
    child.stdout?.on('data', (c: Buffer) => out.add(c));
    child.stderr?.on('data', (c: Buffer) => err.add(c));
    // A missing program or folder answers as a shell would (127, 126), not as a bridge failure.
    child.on('error', (e: NodeJS.ErrnoException) => done(e.code === 'ENOENT' ? 127 : 126, null, `${cmd}: ${e.message}\n`));
    child.on('close', (code, signal) => done(code ?? 128 + (signal ? constants.signals[signal] ?? 0 : 0), signal));
    if (child.stdin) {
      child.stdin.on('error', () => undefined); // the command may exit without reading it all
      child.stdin.end(Buffer.isBuffer(o.stdin) ? o.stdin : undefined);
    }
  });
}
