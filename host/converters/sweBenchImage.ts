// SWE-bench's per-instance images, as this project can build them: a Dockerfile on the IDE image
// that installs the Debian packages an instance's tests need (its repository's spec, plus what
// an --instance-setup file adds for the instance, its repository or repository@version). An
// instance that needs nothing runs on the IDE image itself, so no image is built for it.
import { readFileSync } from 'node:fs';
import { IDE_IMAGE_ARG } from '../imageBuild/buildTaskImage';

/** What --instance-setup gives, keyed by instance_id, repo or repo@version. */
export interface InstanceSetup {
  /** Debian packages (python3-… for the Python packages the tests import). */
  debs?: string[];
}
export type InstanceSetups = Record<string, InstanceSetup>;

/** Debian's package names: lower case, digits, + - and . (apt-get would read anything else as an option or a pattern). */
const DEB_NAME = /^[a-z0-9][a-z0-9+.-]+$/;

/** Reads an --instance-setup JSON file, naming the key and the field of a bad entry. */
export function readInstanceSetups(file: string): InstanceSetups {
  let v: unknown;
  try { v = JSON.parse(readFileSync(file, 'utf8')); } catch (err) { throw new Error(`${file}: not JSON (${(err as Error).message})`, { cause: err }); }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new Error(`${file}: expected an object keyed by instance_id, repo or repo@version`);
  for (const [key, s] of Object.entries(v)) {
    if (typeof s !== 'object' || s === null || Array.isArray(s)) throw new Error(`${file}: "${key}" must be an object ({"debs": [...]})`);
    const extra = Object.keys(s).filter((k) => k !== 'debs');
    if (extra.length) throw new Error(`${file}: "${key}": unknown field ${extra.join(', ')} (only "debs": Debian packages; nothing is installed from PyPI)`);
    const debs = (s as InstanceSetup).debs;
    if (debs !== undefined && (!Array.isArray(debs) || debs.some((d) => typeof d !== 'string' || !DEB_NAME.test(d)))) {
      throw new Error(`${file}: "${key}".debs must be a list of Debian package names`);
    }
  }
  return v as InstanceSetups;
}

/** The Debian packages an instance needs: its repository's, then the setups' for repo, repo@version and instance_id, sorted and once each. */
export function instanceDebs(inst: { instance_id: string; repo: string; version?: string }, specDebs: readonly string[] = [], setups: InstanceSetups = {}): string[] {
  const keys = [inst.repo, ...(inst.version ? [`${inst.repo}@${inst.version}`] : []), inst.instance_id];
  return [...new Set([...specDebs, ...keys.flatMap((k) => setups[k]?.debs ?? [])])].sort();
}

/** The Dockerfile of an instance's image: the IDE image with the packages, ending as the IDE user. */
export function instanceDockerfile(instanceId: string, debs: readonly string[]): string {
  for (const d of debs) if (!DEB_NAME.test(d)) throw new Error(`${instanceId}: "${d}" is not a Debian package name`);
  return [
    `# The image of SWE-bench instance ${instanceId}: the IDE image with the Debian packages its tests need.`,
    `ARG ${IDE_IMAGE_ARG}`,
    `FROM \${${IDE_IMAGE_ARG}}`,
    'USER root',
    'RUN apt-get update \\',
    ' && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \\',
    `      ${debs.join(' ')} \\`,
    ' && apt-get clean && rm -rf /var/lib/apt/lists/* \\',
    ' && find / -xdev -perm /6000 -type f -exec chmod ug-s {} +',
    'USER pwp',
    '',
  ].join('\n');
}
