// `.ci/run`'s stage runner, driven for real (npm, mocha, the project's reporter) over a tiny
// package whose scripts pass, fail, skip and die before mocha starts: every stage runs, the
// closing line sums mocha's JSON reports, and any failure or missing report fails the run.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../../..');
const RUNNER = join(ROOT, 'scripts/runTestStages.sh');

function project(scripts: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'pwp-stages-'));
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({
    name: 'stages', private: true, scripts,
    mocha: { reporter: join(ROOT, 'test/support/specAndJsonReporter.cjs'), require: [join(ROOT, 'test/support/fileTimes.cjs')] },
  }));
  writeFileSync(join(dir, 'good.test.js'), "describe('good', () => { it('a', () => {}); it('b', () => {}); it.skip('c', () => {}); });\n");
  writeFileSync(join(dir, 'bad.test.js'), "describe('bad', () => { it('ok', () => {}); it('breaks', () => { throw new Error('no'); }); });\n");
  return dir;
}

function runStages(dir: string, scripts: string[]): { code: number | null; lastLine: string; out: string } {
  // Not the settings of the npm run this test may be inside (.ci/run's stages run scripts with
  // --ignore-scripts, which npm hands down as npm_config_ignore_scripts), nor .ci/run's own.
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_config_ignore_scripts$/i.test(k) && k !== 'PWP_REPORT_LEFTOVERS'));
  const r = spawnSync('bash', [RUNNER, 'results', ...scripts], { cwd: dir, encoding: 'utf8', env });
  const out = `${r.stdout}${r.stderr}`;
  return { code: r.status, lastLine: r.stdout.trim().split('\n').pop() ?? '', out };
}

