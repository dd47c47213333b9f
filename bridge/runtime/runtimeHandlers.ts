// runtime.* methods: commands, files and archives inside the environment for a host that
// reaches only the bridge. Files are read and written as their owner (the bridge's root has no
// DAC_OVERRIDE, so it reads and writes only what mode bits allow it, like any user); archives
// are made and unpacked by GNU tar running as that owner.
import { closeSync, lstatSync, openSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { ActionFailedError, InvalidParamsError, PayloadTooLargeError, RUNTIME_CHUNK_BYTES } from '../protocol';
import type { Dispatcher } from '../rpc/dispatcher';
import { runCommand, type RunOptions } from './runCommand';
import { Transfers } from './transfers';
import { readPasswd, resolveUser, type UserEntry } from './users';

export interface RuntimeConfig {
  /** Where transfers are staged (the bridge's own run folder). */
  runDir: string;
  /** Who commands run as unless a call names someone (the IDE user). */
  defaultUser: string;
  workspace: string;
  passwdPath?: string;
}

const TAR_OUTPUT = 64 * 1024;

export function registerRuntime(d: Dispatcher, cfg: RuntimeConfig): Transfers {
  const transfers = new Transfers(`${cfg.runDir}/transfers`);
  const canSwitchUser = process.getuid?.() === 0;
  const self = (): UserEntry => ({
    name: process.env.USER ?? String(process.getuid?.() ?? 0),
    uid: process.getuid?.() ?? 0,
    gid: process.getgid?.() ?? 0,
    home: process.env.HOME ?? '/',
  });
  const user = (spec: string | undefined): UserEntry => {
    const passwd = readPasswd(cfg.passwdPath);
    const u = resolveUser(spec ?? cfg.defaultUser, passwd);
    // A bridge started by hand (not root) can only run things as itself.
    if (!canSwitchUser && u.uid !== process.getuid?.()) {
      if (spec === undefined) return self();
      throw new InvalidParamsError(`this bridge does not run as root, so it cannot run as '${spec}'`, { field: 'user' });
    }
    return u;
  };
  const ownerOf = (path: string): UserEntry => {
    const st = statSync(path);
    const passwd = readPasswd(cfg.passwdPath);
    return { ...(passwd.find((u) => u.uid === st.uid) ?? { name: String(st.uid), home: '/' }), uid: st.uid, gid: st.gid };
  };
  const base = (u: UserEntry, cwd: string): RunOptions => ({ user: u, cwd, maxOutputBytes: TAR_OUTPUT, canSwitchUser });

  d.register('runtime.exec', async (p) => {
    const u = user(p.user);
    const cwd = p.cwd ?? cfg.workspace;
    if (!exists(cwd)) throw new InvalidParamsError(`cwd ${cwd} does not exist in the environment`, { field: 'cwd' });
    const stdin = p.stdin === undefined ? undefined : Buffer.from(p.stdin, 'base64');
    return runCommand(p.argv, { ...base(u, cwd), env: p.env, stdin, timeoutSec: p.timeoutSec, maxOutputBytes: p.maxOutputBytes, detach: p.detach });
  });

  d.register('runtime.readFile', async (p) => {
    const st = lstatOrUndefined(p.path);
    if (!st?.isFile()) return { exists: false, size: 0, content: null };
    if (st.size > RUNTIME_CHUNK_BYTES) throw new PayloadTooLargeError(`${p.path} has ${st.size} bytes, more than runtime.readFile returns (${RUNTIME_CHUNK_BYTES}); use runtime.archiveOut`, { bytes: st.size, limit: RUNTIME_CHUNK_BYTES });
    let content: Buffer;
    try { content = readFileSync(p.path); } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EACCES') throw err;
      // Not readable by the bridge's root (no DAC_OVERRIDE): read it as its owner (base64: bytes, not text).
      return { exists: true, size: st.size, content: await readAsOwnerBytes(p.path, ownerOf(p.path), canSwitchUser) };
    }
    return { exists: true, size: content.length, content: content.toString('base64') };
  });

  d.register('runtime.archiveOut', async (p) => {
    if (p.path === '/') throw new InvalidParamsError('archive a folder, not the whole file system', { field: 'path' });
    if (!lstatOrUndefined(p.path)) return { exists: false, transfer: null, bytes: 0 };
    const { id, path } = transfers.create();
    const fd = openSync(path, 'w');
    try {
      // --ignore-failed-read: what the owner made unreadable to itself is left out (a warning, not
      // a failure), so an agent cannot make its workspace impossible to archive for grading.
      const r = await runCommand(['tar', '-c', '--ignore-failed-read', '-f', '-', '-C', dirname(p.path), '--', basename(p.path)], { ...base(ownerOf(p.path), '/'), stdoutFd: fd });
      // 1: a file changed while it was read (logs of a running IDE), which `docker cp` does not mind either.
      if (r.exitCode !== 0 && r.exitCode !== 1) throw new ActionFailedError(`cannot archive ${p.path}: ${r.stderr.trim()}`, { exitCode: r.exitCode });
    } catch (err) {
      transfers.close(id);
      throw err;
    } finally { closeSync(fd); }
    return { exists: true, transfer: id, bytes: transfers.sealed(id) };
  });

  d.register('runtime.transferOpen', async () => ({ transfer: transfers.create().id }));
  d.register('runtime.transferRead', async (p) => {
    const { data, eof } = transfers.read(p.transfer, p.offset, p.length);
    return { data: data.toString('base64'), eof };
  });
  d.register('runtime.transferWrite', async (p) => ({ bytes: transfers.append(p.transfer, p.offset, Buffer.from(p.data, 'base64')) }));
  d.register('runtime.transferClose', async (p) => { transfers.close(p.transfer); return { ok: true as const }; });

  d.register('runtime.archiveIn', async (p) => {
    const archive = transfers.path(p.transfer);
    if (!statOrUndefined(p.dir)?.isDirectory()) throw new InvalidParamsError(`${p.dir} is not a folder of the environment`, { field: 'dir' });
    const passwd = readPasswd(cfg.passwdPath);
    const owner: UserEntry = { ...(passwd.find((u) => u.uid === p.owner.uid) ?? { name: String(p.owner.uid), home: '/' }), ...p.owner };
    if (!canSwitchUser && owner.uid !== process.getuid?.()) throw new InvalidParamsError(`this bridge does not run as root, so it cannot write as uid ${owner.uid}`, { field: 'owner' });
    const fd = openSync(archive, 'r');
    try {
      // Existing folders keep their owner and mode (as with `docker cp`); new entries keep the archive's modes.
      const r = await runCommand(['tar', '-x', '-p', '--no-same-owner', '--no-overwrite-dir', '-f', '-', '-C', p.dir], { ...base(owner, '/'), stdin: fd });
      if (r.exitCode !== 0) throw new ActionFailedError(`cannot unpack into ${p.dir} as uid ${owner.uid}: ${r.stderr.trim()}`, { exitCode: r.exitCode });
    } finally {
      closeSync(fd);
      transfers.close(p.transfer);
    }
    return { ok: true as const };
  });
  return transfers;
}

async function readAsOwnerBytes(path: string, owner: UserEntry, canSwitchUser: boolean): Promise<string> {
  const r = await runCommand(['base64', '-w0', '--', path], { user: owner, cwd: '/', maxOutputBytes: Math.ceil(RUNTIME_CHUNK_BYTES / 3) * 4 + 16, canSwitchUser });
  if (r.exitCode !== 0) throw new ActionFailedError(`cannot read ${path}: ${r.stderr.trim()}`);
  return r.stdout.trim();
}

function lstatOrUndefined(path: string) { try { return lstatSync(path); } catch { return undefined; } }
function statOrUndefined(path: string) { try { return statSync(path); } catch { return undefined; } }
function exists(path: string): boolean {
  try { statSync(path); return true; } catch (err) { return (err as NodeJS.ErrnoException).code === 'EACCES'; }
}
