// Each layer folder of host/ and bridge/ says in its README.md what it is and what it may
// import, and that line agrees with the stack .dependency-cruiser.cjs enforces: a reader
// opening a folder learns its place without reading the rules, and the two cannot drift apart.
import { strict as assert } from 'node:assert';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');

type Layers = Record<'host' | 'bridge', [string, string][]>;

/** The folders a README's "May import:" line names (host/x, bridge/x), in any order. */
export function namedLayers(readme: string): string[] {
  const line = readme.split('\n').find((l) => l.startsWith('May import:'));
  if (!line) throw new Error('no "May import:" line');
  // The wire is named for host/ folders as (bridge/protocol, bridge/rpc, bridge/common): not a layer of host/.
  const own = line.replace(/the wire \([^)]*\)/, '');
  return [...own.matchAll(/\b((?:host|bridge)\/[A-Za-z]+)\b/g)].map((m) => m[1]).sort();
}

describe('layer folders say what they may import', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the CommonJS config, read as dependency-cruiser reads it
  const { layers } = require(join(ROOT, '.dependency-cruiser.cjs')) as { layers: Layers };

  for (const root of ['host', 'bridge'] as const) {
    const stack = layers[root];
    stack.forEach(([name], i) => {
      if (name.endsWith('.ts')) return; // a one-file layer has its own header comment
      it(`${root}/${name}/README.md names the layers below it, and only those`, () => {
        const file = join(ROOT, root, name, 'README.md');
        assert.ok(existsSync(file), `${root}/${name} has no README.md`);
        const below = stack.slice(0, i).map(([n]) => `${root}/${n.replace(/\.ts$/, '')}`).sort();
        assert.deepEqual(namedLayers(readFileSync(file, 'utf8')), below);
      });
    });
  }

  it('reads a planted README that names a layer above as wrong', () => {
    const planted = '# host/env\n\nMay import: host/common, host/agents, and the wire (bridge/protocol, bridge/rpc, bridge/common).\n';
    assert.deepEqual(namedLayers(planted), ['host/agents', 'host/common']);
    assert.notDeepEqual(namedLayers(planted), ['host/common']);
  });
});
