// The task's own folders on the host (its hidden folder): what the verifier copies in and what
// grading on the host reads in its place.
import { readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/**
 * The regular files under a host folder, by path relative to it ('/'-separated), to their host
 * paths; links and other types left out, as an archive of the folder would carry them. Empty
 * when there is no such folder.
 */
export function hostFiles(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) out.set(relative(dir, p).split(sep).join('/'), p);
    }
  };
  try { walk(dir); } catch { return new Map(); }
  return out;
}
