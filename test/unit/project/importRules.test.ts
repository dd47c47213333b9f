// The import rules of .dependency-cruiser.cjs hold for the tree, and each one fires: a copy of
// the real tree (its host/, bridge/, extension/src and scripts/, beside the checkout's installed
// node_modules, which resolution finds by walking up) gets one planted violation per rule, and
// every rule must report its own. A rule that matches nothing would pass the first check forever.
import { strict as assert } from 'node:assert';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { IConfiguration, ICruiseOptions, IFlattenedRuleSet, IViolation } from 'dependency-cruiser';

const ROOT = join(__dirname, '..', '..', '..');
const SOURCES = ['host', 'bridge', 'extension/src', 'scripts'];
const CONFIG = join(ROOT, '.dependency-cruiser.cjs');

type Layers = Record<'host' | 'bridge', [string, string][]>;

async function cruiser(): Promise<{ options: ICruiseOptions; ruleNames: string[]; layers: Layers; cruise: (files: string[], o: ICruiseOptions) => Promise<IViolation[]> }> {
  const { cruise } = await import('dependency-cruiser');
  // The config file's rules and options, as `depcruise --config` reads them.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS file named at run time
  const config = require(CONFIG) as IConfiguration & { layers: Layers };
  const { options: cruiseOptions, ...rules } = config;
  const options: ICruiseOptions = { ...cruiseOptions, ruleSet: rules as IFlattenedRuleSet, validate: true };
  return {
    options,
    ruleNames: (rules.forbidden ?? []).map((r) => r.name ?? ''),
    layers: config.layers,
    cruise: async (files, o) => {
      const r = await cruise(files, o);
      if (typeof r.output === 'string') throw new Error('dependency-cruiser returned text, not a result');
      return r.output.summary.violations;
    },
  };
}

const describeViolation = (v: IViolation) => `${v.rule.name}: ${v.from} -> ${v.to}`;
const dirOf = (root: string, layer: string) => `${root}/${layer}`;
/** The import specifier of `target` (a path without .ts) from a file in `fromDir`. */
const spec = (fromDir: string, target: string) => {
  const up = fromDir.split('/').map(() => '..').join('/');
  return `${up}/${target}`;
};

