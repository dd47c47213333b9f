// Task steps that watch the screen (click, waitForMark, waitForText, answerFromScreen) against
// a scripted screen: each read of dom.marks or dom.tree shows the next frame, and a click by
// mark lands where the last read put that mark, as the bridge resolves it.
import { strict as assert } from 'node:assert';
import type { DomNode, Mark } from '../../../../bridge/protocol';
import type { Action } from '../../../../host/env/actions';
import { match } from '../../../../host/evaluation/matcher';
import type { Annotation, EnvLike, StepResult } from '../../../../host/env/env';
import { StepSchema } from '../../../../host/taskEnv/stepSchema';
import { runSteps } from '../../../../host/taskEnv/steps';

const mark = (id: number, role: string, text: string, y: number): Mark =>
  ({ id, role, text, part: 'sidebar', box: { x: 0, y: y - 10, width: 200, height: 20 }, point: { x: 100, y } });

/** A screen whose n-th read is frame(n): marks, a DOM tree, or an error the bridge answered with. */
class ScriptedScreen {
  reads = 0;
  clicks: { mark?: number; at: { x: number; y: number } }[] = [];
  /** Clicks and the trajectory notes (sync points) in the order they came. */
  events: string[] = [];
  private lastMarks: Mark[] = [];
  constructor(private readonly frame: (n: number) => Mark[] | DomNode | Error) {}

  get env(): EnvLike { return this as unknown as EnvLike; }
  get unwrapped() { return this; }
  annotate(a: Annotation): void { this.events.push(`${a.type}: ${JSON.stringify('match' in a ? a.match : a)}`); }

  async query(method: string): Promise<unknown> {
    const f = this.frame(this.reads++);
    if (f instanceof Error) throw f;
    if (method === 'dom.marks') {
      assert.ok(Array.isArray(f), `read ${this.reads} is not a marks frame`);
      this.lastMarks = f;
      return { marks: f, text: f.map((m) => `[${m.id}] [${m.role}] [${m.text}]`).join('\n'), screen: { width: 1280, height: 800 }, durationMs: 0 };
    }
    assert.equal(method, 'dom.tree');
    return { root: f as DomNode, nodeCount: 1, truncated: false, durationMs: 0 };
  }

  async step(action: Action): Promise<StepResult> {
    assert.equal(action.type, 'click');
    const a = action as { mark?: number; x?: number; y?: number };
    const at = a.mark !== undefined ? this.lastMarks.find((m) => m.id === a.mark)!.point : { x: a.x!, y: a.y! };
    this.clicks.push({ mark: a.mark, at });
    this.events.push(`click ${a.mark}`);
    return {
      observation: { timings: {} },
      reward: 0,
      terminated: false,
      truncated: false,
      info: { step: this.clicks.length, action, durationMs: 0, actionMs: 0, observeMs: 0, settle: null, at },
    };
  }
}

const run = (screen: ScriptedScreen, ...steps: unknown[]) => runSteps(steps.map((s) => StepSchema.parse(s)), screen.env, '/nonexistent');

