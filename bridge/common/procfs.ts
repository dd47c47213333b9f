// Processes from /proc: a shell's argv and working directory, what runs under it, and a
// process's parents. The parsing is pure; readers take the /proc root so tests can use a fixture.
import { readdir, readFile, readlink } from 'node:fs/promises';
import { join } from 'node:path';

export interface ProcStat {
  pid: number; name: string; state: string; ppid: number;
  /** user + system CPU time so far, in clock ticks */
  cpuTicks: number;
}
export interface ProcessEntry extends ProcStat { commandLine: string[] }

/** /proc/<pid>/stat: "pid (comm) state ppid …"; comm may itself contain spaces and parentheses. */
export function parseStat(text: string): ProcStat | undefined {
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  if (open < 0 || close < open) return undefined;
  const pid = Number(text.slice(0, open).trim());
  const rest = text.slice(close + 1).trim().split(/\s+/);
  const ppid = Number(rest[1]);
  if (!Number.isInteger(pid) || !Number.isInteger(ppid)) return undefined;
  // Fields after comm, 0-based: state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime
  const cpuTicks = (Number(rest[11]) || 0) + (Number(rest[12]) || 0);
  return { pid, name: text.slice(open + 1, close), state: rest[0] ?? '?', ppid, cpuTicks };
}

/** /proc/<pid>/cmdline: NUL-separated argv, usually NUL-terminated. */
export function parseCmdline(buf: Buffer | string): string[] {
  const text = typeof buf === 'string' ? buf : buf.toString('utf8');
  const parts = text.split('\0');
  if (parts.at(-1) === '') parts.pop();
  return parts;
}

/** Every descendant of root, parents before their children (breadth first, by pid). */
export function descendants(all: readonly ProcessEntry[], root: number): ProcessEntry[] {
  const children = new Map<number, ProcessEntry[]>();
  for (const p of all) {
    const list = children.get(p.ppid) ?? [];
    list.push(p);
    children.set(p.ppid, list);
  }
  const out: ProcessEntry[] = [];
  const queue = [root];
  const seen = new Set<number>([root]);
  while (queue.length) {
    const next = (children.get(queue.shift()!) ?? []).sort((a, b) => a.pid - b.pid);
    for (const c of next) {
      if (seen.has(c.pid)) continue;
      seen.add(c.pid);
      out.push(c);
      queue.push(c.pid);
    }
  }
  return out;
}

export async function readProcess(pid: number, procRoot = '/proc'): Promise<ProcessEntry | undefined> {
  try {
    const [stat, cmdline] = await Promise.all([
      readFile(join(procRoot, String(pid), 'stat'), 'utf8'),
      readFile(join(procRoot, String(pid), 'cmdline')),
    ]);
    const s = parseStat(stat);
    return s ? { ...s, commandLine: parseCmdline(cmdline) } : undefined;
  } catch {
    return undefined; // gone, or not ours to read
  }
}

export async function readProcesses(procRoot = '/proc'): Promise<ProcessEntry[]> {
  const names = await readdir(procRoot).catch(() => [] as string[]);
  const pids = names.filter((n) => /^\d+$/.test(n)).map(Number);
  return (await Promise.all(pids.map((p) => readProcess(p, procRoot)))).filter((p): p is ProcessEntry => !!p);
}

export async function readCwd(pid: number, procRoot = '/proc'): Promise<string | null> {
  try { return await readlink(join(procRoot, String(pid), 'cwd')); } catch { return null; }
}

/**
 * Whether a set of processes is computing: language servers (tsserver…) run as children of the
 * extension host and burn CPU while they check, then go idle. Busy when any of them used more
 * than `threshold` of one CPU between the last two samples.
 */
export class CpuActivity {
  private last = new Map<number, number>();
  private lastAt = 0;
  private busyNow = false;

  constructor(private readonly threshold = 0.1, private readonly ticksPerSecond = 100) {}

  /** Feeds one sample (pid -> cpu ticks) taken at `at` ms. */
  sample(ticks: ReadonlyMap<number, number>, at: number): void {
    const elapsed = (at - this.lastAt) / 1000;
    let busy = false;
    if (this.lastAt > 0 && elapsed > 0) {
      for (const [pid, t] of ticks) {
        const before = this.last.get(pid);
        // A process that appeared since the last sample is starting up: count it as busy.
        if (before === undefined || (t - before) / this.ticksPerSecond / elapsed > this.threshold) { busy = true; break; }
      }
    }
    this.busyNow = busy || this.lastAt === 0;
    this.last = new Map(ticks);
    this.lastAt = at;
  }

  get busy(): boolean { return this.busyNow; }
  get sampledAt(): number { return this.lastAt; }
}
