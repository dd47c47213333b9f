// Trajectories in real containers: every step is on disk as it happens (with screenshots and
// the initial workspace), and a replay in a fresh environment ends with the same files.
import { strict as assert } from 'node:assert';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Env } from '../../host/env/env';
import { RecordTrajectory } from '../../host/trajectory/recordTrajectory';
import { replayTrajectory } from '../../host/trajectory/replay';
import { readTrajectory } from '../../host/trajectory/trajectoryFile';
import { makeWorkspace, testImage, testPool } from './environmentFixture';
import { eventually } from './ideDriving';

describe('trajectories: recorded as they happen, replayed to the same result', function () {
  this.timeout(10 * 60_000);
  let image: string;
  before(async function () { this.timeout(30 * 60_000); image = await testImage(); });

  it('records each step to disk at once and replays it in a fresh environment to the same final file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pwp-traj-it-'));
    const workspace = makeWorkspace({ 'main.py': 'print("start")\n', 'README.md': '# demo\n' });
    const env = new RecordTrajectory(new Env({ image, pool: await testPool(), labels: { 'pwp.test': '1' }, observe: ['screenshot', 'ide'] }), dir);
    let recorded: string;
    try {
      await env.reset({ seed: 3, options: { workspaceDir: workspace, open: [{ file: 'main.py', line: 2, column: 1 }] } });
      await env.step({ type: 'type', text: 'def greet(name):\n    return f"hi {name}"\n' });
      await env.step({ type: 'key', keys: 'ctrl+s' });
      await env.step({ type: 'tool', name: 'no_such_tool_anywhere', args: {} });
      await env.step({ type: 'key', keys: 'ctrl+home' });
      await env.step({ type: 'type', text: '# edited by an agent\n' });
      await env.step({ type: 'key', keys: 'ctrl+s' });
      recorded = await eventually(async () => (await env.unwrapped.deployment.readFile(env.unwrapped.info.id, '/workspace/main.py')).toString(),
        (t) => t.startsWith('# edited by an agent\n'), 60_000, 'the second save');

      // Before the episode ends, everything so far is already on disk.
      const live = readTrajectory(dir);
      const steps = live.records.filter((r) => r.type === 'step');
      assert.equal(steps.length, 6);
      assert.equal(live.tornTail, null);
      for (const s of steps) {
        if (s.type !== 'step') continue;
        assert.ok(s.observation.screenshot && existsSync(join(dir, s.observation.screenshot)), `screenshot of step ${s.step}`);
        assert.ok(typeof s.info.durationMs === 'number' && s.info.settle, 'timings and the settle wait are recorded');
      }
      const tool = steps[2];
      assert.ok(tool.type === 'step' && tool.action.type === 'tool');
      assert.ok(tool.type === 'step' && (tool.info.error || tool.info.toolResult), 'the tool call\'s outcome is recorded');
      await env.step({ type: 'done', answer: 'greet added' });
    } finally {
      await env.close();
    }
    const t = readTrajectory(dir);
    assert.deepEqual(t.records.map((r) => r.type), ['header', 'reset', 'step', 'step', 'step', 'step', 'step', 'step', 'step', 'close']);
    const reset = t.records[1];
    assert.ok(reset.type === 'reset' && reset.seed === 3 && reset.options.workspaceDir === 'episode-1/workspace');

    // The original folder is gone: the replay uses the copy kept with the trajectory.
    rmSync(workspace, { recursive: true, force: true });
    const replayEnv = new Env({ image, pool: await testPool(), labels: { 'pwp.test': '1' }, observe: [] });
    try {
      const r = await replayTrajectory(dir, replayEnv);
      assert.equal(r.agentSteps, 7);
      assert.equal(r.terminated, true);
      assert.deepEqual(r.divergences, []);
      const replayed = (await replayEnv.deployment.readFile(replayEnv.info.id, '/workspace/main.py')).toString();
      assert.equal(replayed, recorded);
    } finally {
      await replayEnv.close();
    }
  });
});
