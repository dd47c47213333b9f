// pwp trajectories as ATIF (Harbor's Agent Trajectory Interchange Format): a model-driven run
// and an action-by-action run convert to trajectories that keep the specification's rules, and
// the rules' check fails on each kind of break.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../../../../host/common/paths';
import { ATIF_VERSION, atifOfRun, atifProblems, type AtifTrajectory } from '../../../../host/trajectory/atifExport';
import { TrajectoryWriter } from '../../../../host/trajectory/trajectoryFile';

const observation = { timings: {} };

function modelRun(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pwp-atif-model-'));
  const w = new TrajectoryWriter(dir, { task: 'code-edit/py-roman', instruction: 'Implement to_roman.', agent: 'bash-only', model: 'openai:gpt-x' });
  w.append({ type: 'model', step: 1, model: 'gpt-x', text: 'Looking at the file.', toolCalls: [{ id: 'c1', name: 'bash', arguments: '{"command":"cat roman.py"}' }],
    usage: { input: 900, output: 40 }, latencyMs: 10, attempts: [], stopReason: 'tool_calls', request: { messages: 1, images: 0, estimatedTokens: 900, droppedTurns: 0 } });
  w.append({
    type: 'step', actor: 'agent', step: 1, action: { type: 'tool', name: 'bash', args: { command: 'cat roman.py' } }, reward: 0, terminated: false, truncated: false,
    info: {}, observation,
  });
  w.append({ type: 'toolResult', step: 1, callId: 'c1', name: 'bash', isError: false, malformed: false, text: 'def to_roman(n): ...', images: 0, ms: 30 });
  w.append({ type: 'model', step: 2, model: 'gpt-x', text: '', toolCalls: [{ id: 'c2', name: 'done', arguments: 'not json' }],
    usage: { input: 1000, output: 5 }, latencyMs: 10, attempts: [], stopReason: 'tool_calls', request: { messages: 3, images: 0, estimatedTokens: 1000, droppedTurns: 0 } });
  w.append({ type: 'end', status: 'finished', steps: 2, score: 1 });
  w.close();
  return dir;
}

function actionRun(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pwp-atif-actions-'));
  const w = new TrajectoryWriter(dir, { task: 'vscode-config/rulers', instruction: 'Rulers at 80.', agent: 'oracle' });
  w.append({ type: 'note', text: 'open the settings' });
  w.append({
    type: 'step', actor: 'agent', step: 1, action: { type: 'key', keys: 'ctrl+comma' }, reward: 0, terminated: false, truncated: false, info: {},
    observation: { ...observation, screenshot: 'episode-1/0001.png' },
  });
  w.append({ type: 'human', actor: 'human', event: { seq: 1, t: Date.now(), kind: 'key', down: true, keysym: 65, name: 'a' } });
  w.append({ type: 'rewardAsked', actor: 'agent', step: 1, outcome: 'refused', reason: 'the grade is the run\'s, given at the end' });
  w.append({ type: 'step', actor: 'agent', step: 2, action: { type: 'tool', name: 'bash', args: { command: 'false' } }, reward: 0, terminated: false, truncated: false,
    info: { error: { name: 'ToolError', message: 'exit 1' } }, observation });
  w.append({ type: 'end', status: 'finished', steps: 2, score: 0 });
  w.close();
  return dir;
}

describe('ATIF export', () => {
  it('a model-driven run: one agent step per model turn, its calls, their results and token counts', () => {
    const a = atifOfRun(modelRun());
    assert.deepEqual(atifProblems(a), []);
    assert.equal(a.schema_version, ATIF_VERSION);
    assert.equal(a.agent.model_name, 'openai:gpt-x');
    assert.deepEqual(a.steps.map((s) => s.source), ['user', 'agent', 'agent']);
    assert.equal(a.steps[0].message, 'Implement to_roman.');
    assert.deepEqual(a.steps[1].tool_calls, [{ tool_call_id: 'c1', function_name: 'bash', arguments: { command: 'cat roman.py' } }]);
    assert.deepEqual(a.steps[1].observation, { results: [{ source_call_id: 'c1', content: 'def to_roman(n): ...' }] });
    assert.deepEqual(a.steps[2].tool_calls?.[0].arguments, { raw: 'not json' }, 'arguments that are not a JSON object are kept whole');
    assert.equal(a.final_metrics.total_prompt_tokens, 1900);
    assert.equal(a.final_metrics.total_completion_tokens, 45);
    assert.deepEqual(a.extra.pwp, { task: 'code-edit/py-roman', reward: 1, status: 'finished' });
  });

  it('an action-by-action run: each action a call with what it answered; a person\'s input a user step; notes system steps; asking for the grade the agent\'s', () => {
    const a = atifOfRun(actionRun());
    assert.deepEqual(atifProblems(a), []);
    assert.deepEqual(a.steps.map((s) => s.source), ['user', 'system', 'agent', 'user', 'agent', 'agent']);
    assert.equal(a.steps[4].message, 'asked for its grade after step 1: refused (the grade is the run\'s, given at the end)');
    assert.deepEqual(a.steps[4].extra?.pwp, { rewardAsked: { step: 1, outcome: 'refused' } });
    assert.deepEqual(a.steps[2].tool_calls, [{ tool_call_id: 'step-1', function_name: 'key', arguments: { keys: 'ctrl+comma' } }]);
    assert.equal((a.steps[2].extra?.pwp as { screenshot?: string }).screenshot, 'episode-1/0001.png');
    assert.equal(a.steps[3].message, 'the person pressed a');
    assert.equal(a.steps[5].observation?.results[0].content, 'ToolError: exit 1');
    assert.equal(a.final_metrics.total_steps, 6);
  });

  it('the rules check fails on each break of the specification', () => {
    const good = atifOfRun(actionRun());
    const broken = (f: (a: AtifTrajectory) => void): string[] => { const a = structuredClone(good); f(a); return atifProblems(a); };
    assert.match(broken((a) => { a.steps[1].step_id = 7; }).join(), /step_id 7/);
    assert.match(broken((a) => { a.steps[0].tool_calls = []; }).join(), /for agent steps/);
    assert.match(broken((a) => { a.steps[2].observation = { results: [{ source_call_id: 'nope', content: '' }] }; }).join(), /unknown call nope/);
    assert.match(broken((a) => { (a.steps[1] as { source: string }).source = 'tool'; }).join(), /source tool/);
    assert.match(broken((a) => { a.final_metrics.total_steps = 1; }).join(), /total_steps/);
  });

  it('pwp export --format atif writes trajectory.json per run', () => {
    const out = mkdtempSync(join(tmpdir(), 'pwp-atif-out-'));
    const run = modelRun();
    writeFileSync(join(run, 'result.json'), JSON.stringify({ score: 1, evaluation: { kind: 'tests', score: 1 } }));
    const r = spawnSync(join(REPO_ROOT, 'bin', 'pwp'), ['export', run, '--format', 'atif', '--out', join(out, 'one.json')], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const a = JSON.parse(readFileSync(join(out, 'one.json'), 'utf8')) as AtifTrajectory;
    assert.deepEqual(atifProblems(a), []);
    assert.deepEqual((a.extra.pwp as { evaluation?: unknown }).evaluation, { kind: 'tests', score: 1 });
    const bad = spawnSync(join(REPO_ROOT, 'bin', 'pwp'), ['export', run, '--format', 'harbour'], { encoding: 'utf8' });
    assert.equal(bad.status, 2);
  });
});