describe('screen-watching task steps', () => {
  it('a click whose element never appears says what it looked for, for how long, and what was on screen (was a TypeError about slice)', async () => {
    const screen = new ScriptedScreen(() => [mark(1, 'tab', 'app.ts', 20), mark(2, 'treeitem', 'report.csv', 100)]);
    await assert.rejects(run(screen, { click: { role: 'listitem', text: '^Duplicate Selection,' }, timeoutMs: 300 }), (e: Error) => {
      assert.doesNotMatch(e.message, /Cannot read properties/);
      assert.match(e.message, /^step 1 \(click\): an element matching \{"text":"\^Duplicate Selection,","role":"listitem"\} not reached within 300 ms; on screen:\n\[1\] \[tab\] \[app\.ts\]\n\[2\] \[treeitem\] \[report\.csv\]$/);
      return true;
    });
    assert.deepEqual(screen.clicks, []);
  });

  it('says why nothing was seen when the marks could not be read, and how many matched when nth is beyond them', async () => {
    const broken = new ScriptedScreen(() => new Error('the workbench page gave no answer (is it loading?)'));
    await assert.rejects(run(broken, { waitForMark: { text: 'Save' }, timeoutMs: 200 }),
      /step 1 \(waitForMark\): an element matching .* not reached within 200 ms; the marks could not be read: the workbench page gave no answer/);
    const two = new ScriptedScreen(() => [mark(1, 'treeitem', 'a.txt', 20), mark(2, 'treeitem', 'b.txt', 40)]);
    await assert.rejects(run(two, { click: { role: 'treeitem', nth: 2 }, timeoutMs: 200 }), /not reached within 200 ms \(2 matching, but nth is 2\); on screen:/);
  });

  it('clicks an element of a growing list where it is at click time: it waits for it to appear and to hold still', async () => {
    // The row appears on the third read, then moves down twice as rows are added above it.
    const frames: Mark[][] = [
      [mark(1, 'treeitem', 'a.txt', 20)],
      [mark(1, 'treeitem', 'a.txt', 20)],
      [mark(1, 'treeitem', 'a.txt', 20), mark(2, 'treeitem', 'report.csv', 40)],
      [mark(3, 'treeitem', 'new.txt', 20), mark(1, 'treeitem', 'a.txt', 40), mark(2, 'treeitem', 'report.csv', 60)],
      [mark(4, 'treeitem', 'newer.txt', 20), mark(3, 'treeitem', 'new.txt', 40), mark(1, 'treeitem', 'a.txt', 60), mark(2, 'treeitem', 'report.csv', 80)],
    ];
    const screen = new ScriptedScreen((n) => frames[Math.min(n, frames.length - 1)]);
    await run(screen, { click: { role: 'treeitem', text: '^report\\.csv$' } });
    assert.deepEqual(screen.clicks, [{ mark: 2, at: { x: 100, y: 80 } }]);
    assert.equal(screen.reads, 6, 'it clicked after the first two reads that agreed, no sooner');
    assert.deepEqual(screen.events, ['sync: {"marks":{"$contains":[{"role":"treeitem","text":{"$regex":"^report\\\\.csv$","$flags":"i"}}]}}', 'click 2'],
      'the trajectory says to wait for the element before the click, so a replay waits too');
    const sync = JSON.parse(screen.events[0].slice('sync: '.length)) as unknown;
    assert.ok(match({ marks: frames[2] }, sync).ok, 'the sync point matches the screen the element is on');
    assert.ok(!match({ marks: frames[0] }, sync).ok, 'and not one without it');
  });

  it('gives up on an element that never holds still, and says so', async () => {
    const screen = new ScriptedScreen((n) => [mark(7, 'button', 'Run', 10 + n)]);
    await assert.rejects(run(screen, { click: { text: '^Run$' }, timeoutMs: 200 }), /step 1 \(click\): an element matching .* did not hold still within 200 ms \(it moved \d+ times?, last to 100,\d+\)/);
    assert.deepEqual(screen.clicks, []);
  });

  it('waitForText waits until the workbench shows a match (case-insensitive), and lists what it showed when it never does', async () => {
    const tree = (...lines: string[]): DomNode => ({ tag: 'div', children: lines.map((text) => ({ tag: 'span', text })) });
    const screen = new ScriptedScreen((n) => (n < 3 ? tree('Explorer', 'Building…') : tree('Explorer', 'BUILD FINISHED in 3 s')));
    await run(screen, { waitForText: 'build finished' });
    assert.equal(screen.reads, 4);
    const never = new ScriptedScreen(() => tree('Explorer', 'Building…'));
    await assert.rejects(run(never, { waitForText: 'build finished', timeoutMs: 200 }), /step 1 \(waitForText\): \/build finished\/im not reached within 200 ms; on screen:\nExplorer\nBuilding…$/);
  });

  it('answerFromScreen reads the first group of its expression off the screen once it shows', async () => {
    const screen = new ScriptedScreen((n) => ({ tag: 'div', children: [{ tag: 'span', text: n < 2 ? 'total = ?' : 'total = 4217' }] }));
    assert.equal((await run(screen, { answerFromScreen: { regex: 'total = (\\d+)' } })).answer, '4217');
  });

  it('waitForFocus anchors its text at the ends of the label or of the value: "^find$" is the Find box holding text, not the Replace box', async () => {
    const focus = [{ text: 'Replace', value: '' }, { text: 'Find', value: 'left' }];
    let reads = 0;
    const env = {
      get unwrapped() { return env; },
      annotate: () => undefined,
      query: async (method: string) => { assert.equal(method, 'dom.focused'); return { focused: { part: 'find', role: 'textbox', path: '', ...focus[Math.min(reads++, 1)] } }; },
    } as unknown as EnvLike;
    await runSteps([StepSchema.parse({ waitForFocus: { part: 'find', text: '^find$' }, timeoutMs: 60_000 })], env, '/nonexistent');
    assert.equal(reads, 2);
  });
});
