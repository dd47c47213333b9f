'use strict';
// Sealed test files for node --test, mocha and jest (isolatedRunner.ts, sealedTests): loaded
// with node's own --require into the runner's process, before the runner and anything of the
// workspace. The task's hidden test files are root's alone (0600) while the tests' processes
// live; the runner hands their text over on a descriptor (PWP_SEALED_FD names it), read here
// and closed at once. A script that runs the runner (`npm test`) gets this file in NODE_OPTIONS
// instead, for every node process it starts: the one that is the image's mocha or jest, node
// --test, or node running a sealed file as its program, asks the runner's broker
// (PWP_SEAL_BROKER) once. Each text then goes to the runner's module loading only, once:
//
// - node's module hooks (CommonJS and ESM, TypeScript stripped as node would) load a sealed
//   path from here, the first time it is loaded; the deliverable's `fs.readFileSync` of the
//   path, or a second load, goes to the disk and gets EACCES;
// - jest reads test files itself (its haste map, its runner, its runtime's transform, again for
//   each test file that loads a setup file or helper): the fs.readFileSync every module shares
//   answers a sealed path when the calling frame (V8's call site, not a stack string) is one
//   of those three modules of the image's jest, and to nothing else. What they do with the text
//   is load it as the test's module; the texts stay in this closure while jest runs.
//   jest's transform cache, which would keep the transformed test where the tests' user can
//   read it, is not written.
//
// What stays in the process is the compiled test code: a test callback's `.toString()` shows its
// source, and code that patches what the runner calls later (node's module hooks, jest's vm)
// sees a test file that loads after it. docs/grading-and-security.md says so.
const fs = require('node:fs');
const path = require('node:path');
const Module = require('node:module');
const vm = require('node:vm');
const { fileURLToPath } = require('node:url');

const { isMainThread } = require('node:worker_threads');

const MOCHA = '/opt/test-runners/node_modules/mocha/bin/mocha.js';
const JEST = '/opt/test-runners/node_modules/jest/bin/jest.js';
/** The real path of the script node runs (mocha and jest are reached through links on PATH). */
const mainScript = (() => { try { return process.argv[1] ? fs.realpathSync(process.argv[1]) : ''; } catch { return ''; } })();
/** Whether the program node runs is one this process may not read: a sealed test file a script runs itself. */
const sealedMain = () => {
  if (!mainScript) return false;
  try { fs.accessSync(mainScript, fs.constants.R_OK); return false; } catch (e) { return e.code === 'EACCES'; }
};

/**
 * The texts from the runner's broker (pwp_seal_broker.py), for a script that runs node's runners:
 * node has no blocking socket, so a worker thread asks and the main thread waits on it. The
 * kernel tells the broker this process (a thread's connection is its process's).
 */
function askBroker(socketPath) {
  const { Worker, MessageChannel, receiveMessageOnPort } = require('node:worker_threads');
  const done = new Int32Array(new SharedArrayBuffer(4));
  const { port1, port2 } = new MessageChannel();
  const asker = new Worker(`
    const { workerData: w } = require('node:worker_threads');
    const chunks = [];
    const s = require('node:net').connect(w.path);
    const answer = (error) => {
      w.port.postMessage({ body: Buffer.concat(chunks).toString('utf8'), error });
      Atomics.store(w.done, 0, 1);
      Atomics.notify(w.done, 0);
    };
    s.on('data', (c) => chunks.push(c));
    s.on('end', () => answer());
    s.on('error', (e) => answer(e.message));
  `, { eval: true, execArgv: [], env: {}, workerData: { path: socketPath, done, port: port2 }, transferList: [port2] });
  Atomics.wait(done, 0, 0);
  const { message } = receiveMessageOnPort(port1) || { message: { body: '', error: 'no answer' } };
  void asker.terminate();
  if (message.error) {
    process.stderr.write('pwp: the sealed test files could not be asked for: ' + message.error + '\n');
    return {};
  }
  const answer = message.body ? JSON.parse(message.body) : {};
  // Refused: the broker said why on the run's stderr; the sealed files then fail to load.
  return answer.refused ? {} : answer;
}

const texts = new Map();
const fd = process.env.PWP_SEALED_FD;
delete process.env.PWP_SEALED_FD;
let handed = {};
if (fd) {
  let raw = '';
  try { raw = fs.readFileSync(Number(fd), 'utf8'); } catch { /* nothing handed over */ } finally { try { fs.closeSync(Number(fd)); } catch { /* closed */ } }
  handed = raw ? JSON.parse(raw) : {};
} else if (process.env.PWP_SEAL_BROKER && isMainThread && (process.execArgv.includes('--test') || mainScript === MOCHA || mainScript === JEST || sealedMain())) {
  // The runner a script started; the processes it starts do not ask again.
  const socketPath = process.env.PWP_SEAL_BROKER;
  delete process.env.PWP_SEAL_BROKER;
  handed = askBroker(socketPath);
  // In one process, as a sealed run of the runner itself is (testsGrader.ts, withReportFlags):
  // mocha's parallel workers and jest's would not have the texts.
  if (mainScript === MOCHA) process.argv.splice(2, 0, '--no-parallel');
  if (mainScript === JEST) process.argv.splice(2, 0, '--runInBand', '--no-cache');
}
for (const [p, t] of Object.entries(handed)) texts.set(p, Buffer.from(t, 'base64'));

