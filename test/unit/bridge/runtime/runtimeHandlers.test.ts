// runtime.* in-process: the bridge's handlers behind the Dispatcher (params validated as on
// the wire), and the host's BridgeRuntime on top of them through a client that calls the
// Dispatcher directly. Runs as whoever runs the tests; the integration suite
// (test/integration/runtime.test.ts) runs the same over a real bridge as root in a container.
import { strict as assert } from 'node:assert';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { InvalidParamsError, NotAvailableError, type MethodName, type ParamsIn, type Result } from '../../../../bridge/protocol';
import { Dispatcher, type Session } from '../../../../bridge/rpc/dispatcher';
import { registerRuntime } from '../../../../bridge/runtime/runtimeHandlers';
import type { Transfers } from '../../../../bridge/runtime/transfers';
import type { BridgeClient } from '../../../../host/client/bridgeClient';
import { BridgeRuntime } from '../../../../host/deployment/bridgeRuntime';
import { archiveBuffer } from '../../../../host/deployment/runtime';
import { readTarEntries } from '../../../../host/deployment/tarArchive';

describe('runtime.* on the bridge (in-process)', function () {
  this.timeout(30_000);
  const me = userInfo();
  let root: string;
  let d: Dispatcher;
  let transfers: Transfers;
  const session: Session = { id: 1, state: new Map(), signal: new AbortController().signal };
  const call = <M extends MethodName>(m: M, p: ParamsIn<M>) => d.call(m, p, session) as Promise<Result<M>>;
  // The host's BridgeRuntime, its client answering through the Dispatcher.
  const runtime = () => new BridgeRuntime({ call: (m: string, p: unknown) => d.call(m, p, session) } as unknown as BridgeClient);

  before(() => {
    root = mkdtempSync(join(tmpdir(), 'pwp-runtime-'));
    mkdirSync(join(root, 'ws'));
    d = new Dispatcher();
    transfers = registerRuntime(d, { runDir: join(root, 'run'), defaultUser: String(me.uid), workspace: join(root, 'ws') });
  });
  after(() => { transfers.dispose(); rmSync(root, { recursive: true, force: true }); });

  it('runs argv literally (no shell) in the workspace, with env and stdin, and answers as a shell would for a missing program', async () => {
    const r = await call('runtime.exec', { argv: ['sh', '-c', 'pwd; echo "$X"; cat'], env: { X: 'from env' }, stdin: Buffer.from('from stdin').toString('base64') });
    assert.deepEqual(r.stdout.split('\n').slice(0, 2), [join(root, 'ws'), 'from env']);
    assert.ok(r.stdout.endsWith('from stdin'));
    assert.equal(r.exitCode, 0);
    const literal = await call('runtime.exec', { argv: ['echo', '$(id -un); rm -rf /'] });
    assert.equal(literal.stdout, '$(id -un); rm -rf /\n');
    const missing = await call('runtime.exec', { argv: ['/no/such/program'] });
    assert.equal(missing.exitCode, 127);
    assert.match(missing.stderr, /no\/such\/program/);
  });

  it('keeps the bridge\'s secrets out of the command\'s environment', async () => {
    process.env.PWP_TOKEN_FILE = '/tmp/secret-path';
    try {
      const r = await call('runtime.exec', { argv: ['env'] });
      assert.doesNotMatch(r.stdout, /PWP_TOKEN_FILE|XAUTHORITY/);
    } finally { delete process.env.PWP_TOKEN_FILE; }
  });

  it('ends a command at timeoutSec with 124, and caps each output stream with a truncated flag', async () => {
    const slow = await call('runtime.exec', { argv: ['sleep', '30'], timeoutSec: 1 });
    assert.equal(slow.exitCode, 124);
    assert.equal(slow.timedOut, true);
    const big = await call('runtime.exec', { argv: ['head', '-c', '100000', '/dev/zero'], maxOutputBytes: 1000 });
    assert.equal(big.stdout.length, 1000);
    assert.equal(big.stdoutTruncated, true);
    assert.equal(big.stderrTruncated, false);
  });

  it('refuses bad input with InvalidParams and runs nothing', async () => {
    const marker = join(root, 'ran');
    const bad: [string, unknown][] = [
      ['a shell string instead of argv', { argv: `touch ${marker}` }],
      ['an empty argv', { argv: [] }],
      ['a relative cwd', { argv: ['touch', marker], cwd: 'ws' }],
      ['a cwd with ..', { argv: ['touch', marker], cwd: `${root}/ws/../..` }],
      ['a cwd that does not exist', { argv: ['touch', marker], cwd: '/no/such/folder' }],
      ['an unknown user', { argv: ['touch', marker], user: 'nosuchuser' }],
      ['a user name with shell characters', { argv: ['touch', marker], user: 'root;id' }],
      ['an environment variable name with "="', { argv: ['touch', marker], env: { 'A=B': '1' } }],
      ['a NUL in an argument', { argv: ['touch', `${marker}\0x`] }],
      ['a timeout of 0', { argv: ['touch', marker], timeoutSec: 0 }],
      ['too much output asked for', { argv: ['touch', marker], maxOutputBytes: 64 * 1024 * 1024 }],
      ['an unknown field', { argv: ['touch', marker], shell: true }],
    ];
    for (const [what, params] of bad) {
      await assert.rejects(d.call('runtime.exec', params, session), (e: unknown) => e instanceof InvalidParamsError, what);
    }
    assert.throws(() => readFileSync(marker), /ENOENT/, 'a refused call ran its command');
  });

  it('reads a file, says exists: false for a folder or nothing, and refuses a relative path', async () => {
    writeFileSync(join(root, 'ws', 'a.bin'), Buffer.from([0, 1, 2, 255]));
    const r = await call('runtime.readFile', { path: join(root, 'ws', 'a.bin') });
    assert.deepEqual([...Buffer.from(r.content!, 'base64')], [0, 1, 2, 255]);
    assert.equal((await call('runtime.readFile', { path: join(root, 'ws') })).exists, false);
    assert.equal((await call('runtime.readFile', { path: join(root, 'nothing') })).exists, false);
    await assert.rejects(d.call('runtime.readFile', { path: 'ws/a.bin' }, session), InvalidParamsError);
  });

  it('moves archives out and in through transfers in order, and refuses chunks out of order or a closed transfer', async () => {
    const { transfer } = await call('runtime.transferOpen', {});
    await assert.rejects(call('runtime.transferWrite', { transfer, offset: 5, data: 'AAAA' }), /chunks go in order/);
    await call('runtime.transferClose', { transfer });
    await assert.rejects(call('runtime.transferRead', { transfer, offset: 0 }), NotAvailableError);
    await assert.rejects(d.call('runtime.transferRead', { transfer: '../../etc/passwd', offset: 0 }, session), InvalidParamsError);
    assert.deepEqual(await call('runtime.archiveOut', { path: join(root, 'nothing') }), { exists: false, transfer: null, bytes: 0 });
  });

  it('serves the host\'s Runtime: exec, files written and read back, folders, archives out and into another folder', async () => {
    const rt = runtime();
    const dir = join(root, 'ws', 'w');
    mkdirSync(dir);
    const owner = { uid: me.uid, gid: me.gid };
    await rt.writeFiles(dir, [{ path: 'a/b.txt', content: 'hello' }, { path: 'run.sh', content: '#!/bin/sh\n', mode: 0o755 }], { owner });
    assert.equal((await rt.readFile(join(dir, 'a/b.txt')))?.toString(), 'hello');
    const st = await rt.exec(['stat', '-c', '%a %n', join(dir, 'a/b.txt'), join(dir, 'run.sh')]);
    assert.deepEqual(st.stdout.trim().split('\n'), [`644 ${dir}/a/b.txt`, `755 ${dir}/run.sh`]);
    assert.equal(await rt.readFile(join(dir, 'missing')), undefined);
    assert.equal(await rt.readTree(join(root, 'nowhere')), undefined);
    assert.deepEqual([...(await rt.readTree(dir))!.keys()].sort(), ['a/b.txt', 'run.sh']);
    const tar = await archiveBuffer(rt, dir);
    assert.deepEqual((await readTarEntries(tar)).map((e) => e.header.name).sort(), ['w/', 'w/a/', 'w/a/b.txt', 'w/run.sh']);
    mkdirSync(join(root, 'ws', 'copy'));
    await rt.archiveIn(join(root, 'ws', 'copy'), tar);
    assert.equal(readFileSync(join(root, 'ws', 'copy', 'w', 'a', 'b.txt'), 'utf8'), 'hello');
  });
});
