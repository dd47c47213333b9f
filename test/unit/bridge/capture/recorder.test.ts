// The recorder against a stand-in ffmpeg (a script on PATH) that takes its time before it
// captures, as a real one does on a busy machine: recordStart returns only once the output has
// begun, so that a recording stopped right after it still holds frames; one that dies first is an
// error at start.
import { strict as assert } from 'node:assert';
import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ActionFailedError } from '../../../../bridge/protocol';
import { Recorder } from '../../../../bridge/capture/recorder';

// The last argument is the output. MODE=slow: header after a while, the rest on `q`; MODE=dies: exits 1.
const FAKE_FFMPEG = `#!/bin/sh
for a; do out="$a"; done
[ "$FAKE_MODE" = dies ] && { echo "cannot open display" >&2; exit 1; }
sleep 1
printf 'headerheaderheaderheaderheaderheaderheaderheader' > "$out"
read q
head -c 5000 /dev/zero >> "$out"
`;

describe('the screen recorder (a stand-in ffmpeg)', () => {
  let dir: string;
  const path = process.env.PATH;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pwp-recorder-'));
    writeFileSync(join(dir, 'ffmpeg'), FAKE_FFMPEG);
    chmodSync(join(dir, 'ffmpeg'), 0o755);
    process.env.PATH = `${dir}:${path}`;
  });
  afterEach(() => { process.env.PATH = path; delete process.env.FAKE_MODE; rmSync(dir, { recursive: true, force: true }); });

  const options = () => ({ display: ':99', width: 64, height: 48, fps: 10, path: join(dir, 'out', 'rec.mp4') });

  it('returns from start once ffmpeg has begun its output, not before; a file left from before does not count', async () => {
    const o = options();
    const r = new Recorder();
    await r.start(o);
    assert.ok(statSync(o.path).size > 0, 'the output had begun when start returned');
    const first = await r.stop();
    assert.equal(first.bytes, 5048);
    // Again over the finished file: start must wait for the new one.
    await r.start(o);
    assert.equal(statSync(o.path).size, 48);
    assert.equal((await r.stop()).bytes, 5048);
  });

  it('fails at start, with what ffmpeg said, when ffmpeg dies before capturing', async () => {
    process.env.FAKE_MODE = 'dies';
    const r = new Recorder();
    await assert.rejects(r.start(options()), (e: Error) => e instanceof ActionFailedError && /exited with 1: cannot open display/.test(e.message));
    assert.equal(r.active, false);
  });
});
