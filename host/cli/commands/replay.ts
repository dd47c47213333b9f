import type { Command } from 'commander';
import { Env, type EnvLike } from '../../env/env';
import { makeEnv } from '../../taskEnv/taskEnv';
import { resolveTasks } from '../../taskEnv/loadTask';
import { RecordTrajectory } from '../../trajectory/recordTrajectory';
import { replayTrajectory } from '../../trajectory/replay';
import { readTrajectory } from '../../trajectory/trajectoryFile';
import { deployment, removeContainersOnInterrupt } from '../context';
import { parseIntArg, printJson, progress } from '../output';

export function register(program: Command): void {
  program.command('replay')
    .description('re-execute a trajectory (agent actions and recorded human input) in a fresh environment; a task run\'s trajectory is replayed on its task and graded')
    .argument('<trajectory>', 'trajectory folder or its trajectory.jsonl')
    .option('--episode <n>', 'which episode (reset) to replay', '1')
    .option('--image <tag>', 'image to run (default: the recorded one, else built from this tree)')
    .option('--record <dir>', 'record the replay as a new trajectory')
    .option('--checkpoint <name>', 'save the final state as a checkpoint')
    .option('--keep', 'leave the environment running (prints its id)')
    .option('--view', 'serve the live view while replaying')
    .option('--json', 'print the result as JSON')
    .action(async (path: string, o: { episode: string; image?: string; record?: string; checkpoint?: string; keep?: boolean; view?: boolean; json?: boolean }) => {
      if (!o.keep) removeContainersOnInterrupt();
      const traj = readTrajectory(path);
      const recorded = traj.header?.meta.image;
      const image = o.image ?? (typeof recorded === 'string' ? recorded : await deployment().ensureImage({ progress }));
      // A task run's trajectory names its task: the replay starts from the task's set-up and is graded.
      const taskName = traj.header?.meta.task;
      const task = typeof taskName === 'string' ? resolveTasks([taskName])[0] : undefined;
      const taskEnv = task ? makeEnv(task, { deployment: deployment(), image, view: o.view, observe: [], limits: false, progress }) : undefined;
      const base: EnvLike = taskEnv ?? new Env({ deployment: deployment(), image, view: o.view, observe: [] });
      const env = o.record ? new RecordTrajectory(base, o.record, { meta: { replayOf: traj.dir, ...(task ? { task: taskName } : {}) } }) : base;
      try {
        progress(`replaying ${traj.dir} in a fresh environment from ${image}${task ? ` on ${String(taskName)}` : ''}`);
        const r = await replayTrajectory(path, env, {
          episode: parseIntArg('--episode', o.episode),
          onRecord: (rec, i, n) => { if (rec.type === 'step' && !o.json) progress(`  [${i + 1}/${n}] ${rec.action.type}`); },
        });
        // A task episode that did not end with done is graded as it stands (a task Env's reward is its grading).
        let evaluation = taskEnv?.episode.over === 'done' ? taskEnv.episode.evaluation ?? undefined : undefined;
        if (taskEnv && !evaluation) { await taskEnv.reward(); evaluation = taskEnv.episode.evaluation ?? undefined; }
        if (o.checkpoint) await env.checkpoint(o.checkpoint);
        const keep = !!o.keep;
        const id = keep ? await base.detach() : base.episode.environment?.id;
        const { last: _last, ...summary } = r;
        if (o.json) return printJson({ id, kept: keep, ...summary, ...(evaluation ? { reward: evaluation.score, evaluation } : {}) });
        console.log(`replayed ${r.agentSteps} agent step(s) and ${r.humanEvents} human input event(s) in ${(r.durationMs / 1000).toFixed(1)} s`);
        for (const d of r.divergences) console.log(`  differs at record ${d.seq}: recorded ${d.recorded ?? 'ok'}, replayed ${d.replayed ?? 'ok'}`);
        if (evaluation) console.log(`reward: ${evaluation.score.toFixed(2)}  (${evaluation.summary})`);
        if (keep) console.log(`environment ${id} left running (pwp down ${id})`);
      } finally {
        await env.close(); // a kept environment was detached: this only ends the recording
      }
    });
}
