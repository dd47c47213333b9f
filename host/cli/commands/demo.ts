// The README's main job: a real task run. It starts an environment for a bundled
// vscode-config task, lets the oracle agent perform it through keyboard and mouse only,
// grades the result in a separate verifier container, and says where the trajectory,
// screenshots and video are (and, while it runs, where to watch it live).
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { OracleAgent } from '../../agents/oracleAgent';
import { paths } from '../../common/paths';
import { resolveTasks, taskName } from '../../taskEnv/loadTask';
import { runTask } from '../../runs/runTask';
import { readTrajectory } from '../../trajectory/trajectoryFile';
import { deployment, removeContainersOnInterrupt } from '../context';
import { formatTimings, progress, UsageError, withoutToken } from '../output';

export const DEMO_TASK = 'vscode-config/rebind-shortcut';

/** One line per action in the run's trajectory, as a person would describe it. */
function describeActions(trajectory: string): string[] {
  const { records } = readTrajectory(trajectory);
  const t0 = records.find((r) => r.type === 'reset')?.t ?? records[0]?.t ?? 0;
  return records.flatMap((r) => {
    if (r.type !== 'step' || r.action.type === 'done' || r.action.type === 'wait') return [];
    const a = r.action;
    const at = r.info.at as { x: number; y: number } | undefined;
    const what = a.type === 'key' ? `press ${a.keys}`
      : a.type === 'type' ? `type ${JSON.stringify(a.text)}`
        : a.type === 'click' ? `click ${a.mark !== undefined ? `mark ${a.mark} ` : ''}at (${at?.x ?? a.x}, ${at?.y ?? a.y})`
          : a.type;
    return [`  ${((r.t - t0) / 1000).toFixed(1).padStart(5)} s  ${what}`];
  });
}

export function register(program: Command): void {
  program.command('demo')
    .description('run a bundled IDE-configuration task with the oracle acting through keyboard and mouse only, and grade it')
    .option('--task <task>', 'a task whose oracle is keyboard-and-mouse only', DEMO_TASK)
    .option('--out <dir>', 'the run folder (trajectory, screenshots, video)')
    .option('--keep', 'leave the environment running afterwards (pwp down ID removes it)')
    .option('--no-wait', 'on a terminal, remove the environment at once instead of waiting for Enter')
    .action(async (o: { task: string; out?: string; keep?: boolean; wait: boolean }) => {
      // On a terminal the environment stays up until Enter, so the person who ran the demo can
      // open the live view after the run (it would be gone by the time they clicked it).
      const waitForEnter = !o.keep && o.wait && process.stdin.isTTY === true && process.stdout.isTTY === true;
      if (!o.keep) removeContainersOnInterrupt();
      const [task] = resolveTasks([o.task]);
      if (!task.oracle.inputOnly) throw new UsageError(`${taskName(task)}'s oracle does not act through keyboard and mouse only; pick a task with "inputOnly": true`);
      const image = await deployment().ensureImage({ progress });
      const runDir = resolve(o.out ?? join(paths.state, 'demo', new Date().toISOString().replace(/[:.]/g, '-')));
      console.log(`task ${taskName(task)}: ${task.instruction}`);
      let where: { id: string; viewUrl: string | null } | undefined;
      const r = await runTask(task, {
        agent: new OracleAgent(), runDir, defaultImage: image, deployment: deployment(), keep: o.keep || waitForEnter, view: true, progress,
        onEnvironment: (e) => {
          where = e;
          // The live view's link carries the environment's token: watching is what the demo is for.
          console.log(`environment ${e.id} ready; watch it live at ${e.viewUrl ?? withoutToken(e.ideUrl)}${e.viewUrl ? `\n  (the IDE itself: pwp url ${e.id})` : ''}`);
        },
      });
      if (r.trajectory) {
        const actions = describeActions(r.trajectory);
        console.log(`\nthe oracle acted through keyboard and mouse only (${actions.length} action${actions.length === 1 ? '' : 's'}):`);
        console.log(actions.join('\n'));
      }
      console.log(`\nreward: ${r.score.toFixed(2)}  (${r.passed ? 'solved' : 'not solved'}; graded outside the agent's environment)`);
      if (r.evaluation) console.log(`  ${r.evaluation.summary}`);
      if (r.error) console.log(`  ${r.status}: ${r.error}`);
      console.log(`\ntrajectory:  ${r.trajectory ?? '(none)'}`);
      console.log(`screenshots: ${join(runDir, 'episode-1')}/ (${r.screenshots}, one after each step)`);
      console.log(`video:       ${r.video ?? '(none recorded)'}`);
      console.log(`result:      ${join(runDir, 'result.json')}`);
      console.log(`timings:     ${formatTimings(r.timings)}`);
      if (!r.passed || r.status === 'error') process.exitCode = 1;
      if (where && o.keep) console.log(`\nthe environment is still running: ${where.viewUrl ?? `pwp url ${where.id}`}  (pwp down ${where.id} removes it)`);
      if (where && waitForEnter) {
        console.log(`\nthe environment stays open for you to look at${where.viewUrl ? `: ${where.viewUrl}` : ` (pwp url ${where.id})`}`);
        process.stdout.write('press Enter to remove it (Ctrl-C does too) ');
        await new Promise<void>((done) => process.stdin.once('data', () => done()));
        process.stdin.pause();
        await deployment().remove(where.id);
        console.log(`removed ${where.id}`);
      }
    });
}
