// Which process is at the other end of a loopback TCP connection, from /proc: the socket's
// inode from /proc/net/tcp (and tcp6), then the process that holds that inode among
// /proc/<pid>/fd. Readable for the processes of the bridge's own user, which is every process
// of the IDE stack.
import { execFile } from 'node:child_process';
import { readdir, readFile, readlink } from 'node:fs/promises';
import { readProcess, type ProcessEntry } from '../common/procfs';

/** The inode of the socket whose local port is `port` and remote port `remotePort`, or null. */
export async function socketInode(port: number, remotePort: number, procRoot = '/proc'): Promise<number | null> {
  for (const table of ['net/tcp', 'net/tcp6']) {
    const text = await readFile(`${procRoot}/${table}`, 'utf8').catch(() => '');
    for (const line of text.split('\n').slice(1)) {
      // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode
      const f = line.trim().split(/\s+/);
      if (f.length < 10) continue;
      const localPort = parseInt(f[1].split(':')[1] ?? '', 16);
      const peerPort = parseInt(f[2].split(':')[1] ?? '', 16);
      if (localPort === port && peerPort === remotePort) return Number(f[9]) || null;
    }
  }
  return null;
}

/**
 * The pid of a process of `asUser` holding the socket inode, looked up by a `find` run as that
 * user: a bridge running as root without capabilities cannot list another user's
 * /proc/<pid>/fd, and the IDE user's processes are the ones the link cares about.
 */
export function pidOfSocketAs(inode: number, asUser: { uid: number; gid: number }, procRoot = '/proc'): Promise<number | null> {
  // -lname takes a glob: the brackets are escaped.
  return new Promise((resolve) => {
    execFile('find', [procRoot, '-mindepth', '3', '-maxdepth', '3', '-path', `${procRoot}/[0-9]*/fd/*`, '-lname', `socket:\\[${inode}\\]`, '-print', '-quit'],
      { uid: asUser.uid, gid: asUser.gid, timeout: 10_000 }, (_err, stdout) => {
        const m = new RegExp(`^${procRoot}/(\\d+)/fd/`).exec(String(stdout ?? ''));
        resolve(m ? Number(m[1]) : null);
      });
  });
}

/** The pid of a process holding the socket inode (another user's processes are skipped). */
export async function pidOfSocket(inode: number, procRoot = '/proc'): Promise<number | null> {
  const target = `socket:[${inode}]`;
  const pids = (await readdir(procRoot).catch(() => [] as string[])).filter((d) => /^\d+$/.test(d));
  for (const pid of pids) {
    const fds = await readdir(`${procRoot}/${pid}/fd`).catch(() => [] as string[]);
    for (const fd of fds) {
      if ((await readlink(`${procRoot}/${pid}/fd/${fd}`).catch(() => '')) === target) return Number(pid);
    }
  }
  return null;
}

/** The process and its ancestors, nearest first, at most `depth` of them. */
export async function lineage(pid: number, depth = 8, procRoot = '/proc'): Promise<ProcessEntry[]> {
  const out: ProcessEntry[] = [];
  for (let p: number = pid; out.length < depth && p > 0;) {
    const info = await readProcess(p, procRoot);
    if (!info) break;
    out.push(info);
    p = info.ppid;
  }
  return out;
}
