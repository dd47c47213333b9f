// What grading reads of a workspace is bounded: the size test, and an archive stream cut at the
// bound however much more its writer sends (a stream of zeros standing in for a sparse file).
import { strict as assert } from 'node:assert';
import { Readable } from 'node:stream';
import { LimitExceededError } from '../../../../bridge/protocol';
import { bufferOf } from '../../../../host/deployment/tarArchive';
import { archiveBound, tooLarge } from '../../../../host/taskEnv/workspaceSize';

const LIMITS = { workspaceBytes: 1000, workspaceFiles: 10 };

describe('the graded workspace has a bound', () => {
  it('is within its limits up to both, and too large past either, naming its size', () => {
    assert.equal(tooLarge({ bytes: 1000, files: 10 }, LIMITS), undefined);
    assert.match(tooLarge({ bytes: 1001, files: 1 }, LIMITS) ?? '', /^workspace too large: 1001 bytes in 1 files \(the task grades at most 1000 bytes in 10 files\)$/);
    assert.match(tooLarge({ bytes: 0, files: 11 }, LIMITS) ?? '', /0 bytes in 11 files/);
    // A 20 GiB sparse file counts by its apparent size.
    assert.ok(tooLarge({ bytes: 20 * 2 ** 30, files: 1 }, { workspaceBytes: 512 * 2 ** 20, workspaceFiles: 100_000 }));
  });

  it('stops reading an archive stream at the bound and destroys it, however long it goes on', async () => {
    let sent = 0;
    const endless = new Readable({
      read() { sent += 1 << 20; this.push(Buffer.alloc(1 << 20)); },
    });
    const bound = archiveBound({ workspaceBytes: 8 << 20, workspaceFiles: 10 });
    await assert.rejects(bufferOf(endless, bound), (err: unknown) => err instanceof LimitExceededError && /larger than \d+ bytes/.test((err as Error).message));
    assert.ok(endless.destroyed, 'the stream is destroyed');
    assert.ok(sent < bound + (4 << 20), `read ${sent} bytes for a bound of ${bound}`);
  });

  it('reads a stream within the bound whole', async () => {
    const data = Buffer.from('x'.repeat(5000));
    assert.deepEqual(await bufferOf(Readable.from([data.subarray(0, 2000), data.subarray(2000)]), 5000), data);
  });
});
