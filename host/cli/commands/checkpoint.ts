import type { Command } from 'commander';
import { CheckpointStore } from '../../checkpoint/checkpointStore';
import { withEnv } from '../context';
import { printJson, progress } from '../output';

export function register(program: Command): void {
  program.command('checkpoint')
    .description('save an environment\'s IDE state (workspace, settings, keybindings, local history, extensions, open editors) under a name')
    .argument('<id>', 'environment id')
    .argument('<name>', 'checkpoint name (letters, digits, . _ -)')
    .option('--criu', 'also checkpoint running processes (needs Docker experimental mode and a working CRIU)')
    .option('--json', 'print the manifest as JSON')
    .action(async (id: string, name: string, o: { criu?: boolean; json?: boolean }) => {
      const store = new CheckpointStore();
      CheckpointStore.checkName(name);
      progress(`checkpointing ${id} as '${name}'`);
      const m = await withEnv(id, (env) => env.checkpoint(name, { criu: o.criu }), { checkpoints: store });
      if (o.json) return printJson(m);
      console.log(`checkpoint '${name}' of ${id}: ${(m.bytes / 2 ** 20).toFixed(1)} MiB, ${m.editors.tabs.length} open editor(s), in ${m.durationMs} ms`);
      console.log(`  stored in ${store.dir(name)}; restore with: pwp restore ${id} ${name}`);
    });
}
