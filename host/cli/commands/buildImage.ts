import { join } from 'node:path';
import type { Command } from 'commander';
import { buildImageSet } from '../../imageBuild/imageSet';
import { listToolchains, TOOLCHAINS_DIR } from '../../taskEnv/resolveTaskImage';
import { printJson, progress, UsageError } from '../output';

export function register(program: Command): void {
  program.command('build-image')
    .description('build the IDE image (only when its inputs changed); with --toolchain, toolchain images on it; with --push, push them to a registry a cluster pulls from')
    .option('--toolchain <names>', `also build these toolchain images on it, comma-separated or "all", repeatable (${listToolchains().join(', ')})`, (v: string, prev: string[] = []) => [...prev, v])
    .option('--force', 'rebuild even when an image for this content hash exists')
    .option('--push <registry>', 'also push it to this registry (host:port), e.g. for the swarm backend')
    .option('--json', 'print {"image": tag} on stdout (with --push, {"image", "pushed"}; with --toolchain, "toolchains": {name: tag})')
    .action(async (o: { toolchain?: string[]; force?: boolean; push?: string; json?: boolean }) => {
      const known = listToolchains();
      // Repeated flags add up (`--toolchain cpp --toolchain java`), as a comma-separated list does.
      const asked = (o.toolchain ?? []).flatMap((v) => v.split(',')).map((n) => n.trim()).filter(Boolean);
      const names = asked.includes('all') ? known : [...new Set(asked)];
      const unknown = names.filter((n) => !known.includes(n));
      if (unknown.length) throw new UsageError(`no toolchain ${unknown.map((n) => `'${n}'`).join(', ')} (toolchains: ${known.join(', ')})`);
      const { image: tag, pushed, toolchains } = await buildImageSet({
        toolchains: names.map((name) => ({ name, dockerfile: join(TOOLCHAINS_DIR, name, 'Dockerfile') })), force: o.force, push: o.push, progress,
      });
      if (o.json) printJson({ image: tag, ...(pushed ? { pushed } : {}), ...(names.length ? { toolchains } : {}) });
      else for (const line of [pushed ?? tag, ...Object.values(toolchains)]) console.log(line);
    });
}
