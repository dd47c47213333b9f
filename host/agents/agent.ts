// What an agent is: something that acts on an Env (host/env) until it is done. It acts only
// through the Env's actions (env.step) and looks through its observations and read-only
// queries (env.query); limits, recording and grading belong to the Env's wrappers
// and to the task Env, not to the agent.
import type { Action } from '../env/actions';
import { EpisodeOverError, LimitReachedError, stepError, type EnvLike, type StepInfo } from '../env/env';
import type { Task } from '../taskEnv/loadTask';
import type { AgentStats } from '../models/runStatistics';

export interface AgentOutcome {
  /** finished: the agent said it is done; truncated: a step or time limit ended it. */
  status: 'finished' | 'truncated';
  reason?: string;
  /** An error that ended the run early (the run is still graded). */
  error?: string;
  /** Model-driven agents: iterations, tool usage, tokens, stopping reason. */
  stats?: AgentStats;
}

export interface Agent {
  readonly name: string;
  /** Model-driven agents: the model, as provider:model. */
  readonly model?: string;
  run(env: EnvLike, task: Task, signal: AbortSignal): Promise<AgentOutcome>;
}

/** The agent is over its step or time limit: it must stop acting (defined with the Env, whose time limit aborts with it). */
export { LimitReachedError };

/**
 * Steps an action for an agent loop: a refused or failed action is thrown as its typed error
 * (the loop tells the model), the end of the episode as LimitReachedError (the loop stops).
 */
export async function stepAction(env: EnvLike, a: Action): Promise<StepInfo> {
  let r;
  try {
    r = await env.step(a);
  } catch (err) {
    if (err instanceof EpisodeOverError) throw new LimitReachedError(err.message);
    throw err;
  }
  const failed = stepError(r.info);
  if (failed) throw failed;
  if (r.truncated) throw new LimitReachedError(`${r.info.truncatedBy ?? 'a limit'} reached`);
  return r.info;
}
