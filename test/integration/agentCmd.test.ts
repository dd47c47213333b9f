// Outside agents (`--agent-cmd`): pwp run and pwp bench hand a command the run's episode
// through an Env server (PWP_SERVER_URL, PWP_TOKEN, PWP_EPISODE_ID), wait for it within the
// task's time limit, and grade and record as for a built-in agent. The commands are the
// examples/ agents in Python (Debian's /usr/bin/python3 or PWP_PYTHON).
import assert from 'node:assert/strict';
import { execFile, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { testImage } from './environmentFixture';
import { openaiReply, ScriptedModelServer } from '../support/scriptedModelServer';

const run = promisify(execFile);
const root = join(__dirname, '../..');
const PYTHON = process.env.PWP_PYTHON ?? (existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3');
const pwp = (args: string[], env: NodeJS.ProcessEnv = process.env) => run(join(root, 'bin/pwp'), args, { env, cwd: root, maxBuffer: 64 * 1024 * 1024 });

/** A copy of a bundled task with another time limit (seconds). */
function taskWithLimit(seconds: number): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'pwp-agentcmd-task-')), 'vscode-config', 'rebind-shortcut');
  cpSync(join(root, 'tasks/vscode-config/rebind-shortcut'), dir, { recursive: true });
  const task = JSON.parse(readFileSync(join(dir, 'task.json'), 'utf8'));
  writeFileSync(join(dir, 'task.json'), JSON.stringify({ ...task, limits: { ...task.limits, seconds } }, null, 1));
  return dir;
}

interface Result { score: number; status: string; agent: string; steps: number; error?: string; trajectory: string; runDir: string; rewardAsked?: number }

