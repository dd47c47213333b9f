// A project that depends on pwp, as a library user's would be: a temporary folder with its own
// package.json naming pwp as a dependency and node_modules/pwp linking to this checkout (what
// `npm install` of a file: dependency makes), so `'pwp'` resolves only through the package's
// main/exports/types and its built dist/, never through the sources. Its own dependency is
// @types/node (linked from this checkout's node_modules); pwp's dependencies resolve from
// where pwp really lies, as they would under node_modules/pwp. The compiler and tsx come from
// this checkout by path: a consumer has its own, and they are not what is under test.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export const REPO = join(__dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { types: string; main: string };

export interface ConsumerProject {
  readonly dir: string;
  /** Writes a file of the project; returns its path. */
  write(rel: string, text: string): string;
  /** Type-checks the project (its tsconfig.json); resolves with tsc's exit code and output. */
  typecheck(): Promise<{ code: number; output: string }>;
  /** Runs one of its files with node (through tsx for .ts); rejects when it exits non-zero. */
  run(rel: string): Promise<{ stdout: string; stderr: string }>;
  remove(): void;
}

export interface ConsumerOptions {
  /** The project's module system: `module` (ESM, top-level await) or `commonjs`. */
  type: 'module' | 'commonjs';
  /** tsconfig's module resolution: `nodenext` reads pwp's `exports`, `node10` its `types`/`main`. */
  resolution?: 'nodenext' | 'node10';
  /**
   * Type-check the declarations of pwp and its dependencies too (skipLibCheck off): slower
   * (about 20 s against 5), but a broken declaration of pwp's is an error, not an unseen `any`.
   * Off, the project is as `tsc --init` makes one.
   */
  checkLibraries?: boolean;
}

export function consumerProject(o: ConsumerOptions): ConsumerProject {
  const dir = mkdtempSync(join(tmpdir(), 'pwp-consumer-'));
  const write = (rel: string, text: string) => {
    const path = join(dir, rel);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    return path;
  };
  write('package.json', `${JSON.stringify({ name: 'pwp-consumer', private: true, type: o.type, dependencies: { pwp: `file:${REPO}` } }, null, 2)}\n`);
  mkdirSync(join(dir, 'node_modules', '@types'), { recursive: true });
  symlinkSync(REPO, join(dir, 'node_modules', 'pwp'), 'dir');
  symlinkSync(join(REPO, 'node_modules', '@types', 'node'), join(dir, 'node_modules', '@types', 'node'), 'dir');
  const nodenext = (o.resolution ?? 'nodenext') === 'nodenext';
  write('tsconfig.json', `${JSON.stringify({
    compilerOptions: {
      target: 'ES2022', module: nodenext ? 'nodenext' : 'commonjs', moduleResolution: nodenext ? 'nodenext' : 'node10',
      // pwp's declarations default-import dockerode and ws: they need esModuleInterop, as zod's do.
      strict: true, noEmit: true, types: ['node'], esModuleInterop: true, skipLibCheck: !o.checkLibraries,
    },
    include: ['**/*.ts'],
    exclude: ['node_modules'],
  }, null, 2)}\n`);
  return {
    dir,
    write,
    typecheck: () => new Promise((resolve) => {
      execFile(process.execPath, [join(REPO, 'node_modules/typescript/bin/tsc'), '-p', dir], { cwd: dir, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, output: `${stdout}${stderr}` });
      });
    }),
    run: (rel) => new Promise((resolve, reject) => {
      const argv = rel.endsWith('.ts') ? ['--import', join(REPO, 'node_modules/tsx/dist/loader.mjs'), rel] : [rel];
      execFile(process.execPath, argv, { cwd: dir, maxBuffer: 64 * 1024 * 1024, env: { ...process.env } }, (err, stdout, stderr) => {
        if (err) reject(Object.assign(new Error(`${rel} failed: ${err.message}\n${stdout}\n${stderr}`), { stdout, stderr }));
        else resolve({ stdout, stderr });
      });
    }),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * The built package (`npm run build`: dist/index.js and its declarations) is there and was
 * built from the entry point as it is now; otherwise an error saying to build. Only the entry
 * point's date counts: an edit anywhere under host/ would otherwise fail every run of the unit
 * tests until a build, and `npm test` builds first anyway.
 */
export function assertPackageBuilt(): void {
  const missing = [pkg.main, pkg.types].map((f) => join(REPO, f)).find((f) => !existsSync(f));
  if (missing) throw new Error(`${missing} is missing: run \`npm run build\` first`);
  // The bundle is written on every build; the declarations only where they changed.
  if (statSync(join(REPO, 'host', 'index.ts')).mtimeMs > statSync(join(REPO, pkg.main)).mtimeMs) {
    throw new Error(`host/index.ts is newer than the built package (${pkg.main}): run \`npm run build\` first`);
  }
}
