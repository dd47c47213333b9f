// How a model agent stops: on its step cap, its token budget, its time cap, and on an API
// error it cannot recover from — each time cleanly: the outcome says why, the trajectory is
// closed, and the state it left can still be graded. One environment serves all four runs.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeModelAgent, type ModelAgentConfig } from '../../host/agents/modelAgentSettings';
import { resolveTasks } from '../../host/taskEnv/loadTask';
import { makeEnv } from '../../host/taskEnv/taskEnv';
import { readTrajectory, type TrajectoryRecord } from '../../host/trajectory/trajectoryFile';
import { actOn, type ActResult } from '../support/actOnEnv';
import { testImage, testPool } from './environmentFixture';
import { errorReply, openaiReply, ScriptedModelServer } from '../support/scriptedModelServer';

describe('model agent stopping rules (real container)', function () {
  this.timeout(600_000);
  let server: ScriptedModelServer;
  const task = resolveTasks(['general-swe/swap-variables'])[0];
  let env: ReturnType<typeof makeEnv>;
  const saved = { key: process.env.OPENAI_API_KEY, url: process.env.OPENAI_BASE_URL };
  // The "slow" model answers only when the suite ends: whatever the load, its request is still
  // in flight when the agent's time cap comes.
  let releaseSlow!: () => void;
  const slowReleased = new Promise<void>((resolve) => { releaseSlow = resolve; });

  before(async () => {
    server = await ScriptedModelServer.start(async (req) => {
      const read = { name: 'read_file', args: { target_file: 'grid.py' } };
      switch (req.body.model) {
        case 'steps': return openaiReply({ calls: [read] });
        case 'tokens': return openaiReply({ calls: [read], usage: { in: 3000, out: 100 } });
        case 'slow': await slowReleased; return openaiReply({ calls: [read] });
        case 'denied': return errorReply('openai', 401, 'invalid api key');
        case 'chatty': return openaiReply({ text: 'I think the names are swapped.' });
        default: throw new Error(`no script for model ${req.body.model}`);
      }
    });
    process.env.OPENAI_API_KEY = `sk-pwp-test-${randomBytes(8).toString('hex')}`;
    process.env.OPENAI_BASE_URL = server.openaiBaseURL;
    // No task limits: the agents' own caps are under test, and five runs share this episode.
    env = makeEnv(task, { image: await testImage(), pool: await testPool(), labels: { 'pwp.test': '1' }, observe: [], limits: false });
    await env.reset();
  });

  after(async () => {
    releaseSlow();
    if (saved.key === undefined) delete process.env.OPENAI_API_KEY; else process.env.OPENAI_API_KEY = saved.key;
    if (saved.url === undefined) delete process.env.OPENAI_BASE_URL; else process.env.OPENAI_BASE_URL = saved.url;
    await env?.close();
    await server?.close();
  });

  async function act(model: string, c: Partial<ModelAgentConfig>): Promise<{ acted: ActResult; records: TrajectoryRecord[] }> {
    const runDir = mkdtempSync(join(tmpdir(), 'pwp-agent-limits-'));
    const { agent } = makeModelAgent('ide-agent', { model: `openai:${model}`, ...c });
    const acted = await actOn(env, agent, task, runDir);
    const records = readTrajectory(runDir).records;
    assert.equal(records.at(-1)?.type, 'end', 'the trajectory is closed');
    assert.equal(records.filter((r) => r.type === 'agentStats').length, 1);
    return { acted, records };
  }

  it('stops at the step cap, truncated', async () => {
    const { acted } = await act('steps', { maxSteps: 3 });
    assert.equal(acted.outcome.status, 'truncated');
    assert.equal(acted.outcome.stats?.stoppedBy, 'step-cap');
    assert.equal(acted.outcome.stats?.iterations, 3);
    assert.equal(acted.outcome.stats?.toolUsage.read_file, 3);
  });

  it('stops when the token budget is spent', async () => {
    const { acted } = await act('tokens', { tokenBudget: 7000 });
    assert.equal(acted.outcome.stats?.stoppedBy, 'token-budget');
    assert.equal(acted.outcome.stats?.iterations, 3);
    assert.equal(acted.outcome.stats?.tokens.total, 9300);
  });

  it('stops at the time cap, cancelling the request in flight', async () => {
    // The cap counts from the agent's start, and its first request must be in flight by then:
    // 15 s leaves a loaded machine time to set the agent up and send it.
    const { acted, records } = await act('slow', { timeCapMs: 15_000 });
    assert.equal(acted.outcome.stats?.stoppedBy, 'time-cap', JSON.stringify(acted.outcome));
    assert.ok(records.some((r) => r.type === 'modelError'));
  });

  it('stops on an API error it cannot recover from, without retrying it, and says so', async () => {
    const before = server.requests.length;
    const { acted } = await act('denied', {});
    assert.equal(acted.outcome.stats?.stoppedBy, 'error');
    assert.match(acted.outcome.error ?? '', /HTTP 401/);
    assert.equal(server.requests.length - before, 1, 'a 401 is not retried');
  });

  it('nudges a model that answers without a tool call, and stops when it keeps doing so', async () => {
    const before = server.requests.length;
    const { acted } = await act('chatty', {});
    assert.equal(acted.outcome.stats?.stoppedBy, 'no-action');
    assert.equal(acted.outcome.stats?.iterations, 3);
    const last = server.requests.at(-1)!;
    assert.equal(server.requests.length - before, 3);
    assert.match(JSON.stringify(last.body.messages.at(-1)), /You did not call a tool/);
  });

  it('leaves a state that is still graded', async () => {
    const evaluation = await env.unwrapped.grade();
    assert.equal(evaluation.passed, false);
    assert.equal(evaluation.score, 0);
  });
});
