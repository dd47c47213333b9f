// The import rules of .dependency-cruiser.cjs hold for the tree, and a planted violation of
// each is reported (a rule that matches nothing would pass the first check forever).
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { IConfiguration, ICruiseOptions, IFlattenedRuleSet, IViolation } from 'dependency-cruiser';

const ROOT = join(__dirname, '..', '..', '..');
const SOURCES = ['host', 'bridge', 'extension/src', 'scripts'];

async function cruiser(): Promise<{ options: ICruiseOptions; cruise: (files: string[], o: ICruiseOptions) => Promise<IViolation[]> }> {
  const { cruise } = await import('dependency-cruiser');
  // The config file's rules and options, as `depcruise --config` reads them.
  const { options: cruiseOptions, ...rules } = require(join(ROOT, '.dependency-cruiser.cjs')) as IConfiguration;
  const options: ICruiseOptions = { ...cruiseOptions, ruleSet: rules as IFlattenedRuleSet, validate: true };
  return {
    options,
    cruise: async (files, o) => {
      const r = await cruise(files, o);
      if (typeof r.output === 'string') throw new Error('dependency-cruiser returned text, not a result');
      return r.output.summary.violations;
    },
  };
}

const describeViolation = (v: IViolation) => `${v.rule.name}: ${v.from} -> ${v.to}`;

describe('import rules (dependency-cruiser)', function () {
  // dependency-cruiser parses the whole tree: 70 s at a load of 50 on 2 cores.
  this.timeout(300_000);
  it('hold for host/, bridge/, extension/ and scripts/', async () => {
    const { options, cruise } = await cruiser();
    const violations = await cruise(SOURCES, { ...options, baseDir: ROOT });
    assert.deepEqual(violations.map(describeViolation), []);
  });

  it('report a planted file that breaks each rule', async () => {
    const { options, cruise } = await cruiser();
    const dir = mkdtempSync(join(tmpdir(), 'pwp-import-rules-'));
    const plant = (path: string, text: string) => { mkdirSync(dirname(join(dir, path)), { recursive: true }); writeFileSync(join(dir, path), text); };
    try {
      plant('bridge/server/dispatcher.ts', 'export const server = 1;\n');
      plant('bridge/supervisor/procfs.ts', 'export const procfs = 1;\n');
      plant('bridge/protocol/index.ts', "import { server } from '../server/dispatcher';\nexport const p = server;\n");
      plant('host/env/planted.ts', [
        "import Docker from 'dockerode';",
        "import * as vscode from 'vscode';",
        "import { server } from '../../bridge/server/dispatcher';",
        "import { pack } from 'tar-stream';",
        'export const planted = [Docker, vscode, server, pack];',
      ].join('\n'));
      plant('host/env/actions.ts', 'export const action = 1;\n');
      plant('host/env/running/planted.ts', "import { action } from '../actions';\nexport const planted = action;\n");
      plant('extension/src/planted.ts', "import { procfs } from '../../bridge/supervisor/procfs';\nexport const planted = procfs;\n");
      // The same rules, without the tree's tsconfig (the planted tree has none).
      const violations = await cruise(['host', 'bridge', 'extension'], { ...options, baseDir: dir, tsConfig: undefined });
      const found = violations.map(describeViolation);
      for (const expected of [
        'dockerode-only-in-deployment-and-image: host/env/planted.ts -> dockerode',
        'vscode-only-in-extension: host/env/planted.ts -> vscode',
        'wire-only-from-bridge: host/env/planted.ts -> bridge/server/dispatcher.ts',
        'wire-only-from-bridge: extension/src/planted.ts -> bridge/supervisor/procfs.ts',
        'wire-stands-alone: bridge/protocol/index.ts -> bridge/server/dispatcher.ts',
        'one-tar-module: host/env/planted.ts -> tar-stream',
        'running-environment-is-the-lower-layer: host/env/running/planted.ts -> host/env/actions.ts',
      ]) assert.ok(found.includes(expected), `not reported: ${expected}; reported: ${found.join('; ')}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
