// The README's main job (`npm start` ends in `pwp demo`): a bundled vscode-config task run by
// the oracle through keyboard and mouse only, graded in a verifier; it prints the reward, the
// live-view URL and where the trajectory, screenshots and video are, and those exist.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { testImage } from './environmentFixture';

const root = join(__dirname, '../..');

describe('pwp demo (the main job of the README)', function () {
  this.timeout(10 * 60_000);
  const out = mkdtempSync(join(tmpdir(), 'pwp-demo-'));
  after(() => rmSync(out, { recursive: true, force: true }));

  it('runs the bundled task with keyboard and mouse only, prints reward 1.00 and where to watch, and writes the run record', async () => {
    await testImage();
    const { stdout, stderr } = await promisify(execFile)(join(root, 'bin/pwp'), ['demo', '--out', out], { cwd: root, maxBuffer: 16 * 1024 * 1024 });
    const all = `${stderr}\n${stdout}`;
    assert.match(all, /watch it live at http:\/\/[\d.]+:\d+\/view\/\?token=/, all);
    assert.match(stdout, /^reward: 1\.00 /m, all);
    // Only input actions: the listing names keys, typing and clicks, nothing else.
    const actions = stdout.split('\n').filter((l) => /^\s+\d+\.\d s {2}/.test(l)).map((l) => l.trim().split(/\s+/)[2]);
    assert.ok(actions.length >= 3, all);
    assert.deepEqual([...new Set(actions)].filter((a) => !['press', 'type', 'click', 'double-click', 'scroll', 'drag', 'move'].includes(a)), [], all);
    for (const [label, name] of [['trajectory:', 'trajectory.jsonl'], ['video:', 'video.mp4'], ['result:', 'result.json']] as const) {
      assert.match(stdout, new RegExp(`^${label}\\s+.*${name.replace('.', '\\.')}$`, 'm'), all);
      assert.ok(existsSync(join(out, name)) && statSync(join(out, name)).size > 0, `${name} in the run folder`);
    }
    assert.ok(readdirSync(join(out, 'episode-1')).filter((f) => /^step-\d+\.jpg$/.test(f)).length >= actions.length, 'a screenshot per action');
    const result = JSON.parse(readFileSync(join(out, 'result.json'), 'utf8')) as { score: number; passed: boolean; agent: string };
    assert.deepEqual([result.score, result.passed, result.agent], [1, true, 'oracle']);
  });
});
