// The `cua` agent end to end over the Anthropic SDK with Anthropic's computer-use tool, on a
// screen larger than the model's: screenshots go out scaled to 1280x800 and the model's
// coordinates come back scaled to the real 1600x1000 screen. The scripted model clicks at
// element centres it gets from the IDE, scaled the way a model would see them.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ScreenScaling } from '../../host/models/screenScaling';
import type { TaskEnv } from '../../host/taskEnv/taskEnv';
import { runScriptedAgent, type AgentRunResult } from '../support/agentRun';
import { anthropicReply, findMark, lastToolResults, MarkWaits, type RecordedRequest } from '../support/scriptedModelServer';

const expected = readFileSync(join(__dirname, '../../tasks/vscode-config/swap-words/hidden/notes.md'), 'utf8');
const SCREEN = { width: 1600, height: 1000 };
const scaling = new ScreenScaling(SCREEN);

function pngSize(b64: string): { width: number; height: number } {
  const b = Buffer.from(b64.slice(0, 64), 'base64');
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}

function requestImages(req: RecordedRequest): string[] {
  const out: string[] = [];
  const visit = (c: unknown): void => {
    if (Array.isArray(c)) { c.forEach(visit); return; }
    if (c && typeof c === 'object') {
      const o = c as { type?: string; source?: { data: string }; content?: unknown };
      if (o.type === 'image' && o.source) out.push(o.source.data);
      if (o.type === 'tool_result') visit(o.content);
    }
  };
  for (const m of req.body.messages as { content: unknown }[]) visit(m.content);
  return out;
}

