// The bundled tasks of the dataset families are exactly what their converters make of the
// sources under datasets/ (regenerate with `npm run tasks:convert`).
import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { categoryOf } from '../../../../host/runs/families';
import { BUNDLED_FAMILIES, bundledDrift } from '../../../../host/converters/bundledDatasets';
import { suiteTaskDirs, TASKS_ROOT } from '../../../../host/taskEnv/loadTask';

describe('bundled dataset families', () => {
  for (const f of BUNDLED_FAMILIES) {
    it(`tasks/${f.suite}/ is the conversion of datasets/${f.suite}/ (${f.kind}), with at least 3 tasks`, async () => {
      assert.notEqual(categoryOf(f.suite), 'other', `${f.suite} is not a family of host/runs/families.ts`);
      assert.ok(existsSync(join(TASKS_ROOT, f.suite)), `tasks/${f.suite}/ is missing: run npm run tasks:convert`);
      assert.ok(suiteTaskDirs(join(TASKS_ROOT, f.suite)).length >= 3);
      assert.deepEqual(await bundledDrift(f), [], 'run npm run tasks:convert to rewrite tasks/ from datasets/');
    });
  }
});
