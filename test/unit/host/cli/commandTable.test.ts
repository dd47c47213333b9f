// The CLI's command table: each module registers exactly the commands the table says (so a call
// loads the module that has its command), the command is found among global options, and
// `pwp --help` still lists every command.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { Command } from 'commander';
import { COMMAND_MODULES, commandNameOf, modulesFor } from '../../../../host/cli/commandTable';
import { REPO_ROOT } from '../../../../host/common/paths';

describe('pwp command table', function () {
  this.timeout(120_000);

  it('names exactly the commands each module registers', async () => {
    for (const m of COMMAND_MODULES) {
      const program = new Command('pwp');
      (await m.load()).register(program);
      assert.deepEqual(program.commands.map((c) => c.name()), m.names);
    }
  });

  it('finds the command after the program\'s own options, and loads only its module', () => {
    assert.equal(commandNameOf(['ls', '--json']), 'ls');
    assert.equal(commandNameOf(['--debug', '--backend', 'swarm', 'ls']), 'ls');
    assert.equal(commandNameOf(['--backend=swarm', 'up', '--view']), 'up');
    assert.equal(commandNameOf(['--help']), undefined);
    assert.deepEqual(modulesFor(['--backend', 'docker', 'type', 'ID', 'hi']).map((m) => m.names), [['key', 'type', 'click', 'xdotool']]);
    assert.equal(modulesFor(['runn']).length, COMMAND_MODULES.length, 'a mistyped name loads all, so commander can suggest one');
    assert.equal(modulesFor(['help', 'ls']).length, COMMAND_MODULES.length);
  });

  it('pwp --help lists every command', () => {
    const r = spawnSync(join(REPO_ROOT, 'bin', 'pwp'), ['--help'], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const listed = [...r.stdout.split('Commands:')[1].matchAll(/^ {2}([a-z0-9-]+)/gm)].map((x) => x[1]);
    assert.deepEqual(listed, [...COMMAND_MODULES.flatMap((m) => m.names), 'help']);
  });
});