describe('cua agent with Anthropic\'s computer-use tool (real container, scaled screen)', function () {
  this.timeout(600_000);
  const secret = `sk-ant-pwp-test-${randomBytes(16).toString('hex')}`;
  let session: TaskEnv | undefined;
  const clicks: { x: number; y: number }[] = [];
  let run: AgentRunResult;
  const waits = new MarkWaits();

  /** Where a mark is, as the model sees the screen. */
  async function markPoint(req: RecordedRequest, role: RegExp, text: RegExp): Promise<[number, number]> {
    return pointOf(findMark(req, role, text));
  }

  async function pointOf(id: number): Promise<[number, number]> {
    const marks = await session!.client.call('dom.marks', {});
    const m = marks.marks.find((k) => k.id === id);
    if (!m) throw new Error(`mark ${id} is gone`);
    clicks.push(m.point);
    const p = scaling.toModel(m.point.x, m.point.y);
    return [p.x, p.y];
  }

  before(async () => {
    const config = join(mkdtempSync(join(tmpdir(), 'pwp-models-')), 'models.json');
    writeFileSync(config, JSON.stringify({ models: { claude: { provider: 'anthropic', model: 'claude-scripted', apiKeyEnv: 'PWP_TEST_ANTHROPIC_KEY' } } }));
    run = await runScriptedAgent({
      task: 'vscode-config/swap-words', agent: 'cua', model: 'claude',
      config: { modelConfig: config, maxSteps: 40 },
      env: (server) => ({ PWP_TEST_ANTHROPIC_KEY: secret, ANTHROPIC_BASE_URL: server.anthropicBaseURL }),
      adjust: (task) => ({ ...task, environment: { ...task.environment, display: SCREEN } }),
      onSession: (s) => { session = s; },
      script: async (req, request) => {
        // The script waits while the file it clicked has not opened yet (MarkWaits).
        const turn = request - waits.count;
        switch (turn) {
          case 0: return anthropicReply({ text: 'I will open notes.md.', calls: [{ name: 'computer', args: { action: 'left_click', coordinate: await markPoint(req, /treeitem/, /^notes\.md$/) } }] });
          case 1: {
            const editor = waits.find(req, /^editor$/, /notes\.md$/);
            if (editor === undefined) return anthropicReply({ calls: [{ name: 'computer', args: { action: 'wait', duration: 2 } }] });
            return anthropicReply({ calls: [{ name: 'computer', args: { action: 'left_click', coordinate: await pointOf(editor) } }] });
          }
          case 2:
            return anthropicReply({
              calls: [
                { name: 'computer', args: { action: 'left_click', coordinate: [5000, 10] } },
                { name: 'computer', args: { action: 'teleport' } },
              ],
            });
          case 3: {
            const results = lastToolResults(req);
            assert.equal(results.length, 2);
            assert.ok(results.every((r) => r.isError));
            assert.match(results[0].text, /off the screen, which is 1280x800/);
            assert.match(results[1].text, /'teleport' is not an action of computer_20250124/);
            return anthropicReply({
              calls: [
                { name: 'computer', args: { action: 'key', text: 'ctrl+a' } },
                { name: 'computer', args: { action: 'type', text: expected } },
                { name: 'computer', args: { action: 'key', text: 'ctrl+s' } },
                { name: 'computer', args: { action: 'cursor_position' } },
              ],
            });
          }
          case 4: {
            const results = lastToolResults(req);
            const last = clicks[clicks.length - 1];
            const p = scaling.toModel(last.x, last.y);
            assert.equal(results[3].text, `X=${p.x},Y=${p.y}`);
            return anthropicReply({ calls: [{ name: 'done', args: {} }] });
          }
          default: throw new Error(`unexpected turn ${turn}`);
        }
      },
    });
  });

  it('solves the task through the computer tool, and the verifier passes it', () => {
    assert.deepEqual(run.server.scriptErrors.map((e) => e.message), []);
    assert.equal(run.acted.outcome.stats?.stoppedBy, 'done', JSON.stringify(run.acted.outcome));
    assert.equal(run.evaluation.passed, true, run.evaluation.summary);
  });

  it('sends requests of the documented messages shape, with the computer tool at the model\'s size and its beta flag', () => {
    assert.deepEqual(run.requestProblems, []);
    for (const r of run.server.requests) {
      assert.ok(r.headers['x-api-key'] === secret || r.headers.authorization === `Bearer ${secret}`, 'the key from the environment variable the config names');
      assert.match(String(r.headers['anthropic-beta']), /computer-use-2025-01-24/);
    }
    const tools = run.server.requests[0].body.tools as { type?: string; name: string; display_width_px?: number; display_height_px?: number }[];
    assert.deepEqual(tools[0], { type: 'computer_20250124', name: 'computer', display_width_px: 1280, display_height_px: 800 });
    assert.deepEqual(tools.slice(1).map((t) => t.name).sort(), ['click', 'done', 'xdotool']);
    assert.equal(run.server.requests[0].body.model, 'claude-scripted');
  });

  it('scales screenshots down to the model\'s size', () => {
    const first = requestImages(run.server.requests[0]);
    assert.ok(first.length >= 2);
    assert.deepEqual(pngSize(first[0]), { width: 1280, height: 800 });
    assert.match(JSON.stringify(run.server.requests[0].body.messages), /The screen is 1280x800 pixels/);
  });

  it('scales the model\'s coordinates back: each click lands on the element it aimed at', () => {
    const landed = run.records.flatMap((r) => (r.type === 'step' && r.action.type === 'click' ? [r.info.at as { x: number; y: number }] : []));
    assert.equal(landed.length, 2);
    landed.forEach((p, i) => {
      assert.ok(Math.abs(p.x - clicks[i].x) <= 2 && Math.abs(p.y - clicks[i].y) <= 2, `click ${i} at ${JSON.stringify(p)}, aimed at ${JSON.stringify(clicks[i])}`);
    });
  });

  it('counts computer actions by name and the bad ones as malformed', () => {
    const s = run.acted.outcome.stats!;
    assert.equal(s.provider, 'anthropic');
    assert.equal(s.toolUsage['computer.left_click'], 3);
    assert.equal(s.toolUsage['computer.key'], 2);
    assert.equal(s.toolUsage['computer.teleport'], 1);
    assert.equal(s.toolUsage['computer.wait'] ?? 0, waits.count);
    assert.equal(s.malformedCalls, 2);
  });

  it('never lets the API key into the container or the trajectory', () => {
    assert.deepEqual(run.leaks, []);
  });
});
