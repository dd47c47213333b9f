import { strict as assert } from 'node:assert';
import { nodePath, parseCollected, parseSummary } from '../../../../extension/src/tools/ide/pytestOutput';
import { imageSize, viewRegion } from '../../../../extension/src/tools/imageView';
import { fuzzyScore, queryTerms } from '../../../../extension/src/tools/search';
import { globToRegExp } from '../../../../extension/src/tools/assisted/fileNameSearch';
import { rankTables } from '../../../../extension/src/tools/assisted/sqlTools';
import { toolEnv } from '../../../../extension/src/tools/toolEnv';
import { OutputStore } from '../../../../extension/src/tools/outputStore';
import { logArgs } from '../../../../extension/src/tools/toolLog';
import { describeBash } from '../../../../extension/src/tools/filebash/bash';
import { stem } from '../../../../extension/src/tools/search';

describe('tools: pure helpers', () => {
  it('parses pytest collection and -rA summaries', () => {
    assert.deepEqual(parseCollected('tests/test_a.py::test_x\ntests/test_a.py::T::test_y\n\n2 tests collected in 0.01s\n'), ['tests/test_a.py::test_x', 'tests/test_a.py::T::test_y']);
    const s = parseSummary('== short test summary info ==\nPASSED t.py::a\nFAILED t.py::b - assert 1 == 2\nSKIPPED [1] t.py:4: no\nERROR t.py::c - boom\n');
    assert.deepEqual(s, [
      { nodeId: 't.py::a', outcome: 'passed', message: undefined },
      { nodeId: 't.py::b', outcome: 'failed', message: 'assert 1 == 2' },
      { nodeId: 't.py::c', outcome: 'error', message: 'boom' },
    ]);
    assert.deepEqual(nodePath('a/t.py::C::m'), ['a/t.py', 'C', 'm']);
  });

  it('reads PNG and JPEG sizes and computes zoom regions', () => {
    const png = Buffer.alloc(32);
    png.writeUInt32BE(0x89504e47, 0); png.writeUInt32BE(640, 16); png.writeUInt32BE(480, 20);
    assert.deepEqual(imageSize(png), { width: 640, height: 480, mimeType: 'image/png' });
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x04, 0, 0, 0xff, 0xc0, 0x00, 0x11, 0x08, 0x01, 0x00, 0x02, 0x00, 0, 0, 0, 0, 0]);
    assert.deepEqual(imageSize(jpeg), { width: 512, height: 256, mimeType: 'image/jpeg' });
    assert.equal(imageSize(Buffer.from('not an image')), undefined);
    assert.deepEqual(viewRegion(800, 600, 2, 0.5, 0.5), { x: 200, y: 150, width: 400, height: 300 });
    assert.deepEqual(viewRegion(800, 600, 2, 0, 1), { x: 0, y: 300, width: 400, height: 300 });
  });

  it('ranks file paths fuzzily and splits queries into terms', () => {
    const files = ['src/user_service.py', 'src/users.py', 'docs/readme.md'];
    const ranked = files.filter((f) => fuzzyScore(f, 'users') > 0).sort((a, b) => fuzzyScore(b, 'users') - fuzzyScore(a, 'users'));
    assert.equal(ranked[0], 'src/users.py');
    assert.ok(fuzzyScore('src/user_service.py', 'usrsvc') > 0);
    assert.equal(fuzzyScore('docs/readme.md', 'xyz'), 0);
    assert.deepEqual(queryTerms('where is the hashPassword function'), ['hashpassword', 'hash', 'password']);
    assert.ok(globToRegExp('*.test.ts').test('a.test.ts'));
    assert.ok(!globToRegExp('*.test.ts').test('a.ts'));
  });

  it('ranks database tables by the words of a question', () => {
    const t = (name: string, cols: string[]) => ({ type: 'table', name, table: name, sql: null, columns: cols.map((c) => ({ name: c, type: 'TEXT', notnull: false, pk: false })) });
    const ranked = rankTables([t('orders', ['id', 'total']), t('customers', ['id', 'email']), t('logs', ['line'])], 'which customers have an email');
    assert.equal(ranked[0].name, 'customers');
  });

  it('keeps the bridge\'s secrets and IDE internals out of tool processes', () => {
    const env = toolEnv({ PATH: '/bin', HOME: '/home/pwp', PWP_EXTENSION_TOKEN: 'secret', PWP_TOKEN: 'x', VSCODE_IPC_HOOK_CLI: '/tmp/s', LANG: 'C.UTF-8' }, '/workspace');
    assert.equal(env.PWP_EXTENSION_TOKEN, undefined);
    assert.equal(env.PWP_TOKEN, undefined);
    assert.equal(env.VSCODE_IPC_HOOK_CLI, undefined);
    assert.equal(env.LANG, 'C.UTF-8');
    assert.equal(env.PAGER, 'cat');
  });

  it('keeps only the most recent cut outputs, within a size budget', () => {
    const store = new OutputStore(2, 100);
    const a = store.put('a'.repeat(10));
    const b = store.put('b'.repeat(10));
    const c = store.put('c'.repeat(10));
    assert.equal(store.get(a), undefined);
    assert.equal(store.get(b), 'b'.repeat(10));
    const d = store.put('d'.repeat(95));
    assert.equal(store.get(c), undefined, 'the size budget evicts the oldest');
    assert.equal(store.get(d)?.length, 95);
  });

  it('logs long string arguments cut, keeping their length', () => {
    const logged = logArgs({ file_path: 'a.py', contents: 'x'.repeat(5000), nested: [{ s: 'y'.repeat(3000) }] }) as { contents: string; nested: { s: string }[] };
    assert.match(logged.contents, /^x{2000}…\[5000 chars\]$/);
    assert.match(logged.nested[0].s, /…\[3000 chars\]$/);
  });

  it('tells the agent what a bash timeout means and what to do next', () => {
    const base = { exitCode: null, cwd: '/w', running: true, droppedChars: 0 };
    assert.match(describeBash({ ...base, output: 'partial\n', status: 'soft-timeout' }, 30, 120), /^partial\n\[no output for 30 s; the command is still running\. Call again with \{"wait": true\}/);
    assert.equal(describeBash({ ...base, running: false, output: 'ok', status: 'done', exitCode: 0 }, 30, 120), 'ok');
    assert.equal(describeBash({ ...base, running: false, output: '', status: 'done', exitCode: 3 }, 30, 120), '[exit code 3]');
    assert.match(describeBash({ ...base, running: false, output: '', status: 'hard-timeout' }, 30, 5), /ran longer than 5 s and was interrupted\]$/);
    assert.equal(stem('hashed'), 'hash');
    assert.equal(stem('passwords'), 'password');
    assert.equal(stem('class'), 'class');
  });
});
