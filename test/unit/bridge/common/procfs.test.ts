import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CpuActivity, descendants, parseCmdline, parseStat, readCwd, readProcess, readProcesses, type ProcessEntry } from '../../../../bridge/common/procfs';

const stat = (pid: number, comm: string, ppid: number, utime = 0, stime = 0) =>
  `${pid} (${comm}) S ${ppid} ${pid} ${pid} 0 -1 4194560 100 0 0 0 ${utime} ${stime} 0 0 20 0 1 0 100 1000 10\n`;

describe('/proc parsing', () => {
  it('parses stat lines, including a command name with spaces and parentheses', () => {
    assert.deepEqual(parseStat(stat(42, 'bash', 7, 3, 4)), { pid: 42, name: 'bash', state: 'S', ppid: 7, cpuTicks: 7 });
    assert.deepEqual(parseStat(stat(43, 'my (odd) name', 42)), { pid: 43, name: 'my (odd) name', state: 'S', ppid: 42, cpuTicks: 0 });
    assert.equal(parseStat('garbage'), undefined);
  });

  it('splits cmdline on NUL and drops the terminator', () => {
    assert.deepEqual(parseCmdline(Buffer.from('python3\0-m\0http.server\0')), ['python3', '-m', 'http.server']);
    assert.deepEqual(parseCmdline(''), []);
    assert.deepEqual(parseCmdline('a b\0'), ['a b']);
  });

  it('lists descendants parents first and ignores other trees', () => {
    const p = (pid: number, ppid: number): ProcessEntry => ({ pid, ppid, name: String(pid), state: 'S', cpuTicks: 0, commandLine: [] });
    const all = [p(1, 0), p(10, 1), p(11, 10), p(12, 10), p(13, 11), p(20, 1), p(21, 20)];
    assert.deepEqual(descendants(all, 10).map((x) => x.pid), [11, 12, 13]);
    assert.deepEqual(descendants(all, 13), []);
  });

  it('reads processes from a /proc tree', async () => {
    const root = mkdtempSync(join(tmpdir(), 'pwp-proc-'));
    try {
      for (const [pid, comm, ppid, argv] of [[100, 'bash', 1, 'bash\0-l\0'], [101, 'sleep', 100, ['sleep', '77', ''].join('\0')]] as const) {
        mkdirSync(join(root, String(pid)));
        writeFileSync(join(root, String(pid), 'stat'), stat(pid, comm, ppid));
        writeFileSync(join(root, String(pid), 'cmdline'), argv);
      }
      mkdirSync(join(root, 'self'));
      symlinkSync('/tmp', join(root, '100', 'cwd'));
      const all = await readProcesses(root);
      assert.deepEqual(all.map((x) => [x.pid, x.commandLine]).sort(), [[100, ['bash', '-l']], [101, ['sleep', '77']]]);
      assert.equal((await readProcess(101, root))?.ppid, 100);
      assert.equal(await readProcess(999, root), undefined);
      assert.equal(await readCwd(100, root), '/tmp');
      assert.equal(await readCwd(101, root), null);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('calls processes busy while they use CPU and idle once they stop', () => {
    const cpu = new CpuActivity(0.1, 100);
    cpu.sample(new Map([[1, 0]]), 1000);
    assert.equal(cpu.busy, true, 'a first sample has nothing to compare with: not yet known idle');
    cpu.sample(new Map([[1, 50]]), 2000); // 0.5 s of CPU in 1 s
    assert.equal(cpu.busy, true);
    cpu.sample(new Map([[1, 51]]), 3000); // 1 tick in 1 s
    assert.equal(cpu.busy, false);
    cpu.sample(new Map([[1, 51], [2, 0]]), 3100); // a new language server starting
    assert.equal(cpu.busy, true);
    cpu.sample(new Map([[1, 51], [2, 0]]), 3200);
    assert.equal(cpu.busy, false);
    assert.equal(cpu.sampledAt, 3200);
  });
});
