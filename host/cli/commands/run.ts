// pwp run <task> --agent oracle|null|replay|cua|cua-filebash|assisted|ide-agent|bash-only [--model <id>]:
// one recorded run of one task, graded.
import type { Command } from 'commander';
import { AGENT_NAMES, makeAgent } from '../../agents/agentRegistry';
import { COMMAND_AGENT_NAME } from '../../agents/commandAgent';
import { addAgentOptions, agentConfigOf, describeAgentStats, type AgentCliOptions } from '../agentOptions';
import { resolveTasks, taskName } from '../../taskEnv/loadTask';
import { unguardedOf } from '../../evaluation/evaluationResult';
import { runTask } from '../../runs/runTask';
import { deployment, removeContainersOnInterrupt } from '../context';
import { formatTimings, printJson, progress, UsageError, withoutToken } from '../output';

export function register(program: Command): void {
  const cmd = program.command('run')
    .description('run an agent on one task in a fresh environment and grade it in a verifier container')
    .argument('<task>', 'a task: <suite>/<id>, or a path to its folder or task.json')
    .option('--agent <name>', AGENT_NAMES.join(', '), 'oracle')
    .option('--trajectory <file>', 'for --agent replay: the trajectory.jsonl to replay')
    .option('--agent-cmd <command>', 'an outside agent: this command drives the episode through the Env server (PWP_SERVER_URL, PWP_TOKEN, PWP_EPISODE_ID); the run grades it when it exits')
    .option('--out <dir>', 'the run folder (default .pwp/runs/<time>/<suite>/<id>/<agent>-1)')
    .option('--image <tag>', 'the IDE image: for tasks that use the default one, and what task images build on (default: built from this tree)')
    .option('--no-video', 'do not record a video')
    .option('--keep', 'leave the environment running afterwards')
    .option('--view', 'serve the live view: a person can watch, take over, and answer the agent\'s ask_person')
    .option('--json', 'print the result as one JSON object');
  addAgentOptions(cmd)
    .action(async (sel: string, o: {
      agent: string; agentCmd?: string; trajectory?: string; image?: string; out?: string; video: boolean; keep?: boolean; view?: boolean; json?: boolean;
    } & AgentCliOptions) => {
      // On SIGINT/SIGTERM the run stops its agent and writes result.json (status interrupted)
      // before its environment is removed.
      let running: Promise<unknown> = Promise.resolve();
      const interrupt = o.keep ? undefined : removeContainersOnInterrupt({ settle: () => running });
      const tasks = resolveTasks([sel]);
      if (tasks.length !== 1) throw new UsageError(`'${sel}' names ${tasks.length} tasks; run one (or use pwp bench)`);
      const task = tasks[0];
      let agent;
      try {
        agent = makeAgent(o.agentCmd !== undefined ? COMMAND_AGENT_NAME : o.agent, { trajectory: o.trajectory, command: o.agentCmd, ...agentConfigOf(o, progress) });
      } catch (err) { throw err instanceof UsageError ? err : new UsageError((err as Error).message); }
      const run = runTask(task, {
        agent, runDir: o.out, defaultImage: o.image, video: o.video, keep: o.keep, view: o.view, deployment: deployment(), progress, interrupt,
        onEnvironment: (e) => progress(`environment ${e.id}: ${e.viewUrl ? `watch and take part live at ${e.viewUrl}` : `watch the IDE at ${withoutToken(e.ideUrl)} (the link: pwp url ${e.id}; --view to watch and take part)`}`),
      });
      running = run.catch(() => undefined);
      const r = await run;
      if (o.json) { printJson(r); return; }
      console.log(`${taskName(task)} with the ${r.agent} agent: score ${r.score.toFixed(2)} (${r.passed ? 'solved' : 'not solved'}), ${r.steps} steps, ${r.status}${r.error ? `: ${r.error}` : ''}`);
      if (r.evaluation) console.log(`  ${r.evaluation.summary}`);
      const unguarded = r.evaluation && unguardedOf(r.evaluation);
      if (unguarded) console.log(`  unguarded grading: ${unguarded} (benches leave this task out of their figures unless --include-flagged)`);
      if (r.rewardAsked) console.log(`  the agent asked for its grade ${r.rewardAsked} time(s) before the end (${task.grading.intermediateRewards ? 'given the score alone' : 'refused'}; each in the trajectory)`);
      if (r.answer !== undefined) console.log(`  answer: ${JSON.stringify(r.answer)}`);
      if (r.agentStats) for (const line of describeAgentStats(r.agentStats)) console.log(line);
      console.log(`  run folder:  ${r.runDir}`);
      if (r.trajectory) console.log(`  trajectory:  ${r.trajectory} (${r.screenshots} screenshots beside it, in episode-1/)`);
      if (r.video) console.log(`  video:       ${r.video}`);
      console.log(`  timings:     ${formatTimings(r.timings)}`);
      if (r.status === 'error' || r.status === 'interrupted') process.exitCode = 1;
    });
}
