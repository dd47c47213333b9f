// A bench's figures for model agents, per agent and model: iterations, tool usage and
// transitions, tokens, tokens per success, stop reasons; and runs of different models kept
// apart (resuming, folders, summary rows).
import assert from 'node:assert/strict';
import { summarizeAgentStats } from '../../../../host/models/runStatistics';
import type { AgentStats } from '../../../../host/models/runStatistics';
import { runFolderName } from '../../../../host/runs/benchmark';
import { markdownReport, summaryTable } from '../../../../host/runs/benchmarkReport';
import { runKey, summarize, type ResultLine } from '../../../../host/runs/benchmarkResults';

function stats(o: Partial<AgentStats>): AgentStats {
  return {
    agent: 'cua', provider: 'openai', model: 'gpt', iterations: 4, toolCalls: 4, toolUsage: {}, toolTransitions: {}, toolErrors: 0, malformedCalls: 0,
    tokens: { input: 1000, output: 100, total: 1100, cacheRead: 0, cacheWrite: 0 }, modelMs: 2000, wallMs: 5000, apiRetries: 0, imagesSent: 0, droppedTurns: 0,
    stoppedBy: 'done', ...o,
  };
}

function line(o: Partial<ResultLine>): ResultLine {
  return {
    task: 's/t', suite: 's', id: 't', agent: 'cua', attempt: 1, score: 0, passed: false, status: 'finished', steps: 1, image: 'i', runDir: '/x/runs/s/t/cua-1',
    screenshots: 0, timings: { totalMs: 1000 }, startedAt: '', endedAt: '', ...o,
  };
}

describe('model agent metrics in a bench', () => {
  it('sums tool usage and transitions, averages iterations, and divides all tokens by the successes', () => {
    const m = summarizeAgentStats([
      { passed: true, agentStats: stats({
        iterations: 3, toolCalls: 5, toolErrors: 1, toolUsage: { click: 3, done: 1, type_text: 1 }, toolTransitions: { 'click -> click': 2, 'click -> done': 1 },
      }) },
      { passed: false, agentStats: stats({
        iterations: 5, toolCalls: 5, malformedCalls: 2, toolUsage: { click: 5 }, toolTransitions: { 'click -> click': 4 }, stoppedBy: 'step-cap', apiRetries: 2,
      }) },
      { passed: false },
    ])!;
    assert.equal(m.runs, 2);
    assert.equal(m.meanIterations, 4);
    assert.deepEqual(m.toolUsage, { click: 8, done: 1, type_text: 1 });
    assert.deepEqual(Object.keys(m.toolUsage)[0], 'click');
    assert.deepEqual(m.toolTransitions, { 'click -> click': 6, 'click -> done': 1 });
    assert.equal(m.toolErrorRate, 0.1);
    assert.equal(m.malformedCalls, 2);
    assert.deepEqual(m.tokens, { input: 2000, output: 200, total: 2200, meanPerRun: 1100 });
    assert.equal(m.tokensPerSuccess, 2200);
    assert.deepEqual(m.stoppedBy, { done: 1, 'step-cap': 1 });
    assert.equal(m.apiRetries, 2);
    assert.equal(summarizeAgentStats([{ passed: true }]), null, 'no statistics, no metrics (oracle, null)');
    assert.equal(summarizeAgentStats([{ passed: false, agentStats: stats({}) }])!.tokensPerSuccess, null);
  });

  it('keeps runs of different models apart: keys, folders and summary groups', () => {
    assert.notEqual(runKey({ task: 's/t', agent: 'cua', attempt: 1, model: 'openai:a' }), runKey({ task: 's/t', agent: 'cua', attempt: 1, model: 'openai:b' }));
    assert.equal(runKey({ task: 's/t', agent: 'oracle', attempt: 1 }), 's/t|oracle|1', 'runs without a model keep their key');
    assert.equal(runFolderName({ agent: 'cua', attempt: 2, model: 'openai:Qwen/Qwen2.5-VL' }), 'cua-openai_Qwen_Qwen2.5-VL-2');
    assert.equal(runFolderName({ agent: 'oracle', attempt: 1 }), 'oracle-1');
    const s = summarize([
      line({ model: 'openai:a', passed: true, score: 1, agentStats: stats({ model: 'a' }) }),
      line({ model: 'openai:b', agentStats: stats({ model: 'b', stoppedBy: 'token-budget' }) }),
      line({ agent: 'oracle', passed: true, score: 1 }),
    ]);
    assert.deepEqual(s.groups.map((g) => [g.agent, g.model ?? null, g.successRate, g.agentMetrics?.stoppedBy ?? null]), [
      ['cua', 'openai:a', 1, { done: 1 }], ['cua', 'openai:b', 0, { 'token-budget': 1 }], ['oracle', null, 1, null],
    ]);
  });

  it('reports them in the terminal table and the Markdown report', () => {
    const results = [line({ model: 'openai:a', passed: true, score: 1, agentStats: stats({ toolUsage: { click: 2 } }) }), line({ agent: 'oracle', passed: true, score: 1 })];
    const s = summarize(results);
    const table = summaryTable(s);
    assert.match(table, /cua \(openai:a\)/);
    assert.match(table, /model agents:\nsuite\s+agent\s+model\s+iterations\s+tool calls/);
    assert.match(table, /tokens\/success/);
    const md = markdownReport(s, results, '/x', 'bench');
    assert.match(md, /## Model agents/);
    assert.match(md, /\| s \| cua \| openai:a \| 4\.0 \| 4\.0 \| 0\.0% \| 1000 \| 100 \| 1100 \| 5\.0 s \| 0 \| done 1 \| click 2 \|/);
  });
});
