// The bridge and the file tools under attack from inside and outside a real environment:
// a flood from one client, an oversized frame, a foreign page's WebSocket, hard links and a
// folder swapped for a link to / while the tools read under it.
import { strict as assert } from 'node:assert';
import WebSocket from 'ws';
import { BusyError, PayloadTooLargeError } from '../../bridge/protocol';
import { BridgeClient } from '../../host/client/bridgeClient';
import { useEnvironment } from './environmentFixture';
import { callTool, execIn, fileIn, textOf } from './toolsFixture';

describe('bridge hardening (real container)', function () {
  this.timeout(300_000);
  const env = useEnvironment({ 'src/app.py': 'print("hi")\n' });

  it('answers a flood of 2000 calls from one client with busy errors beyond its limit, while another client is answered', async () => {
    const { info } = env();
    const flood = await BridgeClient.connect(info.bridgeUrl, info.token);
    const other = await BridgeClient.connect(info.bridgeUrl, info.token);
    try {
      // input.type reads the keymap with xmodmap: before the caps, 2000 of them at once ran
      // into the container's process limit (spawn EAGAIN).
      const calls = Array.from({ length: 2000 }, (_, i) =>
        (i % 2 ? flood.call('input.move', { x: 10 + (i % 100), y: 10 }) : flood.call('input.type', { text: '' })).then(() => 'ok', (e: Error) => e));
      // The second client's calls resolve while the flood is being answered.
      const health = await other.call('proc.health', {});
      assert.equal(typeof health.ready, 'boolean');
      assert.ok((await other.call('input.move', { x: 5, y: 5 })).durationMs >= 0);
      const results = await Promise.all(calls);
      const failures = results.filter((r): r is Error => r !== 'ok');
      const busy = failures.filter((e) => e instanceof BusyError);
      assert.ok(busy.length > 0, 'the excess was answered busy');
      assert.deepEqual(failures.filter((e) => !(e instanceof BusyError)).map((e) => e.message), [], 'no call failed otherwise (no spawn EAGAIN)');
      assert.ok(results.filter((r) => r === 'ok').length >= 64, 'the calls within the limit ran');
    } finally {
      flood.close();
      other.close();
    }
  });

  it('answers an oversized frame with PayloadTooLargeError, then closes that connection only', async () => {
    const { info, client } = env();
    const c = await BridgeClient.connect(info.bridgeUrl, info.token);
    await assert.rejects(c.callUnchecked('input.type', { text: 'x'.repeat(64 * 1024 * 1024) }), PayloadTooLargeError);
    assert.equal(c.closed, true);
    assert.equal(typeof (await client.call('proc.health', {})).ready, 'boolean');
  });

  it('refuses a WebSocket from a foreign page with HTTP 403, token or not', async () => {
    const { info } = env();
    const status = (origin?: string) => new Promise<number>((resolve, reject) => {
      const ws = new WebSocket(info.bridgeUrl, { headers: { authorization: `Bearer ${info.token}` }, ...(origin ? { origin } : {}) });
      ws.on('open', () => { ws.close(); resolve(101); });
      ws.on('unexpected-response', (_req, res) => { resolve(res.statusCode ?? 0); ws.terminate(); });
      ws.on('error', reject);
    });
    assert.equal(await status('http://evil.example'), 403);
    assert.equal(await status(), 101);
  });

  it('refuses to read or write a hard-linked file whose other name is outside the workspace', async () => {
    const { client } = env();
    // The agent's own file outside the workspace (the kernel's protected_hardlinks keeps it
    // from linking files it does not own, such as /etc/passwd, on this host).
    await execIn(env(), ['sh', '-c', 'mkdir -p /tmp/outside && echo secret > /tmp/outside/s.txt && ln -f /tmp/outside/s.txt /workspace/s-link']);
    for (const r of [await callTool(client, 'read_file', { target_file: 's-link' }), await callTool(client, 'file_edit', { command: 'view', path: 's-link' })]) {
      assert.equal(r.isError, true);
      assert.match(textOf(r), /hard link/);
      assert.doesNotMatch(textOf(r), /secret/);
    }
    const w = await callTool(client, 'write_file', { file_path: 's-link', contents: 'pwned\n' });
    assert.equal(w.isError, true);
    const e = await callTool(client, 'file_edit', { command: 'str_replace', path: 's-link', old_str: 'secret', new_str: 'pwned' });
    assert.equal(e.isError, true);
    assert.equal(await fileIn(env(), '/tmp/outside/s.txt'), 'secret\n');
  });

  it('never returns /etc/passwd while a folder is swapped for a link to / during hundreds of reads', async () => {
    const { client } = env();
    await execIn(env(), ['sh', '-c', 'mkdir -p /workspace/sub/etc && echo "workspace file" > /workspace/sub/etc/passwd']);
    const pid = (await execIn(env(), ['sh', '-c',
      'cd /workspace && (while :; do mv sub sub.real; ln -s / sub; rm sub; mv sub.real sub; done) >/dev/null 2>&1 & echo $!'])).trim();
    assert.match(pid, /^\d+$/);
    try {
      let read = 0;
      for (let i = 0; i < 300; i++) {
        const r = await callTool(client, i % 2 ? 'read_file' : 'file_edit', i % 2
          ? { target_file: 'sub/etc/passwd' }
          : { command: 'view', path: 'sub/etc/passwd' });
        const t = textOf(r);
        assert.doesNotMatch(t, /root:x:0:0/, `call ${i} returned /etc/passwd`);
        if (!r.isError) { assert.match(t, /workspace file/); read++; }
      }
      assert.ok(read > 0, 'some calls read the workspace file');
    } finally {
      await execIn(env(), ['kill', pid]);
    }
  });
});
