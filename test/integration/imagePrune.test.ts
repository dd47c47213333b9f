// Pruning against the real Docker engine, in a repository of its own (never pwp-ide, whose
// images other checkouts on this host may be using): three small images tagged one after
// another, the oldest used by a stopped container; keeping one removes only the middle one.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import Docker from 'dockerode';
import { pruneOldImages } from '../../host/imageBuild/pruneImages';
import { BASE_IMAGE } from '../../host/imageBuild/imageInputs';

const REPO = `pwp-prune-test-${process.pid}`;
const docker = new Docker();
const tags = ['one', 'two', 'three'].map((t) => `${REPO}:${t}`);
const exists = (ref: string) => docker.getImage(ref).inspect().then(() => true, () => false);

describe('pruning old images on the Docker engine', function () {
  this.timeout(300_000);
  let container: string | undefined;

  before(async function () {
    if (!(await exists(BASE_IMAGE))) this.skip();
    for (const [i, tag] of tags.entries()) {
      // Each its own image (a different label), tagged in order.
      execFileSync('docker', ['build', '-q', '-t', tag, '--label', `n=${i}-${process.pid}`, '-'], { input: `FROM ${BASE_IMAGE}\n`, env: { ...process.env, DOCKER_BUILDKIT: '0' }, stdio: 'pipe' });
      await new Promise((r) => setTimeout(r, 1100)); // tag times are compared to the second
    }
    container = (await docker.createContainer({ Image: tags[0], Cmd: ['true'], Labels: { 'pwp.test': 'imagePrune' } })).id;
  });

  after(async () => {
    if (container) await docker.getContainer(container).remove({ force: true }).catch(() => undefined);
    for (const tag of tags) await docker.getImage(tag).remove({ force: true }).catch(() => undefined);
  });

  it('removes the old tag nobody uses and keeps the newest and the one a container was made from', async () => {
    const lines: string[] = [];
    const removed = await pruneOldImages(docker, REPO, 1, (l) => lines.push(l));
    assert.deepEqual(removed, [tags[1]], lines.join('\n'));
    assert.deepEqual(await Promise.all(tags.map(exists)), [true, false, true]);
  });
});
