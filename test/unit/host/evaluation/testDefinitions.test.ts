// Build and runner files that decide which tests exist are the task's in every language
// (testInfrastructure.ts), parts a task declares as the agent's keep the agent's version only
// when nothing else changed (fileParts.ts), and byte-code or binaries the task did not ship
// never reach the verifier (compiledFiles.ts). Each trick is planted as an agent would.
import { strict as assert } from 'node:assert';
import { isCompiled } from '../../../../host/evaluation/compiledFiles';
import { changedOnlyIn } from '../../../../host/evaluation/fileParts';
import { planRestore, restoreRulesOf, type RestoreRules, type WorkspaceEntry } from '../../../../host/evaluation/testInfrastructure';

const b = (s: string | number[]) => (typeof s === "string" ? Buffer.from(s) : Buffer.from(s));
const file = (path: string, content: string | Buffer): WorkspaceEntry => ({ path, type: 'file', content: Buffer.isBuffer(content) ? content : b(content) });
const rules = (extra: Partial<RestoreRules> = {}): RestoreRules => ({ restore: [], agentFiles: [], commandFiles: [], ...extra });
const plan = (task: Record<string, string | Buffer>, agent: Record<string, string | Buffer>, r = rules()) =>
  planRestore(Object.entries(agent).map(([p, c]) => file(p, c)), new Map(Object.entries(task).map(([p, c]) => [p, Buffer.isBuffer(c) ? c : b(c)])), new Set(), r);

const CARGO = '[package]\nname = "vercmp"\nversion = "0.3.1"\nedition = "2021"\n\n[dependencies]\n';
const CMAKE = 'project(cpath C)\nadd_library(cpath src/cpath.c)\nenable_testing()\nadd_subdirectory(tests)\n';
const POM = '<project><build><plugins><plugin><artifactId>maven-surefire-plugin</artifactId></plugin></plugins></build></project>\n';

