// The replay agent: performs a recorded trajectory (trajectory.jsonl as RecordTrajectory writes
// it for `pwp run`, `pwp bench`, `pwp mcp`, the Env API and live sessions) again, through the
// one replayer (host/trajectory/replay.ts), on the Env the run hands it.
import type { EnvLike } from '../env/env';
import { episodeOf, replayRecords } from '../trajectory/replay';
import { readTrajectory } from '../trajectory/trajectoryFile';
import type { Agent, AgentOutcome } from './agent';

export class ReplayAgent implements Agent {
  readonly name = 'replay';
  constructor(readonly file: string) {
    // Read now, so a missing or broken file is an error before any environment starts.
    episodeOf(readTrajectory(file));
  }

  async run(env: EnvLike, _task: unknown, signal: AbortSignal): Promise<AgentOutcome> {
    const { reset, records } = episodeOf(readTrajectory(this.file));
    await replayRecords(records, env, { signal }, reset);
    return { status: 'finished' };
  }
}
