// Which runs (a bench's) take a warm pool's environment, without containers: one pool per image
// in use (created on first use, nothing started until a run takes one), and none for a task that
// asks for the network or its own display or memory (it starts its own environment).
import assert from 'node:assert/strict';
import { benchJobs } from '../../../../host/runs/benchmark';
import { imagePools, type ImagePoolOptions } from '../../../../host/taskEnv/imagePools';
import type { DockerDeployment } from '../../../../host/deployment/dockerDeployment';
import type { Task } from '../../../../host/taskEnv/loadTask';

const task = (id: string, o: Partial<Task> = {}): Task => ({ suite: 's', id, image: 'default', network: false, environment: {}, ...o }) as Task;
const deployment = {} as DockerDeployment; // a pool starts nothing until acquire(), which this test never calls
/** As runBench resolves them: the IDE image for `default`, the tag as it is. */
const imageOf = (ide?: string) => (t: Task) => (t.image === 'default' ? ide : t.image as string);

describe('warm pools by image', () => {
  const plain = task('plain');
  const other = task('other', { image: 'family:1' });
  const net = task('net', { network: true });
  const big = task('big', { environment: { memoryMb: 4096 } });
  const wide = task('wide', { environment: { display: { width: 1920, height: 1080 } } });
  const runs = benchJobs({ tasks: [plain, task('plain2'), other, net, big, wide], agent: 'oracle', attempts: 2 }).map((j) => j.task);
  const pools = (o: Omit<ImagePoolOptions, 'labels'>) => imagePools(runs, { ...o, labels: { 'pwp.bench': '/out' } }, deployment);

  it('gives tasks of one image the same pool, started from that image with the bench label, and another image its own', () => {
    const p = pools({ parallel: 3, imageOf: imageOf('pwp-ide:x') });
    const a = p.for(plain);
    assert.ok(a);
    assert.equal(p.for(task('plain2')), a);
    assert.deepEqual(a.spec, { image: 'pwp-ide:x', labels: { 'pwp.bench': '/out' } });
    const b = p.for(other);
    assert.ok(b && b !== a);
    assert.equal(b.spec?.image, 'family:1');
  });

  it('gives no pool to a task that asks for the network, its own memory or display, or whose image is not known yet', async () => {
    const p = pools({ parallel: 2, imageOf: imageOf('pwp-ide:x') });
    for (const t of [net, big, wide]) assert.equal(p.for(t), undefined, t.id);
    assert.equal(pools({ parallel: 2, imageOf: imageOf(undefined) }).for(plain), undefined);
    await p.close();
  });
});
