// A trajectory on disk: <dir>/trajectory.jsonl, one record a line, appended and flushed to
// disk as each thing happens (a crash loses at most the line being written), with images
// and the initial workspace saved beside it. The reader tolerates a torn last line.
import { closeSync, cpSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { HumanEvent } from '../../bridge/protocol';
import type { AgentEvent } from '../models/agentEvents';
import type { Action } from '../env/actions';
import type { RewardAsked } from '../env/env';

export const TRAJECTORY_FILE = 'trajectory.jsonl';
export const TRAJECTORY_VERSION = 1;

/** What an observation was, with images replaced by files beside the trajectory. */
export interface ObservationRef {
  screenshot?: string;
  delta?: { changed: boolean; box: unknown; image: string | null };
  marks?: { count: number; file: string };
  marksImage?: string;
  cursor?: { x: number; y: number };
  focused?: unknown;
  ide?: unknown;
  timings: Record<string, number>;
  errors?: Record<string, string>;
}

interface Base { seq: number; /** ms since the epoch */ t: number }
export type TrajectoryRecord = Base & (
  | { type: 'header'; version: number; createdAt: string; meta: Record<string, unknown> }
  | { type: 'reset'; seed: number | null; options: Record<string, unknown>; info: Record<string, unknown>; observation: ObservationRef }
  | {
    type: 'step'; actor: 'agent'; step: number; action: Action; reward: number; terminated: boolean; truncated: boolean;
    info: Record<string, unknown>; observation: ObservationRef;
  }
  | { type: 'human'; actor: 'human'; event: HumanEvent }
  | { type: 'checkpoint' | 'restore'; name: string; result: Record<string, unknown> }
  | { type: 'pause' | 'resume' | 'close' }
  | { type: 'error'; during: string; action?: Action; error: { name: string; message: string } }
  /** A remark by the agent or the runner (what a set-up or oracle step is for, why an agent stopped). */
  | { type: 'note'; text: string }
  /** The agent asked for its grade mid-episode (env.ts RewardAsked): refused, or the score alone. */
  | RewardAsked
  /** A condition the agent waited for; a replay waits for it too. */
  | { type: 'sync'; ide: string; params: Record<string, unknown>; match: unknown; ok: boolean; ms: number }
  /** How the run ended: the same status and score as its result.json. */
  | { type: 'end'; status: string; reason?: string; steps: number; score?: number }
  /** Model-driven agents: model turns, tool results, statistics. */
  | AgentEvent
);
export type RecordType = TrajectoryRecord['type'];
/** A record as a caller hands it over: the writer numbers and stamps it. */
export type NewRecord = TrajectoryRecord extends infer R ? R extends TrajectoryRecord ? Omit<R, 'seq' | 't'> & { t?: number } : never : never;

export class TrajectoryWriter {
  readonly file: string;
  private fd: number | null;
  private seq = 0;

  /** Opens (creating) a trajectory folder; appending to an existing trajectory continues its numbering. */
  constructor(readonly dir: string, meta: Record<string, unknown> = {}) {
    mkdirSync(dir, { recursive: true });
    this.file = join(dir, TRAJECTORY_FILE);
    const existing = existsSync(this.file) && statSync(this.file).size > 0;
    if (existing) this.seq = readTrajectory(this.file).records.reduce((m, r) => Math.max(m, r.seq), 0);
    this.fd = openSync(this.file, 'a');
    if (!existing) this.append({ type: 'header', version: TRAJECTORY_VERSION, createdAt: new Date().toISOString(), meta });
  }

  /** Writes one record and flushes it to disk before returning. */
  append(record: NewRecord): TrajectoryRecord {
    if (this.fd === null) throw new Error(`trajectory ${this.file} is closed`);
    const full = { ...record, seq: ++this.seq, t: record.t ?? Date.now() } as TrajectoryRecord;
    // Type and order first so the file reads well.
    const { type, seq, t, ...rest } = full as TrajectoryRecord & Record<string, unknown>;
    writeSync(this.fd, `${JSON.stringify({ type, seq, t, ...rest })}\n`);
    fsyncSync(this.fd);
    return full;
  }

  /** Saves a file beside the trajectory; returns its path relative to the trajectory folder. */
  saveFile(name: string, data: Buffer | string): string {
    const path = join(this.dir, name);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, data);
    return name;
  }

  /** Copies a folder beside the trajectory (the initial workspace, for replays). */
  saveFolder(name: string, from: string): string {
    cpSync(from, join(this.dir, name), { recursive: true });
    return name;
  }

  close(): void {
    if (this.fd === null) return;
    closeSync(this.fd);
    this.fd = null;
  }
}

export interface Trajectory {
  dir: string;
  header: Extract<TrajectoryRecord, { type: 'header' }> | null;
  records: TrajectoryRecord[];
  /** A last line that was cut off mid-write (a crash), left out of records. */
  tornTail: string | null;
}

/** Reads a trajectory from its folder or its .jsonl file. */
export function readTrajectory(path: string): Trajectory {
  const file = existsSync(path) && statSync(path).isDirectory() ? join(path, TRAJECTORY_FILE) : path;
  if (!existsSync(file)) throw new Error(`no trajectory at ${path}`);
  const lines = readFileSync(file, 'utf8').split('\n');
  const records: TrajectoryRecord[] = [];
  let tornTail: string | null = null;
  lines.forEach((line, i) => {
    if (!line.trim()) return;
    try {
      records.push(JSON.parse(line) as TrajectoryRecord);
    } catch (err) {
      // Only the last line may be torn; a bad line in the middle is a broken file.
      if (i >= lines.length - 2) tornTail = line;
      else throw new Error(`${file}:${i + 1}: not a JSON record (${(err as Error).message})`, { cause: err });
    }
  });
  const header = records.find((r): r is Extract<TrajectoryRecord, { type: 'header' }> => r.type === 'header') ?? null;
  return { dir: resolve(dirname(file)), header, records, tornTail };
}

/** The agent steps and human events of a trajectory, in the order they happened. */
export function actionsOf(t: Trajectory): (Extract<TrajectoryRecord, { type: 'step' }> | Extract<TrajectoryRecord, { type: 'human' }>)[] {
  return t.records.filter((r): r is Extract<TrajectoryRecord, { type: 'step' | 'human' }> => r.type === 'step' || r.type === 'human');
}