describe('outside agents: pwp run and pwp bench --agent-cmd (real containers)', function () {
  this.timeout(900_000);
  before(async () => { await testImage(); });

  it('pwp run --agent-cmd runs the scripted Python agent on the episode, grades it 1 and records its steps', async () => {
    const out = mkdtempSync(join(tmpdir(), 'pwp-agentcmd-run-'));
    const { stdout } = await pwp(['run', 'vscode-config/rebind-shortcut', '--agent-cmd', `${PYTHON} examples/scripted_agent.py`, '--out', out, '--no-video', '--json']);
    const r = JSON.parse(stdout) as Result;
    assert.equal(r.agent, 'cmd');
    assert.equal(r.status, 'finished', r.error);
    assert.equal(r.score, 1);
    assert.deepEqual(JSON.parse(readFileSync(join(out, 'result.json'), 'utf8')).score, 1);
    const records = readFileSync(r.trajectory, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { type: string; action?: { type: string; command?: string } });
    const steps = records.filter((x) => x.type === 'step');
    assert.ok(steps.some((s) => s.action?.type === 'xdotool' && /&&/.test(s.action.command ?? '')), 'the PwP string the agent sent is in the trajectory');
    assert.equal(steps.at(-1)?.action?.type, 'done');
    assert.equal(records.at(-1)?.type, 'end');
  });

  it('an outside agent cannot get its grade mid-episode: env.reward is refused, recorded as the agent\'s (a rewardAsked record) and counted in the result', async () => {
    const agent = join(mkdtempSync(join(tmpdir(), 'pwp-agentcmd-peek-')), 'peek.py');
    writeFileSync(agent, [
      'import sys', `sys.path.insert(0, ${JSON.stringify(join(root, 'python'))})`, 'import pwp',
      'env = pwp.attach()',
      'try:', '    env.reward()', "    print('GRADED')", 'except pwp.PwpError as err:', "    print('REFUSED', type(err).__name__, err)",
      "env.step({'type': 'done'})", '',
    ].join('\n'));
    const out = mkdtempSync(join(tmpdir(), 'pwp-agentcmd-peek-run-'));
    const { stdout, stderr } = await pwp(['run', 'vscode-config/rebind-shortcut', '--agent-cmd', `${PYTHON} ${agent}`, '--out', out, '--no-video', '--json']);
    const r = JSON.parse(stdout) as Result;
    assert.equal(r.score, 0);
    assert.match(stderr, /REFUSED NotAvailableError .*run for scoring/, stderr);
    assert.doesNotMatch(stderr, /GRADED/);
    const asked = readFileSync(r.trajectory, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { type: string }).filter((x) => x.type === 'rewardAsked');
    const seen = asked.map(({ type, actor, step, outcome }: Record<string, unknown>) => ({ type, actor, step, outcome }));
    assert.deepEqual(seen, [{ type: 'rewardAsked', actor: 'agent', step: 0, outcome: 'refused' }]);
    assert.equal(r.rewardAsked, 1);
  });

  it("a command that outlives the task's time limit is stopped, and the run is graded as truncated", async () => {
    const task = taskWithLimit(20);
    const out = mkdtempSync(join(tmpdir(), 'pwp-agentcmd-slow-'));
    const { stdout } = await pwp(['run', task, '--agent-cmd', `${PYTHON} -c "import time; time.sleep(600)"`, '--out', out, '--no-video', '--json']);
    const r = JSON.parse(stdout) as Result;
    assert.equal(r.status, 'truncated');
    assert.match(r.error ?? '', /time limit of 20 s/);
    assert.equal(r.score, 0);
  });

  it('--time-cap holds an outside agent as it holds a model agent, and its output is relayed in whole lines', async () => {
    const task = taskWithLimit(900);
    const out = mkdtempSync(join(tmpdir(), 'pwp-agentcmd-cap-'));
    // Half a line, a pause, then the rest: two pipe chunks that make one line.
    const agent = 'import sys, time\nsys.stdout.write("half a "); sys.stdout.flush(); time.sleep(0.5)\nsys.stdout.write("line\\n"); sys.stdout.flush(); time.sleep(600)\n';
    const file = join(out, 'hang.py');
    writeFileSync(file, agent);
    const { stdout, stderr } = await pwp(['run', task, '--agent-cmd', `${PYTHON} ${file}`, '--time-cap', '8', '--out', join(out, 'run'), '--no-video', '--json']);
    const r = JSON.parse(stdout) as Result;
    assert.equal(r.status, 'truncated');
    assert.match(r.error ?? '', /time cap \(--time-cap 8 s\)/);
    assert.match(stderr, /\[agent\] half a line\n/);
    assert.doesNotMatch(stderr, /\[agent\] half a \n/);
  });

  it('SIGTERM during the agent\'s turn writes result.json (status interrupted, the steps taken) and removes the environment', async () => {
    const out = mkdtempSync(join(tmpdir(), 'pwp-agentcmd-sigterm-'));
    const file = join(out, 'one-step-then-hang.py');
    writeFileSync(file, [
      'import sys, time', `sys.path.insert(0, ${JSON.stringify(join(root, 'python'))})`, 'import pwp',
      'env = pwp.attach()', "env.step({'type': 'key', 'keys': 'Escape'})", "print('STEPPED', flush=True)", 'time.sleep(600)', '',
    ].join('\n'));
    const runDir = join(out, 'run');
    const child = spawn(join(root, 'bin/pwp'), ['run', 'vscode-config/rebind-shortcut', '--agent-cmd', `${PYTHON} ${file}`, '--out', runDir, '--no-video'], { cwd: root });
    let stderr = '';
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => { stdout += d.toString(); });
    const exited = new Promise<number | null>((ok) => child.once('exit', (code) => ok(code)));
    await new Promise<void>((ok, fail) => {
      child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); if (/\[agent\] STEPPED/.test(stderr)) ok(); });
      void exited.then(() => fail(new Error(`pwp run ended before the agent stepped:\n${stderr}\n${stdout}`)));
    });
    child.kill('SIGTERM');
    assert.equal(await exited, 143, stderr);
    const r = JSON.parse(readFileSync(join(runDir, 'result.json'), 'utf8')) as Result;
    assert.equal(r.status, 'interrupted');
    assert.match(r.error ?? '', /SIGTERM/);
    assert.equal(r.steps, 1);
    const records = readFileSync(r.trajectory, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { type: string; status?: string });
    assert.deepEqual(records.at(-1), { ...records.at(-1), type: 'end', status: 'interrupted' });
    const left = spawnSync('docker', ['ps', '-aq', '--filter', `label=pwp.run=${runDir}`], { encoding: 'utf8' });
    assert.equal(left.stdout.trim(), '', 'the run\'s environment is removed');
  });

  it('pwp bench --agent-cmd runs attempts in parallel, grades each, and a re-run resumes instead of repeating', async () => {
    const task = taskWithLimit(300);
    const out = mkdtempSync(join(tmpdir(), 'pwp-agentcmd-bench-'));
    const args = ['bench', task, '--agent-cmd', `${PYTHON} examples/scripted_agent.py`, '--attempts', '2', '--parallel', '2', '--out', out, '--no-video', '--json'];
    const first = JSON.parse((await pwp(args)).stdout) as { ran: number; skipped: number };
    assert.deepEqual([first.ran, first.skipped], [2, 0]);
    const lines = readFileSync(join(out, 'results.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Result);
    assert.deepEqual(lines.map((l) => [l.agent, l.score, l.status]), [['cmd', 1, 'finished'], ['cmd', 1, 'finished']]);
    const again = JSON.parse((await pwp(args)).stdout) as { ran: number; skipped: number };
    assert.deepEqual([again.ran, again.skipped], [0, 2]);
  });

  it('the openai model agent example drives an episode through a model server (skipped where the openai Python package is missing)', async function () {
    if (spawnSync(PYTHON, ['-c', 'import openai']).status !== 0) {
      this.test!.title += ` (skipped: the openai Python package is not installed for ${PYTHON})`;
      this.skip();
    }
    // The scripted model first sends an action that does not fit the action space, then done.
    const server = await ScriptedModelServer.start((req, turn) => (turn === 0
      ? openaiReply({ calls: [{ name: 'act', args: { type: 'click', x: -4 } }] })
      : openaiReply({ calls: [{ name: 'act', args: { type: 'done' } }] })));
    try {
      const env = { ...process.env, OPENAI_BASE_URL: server.openaiBaseURL, OPENAI_API_KEY: `sk-pwp-test-${randomBytes(8).toString('hex')}`, PWP_MODEL: 'scripted-model' };
      const out = mkdtempSync(join(tmpdir(), 'pwp-agentcmd-openai-'));
      const { stdout } = await pwp(['run', 'vscode-config/rebind-shortcut', '--agent-cmd', `${PYTHON} examples/openai_agent.py`, '--out', out, '--no-video', '--json'], env);
      const r = JSON.parse(stdout) as Result;
      assert.equal(r.status, 'finished', r.error);
      assert.equal(r.score, 0);
      assert.equal(server.requests.length, 2);
      const first = server.requests[0].body as {
        tools: { function: { name: string; parameters: { properties: { type: { enum: string[] } } } } }[];
        messages: { content: unknown }[];
      };
      assert.ok(first.tools[0].function.parameters.properties.type.enum.includes('click'), 'the tool is the action space');
      assert.match(JSON.stringify(first.messages), /Duplicate Selection/);
      const second = JSON.stringify(server.requests[1].body);
      assert.match(second, /InvalidParamsError/, 'the refused action went back to the model');
    } finally {
      await server.close();
    }
  });
});
