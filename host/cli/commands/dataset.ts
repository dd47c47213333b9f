// pwp dataset <kind> <input> --out <tasks folder>: a local copy of a public benchmark as pwp
// task folders (the copy is only read).
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { convertDataset, DATASET_INPUT, DATASET_KINDS, type DatasetKind, type DatasetOptions } from '../../converters/datasets';
import { taskName } from '../../taskEnv/loadTask';
import { parseIntArg, printJson, UsageError } from '../output';

export function register(program: Command): void {
  program.command('dataset')
    .description(`turn a local copy of a benchmark into pwp tasks: ${DATASET_KINDS.join(', ')}`)
    .argument('<kind>', DATASET_KINDS.map((k) => `${k}: ${DATASET_INPUT[k]}`).join('; '))
    .argument('<input>', 'the dataset file or folder')
    .requiredOption('--out <dir>', 'tasks root to write <suite>/<id>/ folders into (run them with pwp bench <dir>/<suite>)')
    .option('--suite <name>', 'suite name (default: the kind; idebench: the repository folder\'s name)')
    .option('--limit <n>', 'convert only the first n')
    .option('--image <tag>', 'image the tasks run in (for repositories that need more than the IDE image)')
    .option('--repos <dir>', 'swe-bench, swe-bench-mm, swe-bench-multilingual, swt-bench, res-q: folder of local clones (<owner>__<name>, <owner>/<name> or <name>) or git bundles (<owner>__<name>.bundle)')
    .option('--images <dir>', 'swe-bench-mm: folder of the issues\' screenshots, each under its URL\'s file name (default: images/ beside the input)')
    .option('--instance-setup <file>', 'swe-bench, swe-bench-mm: JSON of Debian packages per instance_id, repo or repo@version ({"owner/name": {"debs": ["python3-numpy"]}}): those instances get an image/Dockerfile that installs them')
    .option('--test-command <argv>', 'swe-bench, swe-bench-mm, swe-bench-multilingual: the test command for every instance (a JSON list, e.g. ["python3","-m","pytest","-rA"]; the test files are appended) instead of the repository\'s (multilingual: its output is read as the language\'s log)')
    .option('--databases <dir>', 'bird: folder of <db_id>/<db_id>.sqlite')
    .option('--instruction <kind>', 'canitedit: descriptive (default) or lazy')
    .option('--threshold <x>', 'design2code/chartmimic: low-level score (mean of the published components) that counts as solved; dsbench: the relative performance gap a modelling task must reach (default 1, gold level) (0-1)')
    .option('--json', 'print the tasks written as JSON')
    .action(async (kind: string, input: string, o: {
      out: string; suite?: string; limit?: string; image?: string; repos?: string; databases?: string; images?: string; threshold?: string;
      instruction?: string; instanceSetup?: string; testCommand?: string; json?: boolean;
    }) => {
      if (!(DATASET_KINDS as readonly string[]).includes(kind)) throw new UsageError(`unknown dataset kind '${kind}' (kinds: ${DATASET_KINDS.join(', ')})`);
      const threshold = o.threshold !== undefined ? Number(o.threshold) : undefined;
      if (threshold !== undefined && !(threshold >= 0 && threshold <= 1)) throw new UsageError('--threshold must be between 0 and 1');
      let testCommand: string[] | undefined;
      if (o.testCommand !== undefined) {
        try { testCommand = JSON.parse(o.testCommand) as string[]; } catch { testCommand = undefined; }
        if (!Array.isArray(testCommand) || !testCommand.length || testCommand.some((a) => typeof a !== 'string')) throw new UsageError('--test-command must be a JSON list of strings');
      }
      const tasks = await convertDataset(kind as DatasetKind, resolve(input), {
        outRoot: resolve(o.out), suite: o.suite, limit: o.limit ? parseIntArg('--limit', o.limit) : undefined, image: o.image,
        repos: o.repos && resolve(o.repos), databases: o.databases && resolve(o.databases), images: o.images && resolve(o.images), threshold,
        onNote: (line) => console.error(`note: ${line}`),
        instruction: o.instruction as DatasetOptions['instruction'],
        instanceSetup: o.instanceSetup && resolve(o.instanceSetup), testCommand,
      });
      if (o.json) { printJson(tasks.map((t) => ({ task: taskName(t), dir: t.dir }))); return; }
      console.log(`${tasks.length} tasks written under ${resolve(o.out)}`);
      for (const t of tasks.slice(0, 20)) console.log(`  ${taskName(t)}  ${t.dir}`);
      if (tasks.length > 20) console.log(`  … and ${tasks.length - 20} more`);
      if (tasks.length) console.log(`run them: pwp bench ${resolve(o.out, tasks[0].suite)} --agent oracle --baselines`);
    });
}
