// `pwp run` and `pwp bench` with a model agent, as a user runs them against a local
// OpenAI-compatible server: base URL and key from the environment, the result carrying the
// model and the agent's statistics, the bench's summary per agent and model.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { testImage } from './environmentFixture';
import { openaiReply, ScriptedModelServer, type Script } from '../support/scriptedModelServer';

const run = promisify(execFile);
const root = join(__dirname, '../..');
const expected = readFileSync(join(root, 'tasks/general-swe/swap-variables/hidden/expected/grid.py'), 'utf8');

/** An ide-agent that reads grid.py, writes the fixed version and is done: the turn follows from the tool results so far. */
const solve: Script = (req) => {
  const toolMessages = (req.body.messages as { role: string }[]).filter((m) => m.role === 'tool').length;
  if (toolMessages === 0) return openaiReply({ calls: [{ name: 'read_file', args: { target_file: 'grid.py' } }], usage: { in: 2000, out: 40 } });
  if (toolMessages === 1) return openaiReply({ calls: [{ name: 'write_file', args: { file_path: 'grid.py', contents: expected } }], usage: { in: 2500, out: 200 } });
  return openaiReply({ calls: [{ name: 'done', args: {} }], usage: { in: 3000, out: 10 } });
};

describe('pwp run and pwp bench with a model agent (CLI, real containers)', function () {
  this.timeout(900_000);
  let server: ScriptedModelServer;
  let env: NodeJS.ProcessEnv;

  before(async () => {
    await testImage();
    server = await ScriptedModelServer.start(solve);
    env = { ...process.env, OPENAI_BASE_URL: server.openaiBaseURL, OPENAI_API_KEY: `sk-pwp-test-${randomBytes(8).toString('hex')}` };
  });
  after(async () => { await server?.close(); });

  it('pwp run <task> --agent ide-agent --model <id> solves the task and prints the model and the agent statistics', async () => {
    const out = mkdtempSync(join(tmpdir(), 'pwp-cli-run-'));
    const { stdout } = await run(join(root, 'bin/pwp'), [
      'run', 'general-swe/swap-variables', '--agent', 'ide-agent', '--model', 'openai:local-model', '--max-steps', '6', '--out', out, '--no-video', '--json',
    ], { env, cwd: root, maxBuffer: 64 * 1024 * 1024 });
    const r = JSON.parse(stdout.trim().split('\n').at(-1)!);
    assert.equal(r.passed, true, r.error ?? JSON.stringify(r.evaluation));
    assert.equal(r.agent, 'ide-agent');
    assert.equal(r.model, 'openai:local-model');
    assert.equal(r.agentStats.stoppedBy, 'done');
    assert.equal(r.agentStats.iterations, 3);
    assert.deepEqual(r.agentStats.tokens, { input: 7500, output: 250, total: 7750, cacheRead: 0, cacheWrite: 0 });
    assert.deepEqual(server.requests.map((q) => q.body.model), ['local-model', 'local-model', 'local-model']);
    const result = JSON.parse(readFileSync(join(out, 'result.json'), 'utf8'));
    assert.equal(result.agentStats.toolTransitions['read_file -> write_file'], 1);
    assert.ok(!readFileSync(join(out, 'result.json'), 'utf8').includes(env.OPENAI_API_KEY!));
  });

  it('pwp bench --agent ide-agent --model <id> reports success and the model-agent figures per agent and model', async () => {
    const out = mkdtempSync(join(tmpdir(), 'pwp-cli-bench-'));
    const { stdout } = await run(join(root, 'bin/pwp'), [
      'bench', 'general-swe/swap-variables', '--agent', 'ide-agent', '--model', 'openai:local-model', '--attempts', '2', '--parallel', '1', '--out', out, '--no-video',
    ], { env, cwd: root, maxBuffer: 64 * 1024 * 1024 });
    assert.match(stdout, /general-swe\s+ide-agent \(openai:local-model\)\s+1\s+2\s+100\.0%/);
    assert.match(stdout, /model agents:/);
    assert.match(stdout, /general-swe\s+ide-agent\s+openai:local-model\s+3\.0\s+3\.0\s+0\.0%\s+15000\s+500\s+7750/);
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
    assert.equal(summary.groups[0].agentMetrics.tokensPerSuccess, 7750);
    assert.match(readFileSync(join(out, 'report.md'), 'utf8'), /## Model agents/);
  });
});
