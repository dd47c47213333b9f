'use strict';
// Loaded (`--require`) into every process of a node --test or mocha run the verifier grades,
// before any test file (testsGrader.ts adds it; canary.ts, docs/grading-canary.md):
//
// - the canary: node --test runs each test file in a process of its own, so each of those
//   registers the run's canary tests with node:test; mocha's single process gets them from
//   pwp_mocha_canary.js (given with --file), which reads them here;
// - equality that cannot be faked: node:assert's equal/deepEqual/strictEqual/deepStrictEqual,
//   when they pass, must not have been answered by the deliverable's code: an object standing
//   in for a primitive (its valueOf/toString/Symbol.toPrimitive decided), a Proxy, or a getter
//   where the expected plain object has a value. Such a pass fails as tampering.
//
// Plain JavaScript for the image's Node, run as the tests' user: it holds nothing secret
// beyond the canary's names, read once and then dropped from the environment.
const fs = require('node:fs');
const path = require('node:path');

const MARK = 'pwp: tampering suspected:';
const dir = process.env.PWP_CANARY_DIR;
let canary = { pass: [], fail: [] };
if (dir) {
  try { canary = JSON.parse(fs.readFileSync(path.join(dir, 'canary.json'), 'utf8')); } catch { /* no canary this run */ }
}
const isolationNone = process.execArgv.some((a) => /^--(experimental-)?test-isolation=none$/.test(a));
// node --test's own process spawns the test files' processes, which need the variable.
const testParent = !process.env.NODE_TEST_CONTEXT && !isolationNone && process.execArgv.some((a) => a === '--test' || a.startsWith('--test='));
if (!testParent) delete process.env.PWP_CANARY_DIR;
module.exports = { canary };

if (!testParent && (process.env.NODE_TEST_CONTEXT || isolationNone)) {
  const { test } = require('node:test');
  for (const n of canary.pass) test(n, () => {});
  for (const n of canary.fail) test(n, () => { throw new Error('expected failure'); });
}

// ---- equality -------------------------------------------------------------------------------

const assert = require('node:assert');
const { types } = require('node:util');

const isPrimitive = (v) => v === null || (typeof v !== 'object' && typeof v !== 'function');
const isPlain = (v) => !isPrimitive(v) && typeof v === 'object' && (Array.isArray(v) || [Object.prototype, null].includes(Object.getPrototypeOf(v)));

/** Where, walking expected and actual together, the actual's code answered for a value; undefined when nowhere. */
function answeredBy(actual, expected, at, depth) {
  if (depth > 20) return undefined;
  if (!isPrimitive(actual) && types.isProxy(actual)) return `${at || 'the value'} is a Proxy`;
  if (isPrimitive(expected)) {
    return isPrimitive(actual) ? undefined : `${at || 'the value'} is an object found equal to the ${typeof expected} ${String(expected).slice(0, 80)}`;
  }
  if (!isPlain(expected) || isPrimitive(actual)) return undefined;
  for (const key of Reflect.ownKeys(expected)) {
    const d = Reflect.getOwnPropertyDescriptor(actual, key);
    const where = `${at}[${JSON.stringify(String(key))}]`;
    if (!d) continue;
    if (d.get || d.set) return `${where} is a getter`;
    const why = answeredBy(d.value, expected[key], where, depth + 1);
    if (why) return why;
  }
  return undefined;
}

function guard(target, name) {
  const original = target[name];
  if (typeof original !== 'function' || original.pwpGuarded) return;
  const wrapped = function (actual, expected, ...rest) {
    const r = original.call(this, actual, expected, ...rest);
    const why = answeredBy(actual, expected, '', 0);
    if (why) throw new assert.AssertionError({ message: `${MARK} ${name}: ${why}`, actual, expected, operator: name });
    return r;
  };
  Object.defineProperty(wrapped, 'pwpGuarded', { value: true });
  Object.defineProperty(wrapped, 'name', { value: name });
  target[name] = wrapped;
}

for (const target of [assert, assert.strict]) {
  for (const name of ['equal', 'deepEqual', 'strictEqual', 'deepStrictEqual']) guard(target, name);
}
require('node:module').syncBuiltinESMExports();
