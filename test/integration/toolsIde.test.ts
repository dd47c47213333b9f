// tools.* end to end, the IDE-native tools, in a real container: symbols, definitions and
// references from the language servers (pyright for Python, the built-in TypeScript service),
// a rename across files that leaves strings and comments alone, code actions, formatting and
// organize imports for both languages, a configured task, the debugger stopping on a
// breakpoint with the right values, and pytest through the Test Explorer.
import { strict as assert } from 'node:assert';
import { useEnvironment } from './environmentFixture';
import { eventually } from './ideDriving';
import { callTool, fileIn, textOf } from './toolsFixture';

const FILES = {
  'shop/pricing.py': 'def net_price(amount, rate):\n    """Price after discount."""\n    return amount * (1 - rate)\n',
  'shop/__init__.py': '',
  'shop/cart.py': 'from shop.pricing import net_price\n\n\ndef cart_total(items):\n    # net_price is applied per item\n    total = 0\n    for amount in items:\n        total += net_price(amount, 0.1)\n    return total\n\n\nLABEL = "net_price"\n',
  'main.py': 'from shop import pricing\nfrom shop.cart import cart_total\n\nif __name__ == "__main__":\n    items = [10, 20]\n    print(cart_total(items), pricing.net_price(5, 0))\n',
  'messy.py': 'import sys\nimport os\nimport json\ndef f( a,b ):\n    return a+b\nprint(os.sep, json.dumps(f(1,2)))\n',
  'tests/test_pricing.py': 'from shop.pricing import net_price\n\n\ndef test_discount():\n    assert net_price(100, 0.5) == 50\n\n\ndef test_wrong():\n    assert net_price(10, 0) == 11\n',
  'ts/util.ts': 'export function twice(n: number): number {\n  return n * 2;\n}\n',
  'ts/app.ts': 'import { readFileSync } from "node:fs";\nimport { twice } from "./util";\nconst   x    =   twice(21)\nconsole.log(x);\n',
  'ts/missing.ts': 'export const y = twice(2);\n',
  'ts/half.ts': 'export function half(n: number): number {\n  return n / 2;\n}\n',
  'ts/useHalf.ts': 'import { half } from "./half";\n// half of it\nexport const h = half(8);\nexport const name = "half";\n',
  'tsconfig.json': '{ "compilerOptions": { "strict": true, "noEmit": true, "module": "commonjs", "target": "es2022" } }\n',
  'prog.js': 'function mul(a, b) {\n  const product = a * b;\n  return product;\n}\nconsole.log(mul(6, 7));\n',
  'calc.ts': 'function area(w: number, h: number): number {\n  const result: number = w * h;\n  return result;\n}\nconsole.log(area(3, 4));\n',
  'wrap.py': 'import textwrap\n\n\ndef show(text):\n    lines = textwrap.wrap(text, width=10)\n    return lines\n\n\nprint(show("alpha beta gamma delta"))\n',
  'sleepy.py': 'import time\n\n\ndef busy():\n    s = 0\n    for i in range(300000):\n        s += i * i\n    return s\n\n\nbusy()\ntime.sleep(3)\n',
  'hot.py': 'def slow():\n    s = 0\n    for i in range(200000):\n        s += i % 7\n    return s\n\n\ndef quick():\n    return sum(range(100))\n\n\ndef main():\n    quick()\n    print(slow())\n\n\nmain()\n',
  '.vscode/tasks.json': '{ "version": "2.0.0", "tasks": [ { "label": "check", "type": "shell", "command": "test -f main.py && exit 3" } ] }\n',
};

