// The TypeScript examples of README.md and docs/ work as written for a project that depends on
// pwp (test/support/consumerProject.ts: an ES module project, so top-level await is as the
// examples have it, with node_modules/pwp linking to this checkout). Every ```ts block that
// imports from 'pwp' is saved there unchanged and type-checked with tsc against the package's
// published declarations; those that call makeEnv run with tsx against its built bundle, on
// real containers, and must print their reward: the oracle's example solves the task
// (reward 1), a loop whose policy gives up does not (reward 0).
import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { assertPackageBuilt, consumerProject, REPO, type ConsumerProject } from '../support/consumerProject';
import { testImage } from './environmentFixture';

interface Example { source: string; code: string }

const documents = ['README.md', ...readdirSync(join(REPO, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];
const documented: Example[] = documents.flatMap((doc) =>
  [...readFileSync(join(REPO, doc), 'utf8').matchAll(/^```ts\n([\s\S]*?)^```$/gm)]
    .map((m, i) => ({ source: `${doc}, ts block ${i + 1}`, code: m[1] }))
    .filter((e) => /from ['"]pwp['"]/.test(e.code)));

const examples = documented;
const runnable = examples.filter((e) => e.code.includes('makeEnv('));

describe("README and docs: the TypeScript examples work as written from a project that depends on pwp", function () {
  this.timeout(10 * 60_000);
  let project: ConsumerProject;
  const files = new Map<Example, string>();
  before(async function () {
    this.timeout(30 * 60_000);
    assertPackageBuilt();
    project = consumerProject({ type: 'module' });
    examples.forEach((e, i) => {
      const file = `example-${i + 1}.ts`;
      project.write(file, e.code);
      files.set(e, file);
    });
    await testImage();
  });
  after(() => project?.remove());

  it('has makeEnv examples, one of them an agent loop', () => {
    assert.ok(runnable.length >= 2, `found ${runnable.length} makeEnv example(s) among ${examples.map((e) => e.source).join('; ')}`);
    assert.ok(runnable.some((e) => /for \(.*\)[\s\S]*env\.step\(/.test(e.code)), 'one example is an agent loop over env.step');
  });

  it("every example that imports from 'pwp' type-checks against the package's declarations", async () => {
    const { code, output } = await project.typecheck();
    const where = [...files].map(([e, f]) => `${f}: ${e.source}`).join('\n');
    assert.equal(code, 0, `${output}\n${where}`);
  });

  for (const e of runnable) {
    it(`${e.source} runs and prints its reward`, async () => {
      const { stdout } = await project.run(files.get(e) ?? '');
      const m = /^reward (\d(?:\.\d+)?)/m.exec(stdout);
      assert.ok(m, stdout);
      // The oracle's example solves the task; the loop whose policy gives up does not.
      assert.equal(Number(m[1]), e.code.includes('OracleAgent') ? 1 : 0, stdout);
      if (e.code.includes('instruction')) assert.match(stdout, /Duplicate Selection/);
    });
  }
});
