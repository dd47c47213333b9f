// Bundles the bridge daemon, the extension and the host CLI with esbuild, then packages the
// extension as a .vsix. The bridge and .vsix go to dist/ for the image build; dist/pwp.js is
// what bin/pwp runs. The library (host/index.ts, what `require('pwp')` gives a project that
// depends on this package) goes to dist/index.js, its declarations to dist/types. dist/image-inputs.sha256 is a digest of every source file the bridge and
// the extension were built from (and of how they were built): the image tag hashes that
// instead of the built files, because a .vsix is a zip stamped with build times and a bundle's
// source map names paths as this checkout lays them out.
import { build } from 'esbuild';
import { execFile, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, relative, sep } from 'node:path';
import { promisify } from 'node:util';

const common = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  sourcemap: 'inline',
  logLevel: 'warning',
  metafile: true,
  // Optional native speed-ups of ws; absent is fine.
  external: ['bufferutil', 'utf-8-validate'],
};

/**
 * The host's modules find files beside their sources (prompts, the inspector's page, the
 * repository root) through __dirname; in dist/pwp.js that would be dist/. Each use becomes
 * the source folder's path, found from the bundle's own folder at run time (sourceDirBanner).
 */
const sourceDirnames = {
  name: 'source-dirnames',
  setup(b) {
    b.onLoad({ filter: /[\\/]host[\\/].*\.ts$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      if (!text.includes('__dirname')) return undefined;
      const rel = relative(process.cwd(), dirname(args.path)).split(sep).join('/');
      return { contents: text.replace(/\b__dirname\b/g, `__pwpSourceDir(${JSON.stringify(rel)})`), loader: 'ts' };
    });
  },
};

/** Defines what sourceDirnames calls, in a bundle that lies in dist/. */
const sourceDirBanner = { js: "const __pwpSourceDir = (rel) => require('node:path').join(__dirname, '..', rel);" };

/**
 * Modules the CLI's commands rarely use but that their dependencies require when they load:
 * sharp (libvips, about 0.1 s; external), dockerode's BuildKit session (gRPC and protobuf) and
 * docker-modem's SSH transport (ssh2). Each gets a stand-in that requires the real module on
 * first use (a call, `new`, or reading a property), so `pwp ls` does not evaluate them. Only
 * modules used as their requirers use them: called, constructed, or read after loading.
 */
const LAZY_MODULES = [
  { specifier: 'sharp', external: true },
  { specifier: '@grpc/grpc-js', importer: /node_modules[\\/]dockerode[\\/]lib[\\/]session\.js$/ },
  { specifier: '@grpc/proto-loader', importer: /node_modules[\\/]dockerode[\\/]lib[\\/]session\.js$/ },
  { specifier: './ssh', importer: /node_modules[\\/]docker-modem[\\/]lib[\\/]modem\.js$/ },
];
const lazyModules = {
  name: 'lazy-modules',
  setup(b) {
    const filter = new RegExp(`^(${LAZY_MODULES.map((m) => m.specifier.replace(/[./]/g, '\\$&')).join('|')})$`);
    b.onResolve({ filter }, (args) => {
      const m = LAZY_MODULES.find((x) => x.specifier === args.path && (!x.importer || x.importer.test(args.importer)));
      if (!m && args.namespace !== 'lazy-module') return undefined;
      // The stand-in's own require: the real module (left to node when external).
      if (args.namespace === 'lazy-module') return args.pluginData.external ? { path: args.path, external: true } : undefined;
      return { path: `${args.importer}#${args.path}`, namespace: 'lazy-module', pluginData: { specifier: args.path, resolveDir: args.resolveDir, external: !!m.external } };
    });
    b.onLoad({ filter: /.*/, namespace: 'lazy-module' }, (args) => ({
      contents: `let m; const load = () => (m ??= require(${JSON.stringify(args.pluginData.specifier)}));
module.exports = new Proxy(function () {}, {
  apply: (_t, self, a) => load().apply(self, a),
  construct: (_t, a) => new (load())(...a),
  get: (_t, k) => (k === '__esModule' ? undefined : load()[k]),
});`,
      resolveDir: args.pluginData.resolveDir,
      pluginData: { external: args.pluginData.external },
      loader: 'js',
    }));
  },
};