describe('tools.*: IDE-native tools', function () {
  this.timeout(300_000); // a hang detector: a loaded machine needs several of the waits on state below
  const env = useEnvironment(FILES);

  it('document_symbols and workspace_symbols come from the language servers (Python and TypeScript)', async () => {
    const { client } = env();
    const py = textOf(await callTool(client, 'document_symbols', { file: 'shop/cart.py' }));
    assert.match(py, /function cart_total \(lines 4-9\)/);
    assert.match(py, /(constant|variable) LABEL \(lines 12-12\)/);
    const ts = textOf(await callTool(client, 'document_symbols', { file: 'ts/util.ts' }));
    assert.match(ts, /function twice \(lines 1-3\)/);
    const ws = textOf(await callTool(client, 'workspace_symbols', { query: 'cart_total' }));
    assert.match(ws, /function cart_total {2}shop\/cart\.py:4/);
  });

  it('go_to_definition and find_references work across files', async () => {
    const { client } = env();
    const def = textOf(await callTool(client, 'go_to_definition', { file: 'main.py', line: 6, symbol: 'cart_total' }));
    assert.equal(def, 'shop/cart.py:4:5  def cart_total(items):');
    const tsDef = textOf(await callTool(client, 'go_to_definition', { file: 'ts/app.ts', line: 3, symbol: 'twice' }));
    assert.match(tsDef, /^ts\/util\.ts:1:17 {2}export function twice/);
    const refs = textOf(await callTool(client, 'find_references', { file: 'shop/pricing.py', line: 1, symbol: 'net_price' }));
    assert.match(refs, /^\d+ references in 4 files:/);
    for (const where of ['shop/pricing.py:1:5', 'shop/cart.py:1:26', 'shop/cart.py:8:18', 'main.py:6:38', 'tests/test_pricing.py:5:12'])
      assert.ok(refs.includes(where), `${where} in\n${refs}`);
    assert.ok(!refs.includes('shop/cart.py:5:'), 'the comment is not a reference');
  });

  it('rename_symbol renames through the language server in every importing file, leaving strings and comments alone', async () => {
    const { client } = env();
    const r = await callTool(client, 'rename_symbol', { file: 'shop/pricing.py', line: 1, symbol: 'net_price', new_name: 'discounted_price' });
    assert.equal(r.isError, false, textOf(r));
    assert.match(textOf(r), /in 4 file\(s\)/);
    assert.equal(await fileIn(env(), '/workspace/shop/pricing.py'), FILES['shop/pricing.py'].replace('def net_price', 'def discounted_price'));
    const cart = (await fileIn(env(), '/workspace/shop/cart.py'))!;
    assert.match(cart, /^from shop\.pricing import discounted_price\n/);
    assert.match(cart, /total \+= discounted_price\(amount, 0\.1\)/);
    assert.match(cart, /# net_price is applied per item/, 'the comment is unchanged');
    assert.match(cart, /LABEL = "net_price"/, 'the string is unchanged');
    assert.match((await fileIn(env(), '/workspace/main.py'))!, /pricing\.discounted_price\(5, 0\)/);
    assert.match((await fileIn(env(), '/workspace/tests/test_pricing.py'))!, /assert discounted_price\(100, 0\.5\) == 50/);
    const editors = await client.call('ide.editors', {});
    const dirty = editors.groups.flatMap((g) => g.tabs).filter((t) => t.dirty);
    assert.deepEqual(dirty, [], 'every changed file was saved');
    const nothing = await callTool(client, 'rename_symbol', { file: 'shop/cart.py', line: 5, column: 3, new_name: 'x' });
    assert.equal(nothing.isError, true);
    assert.match(textOf(nothing), /(cannot rename the symbol|no rename is possible) at shop\/cart\.py:5:3/, "the tool says where nothing can be renamed");
    const ts = await callTool(client, 'rename_symbol', { file: 'ts/half.ts', symbol: 'half', new_name: 'halve' });
    assert.equal(ts.isError, false, textOf(ts));
    assert.equal(await fileIn(env(), '/workspace/ts/useHalf.ts'), 'import { halve } from "./half";\n// half of it\nexport const h = halve(8);\nexport const name = "half";\n');
    assert.match((await fileIn(env(), '/workspace/ts/half.ts'))!, /^export function halve\(/);
  });

  it('code_actions lists and applies a TypeScript quick fix (add the missing import)', async () => {
    const { client } = env();
    await client.call('ide.diagnostics', { file: 'ts/missing.ts', waitMs: 15_000, open: 'editor' });
    // The TypeScript server may need longer than one settle wait on a loaded machine (and a wait
    // can settle before it has started): asked until it has reported.
    const problemsIn = async () => textOf(await callTool(client, 'get_diagnostics', { file: 'ts/missing.ts', wait_ms: 10_000 }));
    const problems = await eventually(problemsIn, (t) => /Cannot find name/.test(t), 120_000, 'the TypeScript error');
    assert.match(problems, /^1 errors, 0 warnings in ts\/missing\.ts:\nts\/missing\.ts:1:18 error \[ts\]: Cannot find name 'twice'/);
    const list = textOf(await callTool(client, 'code_actions', { file: 'ts/missing.ts', start_line: 1, kind: 'quickfix' }));
    const n = list.split('\n').findIndex((l) => /Add import from "\.\/util"/.test(l)) + 1;
    assert.ok(n > 0, list);
    const applied = await callTool(client, 'code_actions', { file: 'ts/missing.ts', start_line: 1, kind: 'quickfix', apply: n });
    assert.equal(applied.isError, false, textOf(applied));
    assert.match((await fileIn(env(), '/workspace/ts/missing.ts'))!, /^import \{ twice \} from ["']\.\/util["'];?\n/);
    // The TypeScript server checks the changed file when it gets to it.
    await eventually(problemsIn, (t) => /^No error\/warning problems in ts\/missing\.ts/.test(t), 120_000, 'the error gone after the fix');
  });

  it('format_document and organize_imports work for Python (black, isort) and TypeScript', async () => {
    const { client } = env();
    assert.match(textOf(await callTool(client, 'organize_imports', { file: 'messy.py' })), /Organized the imports/);
    assert.match((await fileIn(env(), '/workspace/messy.py'))!, /^import json\nimport os\nimport sys\n/);
    assert.match(textOf(await callTool(client, 'format_document', { file: 'messy.py' })), /Formatted messy\.py/);
    assert.match((await fileIn(env(), '/workspace/messy.py'))!, /\n\n\ndef f\(a, b\):\n {4}return a \+ b\n\n\nprint\(os\.sep, json\.dumps\(f\(1, 2\)\)\)\n$/);
    await callTool(client, 'format_document', { file: 'ts/app.ts' });
    await callTool(client, 'organize_imports', { file: 'ts/app.ts' });
    assert.equal(await fileIn(env(), '/workspace/ts/app.ts'), 'import { twice } from "./util";\nconst x = twice(21)\nconsole.log(x);\n');
  });

  it('open_file shows a file in the editor with the cursor on the line', async () => {
    const { client } = env();
    const r = textOf(await callTool(client, 'open_file', { file: 'shop/cart.py', line: 6 }));
    assert.match(r, /^Opened shop\/cart\.py at line 6, column 1:\n/);
    const ed = (await client.call('ide.editors', {})).activeEditor!;
    assert.equal(ed.path, '/workspace/shop/cart.py');
    assert.deepEqual(ed.cursor, { line: 6, column: 1 });
    assert.match(textOf(await callTool(client, 'open_file', { file: 'shop/cart.py', line: 99 })), /past the end/);
  });

  it('run_task runs a tasks.json task and reports its exit code', async () => {
    const { client } = env();
    assert.match(textOf(await callTool(client, 'run_task', {})), /- check/);
    const r = await callTool(client, 'run_task', { name: 'check', timeout_s: 60 });
    assert.equal(r.isError, true);
    assert.match(textOf(r), /Task check finished in [\d.]+ s with exit code 3/);
  });

  it('debug stops a Python program on a breakpoint with the right stack and variables, evaluates, and continues to the end', async () => {
    const { client } = env();
    const r = await callTool(client, 'debug', { action: 'start', file: 'main.py', breakpoints: [{ line: 8, file: 'shop/cart.py' }], timeout_s: 60 }, { timeoutMs: 90_000 });
    assert.equal(r.isError, false, textOf(r));
    const t = textOf(r);
    assert.match(t, /Stopped: breakpoint at shop\/cart\.py:8 in cart_total/);
    assert.match(t, /> #0 cart_total at shop\/cart\.py:8\n {2}#1 <module> at main\.py:6/);
    assert.match(t, /items \(list\) = \[10, 20\]/);
    assert.match(t, /amount \(int\) = 10/);
    assert.match(t, /total \(int\) = 0/);
    const debugState = await client.call('ide.debug', {});
    assert.ok(debugState.breakpoints.some((b) => b.path === '/workspace/shop/cart.py' && b.line === 8), 'the breakpoint is the IDE\'s');
    assert.ok(debugState.activeSessionId, 'a debug session runs in the IDE');
    assert.equal(textOf(await callTool(client, 'debug', { action: 'evaluate', expression: 'amount * 3' })), 'amount * 3 = 30 (int)');
    const second = textOf(await callTool(client, 'debug', { action: 'continue' }));
    assert.match(second, /amount \(int\) = 20/);
    assert.match(second, /total \(float\) = 9\.0/);
    await client.call('ide.debug.removeBreakpoints', { all: true });
    const end = textOf(await callTool(client, 'debug', { action: 'continue' }));
    assert.match(end, /The program ended \(exit code 0\)[\s\S]*27\.0 5/);
  });

  it('debug steps into the standard library only with just_my_code off, showing the library frame by its path', async () => {
    const { client } = env();
    const mine = textOf(await callTool(client, 'debug', { action: 'start', file: 'wrap.py', breakpoints: [{ line: 5 }], timeout_s: 60 }, { timeoutMs: 90_000 }));
    assert.match(mine, /Stopped: breakpoint at wrap\.py:5 in show/);
    assert.match(textOf(await callTool(client, 'debug', { action: 'step_into' })), /Stopped: step at wrap\.py:6 in show/, 'just my code steps over the library call');
    await callTool(client, 'debug', { action: 'stop' });
    const lib = textOf(
      await callTool(
        client,
        'debug',
        { action: 'start', file: 'wrap.py', breakpoints: [{ line: 5 }], just_my_code: false, timeout_s: 60 },
        { timeoutMs: 90_000 },
      ),
    );
    assert.match(lib, /Stopped: breakpoint at wrap\.py:5 in show/);
    const inside = textOf(await callTool(client, 'debug', { action: 'step_into' }));
    assert.match(inside, /Stopped: step at \/usr\/lib\/python3\.11\/textwrap\.py:\d+ in wrap\n/);
    assert.match(inside, /> #0 wrap at \/usr\/lib\/python3\.11\/textwrap\.py:\d+\n {2}#1 show at wrap\.py:5\n/);
    assert.match(inside, /width \(int\) = 10/);
    await callTool(client, 'debug', { action: 'stop' });
  });

  it('profile runs a Python file, saves its folded stacks, opens the flame graph in the editor and names the hot function', async () => {
    const { client } = env();
    const r = await callTool(client, 'profile', { file: 'hot.py' });
    assert.equal(r.isError, false, textOf(r));
    const t = textOf(r);
    assert.match(t, /^Profiled hot\.py \(exit code 0\)\. Collapsed stacks saved to \.pwp\/profile\/hot\.py\.folded; the flame graph is open in the editor\.\nTimes are CPU time of the main thread \(clock "cpu"\)\./);
    assert.match(t, /Widest stacks \(self time of the innermost frame\):\n +[\d.]+ ms +[\d.]+% {2}<module> \(hot\.py:1\) > main \(hot\.py:12\) > slow \(hot\.py:1\)\n/);
    assert.match(t, /Program output \(last part\):\n599994/);
    const folded = await fileIn(env(), '/workspace/.pwp/profile/hot.py.folded');
    assert.match(folded ?? '', /^<module> \(hot\.py:1\);main \(hot\.py:12\);slow \(hot\.py:1\) \d+$/m);
    const tabs = async () => (await client.call('ide.editors', {})).groups.flatMap((g) => g.tabs);
    const flame = async () => (await tabs()).some((tab) => tab.kind === 'webview' && tab.label === 'Flame graph: hot.py' && tab.active);
    for (const t0 = Date.now(); !(await flame()) && Date.now() - t0 < 60_000;) await new Promise((r) => setTimeout(r, 250));
    assert.ok(await flame(), `the flame graph tab is open and active: ${JSON.stringify((await tabs()).map((x) => [x.label, x.kind, x.active]))}`);
    // CPU time leaves out waiting: a 3 s sleep is not the hot path, as it is on the wall clock.
    const widest = async (clock: string) => /Widest stacks[^\n]*\n[^\n]*> (\S+) \(/.exec(textOf(await callTool(client, 'profile', { file: 'sleepy.py', clock, open_view: false })))?.[1];
    assert.equal(await widest('cpu'), 'busy');
    assert.equal(await widest('wall'), 'sleep');
    const bad = await callTool(client, 'profile', { file: 'prog.js' });
    assert.equal(bad.isError, true);
    assert.match(textOf(bad), /profile runs Python files/);
  });

  it('debug stops JavaScript and TypeScript programs under js-debug with their locals', async () => {
    const { client } = env();
    const r = textOf(await callTool(client, 'debug', { action: 'start', file: 'prog.js', breakpoints: [{ line: 3 }], timeout_s: 60 }, { timeoutMs: 90_000 }));
    assert.match(r, /Stopped: breakpoint[^\n]* at prog\.js:3 in [\w.]*mul/);
    assert.match(r, /a \(number\) = 6\n {2}b \(number\) = 7\n {2}product \(number\) = 42/);
    assert.match(textOf(await callTool(client, 'debug', { action: 'stop' })), /stopped/);
    const nothing = await callTool(client, 'debug', { action: 'continue' });
    assert.equal(nothing.isError, true);
    const ts = textOf(await callTool(client, 'debug', { action: 'start', file: 'calc.ts', breakpoints: [{ line: 3 }], timeout_s: 60 }, { timeoutMs: 90_000 }));
    assert.match(ts, /Stopped: breakpoint[^\n]* at calc\.ts:3 in [\w.]*area/);
    for (const v of [/ w \(number\) = 3\n/, / h \(number\) = 4\n/, / result \(number\) = 12\n/]) assert.match(ts, v);
    await callTool(client, 'debug', { action: 'stop' });
  });

  it('run_tests runs pytest through the Test Explorer and reports each test', async () => {
    const { client } = env();
    const list = textOf(await callTool(client, 'run_tests', { list_only: true }));
    assert.match(list, /^2 tests:\ntests\/test_pricing\.py::test_discount\ntests\/test_pricing\.py::test_wrong/);
    const r = textOf(await callTool(client, 'run_tests', {}));
    assert.match(r, /^1 passed, 1 failed\nPASSED {2}tests\/test_pricing\.py::test_discount\nFAILED {2}tests\/test_pricing\.py::test_wrong - assert 10 == 11/);
    const one = textOf(await callTool(client, 'run_tests', { tests: ['tests/test_pricing.py::test_discount'] }));
    assert.match(one, /^1 passed\n/);
  });
});
