import type { Command } from 'commander';
import { ownedByCaller } from '../../deployment/ownedContainers';
import { deployment } from '../context';
import { UsageError } from '../output';

export function register(program: Command): void {
  program.command('down')
    .description('stop and remove environments')
    .argument('[ids...]', 'environment ids')
    .option('--all', 'all your environments (those started by this host user)')
    .option('--all-users', 'with --all: every pwp environment on this machine, whoever started it')
    .action(async (ids: string[], o: { all?: boolean; allUsers?: boolean }) => {
      if (o.allUsers && !o.all) throw new UsageError('--all-users goes with --all');
      const targets = o.all ? (await deployment().list()).filter((e) => o.allUsers || ownedByCaller(e)).map((e) => e.id) : ids;
      if (targets.length === 0) throw new UsageError(o.all ? `no environments of yours are running${o.allUsers ? '' : ' (--all-users for everyone\'s)'}` : 'name an environment id, or use --all');
      for (const id of targets) {
        await deployment().remove(id);
        console.log(`removed ${id}`);
      }
    });
}
