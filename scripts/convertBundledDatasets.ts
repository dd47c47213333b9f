// npm run tasks:convert [family…]: rewrites tasks/<family>/ from datasets/<family>/ with the
// family's converter (all bundled families without arguments).
import { BUNDLED_FAMILIES, convertBundled } from '../host/converters/bundledDatasets';
import { TASKS_ROOT } from '../host/taskEnv/loadTask';

async function main(): Promise<void> {
  const wanted = process.argv.slice(2);
  const unknown = wanted.filter((w) => !BUNDLED_FAMILIES.some((f) => f.suite === w));
  if (unknown.length) throw new Error(`no bundled dataset ${unknown.join(', ')} (families: ${BUNDLED_FAMILIES.map((f) => f.suite).join(', ')})`);
  for (const f of BUNDLED_FAMILIES.filter((x) => !wanted.length || wanted.includes(x.suite))) {
    console.log(`tasks/${f.suite}/ from datasets/${f.suite}/${f.input} (${f.kind}): ${await convertBundled(f, TASKS_ROOT)}`);
  }
}

main().catch((err: Error) => { console.error(`tasks:convert: ${err.message}`); process.exit(1); });
