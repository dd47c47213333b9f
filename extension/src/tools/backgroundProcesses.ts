// Background processes the agent started (servers, watchers): each runs detached in its own
// process group with its output in a log file, and can be listed, tailed and killed.
import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readSync, statSync, fstatSync } from 'node:fs';
import { join } from 'node:path';
import { ToolError } from './toolError';

export interface BackgroundProcess {
  id: number;
  pid: number;
  command: string;
  cwd: string;
  startedAt: string;
  /** null while running */
  exitCode: number | null;
  signal: string | null;
  logFile: string;
}

export class BackgroundProcesses {
  private readonly procs = new Map<number, BackgroundProcess>();
  private next = 1;

  constructor(private readonly logDir: string, private readonly env: NodeJS.ProcessEnv) {}

  start(command: string, cwd: string): BackgroundProcess {
    mkdirSync(this.logDir, { recursive: true });
    const id = this.next++;
    const logFile = join(this.logDir, `bg-${process.pid}-${id}.log`);
    const fd = openSync(logFile, 'a');
    try {
      const child = spawn('bash', ['-c', command], { cwd, env: this.env, detached: true, stdio: ['ignore', fd, fd] });
      if (!child.pid) throw new ToolError(`could not start: ${command}`);
      const p: BackgroundProcess = { id, pid: child.pid, command, cwd, startedAt: new Date().toISOString(), exitCode: null, signal: null, logFile };
      child.on('exit', (code, signal) => { p.exitCode = code; p.signal = signal; });
      child.unref();
      this.procs.set(id, p);
      return p;
    } finally {
      closeSync(fd);
    }
  }

  list(): BackgroundProcess[] { return [...this.procs.values()]; }

  get(id: number): BackgroundProcess {
    const p = this.procs.get(id);
    if (!p) throw new ToolError(`no background process with id ${id} (known: ${[...this.procs.keys()].join(', ') || 'none'})`, 'NotFound');
    return p;
  }

  running(p: BackgroundProcess): boolean { return p.exitCode === null && p.signal === null; }

  /** The last `maxBytes` of a process's output. */
  tail(id: number, maxBytes = 16_000): { text: string; totalBytes: number } {
    const p = this.get(id);
    let size: number;
    try { size = statSync(p.logFile).size; } catch { return { text: '', totalBytes: 0 }; }
    const fd = openSync(p.logFile, 'r');
    try {
      const n = Math.min(maxBytes, fstatSync(fd).size);
      const buf = Buffer.alloc(n);
      readSync(fd, buf, 0, n, size - n);
      return { text: buf.toString('utf8'), totalBytes: size };
    } finally {
      closeSync(fd);
    }
  }

  /** Signals the whole process group (the command and what it started). */
  async kill(id: number, signal: NodeJS.Signals = 'SIGTERM', graceMs = 2000): Promise<BackgroundProcess> {
    const p = this.get(id);
    if (!this.running(p)) return p;
    try { process.kill(-p.pid, signal); } catch { /* gone */ }
    const end = Date.now() + graceMs;
    while (this.running(p) && Date.now() < end) await new Promise((r) => setTimeout(r, 25));
    if (this.running(p)) { try { process.kill(-p.pid, 'SIGKILL'); } catch { /* gone */ } }
    const end2 = Date.now() + 1000;
    while (this.running(p) && Date.now() < end2) await new Promise((r) => setTimeout(r, 25));
    return p;
  }

  describe(p: BackgroundProcess): string {
    const state = this.running(p) ? 'running' : p.signal ? `killed by ${p.signal}` : `exited with code ${p.exitCode}`;
    return `[${p.id}] pid ${p.pid} ${state} — ${p.command}`;
  }

  dispose(): void {
    for (const p of this.procs.values()) if (this.running(p)) { try { process.kill(-p.pid, 'SIGKILL'); } catch { /* gone */ } }
  }
}
