// The X display's access cookie. Xvfb started with `-auth FILE` admits only clients that
// present the cookie in FILE (on its Unix socket and its abstract socket alike), so a file only
// the bridge's user can read keeps the IDE user's processes off the screen and the keyboard.
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';

/** One Xauthority entry: FamilyWild (any host), any display number, MIT-MAGIC-COOKIE-1. */
export function xauthorityEntry(cookie: Buffer): Buffer {
  const field = (b: Buffer) => { const len = Buffer.alloc(2); len.writeUInt16BE(b.length); return Buffer.concat([len, b]); };
  const family = Buffer.alloc(2);
  family.writeUInt16BE(0xffff);
  return Buffer.concat([family, field(Buffer.alloc(0)), field(Buffer.alloc(0)), field(Buffer.from('MIT-MAGIC-COOKIE-1')), field(cookie)]);
}

/** Writes a fresh cookie file readable by this process's user only. */
export function writeXauthority(path: string): void {
  writeFileSync(path, xauthorityEntry(randomBytes(16)), { mode: 0o600 });
}
