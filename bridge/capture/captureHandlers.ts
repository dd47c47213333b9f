// capture.* methods: screenshot, cursor, delta and recording.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { ActionFailedError, InvalidParamsError } from '../protocol';
import type { Dispatcher, Session } from '../rpc/dispatcher';
import { diffFrames } from './delta';
import { encodeFrame } from './encode';
import type { Frame, Framebuffer } from './framebuffer';
import { Recorder } from './recorder';

const run = promisify(execFile);
const BASELINE = 'capture.baseline';

export interface CaptureDeps { framebuffer: Framebuffer; display: string; recordingsDir: string }

export async function cursorPosition(display: string): Promise<{ x: number; y: number }> {
  const { stdout } = await run('xdotool', ['getmouselocation', '--shell'], { env: { ...process.env, DISPLAY: display } });
  const x = /X=(\d+)/.exec(stdout);
  const y = /Y=(\d+)/.exec(stdout);
  if (!x || !y) throw new ActionFailedError(`unexpected xdotool output: ${stdout.trim()}`);
  return { x: Number(x[1]), y: Number(y[1]) };
}

export function registerCapture(d: Dispatcher, deps: CaptureDeps): Recorder {
  const recorder = new Recorder();
  const remember = (s: Session, f: Frame, name = 'default') => s.state.set(`${BASELINE}.${name}`, f);

  d.register('capture.screenshot', async (p, session) => {
    const t0 = performance.now();
    const frame = deps.framebuffer.read();
    remember(session, frame);
    const data = await encodeFrame(frame, p.format, p.quality, p.region);
    const width = p.region ? Math.min(Math.ceil(p.region.width), frame.width) : frame.width;
    const height = p.region ? Math.min(Math.ceil(p.region.height), frame.height) : frame.height;
    return { format: p.format, width, height, data: data.toString('base64'), durationMs: performance.now() - t0 };
  });

  d.register('capture.cursor', async () => cursorPosition(deps.display));

  d.register('capture.delta', async (p, session) => {
    const frame = deps.framebuffer.read();
    const { changedPixels, box } = diffFrames(session.state.get(`${BASELINE}.${p.baseline}`) as Frame | undefined, frame);
    remember(session, frame, p.baseline);
    if (!box) return { changed: false, changedPixels: 0, box: null, image: null };
    if (!p.includeImage) return { changed: true, changedPixels, box, image: null };
    const data = await encodeFrame(frame, p.format, p.quality, box);
    return { changed: true, changedPixels, box, image: { format: p.format, width: box.width, height: box.height, data: data.toString('base64') } };
  });

  d.register('capture.recordStart', async (p) => {
    const size = deps.framebuffer.size ?? deps.framebuffer.read();
    const path = p.path ?? `${deps.recordingsDir}/recording-${new Date().toISOString().replace(/[:.]/g, '-')}.mp4`;
    if (!path.startsWith('/') || path.split('/').includes('..')) throw new InvalidParamsError('params.path: must be an absolute path without ..');
    return recorder.start({ display: deps.display, width: size.width, height: size.height, fps: p.fps, path });
  });

  d.register('capture.recordStop', async () => recorder.stop());
  return recorder;
}
