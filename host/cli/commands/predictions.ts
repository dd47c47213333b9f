// pwp predictions <run folders...>: the predictions file SWE-bench's own evaluation harness
// takes (JSON Lines of instance_id, model_name_or_path, model_patch), from the agent.diff of
// each run over converted SWE-bench tasks (host/converters/sweBenchPredictions.ts).
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { collectPredictions, predictionsJsonl } from '../../converters/sweBenchPredictions';
import { parseIntArg } from '../output';

export function register(program: Command): void {
  program.command('predictions')
    .description('export SWE-bench predictions (JSONL: instance_id, model_name_or_path, model_patch) from runs\' agent.diff, for the official harness')
    .argument('<runs...>', 'bench folders, or folders of run folders (those with result.json)')
    .option('--tasks <selectors...>', 'the suites or task folders the runs were made from (default: the runs\' suites under tasks/)')
    .option('--agent <name>', 'only this agent\'s runs (when the folders hold several, e.g. a bench with --baselines)')
    .option('--attempt <n>', 'which attempt of each task', '1')
    .option('--model-name <name>', 'model_name_or_path (default: the run\'s model, else its agent)')
    .option('--out <file>', 'write the JSONL here (default: stdout)')
    .action((runs: string[], o: { tasks?: string[]; agent?: string; attempt: string; modelName?: string; out?: string }) => {
      const { predictions, notes } = collectPredictions(runs.map((r) => resolve(r)), {
        tasks: o.tasks, agent: o.agent, attempt: parseIntArg('--attempt', o.attempt), modelName: o.modelName,
      });
      for (const n of notes) console.error(`note: ${n}`);
      const text = predictionsJsonl(predictions);
      if (!o.out) { process.stdout.write(text); return; }
      writeFileSync(resolve(o.out), text);
      console.error(`${predictions.length} predictions written to ${resolve(o.out)}`);
    });
}
