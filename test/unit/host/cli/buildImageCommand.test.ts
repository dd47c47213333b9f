// `pwp build-image --toolchain`: the names are checked before anything is built, and repeated
// flags add up (commander keeps only the last value of a plain option).
import { strict as assert } from 'node:assert';
import { Command } from 'commander';
import { register } from '../../../../host/cli/commands/buildImage';

async function run(...args: string[]): Promise<unknown> {
  const program = new Command().exitOverride();
  register(program);
  return program.parseAsync(['node', 'pwp', 'build-image', ...args]).then(() => undefined, (err: Error) => err);
}

describe('pwp build-image --toolchain', () => {
  it('refuses an unknown toolchain given in any repeat of the flag, naming the ones there are', async () => {
    const err = await run('--toolchain', 'nope', '--toolchain', 'cpp');
    assert.ok(err instanceof Error);
    assert.match(err.message, /no toolchain 'nope' \(toolchains: .*cpp.*java/);
  });

  it('refuses unknown names in a comma-separated list, all of them', async () => {
    const err = await run('--toolchain', 'cpp,cobol', '--toolchain', 'fortran');
    assert.ok(err instanceof Error);
    assert.match(err.message, /no toolchain 'cobol', 'fortran'/);
  });
});
