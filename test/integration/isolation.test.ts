// Isolation, tried as a hostile agent would from its own bash (the IDE user, pwp): the bridge's
// token, memory and signals, the browser's DevTools and the X display are out of its reach;
// the extension it is graded through cannot be rewritten; environments reach neither each
// other nor the host's services, nor the outside unless asked; a crashed display comes back.
import { strict as assert } from 'node:assert';
import { request } from 'node:http';
import { createServer, type Server } from 'node:net';
import { networkInterfaces } from 'node:os';
import { screenshot } from '../../host/env/observation';
import sharp from 'sharp';
import { DockerDeployment } from '../../host/deployment/dockerDeployment';
import { startEnvironment, type RunningEnvironment } from '../../host/running/runningEnvironment';
import { makeWorkspace, testImage, type TestEnvironment } from './environmentFixture';
import { eventually, execIn } from './ideDriving';

const BUILTIN_EXTENSION = '/opt/code-server/lib/node_modules/code-server/lib/vscode/extensions/pwp.pwp-ide-bridge';

/** Runs a bash script in the container as `user`, with $1.. = args; returns its output. */
const bash = (env: TestEnvironment, script: string, args: string[] = [], user = 'pwp') => execIn(env, ['bash', '-c', script, 'probe', ...args], user);

/** Tries a TCP connection from inside the container: "open" or "closed". */
const tcpProbe = `for t in "$@"; do if timeout 3 bash -c "exec 3<>/dev/tcp/\${t%:*}/\${t##*:}" 2>/dev/null; then echo "$t open"; else echo "$t closed"; fi; done`;

function httpGet(url: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => { body += d.toString(); });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    }).on('error', reject).end();
  });
}

