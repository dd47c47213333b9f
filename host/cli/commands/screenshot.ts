import { writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { screenshot } from '../../env/observation';
import { withEnvironment } from '../context';
import { parseIntArg, printJson } from '../output';

export function register(program: Command): void {
  program.command('screenshot')
    .description('save the screen of an environment to a file')
    .argument('<id>', 'environment id')
    .requiredOption('-o, --output <file>', 'where to write the image (.png or .jpg)')
    .option('--quality <1-100>', 'JPEG quality', '80')
    .option('--json', 'print {file, width, height} on stdout')
    .action(async (id: string, o: { output: string; quality: string; json?: boolean }) => {
      const format = /\.jpe?g$/i.test(o.output) ? 'jpeg' : 'png';
      const shot = await withEnvironment(id, (c) => screenshot(c, { format, quality: parseIntArg('--quality', o.quality) }));
      writeFileSync(o.output, shot.data);
      if (o.json) printJson({ file: o.output, width: shot.width, height: shot.height });
      else console.log(`${o.output} (${shot.width}x${shot.height} ${format})`);
    });
}