describe('CI test stages (scripts/runTestStages.sh)', function () {
  // Each test runs npm and mocha for real, two to four times: up to 27 s at a load of 50 on 2 cores.
  // spawnSync holds the event loop, so this is checked only after the run: keep it far above that.
  this.timeout(300_000);
  const dirs: string[] = [];
  after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('runs a later stage after a failing one and sums both reports into the closing line', () => {
    const dir = project({ first: 'mocha bad.test.js', second: 'mocha good.test.js' });
    dirs.push(dir);
    const r = runStages(dir, ['first', 'second']);
    assert.equal(r.lastLine, 'tests: 3 passed, 1 failed', r.out);
    assert.equal(r.code, 1);
    assert.match(r.out, /stage npm run second -> 2 passing, 0 failing, 1 pending/);
    // The failure is named again near the end, with its error, for a reader of the tail only.
    const tail = r.out.slice(r.out.lastIndexOf('failed in npm run'));
    assert.match(r.out, /failed in npm run first: bad breaks\n\s+no\n/);
    assert.match(tail, /stage npm run first/);
  });

  it('lists the slowest files of a stage with their wall clock, hooks included, above the closing line', () => {
    const dir = project({ both: 'mocha --parallel --jobs 2 good.test.js slow.test.js' });
    dirs.push(dir);
    writeFileSync(join(dir, 'slow.test.js'), "describe('slow', () => { before((done) => setTimeout(done, 1600)); it('a', () => {}); });\n");
    const r = runStages(dir, ['both']);
    assert.equal(r.code, 0, r.out);
    assert.match(r.out, /slowest files of npm run both \(wall clock, hooks included\):\n\s+[2-9] s {2}slow\.test\.js\n\s+0 s {2}good\.test\.js\n/, r.out);
  });

  it('says how busy the machine was over the stages and which containers they started, above the closing line', () => {
    const dir = project({ only: 'mocha good.test.js' });
    dirs.push(dir);
    const r = runStages(dir, ['only']);
    assert.equal(r.code, 0, r.out);
    assert.match(r.out, /\nmachine during the stages: CPU busy \d+% of \d+ cores over \d+ s; some work waiting on: cpu \d+%, io \d+%, memory \d+% of the time\n/, r.out);
  });

  it('counts container starts by kind from the engine\'s events, and the figures from the snapshots at both ends', () => {
    const results = mkdtempSync(join(tmpdir(), 'pwp-machine-'));
    dirs.push(results);
    const cores = 2;
    const at = (t: number, busy: number, idle: number, cpu: number) => JSON.stringify({ at: t, busy, idle, iowait: 0, psi: { cpu, io: 0, memory: 0 }, cores });
    writeFileSync(join(results, 'machine.start.json'), at(0, 1000, 1000, 0));
    writeFileSync(join(results, 'machine.end.json'), at(100_000, 1150, 1050, 30e6));
    writeFileSync(join(results, 'containers.log'), 'a1|<no value>|pwp-ide:x\n|v1|pwp-task-rust:y\n|v2|pwp-ide:x\n||registry:2\n');
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the summary's own CommonJS helper
    const { machineLines } = require(join(ROOT, 'scripts/machineUse.cjs')) as { machineLines(r: string): string[] };
    assert.deepEqual(machineLines(results), [
      'machine during the stages: CPU busy 75% of 2 cores over 100 s; some work waiting on: cpu 30%, io 0%, memory 0% of the time',
      'containers started: 4 (1 IDE environments, 2 verifiers, 1 others)',
    ]);
  });

  it('exits 0 when every stage passes', () => {
    const dir = project({ only: 'mocha good.test.js' });
    dirs.push(dir);
    const r = runStages(dir, ['only']);
    assert.equal(r.lastLine, 'tests: 2 passed, 0 failed', r.out);
    assert.equal(r.code, 0);
    // CI counts the one line of its plain form; nothing else in the output may look like it.
    const plain = r.out.split('\n').filter((l) => /\d+ passed, \d+ failed/.test(l));
    assert.deepEqual(plain, ['tests: 2 passed, 0 failed'], r.out);
  });

  it('runs scripts joined by + at the same time, their pre-scripts first, and sums every report', () => {
    const dir = project({
      // `waits` passes only if `marks` has started meanwhile: they really run together.
      waits: 'mocha waits.test.js', marks: 'touch marks.started && mocha bad.test.js',
      premarks: 'touch premarks.ran', after: 'mocha good.test.js',
    });
    dirs.push(dir);
    writeFileSync(join(dir, 'waits.test.js'), `const { existsSync } = require('node:fs');
describe('waits', () => { it('sees the other script running', async function () {
  this.timeout(120000);
  while (!existsSync('marks.started')) await new Promise((r) => setTimeout(r, 50));
  if (!existsSync('premarks.ran')) throw new Error('the pre-script did not run first');
}); });\n`);
    const r = runStages(dir, ['waits+marks', 'after']);
    assert.equal(r.lastLine, 'tests: 4 passed, 1 failed', r.out);
    assert.equal(r.code, 1);
    assert.match(r.out, /stage npm run waits -> 1 passing, 0 failing/);
    // Its output is kept and shown, under a header of its own.
    assert.match(r.out, /=== npm run marks \(ran beside waits\) ===/);
    assert.match(r.out, /1\) breaks/);
    assert.match(r.out, /stage npm run marks -> 1 passing, 1 failing/);
  });

  it('fails the run and names the stage when it dies before mocha reports (a failing pretest)', () => {
    const dir = project({
      prebroken: 'echo the set-up broke here; echo 1 passed, 2 failed; exit 3', broken: 'mocha good.test.js', fine: 'mocha good.test.js',
      prebeside: 'echo the beside set-up broke too; exit 4', beside: 'mocha good.test.js',
    });
    dirs.push(dir);
    const r = runStages(dir, ['broken', 'fine+beside']);
    assert.equal(r.lastLine, 'tests: 2 passed, 0 failed', r.out);
    assert.equal(r.code, 1);
    assert.match(r.out, /stage npm run broken -> no report; FAILED: ended \(exit 3\) before mocha reported/);
    assert.match(r.out, /stage npm run beside -> no report; FAILED: ended \(exit 4\) before mocha reported/);
    // What it printed last is quoted at the end, where a reader of the tail alone sees it, and
    // nothing quoted takes the closing line's form.
    const tail = r.out.slice(r.out.lastIndexOf('the last lines npm run broken printed'));
    assert.match(tail, /^the last lines npm run broken printed \(it left no report\):\n(.*\n)*\s+\| the set-up broke here\n\s+\| 1 passed; 2 failed\n/);
    assert.match(tail, /the last lines npm run beside printed \(it left no report\):\n(.*\n)*\s+\| the beside set-up broke too\n/);
    assert.doesNotMatch(tail, /the last lines npm run fine/);
    assert.deepEqual(r.out.split('\n').filter((l) => /\d+ passed, \d+ failed/.test(l) && !l.includes('echo')), ['1 passed, 2 failed', 'tests: 2 passed, 0 failed'], r.out);
  });
});
