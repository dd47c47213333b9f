// Who may serve ide.* on the extension link: the check of the connecting process against /proc,
// on a fixture of the IDE stack's process tree and on this machine's real /proc.
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { notAnExtensionHost } from '../../../../bridge/ide/extensionHostCheck';
import { EXTENSION_LINK_CLOSE } from '../../../../bridge/protocol';
import { ExtensionLink } from '../../../../bridge/ide/extensionLink';
import { pidOfSocket, socketInode } from '../../../../bridge/ide/peerProcess';

const LINK_PORT = 7001;
const hex = (port: number) => port.toString(16).toUpperCase().padStart(4, '0');

/** A /proc with the processes of a container's IDE stack; `sockets` maps a pid to the client port of its link socket. */
function fakeProc(processes: { pid: number; ppid: number; argv: string[] }[], sockets: Record<number, number>): string {
  const root = mkdtempSync(join(tmpdir(), 'pwp-proc-'));
  mkdirSync(join(root, 'net'));
  const rows = Object.entries(sockets).map(([pid, port], i) =>
    `   ${i}: 0100007F:${hex(port)} 0100007F:${hex(LINK_PORT)} 01 00000000:00000000 00:00000000 00000000  1000        0 ${9000 + Number(pid)} 1 0000000000000000 20 4 30 10 -1`);
  writeFileSync(join(root, 'net', 'tcp'), ['  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode', ...rows, ''].join('\n'));
  writeFileSync(join(root, 'net', 'tcp6'), '  sl  local_address rem_address\n');
  for (const p of processes) {
    const dir = join(root, String(p.pid));
    mkdirSync(join(dir, 'fd'), { recursive: true });
    writeFileSync(join(dir, 'stat'), `${p.pid} (${p.argv[0].split('/').pop()}) S ${p.ppid} 1 1 0 -1 4194560 0 0 0 0 12 3 0 0 20 0 1 0`);
    writeFileSync(join(dir, 'cmdline'), `${p.argv.join('\0')}\0`);
    symlinkSync('/dev/null', join(dir, 'fd', '0'));
    if (sockets[p.pid]) symlinkSync(`socket:[${9000 + p.pid}]`, join(dir, 'fd', '21'));
  }
  return root;
}

// The tree a running environment has (ps --forest in the container): bridge > code-server >
// its server entry > extension host, file watcher, pty host > terminal shell.
const stack = [
  { pid: 7, ppid: 1, argv: ['/opt/node/bin/node', '/opt/pwp/bridge.js'] },
  { pid: 22, ppid: 7, argv: ['node', '/opt/code-server/bin/code-server', '--auth', 'none'] },
  { pid: 86, ppid: 22, argv: ['/opt/node/bin/node', '/opt/code-server/lib/node_modules/code-server/out/node/entry'] },
  { pid: 158, ppid: 86, argv: ['/opt/node/bin/node', '/opt/code-server/lib/vscode/out/bootstrap-fork', '--type=extensionHost', '--transformURIs'] },
  { pid: 212, ppid: 86, argv: ['/opt/node/bin/node', '/opt/code-server/lib/vscode/out/bootstrap-fork', '--type=ptyHost'] },
  { pid: 223, ppid: 212, argv: ['/usr/bin/bash', '--init-file', 'shellIntegration-bash.sh'] },
  // A program run from the terminal that names itself an extension host.
  { pid: 300, ppid: 223, argv: ['node', 'bootstrap-fork', '--type=extensionHost'] },
  // A program the extension host spawned (a debug adapter, a language server).
  { pid: 310, ppid: 158, argv: ['node', 'server.js', '--type=extensionHost'] },
  // Something started by the terminal and then detached (reparented to the container's init).
  { pid: 320, ppid: 1, argv: ['node', 'bootstrap-fork', '--type=extensionHost'] },
];

describe('the extension link admits only the IDE\'s own extension host', () => {
  it('admits the extension host the IDE server forked', async () => {
    const proc = fakeProc(stack, { 158: 40001 });
    assert.equal(await notAnExtensionHost(40001, LINK_PORT, 22, proc), null);
  });

  it('refuses a process run from a terminal, one an extension spawned and a detached one, naming why', async () => {
    const proc = fakeProc(stack, { 223: 40002, 300: 40003, 310: 40004, 320: 40005 });
    assert.match((await notAnExtensionHost(40002, LINK_PORT, 22, proc))!, /process 223 is not an extension host/);
    assert.match((await notAnExtensionHost(40003, LINK_PORT, 22, proc))!, /descends from the IDE's --type=ptyHost process/);
    assert.match((await notAnExtensionHost(40004, LINK_PORT, 22, proc))!, /descends from the IDE's --type=extensionHost process/);
    assert.match((await notAnExtensionHost(40005, LINK_PORT, 22, proc))!, /was not started by the IDE server 22/);
  });

  it('refuses when the IDE server is down or the socket is unknown', async () => {
    const proc = fakeProc(stack, { 158: 40001 });
    assert.match((await notAnExtensionHost(40001, LINK_PORT, null, proc))!, /IDE server is not running/);
    assert.match((await notAnExtensionHost(40009, LINK_PORT, 22, proc))!, /no socket from port 40009/);
  });

  it('finds the process at the other end of a real loopback connection in /proc', async function () {
    if (process.platform !== 'linux') this.skip();
    const server: Server = createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    const client: Socket = connect(port, '127.0.0.1');
    await new Promise<void>((r) => client.once('connect', r));
    try {
      const inode = await socketInode(client.localPort!, port);
      assert.ok(inode, 'the client socket is in /proc/net/tcp');
      assert.equal(await pidOfSocket(inode), process.pid);
      assert.match((await notAnExtensionHost(client.localPort!, port, process.ppid))!, new RegExp(`process ${process.pid} is not an extension host`));
    } finally {
      client.destroy();
      server.close();
    }
  });

  it('closes a refused connection with its own code and keeps it from serving calls', async () => {
    const seen: number[] = [];
    const link = new ExtensionLink(0, 'extension-token-0123456789', () => undefined, {
      firstConnectionWaitMs: 100,
      checkPeer: async (peerPort) => { seen.push(peerPort); return 'not an extension host'; },
    });
    try {
      await link.listening();
      const ws = new WebSocket(`ws://127.0.0.1:${link.port}/?token=extension-token-0123456789&activated=${Number.MAX_SAFE_INTEGER}`);
      const code = await new Promise<number>((r) => ws.once('close', (c) => r(c)));
      assert.equal(code, EXTENSION_LINK_CLOSE.NOT_THE_EXTENSION_HOST);
      assert.equal(seen.length, 1);
      assert.ok(seen[0] > 0, 'the check is given the connecting port');
      assert.equal(link.connected, false);
      await assert.rejects(link.call('ide.status', {}), /not connected/);
    } finally {
      link.close();
    }
  });
});
