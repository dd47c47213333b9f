// One action of a scripted step (set-up, an oracle), through the same Env.step as any agent's.
import type { Action } from '../env/actions';
import { EpisodeOverError, type EnvLike, type StepInfo } from '../env/env';

/**
 * Steps an action; a refused or failed action is an error here, as is the end of the episode
 * (a scripted step cannot go on without the one before it).
 */
export async function scriptedStep(env: EnvLike, action: Action): Promise<StepInfo> {
  const r = await env.step(action);
  if (r.info.error) throw new Error(`${action.type}: ${r.info.error.name}: ${r.info.error.message}`);
  if (r.truncated) throw new EpisodeOverError(`truncated by the ${r.info.truncatedBy ?? 'a limit'}`);
  return r.info;
}
