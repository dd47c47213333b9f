// `npm test` names its files by globs, the longest files' folder first (mocha's parallel mode
// hands files to its workers in the order named, so a long file named last would run alone at
// the end). The globs are collected as mocha collects them: every integration and unit test
// file once, none twice (a file matched by two globs runs twice), none left out.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../../..');
// mocha's own collection of the spec arguments (its package has no exports map to forbid the path).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const collectFiles = require(join(ROOT, 'node_modules/mocha/lib/cli/collect-files.cjs')) as (o: object) => { files: string[] };

/** The quoted globs of the `test` script. */
function testGlobs(script: string): string[] {
  return [...script.matchAll(/'([^']+)'/g)].map((m) => m[1]);
}

function testFilesUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.test.ts')).map((f) => join(dir, f)).sort();
}

function collected(globs: string[], cwd: string): string[] {
  const prev = process.cwd();
  process.chdir(cwd);
  try {
    const r = collectFiles({ spec: globs, ignore: [], extension: ['ts'], file: [], recursive: false, sort: false });
    return r.files.map((f) => relative(cwd, f));
  } finally {
    process.chdir(prev);
  }
}

describe('npm test\'s files', () => {
  const script = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.test;

  it('are every integration and unit test file, each once, the IDE-Bench runner files first', () => {
    const files = collected(testGlobs(script), ROOT);
    assert.deepEqual([...files].sort(), [...testFilesUnder('test/integration'), ...testFilesUnder('test/unit')].sort());
    assert.equal(new Set(files).size, files.length, 'a file matched by two globs runs twice');
    const first = testFilesUnder('test/integration/ideBench');
    assert.ok(first.length >= 4);
    assert.deepEqual(files.slice(0, first.length).sort(), first);
  });

  it('read as mocha reads them: a folder the globs leave out, and a file two globs match, are found (the check fires)', () => {
    const globs = ['test/integration/*.test.ts', 'test/unit/**/*.test.ts'];
    const missed = testFilesUnder('test/integration/ideBench').filter((f) => !collected(globs, ROOT).includes(f));
    assert.ok(missed.length >= 4, 'the subfolder is left out by test/integration/*.test.ts');
    const twice = collected(['test/integration/ideBench/*.test.ts', 'test/integration/**/*.test.ts'], ROOT);
    assert.ok(twice.length > new Set(twice).size);
  });
});
