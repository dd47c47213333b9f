import type { Command } from 'commander';
import Docker from 'dockerode';
import { ensureImage } from '../../image/buildImage';
import { pushImage } from '../../image/pushImage';
import { printJson, progress } from '../output';

export function register(program: Command): void {
  program.command('build-image')
    .description('build the IDE image (only when its inputs changed); with --push, push it to a registry a cluster pulls from')
    .option('--force', 'rebuild even when an image for this content hash exists')
    .option('--push <registry>', 'also push it to this registry (host:port), e.g. for the swarm backend')
    .option('--json', 'print {"image": tag} on stdout (with --push, {"image", "pushed"})')
    .action(async (o: { force?: boolean; push?: string; json?: boolean }) => {
      // Built on this host's engine whichever backend runs environments.
      const local = new Docker();
      const tag = await ensureImage({ docker: local, force: o.force, progress });
      const pushed = o.push ? await pushImage(local, tag, { pushTo: o.push, progress }) : undefined;
      if (o.json) printJson({ image: tag, ...(pushed ? { pushed } : {}) });
      else console.log(pushed ?? tag);
    });
}
