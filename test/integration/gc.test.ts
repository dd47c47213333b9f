// pwp gc: what a killed run left (its owner process gone) is removed, containers and their
// networks; what is kept on purpose, what a live process owns and what another user owns stay.
// Plain containers of the base image stand in for environments: the labels are what counts.
import { strict as assert } from 'node:assert';
import { execFile, spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Docker from 'dockerode';
import { REPO_ROOT } from '../../host/common/paths';
import { DockerDeployment } from '../../host/deployment/dockerDeployment';
import { HOST_USER, KEPT_LABEL, OWNER, OWNER_LABEL, USER_LABEL, removeNetwork } from '../../host/deployment/ownedContainers';

const docker = new Docker();
const PWP = join(REPO_ROOT, 'bin', 'pwp');
const BASE = 'debian:bookworm-slim';

/** A pid no process has now: a child's, after it ended. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(r.stdout);
}

describe('pwp gc', function () {
  this.timeout(300_000);
  const made: string[] = [];
  const nets: string[] = [];
  const tag = `gc-test-${process.pid}`;

  async function leftover(name: string, labels: Record<string, string>, network?: string): Promise<string> {
    if (network) nets.push((await docker.createNetwork({ Name: network, Labels: labels })).id);
    const c = await docker.createContainer({
      Image: BASE, name: `${tag}-${name}`, Cmd: ['sleep', 'infinity'], Labels: { ...labels, 'pwp.test': '1' }, HostConfig: network ? { NetworkMode: network } : {},
    });
    made.push(c.id);
    return c.id;
  }
  const exists = async (id: string) => docker.getContainer(id).inspect().then(() => true, () => false);

  after(async () => {
    await Promise.all(made.map((id) => docker.getContainer(id).remove({ force: true }).catch(() => undefined)));
    await Promise.all(nets.map((id) => docker.getNetwork(id).remove().catch(() => undefined)));
  });

  it('removes a killed run\'s container and network, and leaves kept, live and other users\' ones', async () => {
    const dead = `${hostname()}:${deadPid()}:abcdef`;
    const killed = await leftover('killed', { [USER_LABEL]: HOST_USER, [OWNER_LABEL]: dead }, `${tag}-net`);
    const kept = await leftover('kept', { [USER_LABEL]: HOST_USER, [OWNER_LABEL]: dead, [KEPT_LABEL]: '1' });
    const live = await leftover('live', { [USER_LABEL]: HOST_USER, [OWNER_LABEL]: OWNER });
    const theirs = await leftover('theirs', { [USER_LABEL]: 'someone:4242@elsewhere', [OWNER_LABEL]: dead });

    const dry = JSON.parse((await promisify(execFile)(PWP, ['gc', '--dry-run', '--json'])).stdout) as { kind: string; name: string }[];
    assert.ok(dry.some((f) => f.kind === 'container' && f.name === `${tag}-killed`), JSON.stringify(dry));
    assert.ok(dry.some((f) => f.kind === 'network' && f.name === `${tag}-net`), JSON.stringify(dry));
    assert.ok(!dry.some((f) => [`${tag}-kept`, `${tag}-live`, `${tag}-theirs`].includes(f.name)), JSON.stringify(dry));
    assert.equal(await exists(killed), true, 'a dry run removes nothing');

    const { stdout } = await promisify(execFile)(PWP, ['gc']);
    assert.match(stdout, new RegExp(`removed container ${tag}-killed`));
    assert.equal(await exists(killed), false);
    assert.equal(await docker.getNetwork(`${tag}-net`).inspect().then(() => true, () => false), false, 'its network went with it');
    for (const id of [kept, live, theirs]) assert.equal(await exists(id), true);
  });

  it('a network a gone process left without its container goes when the next environment is made', async () => {
    const dead = `${hostname()}:${deadPid()}:abcdef`;
    const net = async (name: string, owner: string) => {
      const n = await docker.createNetwork({ Name: `${tag}-${name}`, Labels: { [USER_LABEL]: HOST_USER, [OWNER_LABEL]: owner, 'pwp.test': '1' } });
      nets.push(n.id);
      return n.id;
    };
    const orphan = await net('orphan', dead);
    const mine = await net('mine', OWNER);
    // Started: only a running container holds an endpoint on its network.
    await docker.getContainer(await leftover('holder', { [USER_LABEL]: HOST_USER, [OWNER_LABEL]: dead }, `${tag}-held`)).start();
    const held = nets[nets.length - 1];
    const netExists = (id: string) => docker.getNetwork(id).inspect().then(() => true, () => false);

    // What make() calls before it creates the new environment's network.
    await new DockerDeployment({ docker }).collectStaleNetworks();
    assert.equal(await netExists(orphan), false, 'the orphan went');
    assert.equal(await netExists(mine), true, 'a live process\'s network stays (its container may be on the way)');
    assert.equal(await netExists(held), true, 'a network a container is on stays');
    // Removing one that is gone already is not an error; one still in use is, with the reason.
    await removeNetwork(docker, orphan);
    await assert.rejects(removeNetwork(docker, held), /is still used by container|active endpoints/);
  });
});