describe('test definitions are the task\'s', () => {
  it('C: puts back the root CMakeLists.txt that drops the tests and adds echoing add_test entries, and CMake files at any level', () => {
    const forged = 'project(cpath C)\nadd_library(cpath src/cpath.c)\nenable_testing()\nadd_test(NAME basename_plain COMMAND echo ok)\n';
    const p = plan({ 'CMakeLists.txt': CMAKE, 'src/cpath.c': 'int x;' },
      { 'CMakeLists.txt': forged, 'src/cpath.c': 'int y;', 'src/CMakeLists.txt': 'add_test(x)', 'cmake/fake.cmake': 'x', 'CTestTestfile.cmake': 'add_test(a echo)' });
    assert.equal(p.restore.get('CMakeLists.txt')?.toString(), CMAKE);
    assert.deepEqual(p.changes.map((c) => `${c.path} ${c.change}`), ['cmake/fake.cmake added', 'CMakeLists.txt modified', 'CTestTestfile.cmake added', 'src/CMakeLists.txt added']);
    assert.deepEqual([...p.deliverable.keys()], ['src/cpath.c']);
  });

  it('Rust: puts back a Cargo.toml with autotests = false and leaves out a build.rs that writes fake tests', () => {
    const p = plan({ 'Cargo.toml': CARGO, 'src/lib.rs': '' }, {
      'Cargo.toml': CARGO.replace('edition', 'autotests = false\nedition'), 'build.rs': 'fn main() {}', 'src/lib.rs': 'pub fn f() {}',
      '.cargo/config.toml': '[build]\nrustflags = []',
    });
    assert.equal(p.restore.get('Cargo.toml')?.toString(), CARGO);
    assert.deepEqual(p.changes.map((c) => `${c.path} ${c.change}`), ['.cargo/config.toml added', 'build.rs added', 'Cargo.toml modified']);
  });

  it('Rust: keeps a Cargo.toml whose declared part alone changed; any other change puts the task\'s back', () => {
    const r = rules({ agentParts: { 'Cargo.toml': ['dependencies', 'dev-dependencies'] } });
    const withDep = `${CARGO}serde = { version = "1", features = ["derive"] }\n\n[dev-dependencies.proptest]\nversion = "1"\n`;
    const kept = plan({ 'Cargo.toml': CARGO }, { 'Cargo.toml': withDep }, r);
    assert.deepEqual(kept.changes, []);
    assert.ok(!kept.drop.has('Cargo.toml') && !kept.restore.has('Cargo.toml') && kept.deliverable.has('Cargo.toml'));
    for (const forged of [
      `${withDep}\n[[test]]\nname = "version"\nharness = false\n`,
      withDep.replace('edition', 'autotests = false\nedition'),
      // Before any table: a dotted key of [lib].
      `lib.test = false\n${withDep}`,
      // A header inside a multi-line string would hide what follows it.
      `${CARGO.replace('[package]\n', '[package]\ndescription = """\n[dependencies]\n"""\nautotests = false\n')}`,
    ]) {
      const p = plan({ 'Cargo.toml': CARGO }, { 'Cargo.toml': forged }, r);
      assert.equal(p.restore.get('Cargo.toml')?.toString(), CARGO, forged);
      assert.deepEqual(p.changes, [{ path: 'Cargo.toml', change: 'modified' }]);
    }
    assert.ok(plan({ 'Cargo.toml': CARGO }, { 'Cargo.toml': withDep }).drop.has('Cargo.toml'), 'without the declaration the whole file is the task\'s');
  });

  it('Java: puts back the pom (surefire\'s reportsDirectory) and leaves out Maven settings and JUnit configuration on the class path', () => {
    const p = plan({ 'pom.xml': POM }, {
      'pom.xml': POM.replace('</artifactId>', '</artifactId><configuration><reportsDirectory>/tmp/x</reportsDirectory></configuration>'),
      '.mvn/maven.config': '-DskipTests', 'src/main/resources/junit-platform.properties': 'junit.jupiter.conditions.deactivate=*',
      'src/main/resources/META-INF/services/org.junit.jupiter.api.extension.Extension': 'x.Skip', 'build.gradle': '',
    });
    assert.deepEqual(p.changes.map((c) => `${c.path} ${c.change}`), ['.mvn/maven.config added', 'build.gradle added', 'pom.xml modified',
      'src/main/resources/junit-platform.properties added', 'src/main/resources/META-INF/services/org.junit.jupiter.api.extension.Extension added']);
  });

  it('Java: Gradle\'s script plugins and build logic (buildSrc) are infrastructure too, not only build.gradle', () => {
    const build = "apply plugin: 'java'\napply from: 'gradle-test.gradle'\n";
    const p = plan({ 'build.gradle': build, 'gradle-test.gradle': 'test { useJUnit() }\n' }, {
      'build.gradle': build, 'gradle-test.gradle': 'test { ignoreFailures = true; reports.junitXml.outputLocation = file("/tmp/x") }\n',
      'buildSrc/src/main/groovy/Skip.groovy': 'class Skip {}\n', 'buildSrc/build.gradle.kts': '', 'app/tests.gradle.kts': '',
    });
    assert.deepEqual(p.changes.map((c) => `${c.path} ${c.change}`), ['app/tests.gradle.kts added', 'buildSrc/build.gradle.kts added',
      'buildSrc/src/main/groovy/Skip.groovy added', 'gradle-test.gradle modified']);
  });

  it('Go: keeps a go.mod that only gains requirements, puts back one that redirects packages, leaves out go.work and vendored copies', () => {
    const mod = 'module example.com/units\n\ngo 1.22\n';
    const required = `${mod}\nrequire (\n\tgithub.com/x/y v1.2.3 // indirect\n)\n`;
    assert.ok(plan({ 'go.mod': mod }, { 'go.mod': required }).deliverable.has('go.mod'));
    for (const forged of [`${required}replace github.com/stretchr/testify => ./fake\n`, `${mod}replace (\n\tgithub.com/a/b => ./b\n)\n`, 'module example.com/other\n\ngo 1.22\n']) {
      const p = plan({ 'go.mod': mod }, { 'go.mod': forged });
      assert.equal(p.restore.get('go.mod')?.toString(), mod, forged);
    }
    const p = plan({ 'go.mod': mod }, { 'go.mod': mod, 'go.work': 'use ./fake', 'vendor/modules.txt': '# x', 'vendor/github.com/stretchr/testify/assert/a.go': 'package assert', 'sub/go.mod': 'module x' });
    assert.deepEqual(p.changes.map((c) => c.path), ['go.work', 'sub/go.mod', 'vendor/github.com/stretchr/testify/assert/a.go', 'vendor/modules.txt']);
  });

  it('Lean: puts back the lakefile for a task graded by a command (Lake runs it as code)', () => {
    const r = restoreRulesOf({ kind: 'command', command: ['python3', '-I', '/pwp/hidden/check_proof.py'], exitCode: 0, timeoutSec: 1 });
    assert.ok(r, 'a command task gets rules');
    const p = plan({ 'lakefile.lean': 'import Lake\n', 'Double.lean': 'sorry' },
      { 'lakefile.lean': 'import Lake\nscript x := pure 0\n', 'Double.lean': 'rfl', 'lake-manifest.json': '{}' }, r);
    assert.deepEqual(p.changes.map((c) => `${c.path} ${c.change}`), ['lake-manifest.json added', 'lakefile.lean modified']);
    assert.deepEqual([...p.deliverable.keys()], ['Double.lean']);
  });

  it('JavaScript: package.json\'s test sections stay the task\'s even where its dependencies are the agent\'s; vitest and vite configs are the task\'s', () => {
    const pkg = JSON.stringify({ name: 'x', scripts: { test: 'node --test' }, dependencies: {} });
    const r = rules({ agentParts: { '**/package.json': ['dependencies', 'devDependencies', 'scripts.build'] } });
    const withDeps = JSON.stringify({ name: 'x', scripts: { test: 'node --test', build: 'tsc' }, dependencies: { lodash: '4' } }, null, 2);
    assert.ok(plan({ 'package.json': pkg }, { 'package.json': withDeps }, r).deliverable.has('package.json'));
    const forgeries = [{ name: 'x', scripts: { test: 'echo ok' }, dependencies: {} }, { name: 'x', scripts: { test: 'node --test' }, dependencies: {}, jest: { testMatch: [] } }];
    for (const forged of forgeries) {
      assert.ok(plan({ 'package.json': pkg }, { 'package.json': JSON.stringify(forged) }, r).restore.has('package.json'), JSON.stringify(forged));
    }
    assert.deepEqual(plan({}, { 'vitest.config.ts': 'x', 'vite.config.mjs': 'x', 'src/a.ts': 'x' }).changes.map((c) => c.path), ['vite.config.mjs', 'vitest.config.ts']);
  });

  it('Python and make: noxfile, Makefile targets and make fragments are the task\'s', () => {
    const p = plan({ Makefile: 'test:\n\tpytest\n' }, { Makefile: 'test:\n\techo 4 passed\n', 'noxfile.py': '', 'rules.mk': '' });
    assert.deepEqual(p.changes.map((c) => `${c.path} ${c.change}`),
      ['Makefile modified', 'noxfile.py added', 'rules.mk added']);
  });
});

