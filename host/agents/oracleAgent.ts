// The oracle agent: performs the task's reference solution (task.json `oracle.steps`) in the
// environment, through the same Env actions any agent has, and says done with its answer.
import type { EnvLike } from '../env/env';
import { scriptedStep } from '../taskEnv/scriptedStep';
import { runSteps } from '../taskEnv/steps';
import type { Task } from '../taskEnv/loadTask';
import type { Agent, AgentOutcome } from './agent';

export class OracleAgent implements Agent {
  readonly name = 'oracle';
  async run(env: EnvLike, task: Task, signal: AbortSignal): Promise<AgentOutcome> {
    const { answer } = await runSteps(task.oracle.steps, env, task.dir, signal);
    await scriptedStep(env, { type: 'done', ...(answer !== undefined ? { answer } : {}) });
    return { status: 'finished' };
  }
}
