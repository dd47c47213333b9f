// Runs a CommonJS bundle (dist/pwp.js) with V8's code cache kept beside it (FILE.cache), so
// a call skips compiling the bundle's functions again: about a third less CPU per pwp call.
// The cache starts with the bundle's SHA-1 (V8's own check would pass a rebuilt bundle of the
// same length); it is written after a run that had no usable one, atomically, and where it
// cannot be written the call just runs uncached. `npm run build` makes the first one.
'use strict';
const { createHash } = require('node:crypto');
const { readFileSync, renameSync, writeFileSync } = require('node:fs');
const Module = require('node:module');
const { dirname, resolve } = require('node:path');
const { Script } = require('node:vm');

const file = resolve(process.argv[2]);
process.argv.splice(1, 1); // the bundle sees argv as if node had run it directly
const source = readFileSync(file, 'utf8');
const digest = Buffer.from(createHash('sha1').update(source).digest('hex'));
const cacheFile = `${file}.cache`;
let cachedData;
try {
  const c = readFileSync(cacheFile);
  if (c.subarray(0, digest.length).equals(digest)) cachedData = c.subarray(digest.length);
} catch { /* first run */ }
const script = new Script(Module.wrap(source), { filename: file, cachedData });
if (!cachedData || script.cachedDataRejected) {
  process.once('exit', () => {
    try {
      const tmp = `${cacheFile}.${process.pid}`;
      writeFileSync(tmp, Buffer.concat([digest, script.createCachedData()]));
      renameSync(tmp, cacheFile);
    } catch { /* a read-only tree: run uncached */ }
  });
}
const mod = new Module(file, null);
mod.filename = file;
mod.paths = Module._nodeModulePaths(dirname(file));
mod.loaded = true;
process.mainModule = mod;
require.main = mod;
const req = Module.createRequire(file);
req.main = mod;
script.runInThisContext()(mod.exports, req, mod, file, dirname(file));