describe('parts of build files', () => {
  it('reads TOML tables (nested, dotted, quoted, arrays of tables, * for one key) and refuses what it cannot split', () => {
    const before = b('[package]\nname = "a"\n\n[dependencies]\n');
    const parts = ['dependencies', 'target.*.dependencies'];
    assert.ok(changedOnlyIn('Cargo.toml', before, b('[package]\nname = "a"\n# a comment\n[dependencies]\nx = "1"\n[dependencies . "y"]\nversion = "2"\n[target.\'cfg(unix)\'.dependencies]\nz = "1"\n'), parts));
    assert.ok(!changedOnlyIn('Cargo.toml', before, b('[package]\nname = "b"\n\n[dependencies]\n'), parts));
    assert.ok(!changedOnlyIn('Cargo.toml', before, b('[package]\nname = "a"\n[dependencies]\n[[bin]]\nname = "x"\n'), parts));
    assert.ok(!changedOnlyIn('Cargo.toml', before, b('[package]\nname = "a"\n[dependencies]\n["lib]"]\nx = 1\n'), parts), 'a header it cannot read');
    assert.ok(!changedOnlyIn('Cargo.toml', before, b("[package]\nname = 'a'\n[dependencies]\nx = '''\n'''\n"), parts), 'a multi-line string');
    assert.ok(!changedOnlyIn('Cargo.toml', before, b('[package]\nname = "a"\n[dependencies]\nx = "1"\n'), []), 'no parts: nothing is the agent\'s');
    assert.ok(!changedOnlyIn('CMakeLists.txt', b('a'), b('b'), ['add_library']), 'a kind without parts');
  });

  it('reads JSON key paths and go.mod directives', () => {
    assert.ok(changedOnlyIn('package.json', b('{"a":{"b":1,"c":2},"d":1}'), b('{"d":1,"a":{"c":2,"b":5}}'), ['a.b']));
    assert.ok(!changedOnlyIn('package.json', b('{"a":{"b":1,"c":2}}'), b('{"a":{"b":1,"c":3}}'), ['a.b']));
    assert.ok(!changedOnlyIn('package.json', b('{}'), b('{'), ['a']), 'JSON that does not parse');
    assert.ok(changedOnlyIn('go.mod', b('module m\ngo 1.21\n'), b('module m // c\ngo 1.22\nrequire a v1\n'), ['go', 'require']));
    assert.ok(!changedOnlyIn('go.mod', b('module m\n'), b('module m\nrequire a v1\nreplace a => ./a\n'), ['require']));
  });
});

