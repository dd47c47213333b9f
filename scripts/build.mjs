// Bundles the bridge daemon and the extension with esbuild, then packages the extension
// as a .vsix. Outputs go to dist/, which the image build copies in.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';

const common = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  sourcemap: 'inline',
  logLevel: 'warning',
  // Optional native speed-ups of ws; absent is fine.
  external: ['bufferutil', 'utf-8-validate'],
};

mkdirSync('dist', { recursive: true });
await Promise.all([
  build({ ...common, entryPoints: ['bridge/server/main.ts'], outfile: 'dist/bridge.js', target: 'node24', external: [...common.external, 'sharp'] }),
  // mainFields: jsonc-parser's UMD entry hides its requires from the bundler; its ESM entry does not.
  // The extension host loads this file on every IDE start, on the path to "ready": minified
  // (names kept: errors travel by class name) with its source map beside it instead of
  // inline, 2.0 MB instead of 7 MB to read and parse. The vsix leaves the .map out.
  build({
    ...common, entryPoints: ['extension/src/extension.ts'], outfile: 'extension/dist/extension.js', target: 'node20', external: [...common.external, 'vscode'], mainFields: ['module', 'main'],
    sourcemap: 'linked', minify: true, keepNames: true,
  }),
]);

// vsce stamps times into the zip; repackage only when the inputs changed so that the
// image's content hash (which covers the .vsix) stays put for an unchanged tree.
const stampInputs = ['extension/package.json', 'extension/LICENSE', 'extension/dist/extension.js'];
const stamp = createHash('sha256');
for (const f of stampInputs) stamp.update(readFileSync(f));
const digest = stamp.digest('hex');
const stampFile = 'dist/pwp-extension.vsix.sha256';
const upToDate = existsSync('dist/pwp-extension.vsix') && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === digest;
if (!upToDate) {
rmSync('dist/pwp-extension.vsix', { force: true });
execFileSync(process.execPath, [
  new URL('../node_modules/@vscode/vsce/vsce', import.meta.url).pathname, 'package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '--allow-star-activation',
  '--out', '../dist/pwp-extension.vsix',
], { cwd: 'extension', stdio: ['ignore', 'ignore', 'inherit'] });
writeFileSync(stampFile, digest);
}
console.log('built dist/bridge.js, dist/pwp-extension.vsix');
