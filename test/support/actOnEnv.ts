// Lets an agent act on an Env that is already reset, as `pwp run` does (host/runs/runTask's
// runAgent: the task's wall-clock limit, limits as outcomes), optionally recording the actions
// into a trajectory of their own that ends with an `end` record.
import type { Agent, AgentOutcome } from '../../host/agents/agent';
import type { EnvLike } from '../../host/env/env';
import type { Task } from '../../host/taskEnv/loadTask';
import { runAgent } from '../../host/runs/runTask';
import { RecordTrajectory } from '../../host/trajectory/recordTrajectory';

export interface ActResult { outcome: AgentOutcome; error?: string; steps: number }

export async function actOn(env: EnvLike, agent: Agent, task: Task, runDir?: string): Promise<ActResult> {
  const rec = runDir ? new RecordTrajectory(env, runDir, { humanPollMs: 0 }) : undefined;
  const before = env.unwrapped.stepCount;
  const { outcome, error } = await runAgent(agent, rec ?? env, task);
  const steps = env.unwrapped.stepCount - before;
  if (rec) {
    rec.annotate({ type: 'end', status: error ? 'error' : outcome.status, ...(error ? { reason: error } : {}), steps });
    await rec.flush();
    rec.writer.close();
  }
  return { outcome, error, steps };
}
