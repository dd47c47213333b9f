// Screen recording with ffmpeg's x11grab. Stopping sends `q` so ffmpeg finalizes the MP4.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { ActionFailedError, InvalidParamsError } from '../protocol';

/** How long ffmpeg may take to capture its first frame (seconds on a busy machine). */
const CAPTURE_START_TIMEOUT_MS = 60_000;

/** ffmpeg has written the output's header (48 bytes: ftyp and the start of mdat). */
function begun(path: string): boolean {
  try { return statSync(path).size > 0; } catch { return false; }
}

export interface RecordingOptions { display: string; width: number; height: number; fps: number; path: string }

export class Recorder {
  private proc?: ChildProcess;
  private current?: { path: string; startedAt: number; stderr: string };

  get active(): boolean { return this.proc !== undefined; }

  async start(o: RecordingOptions): Promise<{ path: string }> {
    if (this.proc) throw new InvalidParamsError(`a recording is already running (${this.current?.path}); stop it first`);
    if (!o.path.endsWith('.mp4')) throw new InvalidParamsError('params.path: recordings are MP4 files and must end in .mp4');
    mkdirSync(dirname(o.path), { recursive: true });
    // ffmpeg writes its output's header once the first frame reaches the encoder: a file left
    // from before would say "capturing" too early.
    rmSync(o.path, { force: true });
    const argv = [
      '-hide_banner', '-loglevel', 'error', '-y',
      '-f', 'x11grab', '-draw_mouse', '1', '-framerate', String(o.fps), '-video_size', `${o.width}x${o.height}`, '-i', o.display,
      '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-movflags', '+faststart', o.path,
    ];
    const proc = spawn('ffmpeg', argv, { stdio: ['pipe', 'ignore', 'pipe'] });
    const current = { path: o.path, startedAt: Date.now(), stderr: '' };
    proc.stderr!.on('data', (d: Buffer) => { current.stderr = (current.stderr + d.toString()).slice(-2000); });
    let exitCode: number | null = null;
    proc.once('exit', (code) => { exitCode = code ?? -1; if (this.proc === proc) this.proc = undefined; });
    // Returns once ffmpeg captures (its output has a header): on a busy machine it takes seconds to get
    // there, and a stop before that would end a recording with no frame in it. A recorder that
    // dies first (bad display, no codec) is an error now, not at stop.
    const deadline = Date.now() + CAPTURE_START_TIMEOUT_MS;
    while (!begun(o.path)) {
      if (exitCode !== null) throw new ActionFailedError(`ffmpeg exited with ${exitCode}: ${current.stderr.trim()}`);
      if (Date.now() > deadline) {
        proc.kill('SIGKILL');
        throw new ActionFailedError(`ffmpeg did not start capturing within ${CAPTURE_START_TIMEOUT_MS / 1000} s: ${current.stderr.trim()}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    current.startedAt = Date.now();
    this.proc = proc;
    this.current = current;
    return { path: o.path };
  }

  async stop(): Promise<{ path: string; durationMs: number; bytes: number }> {
    const proc = this.proc;
    const current = this.current;
    if (!proc || !current) throw new InvalidParamsError('no recording is running');
    this.proc = undefined;
    const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
    proc.stdin!.end('q');
    const killer = setTimeout(() => proc.kill('SIGINT'), 5000);
    await exited;
    clearTimeout(killer);
    let bytes = 0;
    try { bytes = statSync(current.path).size; } catch { /* reported below */ }
    if (bytes === 0) throw new ActionFailedError(`recording produced no file: ${current.stderr.trim()}`);
    return { path: current.path, durationMs: Date.now() - current.startedAt, bytes };
  }

  /** Stops without waiting, for shutdown. */
  kill(): void { this.proc?.kill('SIGINT'); }
}
