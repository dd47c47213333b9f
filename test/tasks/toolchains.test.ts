// The toolchain images of images/toolchains/, built for real on this tree's IDE image (cached by
// content hash: a warm machine builds nothing) and used the way a task's verifier uses them: a
// tiny project per toolchain is built and its tests run, offline, as the IDE user, in a verifier
// container of the image. Not part of `npm test` (a cold build of all five takes many minutes):
// `npm run test:toolchains`; PWP_TOOLCHAINS=rust,java narrows it down.
import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { DockerDeployment } from '../../host/deployment/dockerDeployment';
import type { VerifierContainer } from '../../host/deployment/verifierContainer';
import { listToolchains, resolveTaskImage, TOOLCHAINS_DIR } from '../../host/taskEnv/resolveTaskImage';
import { testImage } from '../integration/environmentFixture';

interface Probe {
  /** Files of the tiny project, under /workspace/<toolchain>/. */
  files: Record<string, string>;
  /** Commands run there as the IDE user, each with what its output must show. */
  commands: { argv: string[]; shows: RegExp }[];
}

const POM = `<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>demo</groupId><artifactId>demo</artifactId><version>1</version>
  <properties>
    <maven.compiler.release>17</maven.compiler.release>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
  </properties>
  <dependencies>
    <dependency><groupId>org.junit.jupiter</groupId><artifactId>junit-jupiter-api</artifactId><version>5.9.2</version><scope>test</scope></dependency>
    <dependency><groupId>org.junit.jupiter</groupId><artifactId>junit-jupiter-engine</artifactId><version>5.9.2</version><scope>test</scope></dependency>
  </dependencies>
  <build><plugins>
    <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-compiler-plugin</artifactId><version>3.10.1</version></plugin>
    <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-surefire-plugin</artifactId><version>2.22.3</version></plugin>
  </plugins></build>
</project>
`;

const PROBES: Record<string, Probe> = {
  java: {
    files: {
      'pom.xml': POM,
      'src/main/java/demo/Calc.java': 'package demo;\n\npublic class Calc {\n  public static int add(int a, int b) { return a + b; }\n}\n',
      'src/test/java/demo/CalcTest.java': 'package demo;\n\nimport static org.junit.jupiter.api.Assertions.assertEquals;\nimport org.junit.jupiter.api.Test;\n\nclass CalcTest {\n  @Test void adds() { assertEquals(5, Calc.add(2, 3)); }\n  @Test void addsNegatives() { assertEquals(-5, Calc.add(-2, -3)); }\n}\n',
    },
    commands: [
      { argv: ['javac', '-version'], shows: /javac 17\./ },
      { argv: ['mvn', '-o', '-v'], shows: /Apache Maven 3\./ },
      { argv: ['mvn', '-o', '-B', 'test'], shows: /Tests run: 2, Failures: 0, Errors: 0[\s\S]*BUILD SUCCESS/ },
    ],
  },
  rust: {
    files: {
      'Cargo.toml': '[package]\nname = "demo"\nversion = "0.1.0"\nedition = "2021"\n',
      'src/lib.rs': 'pub fn add(a: i32, b: i32) -> i32 { a + b }\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn adds() { assert_eq!(super::add(2, 3), 5); }\n}\n',
    },
    commands: [
      { argv: ['cargo', '--version'], shows: /^cargo 1\.\d+/ },
      { argv: ['rustc', '--version'], shows: /^rustc 1\.\d+/ },
      { argv: ['cargo', 'test'], shows: /test result: ok\. 1 passed/ },
    ],
  },
  cpp: {
    files: {
      'CMakeLists.txt': 'cmake_minimum_required(VERSION 3.16)\nproject(demo CXX)\nfind_package(GTest REQUIRED)\nadd_executable(calc_test calc_test.cpp)\ntarget_link_libraries(calc_test GTest::gtest_main)\n',
      'calc_test.cpp': '#include <gtest/gtest.h>\n\nstatic int add(int a, int b) { return a + b; }\n\nTEST(Calc, Adds) { EXPECT_EQ(add(2, 3), 5); }\n',
    },
    commands: [
      { argv: ['cmake', '-S', '.', '-B', 'build'], shows: /Build files have been written/ },
      { argv: ['cmake', '--build', 'build'], shows: /Built target calc_test/ },
      { argv: ['./build/calc_test'], shows: /\[ {2}PASSED {2}\] 1 test/ },
    ],
  },
  jupyter: {
    files: {
      'analysis.ipynb': JSON.stringify({
        nbformat: 4, nbformat_minor: 5, metadata: { kernelspec: { name: 'python3', display_name: 'Python 3', language: 'python' } },
        cells: [{ cell_type: 'code', id: 'c1', metadata: {}, execution_count: null, outputs: [], source: ['import pandas as pd\n', 'import matplotlib.pyplot as plt\n', "print('mean', pd.Series([1, 2, 3]).mean())"] }],
      }),
    },
    commands: [
      { argv: ['jupyter', 'nbconvert', '--to', 'notebook', '--execute', '--stdout', 'analysis.ipynb'], shows: /mean 2\.0/ },
    ],
  },
  ctf: {
    files: { 'flag.txt': 'picoCTF{demo}\n' },
    commands: [
      { argv: ['sh', '-c', 'xxd flag.txt | head -1 && file flag.txt && for t in objdump gdb strace ltrace binwalk foremost exiftool steghide nc hexdump; do command -v $t || exit 1; done'], shows: /7069 636f[\s\S]*ASCII text[\s\S]*\/nc\n[\s\S]*hexdump/ },
      // Debian's PyCryptodome is the `Cryptodome` package (not `Crypto`).
      { argv: ['python3', '-c', 'import pwn, pwnlib, Cryptodome; print("pwntools", pwnlib.version, "pycryptodome", Cryptodome.__version__)'], shows: /pwntools 4\.\d+\.\d+ pycryptodome 3\./ },
    ],
  },
};

