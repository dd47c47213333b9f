'use strict';
/* global test, expect -- jest's, in each test file's environment that loads this file */
// The verifier's setup file for jest, given as the last of jest's setupFilesAfterEnv (after
// the task's own, which testsGrader.ts reads from `jest --showConfig`), so it runs in every test
// file of the run, before the test file loads the deliverable:
//
// - the run's canary tests (canary.ts), beside the file's tests; their names come from the
//   run's canary folder, which only root can list (PWP_CANARY_DIR names it);
// - equality that cannot be faked: jest's equality is JavaScript in the test file's own realm,
//   which the deliverable shares. It can declare itself equal (an `asymmetricMatch` method on
//   what it returns) or patch what jest compares with (`Object.is`, `Object.keys`). When
//   toBe, toEqual or toStrictEqual passes, the value is compared again here with functions
//   taken before the deliverable loaded; a received value that declares itself a matcher, a
//   Proxy, a getter, or a difference jest did not see fails the test as tampering. The
//   globals the test file calls (`test`, `it`, `describe`, `expect`…) and those matchers are
//   made read-only first, so the deliverable cannot swap them for its own.
const fs = require('node:fs');
const path = require('node:path');
const { types } = require('node:util');

let canary = { pass: [], fail: [] };
const dir = process.env.PWP_CANARY_DIR;
if (dir) {
  try { canary = JSON.parse(fs.readFileSync(path.join(dir, 'canary.json'), 'utf8')); } catch { /* no canary this run */ }
}
for (const n of canary.pass) test(n, () => {});
for (const n of canary.fail) test(n, () => { throw new Error('expected failure'); });

// ---- equality -------------------------------------------------------------------------------

const MARK = 'pwp: tampering suspected:';
// Taken now, before any code of the deliverable runs: later patches of the globals do not reach these.
const is = Object.is;
const getPrototypeOf = Object.getPrototypeOf;
const getOwnPropertyDescriptor = Object.getOwnPropertyDescriptor;
const ownKeys = Reflect.ownKeys;
const isArray = Array.isArray;
const isProxy = types.isProxy;
const ObjectPrototype = Object.prototype;
const apply = Reflect.apply;

const isObject = (v) => v !== null && (typeof v === 'object' || typeof v === 'function');
const isPlain = (v) => isObject(v) && typeof v === 'object' && (isArray(v) || [ObjectPrototype, null].includes(getPrototypeOf(v)));

/** A property's value read without running code of the object's (undefined for getters, which `problem` reports). */
function own(obj, key) {
  const d = getOwnPropertyDescriptor(obj, key);
  return d && !d.get && !d.set ? d.value : undefined;
}

/** Where the received value answers for itself instead of holding a value. */
function selfAnswering(v, at, depth, seen) {
  if (!isObject(v) || depth > 20 || seen.has(v)) return undefined;
  seen.add(v);
  if (isProxy(v)) return `${at || 'the value'} is a Proxy`;
  for (let o = v; o !== null && o !== ObjectPrototype; o = getPrototypeOf(o)) {
    const d = getOwnPropertyDescriptor(o, 'asymmetricMatch');
    if (d) return `${at || 'the value'} declares itself a matcher (asymmetricMatch)`;
  }
  for (const key of ownKeys(v)) {
    const d = getOwnPropertyDescriptor(v, key);
    if (d.get || d.set) return `${at}[${String(key)}] is a getter`;
    const why = selfAnswering(d.value, `${at}[${String(key)}]`, depth + 1, seen);
    if (why) return why;
  }
  return undefined;
}

/** Whether expected is one of jest's asymmetric matchers (expect.any, expect.objectContaining…): the test's own, trusted. */
const isMatcher = (e) => isObject(e) && typeof own(getPrototypeOf(e) ?? {}, 'asymmetricMatch') === 'function';

/**
 * Where received differs from expected as toEqual compares them (properties with undefined
 * values as absent), for the values this can read: primitives, arrays and plain objects on the
 * expected side; anything else (a Date, a Map, a class's instance) is left to jest.
 */
function difference(received, expected, at, depth) {
  if (depth > 20 || isMatcher(expected)) return undefined;
  if (!isObject(expected)) return is(received, expected) ? undefined : `${at || 'the value'} is not ${String(expected).slice(0, 80)}`;
  if (!isPlain(expected)) return undefined;
  if (!isObject(received)) return `${at || 'the value'} is not an object`;
  if (isArray(expected)) {
    if (!isArray(received)) return `${at || 'the value'} is not an array`;
    if (own(received, 'length') !== own(expected, 'length')) return `${at || 'the value'} has ${own(received, 'length')} items, not ${own(expected, 'length')}`;
  }
  const defined = (o) => ownKeys(o).filter((k) => k !== 'length' || !isArray(o)).filter((k) => own(o, k) !== undefined && (getOwnPropertyDescriptor(o, k).enumerable || typeof k === 'symbol'));
  const r = defined(received);
  const e = defined(expected);
  if (r.length !== e.length || e.some((k) => !r.includes(k))) return `${at || 'the value'} has other properties than expected`;
  for (const k of e) {
    const why = difference(own(received, k), own(expected, k), `${at}[${String(k)}]`, depth + 1);
    if (why) return why;
  }
  return undefined;
}

const CHECKED = {
  toBe: (received, expected) => (is(received, expected) ? undefined : 'the two are not the same value (Object.is)'),
  toEqual: (received, expected) => selfAnswering(received, '', 0, new Set()) ?? difference(received, expected, '', 0),
  toStrictEqual: (received, expected) => selfAnswering(received, '', 0, new Set()) ?? difference(received, expected, '', 0),
};

const matchers = globalThis[Symbol.for('$$jest-matchers-object')]?.matchers;
if (matchers) {
  const wrapped = {};
  for (const [name, check] of Object.entries(CHECKED)) {
    const original = matchers[name];
    if (typeof original !== 'function') continue;
    wrapped[name] = function (received, expected, ...rest) {
      const result = apply(original, this, [received, expected, ...rest]);
      // `.not` passes when the values differ: only a pass that claims equality is checked.
      if (this.isNot || !result || result.pass !== true) return result;
      const why = check(received, expected);
      return why ? { pass: false, message: () => `${MARK} ${name}: ${why}, though jest's comparison said equal` } : result;
    };
    Object.defineProperty(wrapped[name], 'name', { value: name });
  }
  expect.extend(wrapped);
  for (const name of Object.keys(wrapped)) Object.defineProperty(matchers, name, { writable: false, configurable: false });
  const holder = globalThis[Symbol.for('$$jest-matchers-object')];
  Object.defineProperty(holder, 'matchers', { writable: false, configurable: false });
}
// What the test file calls, as jest put it there: read-only, so code the test file loads
// cannot register its tests with empty bodies or answer for expect.
for (const name of ['test', 'it', 'describe', 'expect', 'fit', 'xit', 'xtest', 'fdescribe', 'xdescribe', 'beforeAll', 'beforeEach', 'afterAll', 'afterEach']) {
  const d = getOwnPropertyDescriptor(globalThis, name);
  if (!d || !d.configurable) continue;
  Object.defineProperty(globalThis, name, { value: globalThis[name], writable: false, configurable: false, enumerable: d.enumerable });
  if (isObject(globalThis[name]) && name !== 'expect') Object.freeze(globalThis[name]);
}
