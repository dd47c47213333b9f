import { strict as assert } from 'node:assert';
import { appendFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { humanEventArgv } from '../../../../host/trajectory/replay';
import { TrajectoryWriter, actionsOf, readTrajectory } from '../../../../host/trajectory/trajectoryFile';

const dir = () => mkdtempSync(join(tmpdir(), 'pwp-traj-'));

describe('trajectory files', () => {
  it('writes one numbered, timestamped JSON line per record, header first', () => {
    const d = dir();
    const w = new TrajectoryWriter(d, { task: 't1' });
    w.append({
      type: 'step',
      actor: 'agent',
      step: 1,
      action: { type: 'key', keys: 'ctrl+s' },
      reward: 0,
      terminated: false,
      truncated: false,
      info: {},
      observation: { timings: {} },
    });
    w.append({ type: 'human', actor: 'human', event: { seq: 1, t: 5, kind: 'key', down: true, keysym: 0x61, name: 'a' }, t: 5 });
    w.close();
    const lines = readFileSync(join(d, 'trajectory.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    assert.deepEqual(lines.map((l) => [l.type, l.seq]), [['header', 1], ['step', 2], ['human', 3]]);
    assert.equal(lines[0].meta.task, 't1');
    assert.equal(lines[2].t, 5, 'a human event keeps the time the bridge saw it');
    assert.ok(lines[1].t > 1e12);
  });

  it('reads back what a crash left: every whole line, and the torn last one set aside', () => {
    const d = dir();
    const w = new TrajectoryWriter(d);
    w.append({ type: 'pause' });
    w.close();
    appendFileSync(join(d, 'trajectory.jsonl'), '{"type":"step","seq":3,"act');
    const t = readTrajectory(d);
    assert.deepEqual(t.records.map((r) => r.type), ['header', 'pause']);
    assert.equal(t.tornTail, '{"type":"step","seq":3,"act');
  });

  it('refuses a file broken in the middle', () => {
    const d = dir();
    const w = new TrajectoryWriter(d);
    w.close();
    appendFileSync(join(d, 'trajectory.jsonl'), 'garbage\n{"type":"pause","seq":3,"t":1}\n');
    assert.throws(() => readTrajectory(d), /trajectory\.jsonl:2: not a JSON record/);
  });

  it('continues numbering when a trajectory is reopened, and lists actions of both actors in order', () => {
    const d = dir();
    const w1 = new TrajectoryWriter(d);
    w1.append({ type: 'human', actor: 'human', event: { seq: 1, t: 1, kind: 'key', down: true, keysym: 0x62, name: 'b' } });
    w1.close();
    const w2 = new TrajectoryWriter(d);
    w2.append({
      type: 'step',
      actor: 'agent',
      step: 1,
      action: { type: 'type', text: 'x' },
      reward: 0,
      terminated: false,
      truncated: false,
      info: {},
      observation: { timings: {} },
    });
    w2.close();
    const t = readTrajectory(join(d, 'trajectory.jsonl'));
    assert.deepEqual(t.records.map((r) => r.seq), [1, 2, 3]);
    assert.equal(t.records.filter((r) => r.type === 'header').length, 1);
    assert.deepEqual(actionsOf(t).map((r) => r.type), ['human', 'step']);
  });

  it('turns recorded human input into the xdotool input that reproduces it', () => {
    const key = (down: boolean) => ({ seq: 1, t: 1, kind: 'key' as const, down, keysym: 0xff0d, name: 'Return' });
    assert.deepEqual(humanEventArgv(key(true), 0), ['keydown', 'Return']);
    assert.deepEqual(humanEventArgv(key(false), 0), ['keyup', 'Return']);
    const p = (action: 'press' | 'release' | 'wheel' | 'move', buttons: number) => ({ seq: 2, t: 2, kind: 'pointer' as const, x: 10, y: 20, buttons, action });
    assert.deepEqual(humanEventArgv(p('press', 4), 0), ['mousemove', '10', '20', 'mousedown', '3']);
    assert.deepEqual(humanEventArgv(p('release', 0), 4), ['mousemove', '10', '20', 'mouseup', '3']);
    assert.deepEqual(humanEventArgv(p('wheel', 16), 0), ['mousemove', '10', '20', 'click', '5']);
    assert.deepEqual(humanEventArgv(p('move', 0), 0), ['mousemove', '10', '20']);
    assert.equal(humanEventArgv({ seq: 3, t: 3, kind: 'clipboard', text: 'x' }, 0), null);
  });
});