describe('byte-code and binaries the task did not ship', () => {
  const elf = Buffer.concat([b([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1]), Buffer.alloc(64)]);
  const pe = Buffer.alloc(0x90); pe.write('MZ'); pe.writeUInt32LE(0x80, 0x3c); pe.write('PE\0\0', 0x80);

  it('knows them by name or by their first bytes, and not text that happens to start like one', () => {
    for (const [p, c] of [['lib/_speedups.so', ''], ['m.cpython-311-x86_64-linux-gnu.so', ''], ['roman.pyc', ''], ['addon.node', ''], ['libx.so.1.2', ''], ['A.class', ''], ['deps/x.jar', ''], ['target/debug/deps/libgauge-0a1b2c3d4e5f6a7b.rlib', '!<arch>\n'], ['target/debug/deps/libgauge-0a1b2c3d4e5f6a7b.rmeta', ''], ['bin/tool', elf], ['tool.exe', pe], ['run', pe], ['Main', b([0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 52])], ['m', b([0xcf, 0xfa, 0xed, 0xfe, 7, 0, 0, 1])]] as const) {
      assert.ok(isCompiled(p, Buffer.isBuffer(c) ? c : b(c)), p);
    }
    for (const [p, c] of [['roman.py', 'def f(): pass'], ['README.md', 'MZ is a file that starts with MZ but is text, long enough to have an offset at 0x3c......'], ['data.bin', 'abcd'], ['src/lib.rs', '']] as const) {
      assert.ok(!isCompiled(p, b(c)), p);
    }
  });

  it('leaves out a sourceless .pyc, a native module and a prebuilt program; puts back the task\'s own; keeps identical ones', () => {
    const p = plan({ 'vendor_lib.so': elf, 'tool': elf, 'roman.py': 'x' }, {
      'roman.py': 'def to_roman(n): ...', 'roman.pyc': 'bytecode', '__pycache__/roman.cpython-311.pyc': 'cached', 'pkg/_fast.so': 'x', 'addon.node': 'x',
      'bin/run': elf, 'vendor_lib.so': elf, 'tool': Buffer.concat([elf, b('changed')]),
    });
    assert.deepEqual(p.changes.map((c) => `${c.path} ${c.change}`), ['addon.node binary', 'bin/run binary', 'pkg/_fast.so binary', 'roman.pyc binary', 'tool binary']);
    assert.ok(p.drop.has('__pycache__/roman.cpython-311.pyc'), 'caches go, unlisted');
    assert.ok(!p.drop.has('vendor_lib.so') && p.restore.get('tool')?.equals(elf));
    assert.deepEqual([...p.deliverable.keys()], ['roman.py']);
  });
});
