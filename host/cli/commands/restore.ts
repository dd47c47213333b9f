import type { Command } from 'commander';
import { startFromCheckpoint } from '../../checkpoint/restore';
import { CheckpointStore } from '../../checkpoint/checkpointStore';
import { docker, withEnv } from '../context';
import { UsageError, printJson, progress } from '../output';

export function register(program: Command): void {
  program.command('restore')
    .description('bring an environment back to a checkpoint (files, IDE user data, open editors), or start a new one from it')
    .argument('<id>', 'environment to restore into (with --new: the checkpoint name)')
    .argument('[name]', 'checkpoint name (see pwp checkpoints)')
    .option('--new', 'start a new environment from the checkpoint instead')
    .option('--view', 'with --new: serve the live view')
    .option('--criu', 'restore running processes too (only into the container the checkpoint was taken from)')
    .option('--json', 'print the result as JSON')
    .action(async (first: string, second: string | undefined, o: { new?: boolean; view?: boolean; criu?: boolean; json?: boolean }) => {
      const store = new CheckpointStore();
      if (o.new) {
        if (second) throw new UsageError('with --new, name only the checkpoint: pwp restore --new NAME');
        const name = first;
        if (o.criu) throw new UsageError('--criu restores only into the container the checkpoint was taken from');
        progress(`starting a new environment from checkpoint '${name}'`);
        const env = await startFromCheckpoint(docker(), name, { view: o.view }, store);
        env.client.close();
        if (o.json) return printJson({ id: env.info.id, viewUrl: env.info.viewUrl, ...env.restore });
        console.log(`environment ${env.info.id} started from '${name}' in ${(env.restore.durationMs / 1000).toFixed(1)} s (${env.restore.editorsOpened} editor(s) reopened)`);
        if (env.info.viewUrl) console.log(`  live view: ${env.info.viewUrl}`);
        return;
      }
      if (!second) throw new UsageError('name the environment and the checkpoint: pwp restore ID NAME (or pwp restore --new NAME)');
      const [id, name] = [first, second];
      progress(`restoring '${name}' into ${id}`);
      const r = await withEnv(id, (env) => env.restore(name, { criu: o.criu }), { checkpoints: store });
      if (o.json) return printJson(r);
      const phases = Object.entries(r.phases).map(([k, v]) => `${k} ${v} ms`).join(', ');
      console.log(`restored '${name}' into ${id} in ${(r.durationMs / 1000).toFixed(1)} s (${phases}); ${r.editorsOpened} editor(s) reopened`);
    });
}
