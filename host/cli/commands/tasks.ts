// pwp tasks [suites|tasks|paths...]: what tasks there are, and whether every task.json is
// valid. Each malformed one is reported with its file and fields (not only the first), so a
// task author can check a suite before running it.
import type { Command } from 'commander';
import { leaves } from '../../evaluation/evaluatorSchema';
import { loadTask, resolveTaskDirs, TaskError, taskName, type Task } from '../../taskEnv/loadTask';
import { printJson } from '../output';

interface Listed {
  task: string;
  suite: string;
  id: string;
  dir: string;
  /** Evaluator kinds (the leaves of an `all`). */
  evaluator: string[];
  tags: string[];
  hiddenFiles: boolean;
  oracleInputOnly: boolean;
  limits: Task['limits'];
  instruction: string;
}

function listed(t: Task): Listed {
  return {
    task: taskName(t), suite: t.suite, id: t.id, dir: t.dir, evaluator: [...new Set(leaves(t.evaluator).map((e) => e.kind))],
    tags: t.tags, hiddenFiles: !!t.hiddenDir, oracleInputOnly: t.oracle.inputOnly, limits: t.limits, instruction: t.instruction,
  };
}

const oneLine = (s: string, n: number) => { const t = s.replace(/\s+/g, ' ').trim(); return t.length > n ? `${t.slice(0, n - 1)}…` : t; };

export function register(program: Command): void {
  program.command('tasks')
    .description('list tasks (every bundled suite by default) and check that each task.json is valid')
    .argument('[tasks...]', 'suites (vscode-config), tasks (<suite>/<id>) or paths to task or suite folders')
    .option('--json', 'print the tasks and the problems as JSON')
    .action((sel: string[], o: { json?: boolean }) => {
      const dirs = resolveTaskDirs(sel);
      const tasks: Listed[] = [];
      const invalid: { file: string; problems: string[] }[] = [];
      for (const d of dirs) {
        try { tasks.push(listed(loadTask(d))); } catch (err) {
          if (!(err instanceof TaskError)) throw err;
          invalid.push({ file: err.file, problems: err.problems });
        }
      }
      if (invalid.length) process.exitCode = 1;
      if (o.json) { printJson({ tasks, invalid }); return; }
      const bySuite = new Map<string, Listed[]>();
      for (const t of tasks) bySuite.set(t.suite, [...(bySuite.get(t.suite) ?? []), t]);
      for (const [suite, ts] of bySuite) {
        console.log(`${suite} (${ts.length} task${ts.length === 1 ? '' : 's'})`);
        const w = Math.max(...ts.map((t) => t.id.length));
        const ew = Math.max(...ts.map((t) => t.evaluator.join('+').length));
        for (const t of ts) console.log(`  ${t.id.padEnd(w)}  ${t.evaluator.join('+').padEnd(ew)}  ${oneLine(t.instruction, 90)}`);
      }
      for (const bad of invalid) for (const p of bad.problems) console.error(`${bad.file}: ${p}`);
      const suites = bySuite.size;
      console.log(`${tasks.length} task${tasks.length === 1 ? '' : 's'} in ${suites} suite${suites === 1 ? '' : 's'}${invalid.length ? `; ${invalid.length} task.json file${invalid.length === 1 ? ' has' : 's have'} problems (above)` : ', all valid'}`);
    });
}
