import { strict as assert } from 'node:assert';
import { editLines, insertAfterLine, numbered, replaceUnique, splitLines } from '../../../../extension/src/tools/textEdits';

describe('tools: text edits', () => {
  it('numbers lines like cat -n', () => {
    assert.equal(numbered(['a', 'b'], 9), '     9\ta\n    10\tb');
    assert.deepEqual(splitLines('a\nb\n'), ['a', 'b']);
    assert.deepEqual(splitLines(''), []);
  });

  it('replaces a unique match and refuses none or several, naming the lines', () => {
    assert.deepEqual(replaceUnique('x = 1\ny = 2\n', 'y = 2', 'y = 3'), { text: 'x = 1\ny = 3\n', line: 2 });
    assert.throws(() => replaceUnique('a\nb\na\n', 'a', 'c'), /occurs 2 times \(lines 1, 3\)/);
    assert.throws(() => replaceUnique('abc', 'zzz', 'c'), /not found/);
    assert.throws(() => replaceUnique('abc', '', 'c'), /must not be empty/);
  });

  it('inserts after a line, at the top with 0, and refuses lines past the end', () => {
    assert.equal(insertAfterLine('a\nb\n', 1, 'x'), 'a\nx\nb\n');
    assert.equal(insertAfterLine('a\nb\n', 0, 'x\ny\n'), 'x\ny\na\nb\n');
    assert.equal(insertAfterLine('a\nb\n', 2, 'z'), 'a\nb\nz\n');
    assert.equal(insertAfterLine('a\r\nb\r\n', 1, 'x'), 'a\r\nx\r\nb\r\n');
    assert.throws(() => insertAfterLine('a\n', 5, 'x'), /out of range: the file has 1 lines/);
  });

  it('edits lines with REPLACE, INSERT and DELETE', () => {
    const t = 'one\ntwo\nthree\n';
    assert.equal(editLines(t, 'REPLACE', 2, 2, 'TWO'), 'one\nTWO\nthree\n');
    assert.equal(editLines(t, 'REPLACE', 1, 2, 'x'), 'x\nthree\n');
    assert.equal(editLines(t, 'INSERT', 1, undefined, 'zero'), 'zero\none\ntwo\nthree\n');
    assert.equal(editLines(t, 'INSERT', 4, undefined, 'four'), 'one\ntwo\nthree\nfour\n');
    assert.equal(editLines(t, 'DELETE', 2, 3, undefined), 'one\n');
    assert.throws(() => editLines(t, 'DELETE', 3, 2, undefined), /end_line 2 is out of range/);
    assert.throws(() => editLines(t, 'REPLACE', 9, 9, 'x'), /start_line 9 is out of range/);
    assert.throws(() => editLines(t, 'INSERT', 1, undefined, undefined), /content is required/);
  });
});
