// A bench result line for tests of the bench's bookkeeping: every field a run writes, with
// the given ones changed.
import type { ResultLine } from '../../host/runs/benchmarkResults';

export function resultLine(o: Partial<ResultLine>): ResultLine {
  return {
    task: 's/a', suite: 's', id: 'a', agent: 'null', attempt: 1, score: 0, passed: false, status: 'finished', steps: 0, image: 'i', runDir: '/x',
    screenshots: 0, timings: {}, startedAt: '', endedAt: '', ...o,
  };
}
