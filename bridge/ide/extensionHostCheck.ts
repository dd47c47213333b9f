// Only the IDE's own extension host may serve ide.*, and with it the IDE state that tasks are
// graded on. The link's token alone cannot ensure that: it is in the IDE's environment, which
// every process of the container user can read (terminals inherit it, and /proc/<pid>/environ
// shows it). So the bridge also checks who connected: a process started with
// `--type=extensionHost` whose ancestors up to the IDE server the bridge started are IDE server
// processes, never a terminal, a task or a program an extension spawned.
import { lineage, pidOfSocket, pidOfSocketAs, socketInode } from './peerProcess';

/** Why the process at the other end of `peerPort` is not an extension host of the IDE server `idePid`; null when it is. */
export async function notAnExtensionHost(
  peerPort: number, linkPort: number, idePid: number | null, procRoot = '/proc', ideUser: { uid: number; gid: number } | null = null,
): Promise<string | null> {
  if (idePid === null) return 'the IDE server is not running';
  const inode = await socketInode(peerPort, linkPort, procRoot);
  if (inode === null) return `no socket from port ${peerPort} to ${linkPort} in ${procRoot}/net/tcp`;
  const pid = ideUser ? await pidOfSocketAs(inode, ideUser, procRoot) : await pidOfSocket(inode, procRoot);
  if (pid === null) return `no process of this user holds the socket from port ${peerPort}`;
  const chain = await lineage(pid, 8, procRoot);
  const shown = chain.map((p) => `${p.pid} ${p.commandLine.slice(0, 3).join(' ').slice(0, 120)}`).join(' < ');
  if (!chain[0]?.commandLine.includes('--type=extensionHost')) return `process ${pid} is not an extension host (${shown})`;
  const ide = chain.findIndex((p) => p.pid === idePid);
  if (ide < 1) return `process ${pid} was not started by the IDE server ${idePid} (${shown})`;
  const between = chain.slice(1, ide).find((p) => p.commandLine.some((a) => a.startsWith('--type=')));
  if (between) return `process ${pid} descends from the IDE's ${between.commandLine.find((a) => a.startsWith('--type='))} process, not from the IDE server (${shown})`;
  return null;
}
