import { strict as assert } from 'node:assert';
import type Docker from 'dockerode';
import { DockerDeployment } from '../../../../host/deployment/dockerDeployment';
import { LABEL } from '../../../../host/deployment/environmentLabels';

// An engine that lists two environments and has lost one of them by the time it is inspected,
// as when another process removes its environment while `pwp ls` (or a test) lists.
function engineLosing(gone: string, otherFailure?: Error): Docker {
  const inspect = (id: string) => {
    if (id === gone) throw otherFailure ?? Object.assign(new Error(`(HTTP code 404) no such container - No such container: ${id}`), { statusCode: 404 });
    return {
      Config: { Env: ['PWP_DISPLAY_SIZE=1280x800'], Labels: { [LABEL]: id.slice(1) }, Image: 'pwp:latest' },
      Created: '2026-11-28T00:00:00Z',
      State: { Status: 'running' },
      NetworkSettings: { Networks: {} },
    };
  };
  return {
    ping: () => Promise.resolve('OK'),
    listContainers: () => Promise.resolve([{ Id: 'c-kept' }, { Id: gone }]),
    getContainer: (id: string) => ({ inspect: () => Promise.resolve().then(() => inspect(id)) }),
  } as unknown as Docker;
}

describe('DockerDeployment.list', () => {
  it('leaves out an environment removed between the listing and its inspection', async () => {
    const listed = await new DockerDeployment({ docker: engineLosing('c-gone') }).list();
    assert.deepEqual(listed.map((e) => e.id), ['-kept']);
  });

  it('still reports any other failure to inspect', async () => {
    await assert.rejects(new DockerDeployment({ docker: engineLosing('c-gone', new Error('engine fell over')) }).list(), /engine fell over/);
  });
});
