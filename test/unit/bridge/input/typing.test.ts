import { strict as assert } from 'node:assert';
import { InvalidParamsError } from '../../../../bridge/protocol';
import { slotFor, typingChunks } from '../../../../bridge/input/typing';

describe('typing chunks', () => {
  it('keeps keyboard ASCII, newlines and tabs as they are, needing no extra keycodes', () => {
    const [c] = typingChunks('a{}"\'$\\\n\tb', 10);
    assert.equal(c.text, 'a{}"\'$\\\n\tb');
    assert.equal(c.slots.size, 0);
  });
  it('asks for one keycode slot per non-ASCII character, a case pair sharing one', () => {
    const [c] = typingChunks('éÉ✓日🎉', 10);
    assert.deepEqual([...c.slots.entries()], [
      ['é', ['U00E9', 'U00C9']],
      ['✓', ['U2713', 'U2713']],
      ['日', ['U65E5', 'U65E5']],
      ['🎉', ['U1F389', 'U1F389']],
    ]);
  });
  it('maps upper-case letters to their lower/upper pair so shift is kept', () => {
    assert.deepEqual(slotFor('Ä'), ['ä', ['U00E4', 'U00C4']]);
    assert.deepEqual(slotFor('ß'), ['ß', ['U00DF', 'U00DF']]); // upper case is "SS": no pair
  });
  it('splits text that needs more slots than there are spare keycodes, in order', () => {
    const chunks = typingChunks('aébçdéñé', 2);
    assert.deepEqual(chunks.map((c) => c.text), ['aébçdé', 'ñé']);
    assert.ok(chunks.every((c) => c.slots.size <= 2));
  });
  it('normalizes CRLF and refuses other control characters', () => {
    assert.equal(typingChunks('a\r\nb', 5)[0].text, 'a\nb');
    assert.throws(() => typingChunks('a\u0007b', 5), InvalidParamsError);
  });
});
