// Pair programming with a model agent: the agent (bash-only, over a scripted OpenAI-compatible
// model) calls ask_person; the question shows in the inspector, control passes to the person,
// who types an answer on the page in a real headless Chromium and hands back; the answer is the
// tool's result, the agent finishes with it, and the run is graded. Question and answer are in
// the trajectory.
import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { chromium, type Browser } from 'playwright-core';
import { InspectorServer } from '../../host/inspector/inspectorServer';
import type { TaskEnv } from '../../host/taskEnv/taskEnv';
import { runScriptedAgent } from '../support/agentRun';
import { lastToolResults, openaiReply, type RecordedRequest } from '../support/scriptedModelServer';

const QUESTION = 'At which columns should the rulers be?';
const toolNames = (req: RecordedRequest) => (req.body.tools as { function: { name: string } }[]).map((t) => t.function.name);

describe('ask_person: a model agent asks, a person answers in the inspector (real Chromium)', function () {
  this.timeout(15 * 60_000);
  let browser: Browser | undefined;
  let inspector: InspectorServer | undefined;
  after(async () => {
    await browser?.close();
    await inspector?.close();
  });

  it('passes control to the person with the question, returns their answer to the agent, and the run is graded', async () => {
    let ready!: (s: TaskEnv) => void;
    const session = new Promise<TaskEnv>((r) => { ready = r; });
    // The person: opens the inspector on the run's environment, waits for the question, answers, hands back.
    const person = session.then(async (s) => {
      inspector = await InspectorServer.start({ deployment: s.deployment, runsRoots: [] });
      browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu'] });
      const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
      await page.goto(inspector.url);
      await page.locator(`a.env-link[data-env="${s.info.id}"]`).click({ timeout: 120_000 });
      await page.locator('#control-message', { hasText: QUESTION }).waitFor({ timeout: 300_000 });
      await page.locator('#control-answer').fill('80 and 100');
      await page.locator('#hand-back').click();
      await page.locator('#take-control').waitFor({ state: 'visible', timeout: 120_000 });
    });

    const run = await runScriptedAgent({
      task: 'vscode-config/rulers', agent: 'bash-only', model: 'openai:scripted-ask', view: true, onSession: ready,
      env: (server) => ({ OPENAI_API_KEY: `sk-pwp-test-${randomBytes(16).toString('hex')}`, OPENAI_BASE_URL: server.openaiBaseURL }),
      script: (req, turn) => {
        switch (turn) {
          case 0:
            assert.deepEqual(toolNames(req).sort(), ['ask_person', 'bash', 'done']);
            return openaiReply({ calls: [{ name: 'ask_person', args: { question: QUESTION, timeout_s: 600 } }] });
          case 1: {
            const [answer] = lastToolResults(req);
            assert.equal(answer.isError, false, answer.text);
            assert.match(answer.text, /answered: 80 and 100/);
            return openaiReply({ calls: [{ name: 'bash', args: { command: 'mkdir -p .vscode && printf \'{\\n  "editor.rulers": [80, 100]\\n}\\n\' > .vscode/settings.json' } }] });
          }
          case 2: return openaiReply({ calls: [{ name: 'done', args: {} }] });
          default: throw new Error(`unexpected turn ${turn}`);
        }
      },
    });
    await person;
    assert.deepEqual(run.server.scriptErrors.map((e) => e.message), []);
    assert.equal(run.evaluation.passed, true, run.evaluation.summary);
    const notes = run.records.filter((r) => r.type === 'note').map((r) => (r.type === 'note' ? r.text : ''));
    assert.ok(notes.some((t) => t.includes(`asked the person: ${QUESTION}`)), notes.join('\n'));
    assert.ok(notes.some((t) => t.includes('answered: 80 and 100')), notes.join('\n'));
    assert.deepEqual(run.leaks, []);
  });
});