/** The package.json "type" that governs a file, as node finds it. */
function packageType(file) {
  for (let d = path.dirname(file); ; d = path.dirname(d)) {
    try {
      const t = JSON.parse(fs.readFileSync(path.join(d, 'package.json'), 'utf8')).type;
      return t === 'module' || t === 'commonjs' ? t : undefined;
    } catch { /* none here, or not JSON */ }
    if (d === path.dirname(d)) return undefined;
  }
}

/** node's syntax detection for a file no extension or package.json types: CommonJS unless it only compiles as a module. */
function looksLikeModule(js) {
  try { new vm.Script(`(function (exports, require, module, __filename, __dirname) {${js}\n})`); return false; } catch (e) {
    return /\bimport\b|\bexport\b|import\.meta|\bawait\b/.test(String(e && e.message));
  }
}

function stripTypes(source) {
  // Quietly: stripTypeScriptTypes warns that it is experimental, on the tests' stderr.
  const emit = process.emitWarning;
  process.emitWarning = () => {};
  try { return Module.stripTypeScriptTypes(source); } finally { process.emitWarning = emit; }
}

/** The format node's own loader would give the file. */
function formatOf(file, source) {
  const ext = path.extname(file);
  const ts = ['.ts', '.mts', '.cts'].includes(ext) ? '-typescript' : '';
  if (ext === '.mjs' || ext === '.mts') return `module${ts}`;
  if (ext === '.cjs' || ext === '.cts') return `commonjs${ts}`;
  const type = packageType(file);
  if (type) return type + ts;
  const text = source.toString('utf8');
  return `${looksLikeModule(ts ? stripTypes(text) : text) ? 'module' : 'commonjs'}${ts}`;
}

if (texts.size) {
  Module.registerHooks({
    load(url, context, nextLoad) {
      if (url.startsWith('file:')) {
        const file = fileURLToPath(url);
        const source = texts.get(file);
        if (source) {
          texts.delete(file);
          return { format: formatOf(file, source), source, shortCircuit: true };
        }
      }
      return nextLoad(url, context);
    },
  });
}

// ---- jest ------------------------------------------------------------------------------------

const JEST_READERS = /^\/opt\/test-runners\/node_modules\/(?:jest-haste-map|jest-runner|jest-runtime)\/build\/[^/]+\.js$/;
/** The sealed texts jest's own modules read (each test file's setup files and helpers once per test file). */
const jestTexts = new Map();
if (texts.size && mainScript === JEST) {
  const readFileSync = fs.readFileSync;
  const capture = Error.captureStackTrace;
  const defineProperty = Object.defineProperty;
  const describe = Object.getOwnPropertyDescriptor;
  for (const [p, t] of texts) jestTexts.set(p, t);
  /** The file of the function that called fs.readFileSync, from V8's call sites. */
  const callerFile = (fn) => {
    const saved = describe(Error, 'prepareStackTrace');
    const mine = (_, sites) => sites;
    try { Error.prepareStackTrace = mine; } catch { return undefined; }
    try {
      if (Error.prepareStackTrace !== mine) return undefined;
      const o = {};
      capture(o, fn);
      const sites = o.stack;
      return Array.isArray(sites) && sites[0] && typeof sites[0].getFileName === 'function' ? sites[0].getFileName() : undefined;
    } finally {
      if (saved) defineProperty(Error, 'prepareStackTrace', saved); else delete Error.prepareStackTrace;
    }
  };
  const sealedRead = function readFileSync_(file, options) {
    if (typeof file === 'string' && jestTexts.has(file) && JEST_READERS.test(callerFile(sealedRead) || '')) {
      const text = jestTexts.get(file);
      const encoding = typeof options === 'string' ? options : options && options.encoding;
      return encoding ? text.toString(encoding) : Buffer.from(text);
    }
    return Reflect.apply(readFileSync, this, arguments);
  };
  defineProperty(sealedRead, 'name', { value: 'readFileSync' });
  fs.readFileSync = sealedRead;
  // The transform cache would hold each transformed test file (and its source map, with the
  // source) where the tests' user reads it; jest reads the cache only with `cache` on, which a
  // sealed run turns off.
  const atomic = require('/opt/test-runners/node_modules/write-file-atomic');
  const write = atomic.sync;
  atomic.sync = function sync(file, ...rest) {
    if (typeof file === 'string' && file.includes('/jest-transform-cache-')) return undefined;
    return Reflect.apply(write, this, [file, ...rest]);
  };
}
