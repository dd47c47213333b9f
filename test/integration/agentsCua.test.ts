// The `cua` agent end to end over the OpenAI SDK: a scripted model solves a bundled task in a
// real IDE by clicking Set-of-Marks ids it reads from the prompt and typing, while the script
// also sends it malformed replies and the server answers 429 and 500 on the way.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runScriptedAgent, type AgentRunResult } from '../support/agentRun';
import { countRequestImages, errorReply, findMark, lastToolResults, MarkWaits, openaiReply, type RecordedRequest } from '../support/scriptedModelServer';

const expected = readFileSync(join(__dirname, '../../tasks/vscode-config/swap-words/hidden/notes.md'), 'utf8');

function expectError(req: RecordedRequest, pattern: RegExp): void {
  const results = lastToolResults(req);
  assert.ok(results.length > 0 && results.every((r) => r.isError), `expected error results, got ${JSON.stringify(results)}`);
  assert.match(results.map((r) => r.text).join('\n'), pattern);
}

describe('cua agent (OpenAI chat completions, real container)', function () {
  this.timeout(600_000);
  const secret = `sk-pwp-test-${randomBytes(16).toString('hex')}`;
  let run: AgentRunResult;
  const waits = new MarkWaits();

  before(async () => {
    run = await runScriptedAgent({
      task: 'vscode-config/swap-words', agent: 'cua', model: 'openai:scripted-cua',
      env: (server) => ({ OPENAI_API_KEY: secret, OPENAI_BASE_URL: server.openaiBaseURL }),
      config: { maxSteps: 40 },
      script: (req, request) => {
        // The script waits while the file it clicked has not opened yet (MarkWaits).
        const turn = request - waits.count;
        switch (turn) {
          case 0: return openaiReply({ text: 'Opening the file.', calls: [{ name: 'click', args: '{"mark": 16' }] });
          case 1:
            expectError(req, /not a JSON object/);
            return openaiReply({ calls: [{ name: 'open_file', args: { path: 'notes.md' } }] });
          case 2: return errorReply('openai', 429);
          case 3:
            expectError(req, /no tool named "open_file"/);
            return openaiReply({ calls: [{ name: 'click', args: { mark: 99999 } }] });
          case 4:
            expectError(req, /99999 is not in the latest Set-of-Marks listing/);
            return openaiReply({ calls: [{ name: 'click', args: { mark: findMark(req, /treeitem/, /^notes\.md$/) } }] });
          case 5: return errorReply('openai', 500);
          case 6: {
            const mark = waits.find(req, /^editor$/, /notes\.md$/);
            if (mark === undefined) return openaiReply({ calls: [{ name: 'wait', args: { seconds: 2 } }] });
            return openaiReply({ calls: [{ name: 'click', args: { mark } }] });
          }
          case 7:
            return openaiReply({
              text: 'Replacing the text and saving.',
              calls: [{ name: 'press_keys', args: { keys: 'ctrl+a' } }, { name: 'type_text', args: { text: expected } }, { name: 'press_keys', args: { keys: 'ctrl+s' } }],
            });
          case 8: return openaiReply({ calls: [{ name: 'done', args: {} }] });
          default: throw new Error(`unexpected turn ${turn}`);
        }
      },
    });
  });

  it('solves the task by clicking marks and typing, and the verifier passes it', () => {
    assert.deepEqual(run.server.scriptErrors.map((e) => e.message), []);
    assert.equal(run.acted.error, undefined);
    assert.equal(run.acted.outcome.stats?.stoppedBy, 'done', JSON.stringify(run.acted.outcome));
    assert.equal(run.evaluation.passed, true, run.evaluation.summary);
    assert.equal(run.evaluation.score, 1);
  });

  it('sends requests of the documented chat-completions shape, with the key from the environment', () => {
    assert.deepEqual(run.requestProblems, []);
    for (const r of run.server.requests) assert.equal(r.headers.authorization, `Bearer ${secret}`);
    assert.equal(run.server.requests[0].body.model, 'scripted-cua');
    const tools = (run.server.requests[0].body.tools as { function: { name: string } }[]).map((t) => t.function.name).sort();
    assert.deepEqual(tools, ['click', 'done', 'drag', 'move_mouse', 'press_keys', 'scroll', 'type_text', 'wait', 'xdotool']);
  });

  it('shows the screen every turn: screenshot, Set-of-Marks image and listing, focus and pointer, no more images than kept', () => {
    for (const r of run.server.requests) {
      const n = countRequestImages(r);
      assert.ok(n >= 2 && n <= 3, `request ${r.n} has ${n} images`);
      const text = JSON.stringify(r.body.messages);
      assert.match(text, /Set-of-Marks elements/);
      assert.match(text, /Mouse pointer at \(\d+, \d+\)/);
      assert.match(text, /Focused: /);
    }
    // After the first click the screen changed, and the delta says where.
    assert.match(JSON.stringify(run.server.requests.at(-1)!.body.messages), /Changed since the last look: the region from/);
  });

  it('retries 429 and 500 and counts the retries', () => {
    const statuses = run.records.filter((r) => r.type === 'model').flatMap((r) => (r as { attempts: { status: number }[] }).attempts.map((a) => a.status));
    assert.ok(statuses.includes(429) && statuses.includes(500), `attempt statuses ${statuses.join(',')}`);
    assert.equal(run.acted.outcome.stats?.apiRetries, 2);
    assert.equal(run.server.requests[3].headers['x-stainless-retry-count'], '1');
  });

  it('turns malformed replies into error results the model recovers from, and counts them', () => {
    const s = run.acted.outcome.stats!;
    assert.equal(s.malformedCalls, 3);
    assert.equal(s.iterations, 7 + waits.count);
    assert.equal(s.toolUsage.click, 4);
    assert.equal(s.toolTransitions['click -> open_file'], 1);
    assert.ok(s.tokens.input >= 7000 && s.tokens.output > 0);
    const bad = run.records.filter((r) => r.type === 'toolResult' && (r as { malformed: boolean }).malformed);
    assert.equal(bad.length, 3);
  });

  it('records every turn in the trajectory with text, tool calls, usage and latency, then the statistics', () => {
    const turns = run.records.filter((r) => r.type === 'model') as unknown as { step: number; text: string; toolCalls: unknown[]; usage: { input: number }; latencyMs: number }[];
    assert.equal(turns.length, 7 + waits.count);
    assert.equal(turns[0].text, 'Opening the file.');
    assert.ok(turns.every((t) => t.toolCalls.length > 0 && t.usage.input > 0 && t.latencyMs >= 0));
    assert.ok(run.records.some((r) => r.type === 'step' && r.action.type === 'click'));
    assert.equal(run.records.filter((r) => r.type === 'agentStats').length, 1);
  });

  it('never lets the API key into the container or the trajectory', () => {
    assert.deepEqual(run.leaks, []);
  });
});
