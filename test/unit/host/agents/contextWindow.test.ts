// What of a long conversation goes into a request: recent images only, old output cut with a
// note, and past the budget the oldest turns dropped with a summary of what they did.
import assert from 'node:assert/strict';
import type { ContentPart, Message } from '../../../../host/models/conversation';
import { contextView, countImages, estimateTokens, type ContextPolicy } from '../../../../host/agents/contextWindow';

const img = (step: number, label = `shot ${step}`): ContentPart => ({ type: 'image', mediaType: 'image/png', data: 'iVBORw0KGgo=', label, step });
const text = (t: string): ContentPart => ({ type: 'text', text: t });

/** A run of `turns` turns: each a tool call whose result is `output` and an observation with one image. */
function conversation(turns: number, output = 'ok'): Message[] {
  const m: Message[] = [{ role: 'user', content: [text('Task: do it'), img(0)], step: 0 }];
  for (let s = 1; s <= turns; s++) {
    m.push({ role: 'assistant', text: `thinking ${s}`, toolCalls: [{ id: `c${s}`, name: 'bash', arguments: `{"command":"step ${s}"}` }], step: s });
    m.push({ role: 'tool', results: [{ callId: `c${s}`, name: 'bash', content: [text(output)], isError: s === 2, step: s }], after: [text(`observation ${s}`), img(s)], step: s });
  }
  return m;
}

const policy = (p: Partial<ContextPolicy> = {}): ContextPolicy => ({ keepImages: 3, keepFullTurns: 2, oldOutputChars: 100, contextTokens: 1_000_000, ...p });

describe('context window', () => {
  it('keeps only the N most recent images and names the ones it removed', () => {
    const v = contextView(conversation(6), policy({ keepImages: 2 }));
    assert.equal(v.images, 2);
    const last = v.messages.at(-1) as Extract<Message, { role: 'tool' }>;
    assert.equal(last.after[1].type, 'image');
    const first = v.messages[0] as Extract<Message, { role: 'user' }>;
    assert.deepEqual(first.content[1], { type: 'text', text: '[shot 0: image removed to save context]' });
    assert.equal(countImages(conversation(6)), 7, 'the conversation itself keeps every image');
  });

  it('sends no image at all when the policy keeps none', () => {
    assert.equal(contextView(conversation(3), policy({ keepImages: 0 })).images, 0);
  });

  it('cuts old tool output with a note and leaves recent output whole', () => {
    const long = 'x'.repeat(1000);
    const v = contextView(conversation(5, long), policy());
    const results = v.messages.filter((m): m is Extract<Message, { role: 'tool' }> => m.role === 'tool').map((m) => (m.results[0].content[0] as { text: string }).text);
    assert.match(results[0], /^x{100}\n\[… 900 more characters of this older output were cut to save context\]$/);
    assert.equal(results[4], long);
    assert.equal(results[3], long, 'the last keepFullTurns turns stay whole');
    assert.ok(results[2].length < 200);
  });

  it('drops the oldest turns past the token budget, keeps the task, and summarises what the dropped turns did', () => {
    const all = conversation(10, 'y'.repeat(1500));
    const full = contextView(all, policy({ keepImages: 0, oldOutputChars: 2000 }));
    const v = contextView(all, policy({ keepImages: 0, oldOutputChars: 2000, contextTokens: Math.floor(full.estimatedTokens / 2) }));
    assert.ok(v.droppedTurns > 0);
    assert.ok(v.estimatedTokens <= Math.floor(full.estimatedTokens / 2));
    const first = v.messages[0] as Extract<Message, { role: 'user' }>;
    assert.equal((first.content[0] as { text: string }).text, 'Task: do it');
    const note = (first.content.at(-1) as { text: string }).text;
    assert.match(note, new RegExp(`^\\[${v.droppedTurns} earlier turn\\(s\\) were dropped`));
    assert.match(note, /- step 1: said "thinking 1"; bash\(\{"command":"step 1"\}\) → /);
    assert.match(note, /- step 2: .*→ error: /);
    // Still a well-formed conversation: assistant turns each answered, the latest turns kept.
    assert.equal(v.messages[1].role, 'assistant');
    assert.equal(v.messages.at(-1)!.step, 10);
    for (let i = 1; i < v.messages.length; i += 2) assert.equal(v.messages[i].role, 'assistant');
  });

  it('estimates text at about four characters a token and images as a screen each', () => {
    const m: Message[] = [{ role: 'user', content: [text('a'.repeat(400)), img(0)], step: 0 }];
    assert.equal(estimateTokens(m), 100 + 1500);
  });
});
