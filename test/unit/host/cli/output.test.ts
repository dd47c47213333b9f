import { strict as assert } from 'node:assert';
import { formatTimings, parseIntArg, parseSize, UsageError } from '../../../../host/cli/output';

describe('CLI output helpers', () => {
  it('prints a run\'s timings in seconds, in the order the run measured them', () => {
    assert.equal(formatTimings({ startMs: 8120, agentMs: 11960, gradeMs: 3300, totalMs: 23980 }), 'start 8.1 s, agent 12.0 s, grade 3.3 s, total 24.0 s');
    assert.equal(formatTimings({}), '');
  });

  it('parses a display size and a count, and names what was wrong otherwise', () => {
    assert.deepEqual(parseSize('1280x800'), { width: 1280, height: 800 });
    assert.throws(() => parseSize('1280*800'), (e: Error) => e instanceof UsageError && /1280x800, got '1280\*800'/.test(e.message));
    assert.equal(parseIntArg('--runs', '3'), 3);
    assert.throws(() => parseIntArg('--runs', '-1'), /--runs must be a non-negative integer, got '-1'/);
  });
});
