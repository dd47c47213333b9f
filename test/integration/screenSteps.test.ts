// Task steps that watch the screen, on a real IDE: waitForMark waits for an element that
// appears later, answerFromScreen reads an answer off what the workbench shows (what an
// input-only oracle can use), and a wait for something that never comes says what is on screen.
import { strict as assert } from 'node:assert';
import { Env } from '../../host/env/env';
import { StepSchema } from '../../host/taskEnv/stepSchema';
import { runSteps } from '../../host/taskEnv/steps';
import { testImage, testPool } from './environmentFixture';

const steps = (...s: unknown[]) => s.map((x) => StepSchema.parse(x));

describe('screen-watching task steps (real IDE)', function () {
  this.timeout(10 * 60_000);
  let env: Env;
  before(async function () {
    this.timeout(30 * 60_000);
    env = new Env({ image: await testImage(), pool: await testPool(), labels: { 'pwp.test': '1' }, observe: [] });
    await env.reset({ options: { files: { 'notes.txt': 'the total = 4217 units\n' } } });
  });
  after(async () => { await env?.close(); });

  it('waits for a file that appears later in the Explorer, then reads an answer off the open editor', async () => {
    // The file is written a moment after the wait begins: the Explorer lists it once the watcher sees it.
    // (On a slow machine the wait may begin after the write: that weakens the check, it cannot fail it.)
    const later = new Promise<void>((r) => setTimeout(r, 1500)).then(() => env.writeFile('late-report.csv', 'a,b\n'));
    const out = await runSteps(steps(
      { waitForMark: { role: 'treeitem', text: '^late-report\\.csv' }, timeoutMs: 120_000 },
      { openFile: 'notes.txt' },
      { answerFromScreen: { regex: 'total = (\\d+)', timeoutMs: 60_000 } },
    ), env, '/nonexistent');
    await later;
    assert.equal(out.answer, '4217');
  });

  it('sees the label and the text of an input built on the code editor (the Settings search): waitForFocus and a verified type work there', async () => {
    await runSteps(steps(
      { key: 'ctrl+comma' },
      { waitForFocus: { text: 'search settings' }, timeoutMs: 120_000, pressAgain: 'ctrl+comma' },
      { type: 'editor.tabSize', verify: true },
    ), env, '/nonexistent');
    const f = (await env.query('dom.focused', {})).focused;
    assert.equal(f?.value, 'editor.tabSize', JSON.stringify(f));
    assert.match(f?.text ?? '', /search settings/i, JSON.stringify(f));
  });

  it('ends a typing step only once the IDE has taken the keys in, though its window takes them in seconds later', async () => {
    await env.step({ type: 'ide', method: 'ide.editors.open', params: { editors: [{ file: 'notes.txt', cursor: { line: 2, column: 1 } }] } });
    // The page processes stop while the keys are sent: they wait in the browser and the screen
    // stays still, so a quiet screen alone would end the step before the IDE had them.
    const rt = await env.deployment.runtime(env.info.id);
    const renderers = (signal: string) => rt.exec(['pkill', `-${signal}`, '-f', '--', '--type=renderer'], { user: 'root' });
    await renderers('STOP');
    let typing: ReturnType<typeof env.step>;
    try {
      typing = env.step({ type: 'type', text: 'pwp-sync-mark' });
      // Time has to pass with the page stopped: far longer than a quiet-screen wait (150 ms), and
      // well inside the 10 s a step gives the page to take its input in (input.sync, running/settle.ts).
      await new Promise((r) => setTimeout(r, 3000));
    } finally {
      await renderers('CONT');
    }
    const typed = await typing;
    const { activeEditor } = await env.query('ide.editors', {});
    assert.equal(activeEditor?.path, '/workspace/notes.txt');
    assert.deepEqual(activeEditor?.cursor, { line: 2, column: 14 }, 'the cursor is past the typed text');
    assert.equal(typed.info.settle?.inputHandled, true, JSON.stringify(typed.info.settle));
    // The key the bridge marks the end of input with never reaches the IDE, even pressed by an agent.
    const marked = await env.step({ type: 'xdotool', command: 'key XF86Launch9' });
    assert.equal(marked.info.settle?.inputHandled, true);
    assert.deepEqual((await env.query('ide.editors', {})).activeEditor?.cursor, { line: 2, column: 14 });
  });

  it('says what is on screen when the element never comes', async () => {
    await assert.rejects(runSteps(steps({ waitForMark: { text: '^no such element anywhere$' }, timeoutMs: 2000 }), env, '/nonexistent'),
      (e: Error) => /step 1 \(waitForMark\): an element matching .* not reached within 2000 ms; on screen:\n\[\d+\]/.test(e.message));
  });
});
