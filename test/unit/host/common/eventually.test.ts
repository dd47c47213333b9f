import { strict as assert } from 'node:assert';
import { eventually } from '../../../../host/common/eventually';

describe('eventually (what task steps wait with)', () => {
  it('returns the first value that passes', async () => {
    let n = 0;
    assert.equal(await eventually(async () => ++n, (v) => v >= 3, 60_000, 'three'), 3);
  });

  it('names what never came and the last value, also when that value is undefined (was a TypeError about slice)', async () => {
    await assert.rejects(eventually(async () => undefined, (v) => v !== undefined, 150, 'an element matching {"text":"Save"}'),
      (e: Error) => /^an element matching \{"text":"Save"\} not reached within 150 ms; last: nothing$/.test(e.message));
    await assert.rejects(eventually(async () => ({ n: 1 }), () => false, 150, 'n = 2'), /n = 2 not reached within 150 ms; last: \{"n":1\}/);
  });

  it('reports the last error when reading kept failing', async () => {
    await assert.rejects(eventually(async () => { throw new Error('bridge gone'); }, () => true, 150, 'the status'), /the status not reached within 150 ms; last: bridge gone/);
  });
});

describe('screenText (what answerFromScreen reads)', () => {
  it('gives a line per shown element with its text or name and value, skipping hidden ones', async () => {
    const { screenText } = await import('../../../../host/taskEnv/screenSteps');
    const root = {
      tag: 'div', children: [
        { tag: 'div', role: 'treeitem', text: 'total = 42' },
        { tag: 'input', name: 'Filter', value: 'abc' },
        { tag: 'span', text: 'secret', hidden: true as const },
        { tag: 'div', children: [{ tag: 'span', text: '  ' }, { tag: 'span', name: 'Debug Console' }] },
      ],
    };
    assert.equal(screenText(root), 'total = 42\nFilter abc\nDebug Console');
    assert.equal(screenText(null), '');
  });
});
