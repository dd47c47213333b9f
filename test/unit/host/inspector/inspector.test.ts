import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HumanEvent } from '../../../../bridge/protocol';
import { bridgeCallOf, isBridgeInput } from '../../../../host/env/actionTable';
import { parseAction } from '../../../../host/env/actions';
import { foldHumanEvents, HumanInputFolder } from '../../../../host/inspector/humanInput';
import { settingsKeys } from '../../../../host/inspector/idePanels';
import { EnvServer } from '../../../../host/envServer/envServer';
import { InspectorServer } from '../../../../host/inspector/inspectorServer';
import { trajectoryTimelineEntry } from '../../../../host/inspector/liveSession';
import { fileInside, listTrajectories, loadTrajectoryView } from '../../../../host/inspector/trajectoryView';
import { INPUT_TOOLS, jsonSchemaOf, READ_TOOLS, readToolSchema } from '../../../../host/mcp/mcpTools';
import { TrajectoryWriter } from '../../../../host/trajectory/trajectoryFile';

let seq = 0;
const key = (name: string, down = true): HumanEvent => ({ seq: ++seq, t: 1000 + seq, kind: 'key', down, keysym: 0, name });
const press = (x: number, y: number, action: 'press' | 'release' | 'move' | 'wheel', buttons: number): HumanEvent => ({ seq: ++seq, t: 1000 + seq, kind: 'pointer', x, y, buttons, action });
const tap = (name: string) => [key(name), key(name, false)];

describe('inspector: a person\'s input folded into actions', () => {
  it('joins typed characters (shift included) into one entry and names chords with their modifiers', () => {
    const a = foldHumanEvents([
      key('Shift_L'), ...tap('H'), key('Shift_L', false), ...tap('i'), ...tap('space'), ...tap('U+20AC'),
      key('Control_L'), ...tap('s'), key('Control_L', false), ...tap('Return'),
    ]);
    assert.deepEqual(a.map((x) => [x.kind, x.text]), [['type', 'typed "Hi €"'], ['key', 'ctrl+s'], ['key', 'Return']]);
  });

  it('tells clicks, double clicks, drags and scrolls apart and leaves plain moves out', () => {
    const a = foldHumanEvents([
      press(5, 5, 'move', 0), press(10, 20, 'press', 1), press(10, 20, 'release', 0),
      press(10, 20, 'press', 1), press(10, 20, 'release', 0),
      press(50, 50, 'press', 4), press(50, 50, 'release', 0),
      press(100, 100, 'press', 1), press(200, 150, 'move', 1), press(200, 150, 'release', 0),
      press(30, 30, 'wheel', 16), press(30, 30, 'release', 0), press(30, 30, 'wheel', 16),
    ]);
    assert.deepEqual(a.map((x) => x.text), [
      'left double click at (10, 20)', 'right click at (50, 50)', 'left drag (100, 100) → (200, 150)', 'scroll down at (30, 30) ×2',
    ]);
  });

  it('starts a new typing entry after something else happened (an agent step between)', () => {
    const f = new HumanInputFolder();
    f.push([...tap('a'), ...tap('b')]);
    f.interrupt();
    const added = f.push(tap('c'));
    assert.deepEqual(f.actions.map((x) => x.text), ['typed "ab"', 'typed "c"']);
    assert.equal(added.length, 1);
  });
});