describe('isolation: users, networks and faults', function () {
  this.timeout(10 * 60_000);
  const deployment = new DockerDeployment();
  let a: RunningEnvironment | undefined;
  let b: RunningEnvironment | undefined;
  const envA = (): TestEnvironment => ({ client: a!.client, info: a!.info, deployment, readFile: async (p) => (await deployment.readFile(a!.info.id, p)).toString() });
  const envB = (): TestEnvironment => ({ client: b!.client, info: b!.info, deployment, readFile: async (p) => (await deployment.readFile(b!.info.id, p)).toString() });
  const ipOf = (e: RunningEnvironment) => new URL(e.info.bridgeUrl).hostname;

  before(async function () {
    this.timeout(30 * 60_000);
    const image = await testImage();
    // A: the default (no outside network); B: a task that asked for the network.
    [a, b] = await Promise.all([
      startEnvironment(deployment, { image, workspaceDir: makeWorkspace({ 'a.txt': 'a\n' }), labels: { 'pwp.test': '1' } }),
      startEnvironment(deployment, { image, workspaceDir: makeWorkspace({ 'b.txt': 'b\n' }), labels: { 'pwp.test': '1' }, network: true }),
    ]);
  });
  after(async () => {
    for (const e of [a, b]) {
      if (!e) continue;
      e.client.close();
      await deployment.remove(e.info.id).catch(() => undefined);
    }
  });

  describe('users apart inside the container', () => {
    it('runs the bridge as root and the IDE as pwp', async () => {
      const out = await bash(envA(), `ps -eo user:12,args --no-headers | grep -E 'bridge.js|code-server|Xvfb|chromium' | grep -v grep | awk '{print $1, $2}' | sort -u`);
      const lines = out.trim().split('\n');
      assert.ok(lines.some((l) => /^root .*node$/.test(l) || l === 'root /opt/node/bin/node'), out);
      assert.ok(lines.some((l) => l.startsWith('pwp ')), `code-server as pwp: ${out}`);
      assert.ok(lines.some((l) => /^root Xvfb/.test(l)), out);
      assert.ok(!lines.some((l) => /^pwp (Xvfb|\/usr\/lib\/chromium)/.test(l)), out);
    });

    it("denies pwp the bridge's memory, environment and signals", async () => {
      const out = await bash(envA(), `
        pid=$(pgrep -f /opt/pwp/bridge.js | head -1); [ -n "$pid" ] || { echo "no bridge"; exit 1; }
        head -c 1 /proc/$pid/mem >/dev/null 2>&1 && echo "mem readable" || echo "mem denied"
        cat /proc/$pid/environ >/dev/null 2>&1 && echo "environ readable" || echo "environ denied"
        ls /proc/$pid/fd >/dev/null 2>&1 && echo "fds readable" || echo "fds denied"
        kill -0 $pid 2>/dev/null && echo "signal delivered" || echo "signal refused"
        kill -STOP $pid 2>/dev/null && echo "stopped" || echo "stop refused"`);
      assert.equal(out.trim(), 'mem denied\nenviron denied\nfds denied\nsignal refused\nstop refused');
      assert.equal((await envA().client.call('proc.health', {})).ready, true, 'the bridge still answers');
    });

    it('leaves the token in no place pwp can read', async () => {
      // The token goes in halves, and grep reads it from a pipe: no command line of the probe holds it.
      const half = Math.floor(a!.info.token.length / 2);
      const probe = (plant: boolean) => bash(envA(), `
        t="$1$2"; ${plant ? `printf '%s' "$t" > /tmp/planted` : 'rm -f /tmp/planted'}
        for f in /proc/[0-9]*/environ /proc/[0-9]*/cmdline; do grep -qaF -f <(printf '%s\\n' "$t") "$f" 2>/dev/null && echo "in $f"; done
        grep -rlsaF -f <(printf '%s\\n' "$t") /tmp /home /workspace /run /var/tmp /dev/shm /opt/pwp /etc 2>/dev/null | sed 's/^/file /'
        echo "done"`, [a!.info.token.slice(0, half), a!.info.token.slice(half)]);
      // The probe finds a copy where one is (it can fail), then finds none.
      assert.equal((await probe(true)).trim(), 'file /tmp/planted\ndone');
      const out = await probe(false);
      assert.equal(out.trim(), 'done');
    });

    it("offers pwp no DevTools endpoint: no listening port answers the DevTools protocol", async () => {
      const out = await bash(envA(), `
        ports=$(awk 'NR>1 && $4=="0A" {split($2,a,":"); print a[2]}' /proc/net/tcp /proc/net/tcp6 2>/dev/null | while read h; do echo $((16#$h)); done | sort -un)
        echo "listening: $ports" | tr '\\n' ' '; echo
        for p in $ports; do curl -s -m 3 "http://127.0.0.1:$p/json/version" | grep -q webSocketDebuggerUrl && echo "devtools on $p"; done
        tr '\\0' ' ' < /proc/$(pgrep -o -f /usr/lib/chromium/chromium)/cmdline | grep -o 'remote-debugging-[a-z]*'`);
      assert.ok(!/devtools on/.test(out), out);
      assert.ok(/listening: .*7000/.test(out), `the probe saw the bridge's port: ${out}`);
      assert.match(out, /^remote-debugging-pipe$/m);
      assert.doesNotMatch(out, /remote-debugging-port/);
    });

    it('refuses pwp on the X display and keeps the cookie from it', async () => {
      const out = await bash(envA(), `
        DISPLAY=:1 timeout 10 xdotool getmouselocation >/dev/null 2>&1 && echo "display open" || echo "display refused"
        cat /tmp/pwp/xauthority >/dev/null 2>&1 && echo "cookie readable" || echo "cookie denied"
        ls /tmp/pwp >/dev/null 2>&1 && echo "run dir listable" || echo "run dir denied"`);
      assert.equal(out.trim(), 'display refused\ncookie denied\nrun dir denied');
      // The same command as root with the bridge's cookie works: the refusal is the cookie, not a broken display.
      const root = await bash(envA(), 'XAUTHORITY=/tmp/pwp/xauthority DISPLAY=:1 xdotool getmouselocation >/dev/null && echo ok', [], 'root');
      assert.equal(root.trim(), 'ok');
    });

    it("keeps pwp from rewriting the extension that answers ide.* (the forge fails)", async () => {
      const out = await bash(envA(), `
        cd ${BUILTIN_EXTENSION} || exit 1
        stat -c '%U %a' dist/extension.js
        { echo 'module.exports.activate = () => {}' >> dist/extension.js; } 2>/dev/null && echo "rewrote it" || echo "write refused"
        mv dist dist.old 2>/dev/null && echo "moved it" || echo "move refused"
        touch new-file 2>/dev/null && echo "created" || echo "create refused"`);
      assert.equal(out.trim(), 'root 444\nwrite refused\nmove refused\ncreate refused');
      const ext = await envA().client.call('ide.extensions', { kind: 'builtin' });
      const me = ext.extensions.find((x) => x.id === 'pwp.pwp-ide-bridge');
      assert.ok(me?.builtin && me.active, JSON.stringify(me));
    });

    it("still lets pwp install extensions of its own", async () => {
      const out = await bash(envA(), 'test -w /home/pwp/ide/extensions && echo writable');
      assert.equal(out.trim(), 'writable');
    });
  });

  describe('environments apart', () => {
    let hostServer: Server;
    let hostPort = 0;
    before(async () => {
      // A service on every address of the host, as a developer's database or the inspector would be.
      hostServer = createServer((s) => s.end('host service\n'));
      await new Promise<void>((r) => hostServer.listen(0, '0.0.0.0', () => r()));
      hostPort = (hostServer.address() as { port: number }).port;
    });
    after(() => { hostServer.close(); });

    it("reaches neither another environment's bridge and IDE ports nor the host's services", async () => {
      // Every IPv4 address of the host (each environment's gateway, docker0, the host's own).
      const hostAddresses = Object.values(networkInterfaces()).flat().filter((i) => i && i.family === 'IPv4' && !i.internal).map((i) => i!.address);
      assert.ok(hostAddresses.includes(ipOf(a!).replace(/\.\d+$/, '.1')), `A's gateway among ${hostAddresses.join(', ')}`);
      for (const [from, to] of [[envA(), b!], [envB(), a!]] as const) {
        const targets = [`${ipOf(to)}:7000`, `${ipOf(to)}:8080`, ...hostAddresses.map((h) => `${h}:${hostPort}`)];
        const out = await bash(from, tcpProbe, targets);
        assert.equal(out.trim(), targets.map((t) => `${t} closed`).join('\n'));
      }
      // The probe can say "open": each environment reaches its own bridge, and the host reaches both.
      assert.equal((await bash(envA(), tcpProbe, ['127.0.0.1:7000'])).trim(), '127.0.0.1:7000 open');
      for (const e of [a!, b!]) assert.equal((await httpGet(`http://${ipOf(e)}:7000/healthz`)).status, 200);
    });

    it('has no outside network unless the task asks for it', async () => {
      const target = ['deb.debian.org:80'];
      assert.equal((await bash(envA(), tcpProbe, target)).trim(), 'deb.debian.org:80 closed');
      assert.equal((await bash(envB(), tcpProbe, target)).trim(), 'deb.debian.org:80 open');
    });

    it("serves the IDE to people only through the bridge's token check", async () => {
      const ip = ipOf(a!);
      // code-server listens on the container's loopback only.
      assert.equal((await bash(envB(), tcpProbe, [`${ip}:8080`])).trim(), `${ip}:8080 closed`);
      assert.equal((await httpGet(`http://${ip}:7000/ide/?folder=/workspace`)).status, 401);
      assert.equal((await httpGet(`http://${ip}:7000/ide/?token=wrong`)).status, 401);
      const first = await httpGet(a!.info.ideUrl);
      assert.equal(first.status, 303);
      assert.ok(!String(first.headers.location).includes('token='), 'the token leaves the address');
      const cookie = String(first.headers['set-cookie']).split(';')[0];
      assert.match(String(first.headers['set-cookie']), /HttpOnly/);
      const page = await httpGet(`http://${ip}:7000${first.headers.location}`, { cookie });
      assert.equal(page.status, 200);
      assert.match(page.body, /workbench/i);
    });

    it('removes the network with its environment', async () => {
      const id = b!.info.id;
      const nets = () => deployment.docker.listNetworks({ filters: { label: [`pwp.environment=${id}`] } });
      assert.equal((await nets()).length, 1);
      b!.client.close();
      await deployment.remove(id);
      b = undefined;
      assert.equal((await nets()).length, 0);
    });
  });

  describe('faults', () => {
    it('is ready again with a usable screen after the display server is killed', async function () {
      this.timeout(5 * 60_000);
      const { client } = envA();
      const before = await client.call('proc.health', {});
      await bash(envA(), 'pkill -KILL -x Xvfb', [], 'root');
      await eventually(() => client.call('proc.health', {}), (h) => h.components.display.restarts > before.components.display.restarts, 60_000, 'the display restarted');
      const h = await eventually(() => client.call('proc.health', {}), (x) => x.ready, 120_000, 'ready again');
      assert.equal(h.components.display.state, 'ready');
      const marks = await client.call('dom.marks', {});
      assert.ok(marks.marks.length > 5, 'the workbench is back in the browser');
      const { channels } = await sharp((await screenshot(client)).data).stats();
      assert.ok(channels[0].stdev > 5, 'the screen shows more than one colour');
      // The file in the explorer is on screen again (the workbench, not a blank window).
      assert.ok(marks.marks.some((m) => m.text.includes('a.txt')), JSON.stringify(marks.marks.map((m) => m.text)).slice(0, 500));
    });
  });
});
