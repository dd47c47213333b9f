// The README's TypeScript examples of the task Env run as written: every ```ts block that
// calls makeEnv is taken out of README.md, saved in the repository root (its imports are
// relative to it), run with tsx, and must exit 0 and print a reward. The first example's
// policy gives up at once (reward 0), the second is the oracle (reward 1).
import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from '../../host/common/paths';
import { testImage } from './environmentFixture';

const blocks = [...readFileSync(join(REPO_ROOT, 'README.md'), 'utf8').matchAll(/^```ts\n([\s\S]*?)^```$/gm)]
  .map((m) => m[1]).filter((b) => b.includes('makeEnv('));

/** Imports stay at the top; the rest runs inside an async function (the repository is CommonJS). */
function runnable(block: string): string {
  const lines = block.split('\n');
  const imports = lines.filter((l) => l.startsWith('import '));
  const body = lines.filter((l) => !l.startsWith('import '));
  return `${imports.join('\n')}\n(async () => {\n${body.join('\n')}\n})().catch((err) => { console.error(err); process.exit(1); });\n`;
}

describe('README: the makeEnv examples run as written (real containers)', function () {
  this.timeout(10 * 60_000);
  before(async function () { this.timeout(30 * 60_000); await testImage(); });

  it('has makeEnv examples with an agent loop', () => {
    assert.ok(blocks.length >= 2, `found ${blocks.length} makeEnv example(s)`);
    assert.ok(blocks.some((b) => /for \(.*\)[\s\S]*env\.step\(/.test(b)), 'one example is an agent loop over env.step');
  });

  blocks.forEach((block, i) => {
    it(`example ${i + 1} runs and prints its reward`, async () => {
      const file = join(REPO_ROOT, `readme-example-${process.pid}-${i}.ts`);
      writeFileSync(file, runnable(block));
      try {
        const { stdout } = await promisify(execFile)(process.execPath, ['--import', join(REPO_ROOT, 'node_modules/tsx/dist/loader.mjs'), file],
          { cwd: REPO_ROOT, maxBuffer: 16 * 1024 * 1024, env: { ...process.env } });
        const m = /^reward (\d(?:\.\d+)?)/m.exec(stdout);
        assert.ok(m, stdout);
        // The oracle's example solves the task; the loop whose policy gives up does not.
        assert.equal(Number(m[1]), block.includes('OracleAgent') ? 1 : 0, stdout);
        if (block.includes('instruction')) assert.match(stdout, /Duplicate Selection/);
      } finally {
        rmSync(file, { force: true });
      }
    });
  });
});
