// Who a runtime.* call runs as: a user of the container's /etc/passwd, by name or uid.
import { readFileSync } from 'node:fs';
import { InvalidParamsError } from '../protocol';

export interface UserEntry { name: string; uid: number; gid: number; home: string }

/** The passwd entries, by name. */
export function readPasswd(path = '/etc/passwd'): UserEntry[] {
  return readFileSync(path, 'utf8').split('\n').filter((l) => l && !l.startsWith('#')).map((l) => {
    const f = l.split(':');
    return { name: f[0], uid: Number(f[2]), gid: Number(f[3]), home: f[5] ?? '/' };
  });
}

/**
 * `spec` (a name, or a numeric uid) as a user; a uid without a passwd entry gets gid = uid
 * and home /. An unknown name is the caller's mistake.
 */
export function resolveUser(spec: string, passwd: UserEntry[]): UserEntry {
  if (/^\d+$/.test(spec)) {
    const uid = Number(spec);
    return passwd.find((u) => u.uid === uid) ?? { name: spec, uid, gid: uid, home: '/' };
  }
  const entry = passwd.find((u) => u.name === spec);
  if (!entry) throw new InvalidParamsError(`user '${spec}' is not in the environment's /etc/passwd`, { field: 'user' });
  return entry;
}