describe('inspector: trajectories for the viewer', () => {
  it('reads the Env format: screenshots, marks, tool calls with results, model text, person input, rewards', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pwp-view-'));
    const w = new TrajectoryWriter(dir, { agent: 'x' });
    w.saveFile('episode-1/reset.png', 'png');
    w.append({ type: 'reset', seed: null, options: {}, info: { envId: 'abcd1234' }, observation: { screenshot: 'episode-1/reset.png', marks: { count: 1, file: 'm.json' }, timings: {} } });
    w.append({
      type: 'step', actor: 'agent', step: 1, action: { type: 'tool', name: 'read_file', args: { file_path: 'a.py' } }, reward: 0, terminated: false, truncated: false,
      info: { modelText: 'I will read a.py', toolResult: { isError: false, content: [{ type: 'text', text: 'print(1)' }, { type: 'image', file: 'img.png' }] } },
      observation: { timings: {} },
    });
    for (const e of [...tap('o'), ...tap('k')]) w.append({ type: 'human', actor: 'human', event: e, t: e.t });
    w.append({ type: 'rewardAsked', actor: 'agent', step: 1, outcome: 'refused', reason: 'the grade is the run\'s, given at the end' });
    w.append({ type: 'step', actor: 'agent', step: 2, action: { type: 'done', answer: 'fine' }, reward: 1, terminated: true, truncated: false, info: {}, observation: { screenshot: 'episode-1/s2.png', timings: {} } });
    w.close();
    const v = loadTrajectoryView(dir);
    assert.equal(v.format, 'env');
    assert.deepEqual(v.steps.map((s) => [s.actor, s.title]), [
      ['system', 'reset'], ['agent', 'step 1: tool read_file'], ['human', 'person: typed "ok"'],
      ['agent', 'asked for its grade: refused (the grade is the run\'s, given at the end)'], ['agent', 'step 2: done: fine'],
    ]);
    const tool = v.steps[1];
    assert.equal(tool.modelText, 'I will read a.py');
    assert.deepEqual(tool.tool?.result?.content, [{ type: 'text', text: 'print(1)' }, { type: 'image', file: 'img.png' }]);
    assert.equal(tool.screenshot, 'episode-1/reset.png', 'a step without a screenshot shows the latest one before it');
    assert.equal(tool.screenshotFrom, 0);
    assert.equal(v.steps[0].marks, 'm.json');
    assert.equal(v.steps[4].reward, 1);
    assert.deepEqual(v.result, { score: 1 });
    assert.equal(listTrajectories([dir])[0].envId, 'abcd1234');
  });

  it('shows no reward and no score for an Env that has none (a session without a task)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pwp-view-'));
    const w = new TrajectoryWriter(dir, { source: 'pwp mcp', rewarded: false });
    w.append({ type: 'reset', seed: null, options: {}, info: {}, observation: { timings: {} } });
    w.append({ type: 'step', actor: 'agent', step: 1, action: { type: 'key', keys: 'a' }, reward: 0, terminated: false, truncated: false, info: {}, observation: { timings: {} } });
    w.append({ type: 'step', actor: 'agent', step: 2, action: { type: 'done' }, reward: 0, terminated: true, truncated: false, info: {}, observation: { timings: {} } });
    w.close();
    const v = loadTrajectoryView(dir);
    assert.deepEqual(v.steps.map((s) => s.reward), [undefined, undefined, undefined]);
    assert.equal(v.result, null);
  });

  it('reads the task runner\'s format: screenshots go with the action before them, notes are the model\'s text, result.json gives the reward', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pwp-view-task-'));
    const lines = [
      { i: 0, t: 10, type: 'screenshot', file: 'screenshots/0000-start.png', label: 'start' },
      { i: 1, t: 20, type: 'note', text: 'open the palette' },
      { i: 2, t: 30, type: 'call', method: 'input.key', params: { keys: 'ctrl+p' }, ms: 5 },
      { i: 3, t: 40, type: 'screenshot', file: 'screenshots/0001-step-1.jpg', label: 'after step 1' },
      { i: 4, t: 50, type: 'call', method: 'tools.call', params: { name: 'bash', args: { command: 'ls' } }, ms: 5 },
      { i: 5, t: 60, type: 'end', status: 'finished', steps: 2 },
    ];
    writeFileSync(join(dir, 'trajectory.jsonl'), `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    writeFileSync(join(dir, 'result.json'), JSON.stringify({ score: 1, passed: true, status: 'finished', task: 'suite/t', agent: 'oracle' }));
    const v = loadTrajectoryView(dir);
    assert.equal(v.format, 'task');
    assert.deepEqual(v.steps.map((s) => s.title), ['screen: start', 'input.key {"keys":"ctrl+p"}', 'tool bash', 'end: finished']);
    assert.equal(v.steps[1].screenshot, 'screenshots/0001-step-1.jpg');
    assert.equal(v.steps[1].modelText, 'open the palette');
    assert.deepEqual(v.steps[2].tool?.args, { command: 'ls' });
    assert.equal(v.steps[3].reward, 1);
    assert.deepEqual(v.result, { score: 1, passed: true, status: 'finished' });
    assert.equal(v.meta.task, 'suite/t');
  });

  it('finds trajectories in nested run folders and keeps file access inside a trajectory\'s folder', () => {
    const root = mkdtempSync(join(tmpdir(), 'pwp-runs-'));
    mkdirSync(join(root, 'a', 'b'), { recursive: true });
    writeFileSync(join(root, 'a', 'b', 'trajectory.jsonl'), '{"i":0,"t":1,"type":"note","text":"x"}\n');
    const found = listTrajectories([root]);
    assert.deepEqual(found.map((t) => [t.name, t.format]), [[join('a', 'b'), 'task']]);
    assert.equal(fileInside('/r/run', 'screenshots/x.png'), '/r/run/screenshots/x.png');
    assert.equal(fileInside('/r/run', '../other/secret'), null);
    assert.equal(fileInside('/r/run', '/etc/passwd'), null);
  });

  it('turns trajectory records into session timeline entries, leaving tool calls to the tool log', () => {
    assert.equal(trajectoryTimelineEntry({ type: 'step', t: 2e12, action: { type: 'key', keys: 'ctrl+s' }, info: {} }, 1)?.text, 'key ctrl+s');
    assert.equal(trajectoryTimelineEntry({ type: 'step', t: 2e12, action: { type: 'tool', name: 'bash' }, info: {} }, 2), null);
    assert.equal(trajectoryTimelineEntry({ type: 'human', t: 2e12 }, 3), null);
    assert.match(trajectoryTimelineEntry({ type: 'call', method: 'input.type', params: { text: 'hi' } }, 4)?.text ?? '', /input\.type/);
  });
});

describe('inspector: settings files', () => {
  it('lists the keys a settings file sets, language blocks included, comments and trailing commas allowed', () => {
    const keys = settingsKeys('{\n // why\n "editor.rulers": [80],\n "[python][markdown]": { "editor.tabSize": 4 },\n}');
    assert.deepEqual(keys, [
      { key: 'editor.rulers', languageId: null },
      { key: 'editor.tabSize', languageId: 'python' }, { key: 'editor.tabSize', languageId: 'markdown' },
    ]);
    assert.deepEqual(settingsKeys(null), []);
  });
});

describe('inspector server: who may read what', () => {
  let server: InspectorServer;
  const root = mkdtempSync(join(tmpdir(), 'pwp-serve-runs-'));
  const outside = mkdtempSync(join(tmpdir(), 'pwp-serve-outside-'));
  before(async () => {
    mkdirSync(join(root, 'run1', 'screenshots'), { recursive: true });
    writeFileSync(join(root, 'run1', 'trajectory.jsonl'), '{"i":0,"t":1,"type":"screenshot","file":"screenshots/a.png","label":"start"}\n');
    writeFileSync(join(root, 'run1', 'screenshots', 'a.png'), 'PNGDATA');
    writeFileSync(join(outside, 'trajectory.jsonl'), '{"i":0,"t":1,"type":"note","text":"x"}\n');
    // The Env server is mounted on the same port, as `pwp serve` does.
    let envServer: EnvServer | undefined;
    const routes = [{
      handleRequest: (...a: Parameters<EnvServer['handleRequest']>) => envServer?.handleRequest(...a) ?? false,
      handleUpgrade: (...a: Parameters<EnvServer['handleUpgrade']>) => envServer?.handleUpgrade(...a) ?? false,
    }];
    server = await InspectorServer.start({ runsRoots: [root], token: 'test-token-0123456789', routes });
    envServer = new EnvServer({ token: server.token, deployment: server.deployment, image: 'pwp-ide:not-started-here' });
  });
  after(() => server.close());

  const get = (path: string, token = true) => fetch(`${server.url.replace(/\/\?token=.*$/, '')}${path}`, { headers: token ? { authorization: 'Bearer test-token-0123456789' } : {} });

  it('answers 401 without the token and serves the page and trajectories with it', async () => {
    assert.equal((await get('/', false)).status, 401);
    assert.equal((await get('/api/trajectories', false)).status, 401);
    const page = await get('/');
    assert.equal(page.status, 200);
    assert.match(await page.text(), /<script src="app.js">/);
    const js = await get('/app.js');
    assert.match(await js.text(), /showTrajectory|trajectory/);
    const list = await (await get('/api/trajectories')).json() as { trajectories: { file: string }[] };
    assert.deepEqual(list.trajectories.map((t) => t.file), [join(root, 'run1', 'trajectory.jsonl')]);
  });

  it('leaves the live view\'s paths (/env/<id>/view/…) to the inspector while the Env server beside it answers /env/schemas', async () => {
    const view = await get('/env/0123abcd/view/vnc.html');
    assert.equal(view.status, 404);
    assert.match(await view.text(), /no environment 0123abcd/);
    assert.equal((await get('/env/0123abcd/view/vnc.html', false)).status, 401);
    const schema = await get('/env/schemas/env.step.json');
    assert.equal(schema.status, 200);
    assert.equal(((await schema.json()) as { title: string }).title, 'env.step');
  });

  it('opens trajectories under its runs folders only, and files beside them only', async () => {
    const file = encodeURIComponent(join(root, 'run1', 'trajectory.jsonl'));
    const view = await (await get(`/api/trajectory?file=${file}`)).json() as { steps: { screenshot?: string }[] };
    assert.equal(view.steps[0].screenshot, 'screenshots/a.png');
    const img = await get(`/api/trajectory/file?file=${file}&rel=screenshots/a.png`);
    assert.equal(img.status, 200);
    assert.equal(img.headers.get('content-type'), 'image/png');
    assert.equal(await img.text(), 'PNGDATA');
    assert.equal((await get(`/api/trajectory/file?file=${file}&rel=${encodeURIComponent('../../../etc/passwd')}`)).status, 404);
    assert.equal((await get(`/api/trajectory?file=${encodeURIComponent(join(outside, 'trajectory.jsonl'))}`)).status, 404);
  });
});

describe('pwp mcp tool definitions', () => {
  it('give every tool an object JSON Schema and map input tools to valid Env actions', () => {
    for (const t of INPUT_TOOLS) {
      const schema = jsonSchemaOf(t.schema);
      assert.equal(schema.type, 'object', t.name);
      assert.ok((schema.properties as Record<string, unknown>).screenshot, `${t.name} takes screenshot`);
    }
    for (const t of READ_TOOLS) assert.equal(readToolSchema(t).type, 'object', t.name);
    const args: Record<string, Record<string, unknown>> = {
      key: { keys: 'ctrl+s' }, type_text: { text: 'hi' }, click: { x: 1, y: 2 }, click_mark: { mark: 3 }, move_mouse: { x: 1, y: 1 },
      drag: { from: { x: 1, y: 1 }, to: { x: 5, y: 5 } }, scroll: { direction: 'down' }, xdotool: { command: 'xdotool key a' },
    };
    const methodOf: Record<string, string> = {
      key: 'input.key', type_text: 'input.type', click: 'input.click', click_mark: 'input.click', move_mouse: 'input.move',
      drag: 'input.drag', scroll: 'input.scroll', xdotool: 'input.xdotool',
    };
    for (const t of INPUT_TOOLS) {
      const parsed = t.schema.parse(args[t.name]) as Record<string, unknown>;
      const action = parseAction(t.action(parsed));
      assert.ok(isBridgeInput(action), `${t.name} is an input action`);
      const call = bridgeCallOf(action);
      assert.equal(call.method, methodOf[t.name], `${t.name} goes to the bridge through the action table`);
      assert.ok(!('screenshot' in call.params), `${t.name}: the screenshot flag is not sent to the bridge`);
    }
  });
});