// What the image holds; their options are part of the image's inputs digest below.
const bridgeOptions = { ...common, entryPoints: ['bridge/server/main.ts'], outfile: 'dist/bridge.js', target: 'node24', external: [...common.external, 'sharp'] };
// mainFields: jsonc-parser's UMD entry hides its requires from the bundler; its ESM entry does not.
// The extension host loads this file on every IDE start, on the path to "ready": minified
// (names kept: errors travel by class name) with its source map beside it instead of
// inline, 2.0 MB instead of 7 MB to read and parse. The vsix leaves the .map out.
const extensionOptions = {
  ...common, entryPoints: ['extension/src/extension.ts'], outfile: 'extension/dist/extension.js', target: 'node20',
  external: [...common.external, 'vscode'], mainFields: ['module', 'main'],
  sourcemap: 'linked', minify: true, keepNames: true,
};
const vsceArgs = ['package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '--allow-star-activation', '--out', '../dist/pwp-extension.vsix'];

mkdirSync('dist', { recursive: true });
const [bridge, extension] = await Promise.all([
  build(bridgeOptions),
  build(extensionOptions),
  // The CLI: one file to load instead of a TypeScript loader compiling hundreds of modules
  // on every call. Native and self-locating packages stay in node_modules (ssh2 falls back to
  // plain JS without its optional .node bindings); no source map, it would double the file.
  // TypeScript's parser (4 MB, read only when grading reads changed JS/TS) is required from
  // node_modules when first used, so every other call does not load it.
  build({
    ...common, entryPoints: ['host/cli/main.ts'], outfile: 'dist/pwp.js', target: 'node20', sourcemap: false, minify: true, keepNames: true, mainFields: ['module', 'main'],
    external: [...common.external, 'esbuild', 'cpu-features', '*.node', 'typescript'],
    banner: sourceDirBanner,
    plugins: [sourceDirnames, lazyModules],
  }),
  // The library: one file, its npm dependencies left to the consumer's require (so a class
  // such as ws's or zod's is the same one the consumer's own code gets), names kept as the
  // errors' `name` depends on them, a source map beside it for readable stack traces.
  build({
    ...common, entryPoints: ['host/index.ts'], outfile: 'dist/index.js', target: 'node20', sourcemap: 'linked', keepNames: true,
    packages: 'external', banner: sourceDirBanner, plugins: [sourceDirnames, lazyModules],
  }),
  declarations(),
]);

/**
 * The library's declarations (tsconfig.types.json: host/index.ts and what it reaches) for
 * package.json's `types`; incremental, so an unchanged tree takes seconds. A type error is
 * printed but does not stop the build (esbuild does not type-check either; `npm test` and
 * `npm run typecheck` do).
 */
async function declarations() {
  // The compiler's record of what it wrote says nothing of files removed since: without the
  // entry's declaration, start over.
  if (!existsSync('dist/types/host/index.d.ts')) rmSync('dist/types', { recursive: true, force: true });
  try {
    const tsc = new URL('../node_modules/typescript/bin/tsc', import.meta.url).pathname;
    await promisify(execFile)(process.execPath, [tsc, '-p', 'tsconfig.types.json'], { maxBuffer: 64 * 1024 * 1024 });
  } catch (err) {
    console.warn(`warning: the library's declarations (dist/types) were written with type errors:\n${err.stdout || err.message}`);
  }
}

// Every input of the bridge and the extension, by its path inside the checkout (node_modules
// paths from their node_modules/ on, wherever node_modules really lives) and its bytes.
const inputs = new Set([...Object.keys(bridge.metafile.inputs), ...Object.keys(extension.metafile.inputs)]);
const vsixInputs = ['extension/package.json', 'extension/LICENSE', 'extension/.vscodeignore'].filter((f) => existsSync(f));
const versionOf = (pkg) => JSON.parse(readFileSync(new URL(`../node_modules/${pkg}/package.json`, import.meta.url), 'utf8')).version;
const digest = createHash('sha256');
digest.update(`esbuild ${versionOf('esbuild')}\0vsce ${versionOf('@vscode/vsce')}\0`);
digest.update(JSON.stringify({ bridgeOptions, extensionOptions, vsceArgs }));
for (const f of [...inputs, ...vsixInputs].map((p) => [p, p.includes('node_modules/') ? p.slice(p.indexOf('node_modules/')) : p]).sort((a, b) => (a[1] < b[1] ? -1 : 1))) {
  digest.update(`\0${f[1]}\0`);
  digest.update(readFileSync(f[0]));
}
const inputsDigest = digest.digest('hex');

// vsce stamps times into the zip; repackage only when the inputs changed.
const stampFile = 'dist/pwp-extension.vsix.sha256';
const upToDate = existsSync('dist/pwp-extension.vsix') && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === inputsDigest;
if (!upToDate) {
  rmSync('dist/pwp-extension.vsix', { force: true });
  execFileSync(process.execPath, [new URL('../node_modules/@vscode/vsce/vsce', import.meta.url).pathname, ...vsceArgs], { cwd: 'extension', stdio: ['ignore', 'ignore', 'inherit'] });
  writeFileSync(stampFile, inputsDigest);
}
writeFileSync('dist/image-inputs.sha256', `${inputsDigest}\n`);
// The CLI's first code cache (bin/run-cached.cjs), made by a call that loads every module.
rmSync('dist/pwp.js.cache', { force: true });
execFileSync(process.execPath, [new URL('../bin/run-cached.cjs', import.meta.url).pathname, 'dist/pwp.js', '--help'], { stdio: 'ignore' });
console.log('built dist/bridge.js, dist/pwp-extension.vsix, dist/pwp.js, dist/index.js, dist/types');
