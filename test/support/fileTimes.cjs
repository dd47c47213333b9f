// Where a test run's time goes, file by file, hooks included (mocha's reports time tests only, and
// an integration file's environments start in its hooks). With PWP_TEST_TIMES=FILE set, each test
// file's wall time from its first root hook to its last is appended to FILE as a JSON line
// `{ "file", "ms" }`: mocha runs root hooks once per file in --parallel runs (once per run
// otherwise, which is then the run's). scripts/runTestStages.sh sets it, testSummary.cjs prints
// the slowest. Plain CommonJS: mocha loads it before the TypeScript loader.
'use strict';
const { appendFileSync } = require('node:fs');
const { relative } = require('node:path');

const out = process.env.PWP_TEST_TIMES;
let started = 0;

/** The first test file under a suite (a worker's root suite holds one file's suites). */
function fileOf(suite) {
  if (!suite) return undefined;
  if (suite.file) return suite.file;
  for (const s of suite.suites || []) {
    const f = fileOf(s);
    if (f) return f;
  }
  return undefined;
}

exports.mochaHooks = out ? {
  beforeAll() { started = Date.now(); },
  afterAll() {
    const file = fileOf(this.test && this.test.parent);
    if (file) appendFileSync(out, `${JSON.stringify({ file: relative(process.cwd(), file), ms: Date.now() - started })}\n`);
  },
} : {};