const selected = process.env.PWP_TOOLCHAINS ? process.env.PWP_TOOLCHAINS.split(',').map((s) => s.trim()) : listToolchains();

describe(`toolchain images: ${selected.join(', ')} (built on the IDE image, used offline as a verifier uses them)`, function () {
  this.timeout(60 * 60_000);
  const deployment = new DockerDeployment();
  let ide: string;
  before(async function () { this.timeout(30 * 60_000); ide = await testImage(); });

  it('has a probe for every toolchain', () => assert.deepEqual(Object.keys(PROBES).sort(), listToolchains()));

  for (const name of selected) {
    it(`${name}: builds, and its tools build and test a tiny project offline as the IDE user`, async () => {
      const probe = PROBES[name];
      assert.ok(probe, `no probe for toolchain ${name}`);
      const t0 = Date.now();
      const lines: string[] = [];
      const image = await resolveTaskImage({ imageSource: { kind: 'build', name, dockerfile: join(TOOLCHAINS_DIR, name, 'Dockerfile') } }, {
        deployment, ideImage: ide, progress: (l) => { lines.push(l); if (process.env.PWP_TEST_VERBOSE) console.log(`      ${l}`); },
      });
      const built = lines.some((l) => l.startsWith('built task image'));
      console.log(`      ${image}: ${built ? `built in ${Math.round((Date.now() - t0) / 1000)} s` : 'up to date'}`);
      let verifier: VerifierContainer | undefined;
      try {
        verifier = await deployment.startVerifier({ image, memoryMb: 2048, cpus: 2, labels: { 'pwp.test': '1' } });
        const dir = `/workspace/${name}`;
        await verifier.runtime.writeFiles('/workspace', Object.entries(probe.files).map(([path, content]) => ({ path: `${name}/${path}`, content: Buffer.from(content) })));
        for (const c of probe.commands) {
          const r = await verifier.runtime.exec(c.argv, { cwd: dir, user: 'pwp', timeoutSec: 600 });
          const out = `${r.stdout}\n${r.stderr}`;
          assert.equal(r.exitCode, 0, `${c.argv.join(' ')} exited ${r.exitCode}:\n${out.slice(-3000)}`);
          assert.match(out, c.shows, `${c.argv.join(' ')}:\n${out.slice(-3000)}`);
        }
      } finally {
        await verifier?.remove();
      }
    });
  }
});