describe('import rules (dependency-cruiser)', function () {
  // dependency-cruiser parses the whole tree: 70 s at a load of 50 on 2 cores.
  this.timeout(300_000);
  it('hold for host/, bridge/, extension/ and scripts/', async () => {
    const { options, cruise } = await cruiser();
    const violations = await cruise(SOURCES, { ...options, baseDir: ROOT });
    assert.deepEqual(violations.map(describeViolation), []);
  });

  it('each report a violation planted in a copy of the real tree', async () => {
    const { options, cruise, ruleNames, layers } = await cruiser();
    // Inside the checkout, so that packages resolve to its node_modules as in the tree itself.
    mkdirSync(join(ROOT, 'test-results'), { recursive: true });
    const dir = mkdtempSync(join(ROOT, 'test-results', 'import-rules-'));
    const plant = (path: string, text: string) => { mkdirSync(dirname(join(dir, path)), { recursive: true }); writeFileSync(join(dir, path), text); };
    const expected = new Map<string, string>();
    try {
      for (const s of SOURCES) cpSync(join(ROOT, s), join(dir, s), { recursive: true });
      cpSync(join(ROOT, 'tsconfig.json'), join(dir, 'tsconfig.json'));
      // Each layer imports a real file of the layer above it.
      for (const root of ['host', 'bridge'] as const) {
        const stack = layers[root];
        for (let i = 0; i + 1 < stack.length; i++) {
          // A layer that is one file (bridge/config.ts) gets the import appended to its copy.
          const isFile = stack[i][0].endsWith('.ts');
          const from = isFile ? `${root}/${stack[i][0]}` : `${dirOf(root, stack[i][0])}/plantedUpward.ts`;
          const to = stack[i + 1][0].endsWith('.ts') ? `${root}/${stack[i + 1][0].replace(/\.ts$/, '')}` : `${root}/${stack[i + 1][0]}/plantedTarget`;
          if (!stack[i + 1][0].endsWith('.ts')) plant(`${to}.ts`, 'export const target = 1;\n');
          const line = `import * as plantedAbove from '${spec(dirname(from), to)}';\nexport const plantedUpward = plantedAbove;\n`;
          plant(from, isFile ? `${readFileSync(join(ROOT, from), 'utf8')}\n${line}` : line);
          expected.set(`${root}-layer-${stack[i][0].replace(/\.ts$/, '')}`, `${from} -> ${to}.ts`);
        }
        plant(`${root}/plantedLoose/loose.ts`, `import * as p from '${spec(`${root}/plantedLoose`, `${root}/common/plantedCommon`)}';\nexport const loose = p;\n`);
        plant(`${root}/common/plantedCommon.ts`, 'export const common = 1;\n');
        expected.set(`${root}-every-file-in-a-layer`, `${root}/plantedLoose/loose.ts -> ${root}/common/plantedCommon.ts`);
      }
      // Two files of one folder importing each other.
      plant('host/env/plantedCycleA.ts', "import { b } from './plantedCycleB';\nexport const a = () => b;\n");
      plant('host/env/plantedCycleB.ts', "import { a } from './plantedCycleA';\nexport const b = () => a;\n");
      expected.set('no-circular', 'host/env/plantedCycleA.ts -> host/env/plantedCycleB.ts');
      // Packages, as the tree's own code would import them.
      plant('host/env/plantedPackages.ts', [
        "import Docker from 'dockerode';",
        "import * as vscode from 'vscode';",
        "import { pack } from 'tar-stream';",
        'export const planted = [Docker, vscode, pack];',
      ].join('\n'));
      expected.set('dockerode-only-in-deployment-and-image-build', 'host/env/plantedPackages.ts -> node_modules/dockerode/');
      expected.set('vscode-only-in-extension', 'host/env/plantedPackages.ts -> node_modules/@types/vscode/');
      expected.set('one-tar-module', 'host/env/plantedPackages.ts -> node_modules/tar-stream/');
      plant('extension/src/plantedDaemon.ts', "import * as s from '../../bridge/supervisor/ideStack';\nexport const planted = s;\n");
      expected.set('wire-only-from-bridge', 'extension/src/plantedDaemon.ts -> bridge/supervisor/ideStack.ts');
      plant('bridge/protocol/plantedDaemon.ts', "import * as s from '../server/main';\nexport const planted = s;\n");
      expected.set('wire-stands-alone', 'bridge/protocol/plantedDaemon.ts -> bridge/server/main.ts');
      plant('bridge/server/plantedHost.ts', "import * as e from '../../host/env/env';\nexport const planted = e;\n");
      expected.set('host-and-bridge-apart', 'bridge/server/plantedHost.ts -> host/env/env.ts');

      // What pwp evaluates before it knows its command, importing the library eagerly.
      plant('host/cli/main.ts', `${readFileSync(join(ROOT, 'host/cli/main.ts'), 'utf8')}\nimport { Env as plantedEager } from '../env/env';\nexport const plantedEnv = plantedEager;\n`);
      expected.set('cli-loads-commands-lazily', 'host/cli/main.ts -> host/env/env.ts');

      assert.deepEqual([...expected.keys()].sort(), [...ruleNames].sort(), 'every rule has a planted violation, and only the rules there are');
      const found = (await cruise(SOURCES, { ...options, baseDir: dir, tsConfig: { fileName: join(dir, 'tsconfig.json') } })).map(describeViolation);
      for (const [rule, edge] of expected) {
        const [from, to] = edge.split(' -> ');
        assert.ok(found.some((f) => f.startsWith(`${rule}: ${from} -> `) && f.includes(to)), `${rule} did not report ${edge}; reported: ${found.join('; ')}`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
