import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

// The bug can make binarySearch loop forever, and a loop that never yields outlives any test
// timeout (the whole run would wait for the grader's limit): each test's calls run in a child
// process that is killed after 10 s, which fails that test alone.
const source = fileURLToPath(new URL('../src/search.ts', import.meta.url));
function searchAll(calls: [number[], number][]): number[] {
  const script = `import { binarySearch } from ${JSON.stringify(source)};
console.log(JSON.stringify(${JSON.stringify(calls)}.map(([a, t]) => binarySearch(a, t))));`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 10_000 });
  if (r.error || r.status !== 0) throw new Error(`binarySearch did not return within 10 s (${r.error?.message ?? r.stderr.trim()})`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!);
}

const data = [1, 3, 5, 7, 9, 11];
test('finds the last element', () => assert.deepEqual(searchAll([[data, 11]]), [5]));
test('finds every element', () => assert.deepEqual(searchAll(data.map((v) => [data, v])), data.map((_, i) => i)));
test('single element', () => assert.deepEqual(searchAll([[[4], 4]]), [0]));
test('missing values', () => assert.deepEqual(searchAll([[data, 8], [[], 1]]), [-1, -1]));
