// Assembles the docker build context for the IDE image, and names the image by a hash of
// its inputs: the files under images/ that go into the context, the host's CA bundle, the
// pinned versions (build args and registry tarballs), and the digest `npm run build` wrote
// of the bridge's and extension's sources (dist/image-inputs.sha256) rather than the built
// files, whose bytes differ between clones and builds (a .vsix is a zip stamped with build
// times). The same commit gets the same tag in any clone; any changed input a new one.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { paths } from '../common/paths';
import { HOST_CA_BUNDLE_CANDIDATES, VENDOR_TARBALLS, VERSIONS } from './imageInputs';

export interface BuildContext { dir: string; files: string[]; hash: string; buildArgs: Record<string, string> }

/** Files under dir, relative to base, sorted (the order hashes and contexts use). */
export function listFiles(dir: string, base = dir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    return e.isDirectory() ? listFiles(p, base) : [relative(base, p)];
  }).sort();
}

/** Fetches a registry tarball once into the cache; `npm pack` uses the host's npm config. */
function vendorTarball(spec: string, log: (line: string) => void): string {
  const cached = join(paths.vendorCache, `${spec.replace(/[@/]/g, '_')}.tgz`);
  if (existsSync(cached)) return cached;
  mkdirSync(paths.vendorCache, { recursive: true });
  log(`fetching ${spec} from the npm registry`);
  const tmp = join(paths.vendorCache, `tmp-${process.pid}`);
  mkdirSync(tmp, { recursive: true });
  try {
    const out = execFileSync('npm', ['pack', spec, '--silent', '--pack-destination', tmp], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    const file = out.trim().split('\n').pop()!;
    renameSync(join(tmp, file), cached);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return cached;
}

function hostCaBundle(): Buffer {
  const found = HOST_CA_BUNDLE_CANDIDATES.find((p) => existsSync(p));
  return found ? readFileSync(found) : Buffer.alloc(0);
}

/** Files copied from images/ into the context, as [path in the context, source]. */
function imageFiles(): [string, string][] {
  return [
    ['Dockerfile', join(paths.images, 'Dockerfile')],
    ['bridge-runtime.json', join(paths.images, 'bridge-runtime.json')],
    ...listFiles(join(paths.images, 'ide')).map((f): [string, string] => [`ide/${f.split(sep).join('/')}`, join(paths.images, 'ide', f)]),
  ];
}

const buildArgs = (): Record<string, string> => ({ CODE_SERVER_VERSION: VERSIONS.codeServer });

/** The image's inputs hash (its tag), without assembling the context; needs `npm run build` done. */
export function imageInputsHash(): string {
  const digestFile = join(paths.dist, 'image-inputs.sha256');
  if (!existsSync(digestFile)) throw new Error("dist/image-inputs.sha256 is missing: run 'npm run build' first");
  const h = createHash('sha256');
  h.update(JSON.stringify({ buildArgs: buildArgs(), vendor: VENDOR_TARBALLS }));
  h.update(`\0built from\0${readFileSync(digestFile, 'utf8').trim()}`);
  for (const [name, from] of imageFiles()) {
    const bytes = readFileSync(from);
    h.update(`\0${name}\0${bytes.length}\0`);
    h.update(bytes);
  }
  const ca = hostCaBundle();
  h.update(`\0host-ca-bundle.crt\0${ca.length}\0`);
  h.update(ca);
  return h.digest('hex').slice(0, 16);
}

export function assembleContext(log: (line: string) => void = () => undefined): BuildContext {
  for (const f of ['bridge.js', 'pwp-extension.vsix']) {
    if (!existsSync(join(paths.dist, f))) throw new Error(`dist/${f} is missing: run 'npm run build' first`);
  }
  const hash = imageInputsHash();
  mkdirSync(paths.contexts, { recursive: true });
  const dir = mkdtempSync(join(paths.contexts, 'ctx-'));
  mkdirSync(join(dir, 'vendor'), { recursive: true });
  for (const [name, from] of imageFiles()) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    copyFileSync(from, join(dir, name));
  }
  copyFileSync(join(paths.dist, 'bridge.js'), join(dir, 'bridge.js'));
  copyFileSync(join(paths.dist, 'pwp-extension.vsix'), join(dir, 'extension.vsix'));
  writeFileSync(join(dir, 'host-ca-bundle.crt'), hostCaBundle());
  for (const t of VENDOR_TARBALLS) copyFileSync(vendorTarball(t.spec, log), join(dir, 'vendor', t.file));
  return { dir, files: listFiles(dir), hash, buildArgs: buildArgs() };
}

export function removeContext(ctx: BuildContext): void {
  rmSync(ctx.dir, { recursive: true, force: true });
}
