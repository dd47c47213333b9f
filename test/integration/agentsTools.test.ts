// The tool-using agents end to end in real containers, each solving a bundled task through a
// scripted model: cua-filebash (screen on request, file editor and bash) over OpenAI,
// assisted (IDE tools, no images allowed) over Anthropic with function tools, and ide-agent
// (IDE-Bench and IDE-native tools, no screen) over OpenAI, and bash-only (one bash tool, the
// paper's specialist baseline) over OpenAI.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runScriptedAgent, type AgentRunResult } from '../support/agentRun';
import { anthropicReply, countRequestImages, lastToolResults, openaiReply, type RecordedRequest } from '../support/scriptedModelServer';

const toolNames = (req: RecordedRequest): string[] => (req.api === 'openai'
  ? (req.body.tools as { function: { name: string } }[]).map((t) => t.function.name)
  : (req.body.tools as { name: string }[]).map((t) => t.name));

function expectOk(req: RecordedRequest, n: number): { text: string }[] {
  const results = lastToolResults(req);
  assert.equal(results.length, n, JSON.stringify(results));
  for (const r of results) assert.equal(r.isError, false, r.text);
  return results;
}

function solved(run: AgentRunResult): void {
  assert.deepEqual(run.server.scriptErrors.map((e) => e.message), []);
  assert.deepEqual(run.requestProblems, []);
  assert.equal(run.acted.outcome.stats?.stoppedBy, 'done', JSON.stringify(run.acted.outcome));
  assert.equal(run.evaluation.passed, true, run.evaluation.summary);
  assert.deepEqual(run.leaks, []);
}

