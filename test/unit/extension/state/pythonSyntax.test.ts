import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { PythonSyntaxChecker, toProblem } from '../../../../extension/src/state/pythonSyntax';

function hasPython(): boolean {
  try { execFileSync('python3', ['--version'], { stdio: 'ignore' }); return true; } catch { return false; }
}

describe('python syntax checking with python3', function () {
  let checker: PythonSyntaxChecker;
  before(function () {
    if (!hasPython()) this.skip(); // the IDE image has python3; a host without it cannot run these
    checker = new PythonSyntaxChecker();
  });
  after(() => checker?.dispose());

  it('finds nothing in valid code', async () => {
    assert.deepEqual(await checker.check('ok.py', 'def f(x):\n    return x + 1\n'), []);
  });

  it('reports a syntax error with its 0-based line and column', async () => {
    const [p, ...rest] = await checker.check('bad.py', 'x = 1\ndef f(:\n    pass\n');
    assert.equal(rest.length, 0);
    assert.equal(p.severity, 'error');
    assert.equal(p.code, 'syntax-error');
    assert.equal(p.range.start.line, 1);
    assert.equal(p.range.start.character, 6);
    assert.ok(p.range.end.character > p.range.start.character);
  });

  it('reports errors the compiler finds after parsing, and indentation errors by name', async () => {
    const [ret] = await checker.check('r.py', 'return 1\n');
    assert.match(ret.message, /'return' outside function/);
    const [ind] = await checker.check('i.py', 'if True:\nprint(1)\n');
    assert.match(ind.message, /^IndentationError: /);
    assert.equal(ind.range.start.line, 1);
  });

  it('reports SyntaxWarnings as warnings', async () => {
    const problems = await checker.check('w.py', 'x = 1\nassert (x, "never fails")\n');
    assert.equal(problems.length, 1);
    assert.equal(problems[0].severity, 'warning');
    assert.equal(problems[0].range.start.line, 1);
  });

  it('keeps answers apart when checks overlap, and survives the worker dying', async () => {
    const [a, b] = await Promise.all([checker.check('a.py', 'a = (\n'), checker.check('b.py', 'b = 1\n')]);
    assert.equal(a.length, 1);
    assert.deepEqual(b, []);
    checker.dispose();
    assert.deepEqual(await checker.check('c.py', 'c = 2\n'), []);
  });

  it('clamps reported positions into the source', () => {
    const p = toProblem({ kind: 'SyntaxError', msg: 'x', line: 9, col: 99, endLine: 0, endCol: 0 }, 'ab\ncd');
    assert.deepEqual(p.range, { start: { line: 1, character: 2 }, end: { line: 1, character: 2 } });
    const q = toProblem({ kind: 'SyntaxError', msg: 'x', line: 1, col: 2, endLine: 1, endCol: 1 }, 'abc');
    assert.deepEqual(q.range, { start: { line: 0, character: 1 }, end: { line: 0, character: 2 } });
  });
});
