// Without a Docker engine every command that needs one says so in one sentence, at once, and
// no base image is bootstrapped (images/bootstrap-base.sh would otherwise start debootstrap).
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Docker from 'dockerode';
import { REPO_ROOT } from '../../../../host/common/paths';
import { NoEngineError, noEngineMessage, requireEngine } from '../../../../host/imageBuild/engineCheck';
import { errorFromWire, errorToWire, NotAvailableError } from '../../../../bridge/protocol';

describe('no Docker engine', function () {
  this.timeout(120_000);
  const socket = join(mkdtempSync(join(tmpdir(), 'pwp-noengine-')), 'docker.sock');

  it('requireEngine fails with NoEngineError naming the socket and the way out', async () => {
    await assert.rejects(requireEngine(new Docker({ socketPath: socket })), (e: Error) => {
      assert.ok(e instanceof NoEngineError);
      // On the wire (the Env server's clients) it is NotAvailableError with the same sentence.
      assert.deepEqual(errorFromWire(errorToWire(e)).constructor, NotAvailableError);
      assert.equal(e.message, `no Docker engine at unix://${socket}: \`npm run setup\` installs and starts one, or start yours (ENOENT)`);
      return true;
    });
  });

  it('names the socket the client picks when none is configured, not the function that picks it', async () => {
    // Without DOCKER_HOST, the client's socketPath is such a function (the user's socket, else the system's).
    await assert.rejects(requireEngine(new Docker({ socketPath: (() => Promise.resolve(socket)) as unknown as string })), (e: Error) => {
      assert.equal(e.message, `no Docker engine at unix://${socket}: \`npm run setup\` installs and starts one, or start yours (ENOENT)`);
      return true;
    });
  });

  it('tells a refused user apart from a missing engine, and leaves other errors alone', () => {
    assert.match(noEngineMessage({ code: 'EACCES' }, 'unix:///x') ?? '', /refuses this user .*docker group/);
    assert.equal(noEngineMessage(new Error('no such image'), 'unix:///x'), null);
  });

  for (const args of [['ls'], ['up'], ['build-image'], ['run', 'code-edit/py-roman', '--agent', 'null']]) {
    it(`pwp ${args.join(' ')}: the one sentence, exit 1, no base-image bootstrap`, () => {
      const before = readdirSync(tmpdir()).filter((n) => n.startsWith('pwp-rootfs.')).length;
      const r = spawnSync(join(REPO_ROOT, 'bin', 'pwp'), args, { encoding: 'utf8', env: { ...process.env, DOCKER_HOST: `unix://${socket}`, PWP_DEBUG: '' } });
      assert.equal(r.status, 1, r.stderr);
      assert.equal(r.stderr.trim(), `pwp: no Docker engine at unix://${socket}: \`npm run setup\` installs and starts one, or start yours (ENOENT)`);
      assert.doesNotMatch(r.stdout + r.stderr, /base image|debootstrap/);
      assert.equal(readdirSync(tmpdir()).filter((n) => n.startsWith('pwp-rootfs.')).length, before);
    });
  }
});