describe('model agents with tools (real containers)', function () {
  this.timeout(900_000);
  const key = () => `sk-pwp-test-${randomBytes(16).toString('hex')}`;

  it('cua-filebash: sees the screen only when it asks, edits through file_edit and bash, and solves the task', async () => {
    const run = await runScriptedAgent({
      task: 'vscode-config/rulers', agent: 'cua-filebash', model: 'openai:scripted-filebash',
      env: (server) => ({ OPENAI_API_KEY: key(), OPENAI_BASE_URL: server.openaiBaseURL }),
      script: (req, turn) => {
        switch (turn) {
          case 0: {
            assert.equal(countRequestImages(req), 0, 'no screen before it asks');
            const tools = toolNames(req);
            for (const t of ['file_edit', 'bash', 'screenshot', 'click', 'type_text', 'done']) assert.ok(tools.includes(t), `${t} in ${tools.join(',')}`);
            assert.ok(!tools.includes('rename_symbol') && !tools.includes('read_file'), 'only the filebash group');
            return openaiReply({ calls: [{ name: 'screenshot', args: {} }] });
          }
          case 1:
            assert.equal(countRequestImages(req), 2, 'the screenshot and its Set-of-Marks image');
            assert.match(JSON.stringify(req.body.messages), /\[\d+\] \[treeitem\] \[main\.py\]/);
            return openaiReply({
              calls: [
                { name: 'bash', args: { command: 'mkdir -p .vscode && ls -a' } },
                { name: 'file_edit', args: { command: 'create', path: '.vscode/settings.json', file_text: '{\n  "editor.rulers": [80, 100]\n}\n' } },
              ],
            });
          case 2:
            expectOk(req, 2);
            return openaiReply({ calls: [{ name: 'file_edit', args: { command: 'view', path: '.vscode/settings.json' } }] });
          case 3:
            assert.match(expectOk(req, 1)[0].text, /"editor\.rulers": \[80, 100\]/);
            return openaiReply({ calls: [{ name: 'done', args: {} }] });
          default: throw new Error(`unexpected turn ${turn}`);
        }
      },
    });
    solved(run);
    assert.deepEqual(run.acted.outcome.stats?.toolUsage, { screenshot: 1, bash: 1, file_edit: 2, done: 1 });
    assert.equal(run.acted.outcome.stats?.toolTransitions['bash -> file_edit'], 1);
  });

  it('bash-only: is offered bash and done alone, never an image, and solves the task with shell commands', async () => {
    const run = await runScriptedAgent({
      task: 'vscode-config/rulers', agent: 'bash-only', model: 'openai:scripted-bash',
      env: (server) => ({ OPENAI_API_KEY: key(), OPENAI_BASE_URL: server.openaiBaseURL }),
      script: (req, turn) => {
        assert.equal(countRequestImages(req), 0, `request ${req.n} has images`);
        switch (turn) {
          case 0:
            assert.deepEqual(toolNames(req).sort(), ['bash', 'done']);
            return openaiReply({ calls: [{ name: 'bash', args: { command: 'mkdir -p .vscode && printf \'{\\n  "editor.rulers": [80, 100]\\n}\\n\' > .vscode/settings.json && cat .vscode/settings.json' } }] });
          case 1:
            assert.match(expectOk(req, 1)[0].text, /"editor\.rulers": \[80, 100\]/);
            return openaiReply({ calls: [{ name: 'done', args: {} }] });
          default: throw new Error(`unexpected turn ${turn}`);
        }
      },
    });
    solved(run);
    assert.deepEqual(run.acted.outcome.stats?.toolUsage, { bash: 1, done: 1 });
  });

  it('assisted: searches and renames with IDE tools over Anthropic function tools, and sends no image when images are off', async () => {
    const run = await runScriptedAgent({
      task: 'general-swe/rename-python', agent: 'assisted', model: 'anthropic:claude-scripted',
      config: { images: false, computerTool: false },
      env: (server) => ({ ANTHROPIC_API_KEY: key(), ANTHROPIC_BASE_URL: server.anthropicBaseURL }),
      script: (req, turn) => {
        assert.equal(countRequestImages(req), 0, `request ${req.n} has images`);
        assert.equal(req.headers['anthropic-beta'], undefined, 'no computer-use beta without the computer tool');
        switch (turn) {
          case 0: {
            const tools = toolNames(req);
            for (const t of ['search_repository', 'rename_symbol', 'find_references', 'file_edit', 'bash', 'screenshot', 'click']) assert.ok(tools.includes(t), `${t} in ${tools.join(',')}`);
            assert.ok(!tools.includes('computer'));
            return anthropicReply({ text: 'Where is calc_area used?', calls: [{ name: 'search_repository', args: { query: 'calc_area' } }] });
          }
          case 1:
            assert.match(expectOk(req, 1)[0].text, /geometry\.py/);
            return anthropicReply({ calls: [{ name: 'rename_symbol', args: { file: 'geometry.py', symbol: 'calc_area', new_name: 'compute_area' } }] });
          case 2:
            expectOk(req, 1);
            return anthropicReply({ calls: [{ name: 'screenshot', args: {} }] });
          case 3: {
            const [shot] = expectOk(req, 1);
            assert.match(shot.text, /Set-of-Marks elements/, 'the listing stands in for the images');
            return anthropicReply({ calls: [{ name: 'done', args: {} }] });
          }
          default: throw new Error(`unexpected turn ${turn}`);
        }
      },
    });
    solved(run);
    assert.equal(run.acted.outcome.stats?.imagesSent, 0);
    assert.equal(run.acted.outcome.stats?.provider, 'anthropic');
  });

  it('ide-agent: tool calling only, no screen and no image, recovers from bad arguments and solves the task', async () => {
    const expected = readFileSync(join(__dirname, '../../tasks/general-swe/swap-variables/hidden/expected/grid.py'), 'utf8');
    const run = await runScriptedAgent({
      task: 'general-swe/swap-variables', agent: 'ide-agent', model: 'openai:scripted-ide',
      env: (server) => ({ OPENAI_API_KEY: key(), OPENAI_BASE_URL: server.openaiBaseURL }),
      script: (req, turn) => {
        assert.equal(countRequestImages(req), 0, `request ${req.n} has images`);
        assert.doesNotMatch(JSON.stringify(req.body.messages), /Set-of-Marks|screenshot/i);
        switch (turn) {
          case 0: {
            const tools = toolNames(req);
            for (const t of ['read_file', 'edit_file', 'write_file', 'grep_search', 'run_terminal_cmd', 'rename_symbol', 'go_to_definition', 'done']) assert.ok(tools.includes(t), `${t} in ${tools.join(',')}`);
            for (const t of ['click', 'screenshot', 'type_text', 'xdotool', 'file_edit', 'bash']) assert.ok(!tools.includes(t), `${t} must not be offered`);
            return openaiReply({ calls: [{ name: 'read_file', args: { target_file: 'grid.py' } }] });
          }
          case 1:
            assert.match(expectOk(req, 1)[0].text, /def make_grid\(rows, cols, fill=0\)/);
            return openaiReply({ calls: [{ name: 'write_file', args: { path: 'grid.py', text: expected } }] });
          case 2: {
            const [r] = lastToolResults(req);
            assert.equal(r.isError, true);
            assert.match(r.text, /do not fit the tool/);
            return openaiReply({ calls: [{ name: 'write_file', args: { file_path: 'grid.py', contents: expected } }] });
          }
          case 3:
            expectOk(req, 1);
            return openaiReply({ calls: [{ name: 'done', args: {} }] });
          default: throw new Error(`unexpected turn ${turn}`);
        }
      },
    });
    solved(run);
    const s = run.acted.outcome.stats!;
    assert.equal(s.malformedCalls, 1);
    assert.equal(s.imagesSent, 0);
    assert.deepEqual(s.toolUsage, { read_file: 1, write_file: 2, done: 1 });
  });
});
