// Checkpoints on disk, so they outlive the process that took them:
//   <state>/checkpoints/<name>/manifest.json   what was open where, sizes, when
//                              workspace.tar   /workspace
//                              user-data.tar   the IDE's user data (settings, keybindings,
//                                              local history, unsaved-editor backups, state)
//                              extensions.tar  installed extensions
// A checkpoint is written into a temporary folder and renamed into place, so a crash or a
// parallel checkpoint of the same name never leaves a half-written one under that name.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { InvalidParamsError, NotAvailableError } from '../../bridge/protocol';
import { paths } from '../common/paths';

export interface EditorTab {
  path: string;
  viewColumn: number;
  preview: boolean;
  /** The cursor when the IDE knew it (editors on screen); otherwise the editor opens at the top. */
  cursor: { line: number; column: number } | null;
  /** The group's active tab. */
  active: boolean;
  /** Unsaved when the checkpoint was taken (its text is in the manifest's `unsaved`). */
  dirty: boolean;
}

export interface CheckpointManifest {
  version: 1;
  name: string;
  createdAt: string;
  /** The environment it was taken from, and its image. */
  environment: { id: string; image: string; display: { width: number; height: number } };
  editors: { tabs: EditorTab[]; focused: { path: string; viewColumn: number } | null };
  /** The text of documents with unsaved changes, put back into them (unsaved) on restore. */
  unsaved?: { path: string; text: string }[];
  /** Top-level names in the extensions folder and extensions.json's size: restores skip identical extensions. */
  extensionsFingerprint: string;
  files: { workspace: string; userData: string; extensions: string };
  /** The container was frozen while its files were read (one consistent moment). */
  frozen: boolean;
  bytes: number;
  durationMs: number;
}

export interface CheckpointSummary { name: string; createdAt: string; environmentId: string; bytes: number; editors: number; dir: string }

const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/;

export class CheckpointStore {
  constructor(readonly root: string = join(paths.state, 'checkpoints')) {}

  static checkName(name: string): string {
    if (!NAME.test(name)) throw new InvalidParamsError(`checkpoint name '${name}': use letters, digits, '.', '_' or '-' (at most 100, not starting with a symbol)`);
    return name;
  }

  dir(name: string): string { return join(this.root, CheckpointStore.checkName(name)); }

  /** A fresh folder to write a checkpoint into; commit() moves it under its name. */
  staging(name: string): string {
    CheckpointStore.checkName(name);
    const dir = join(this.root, `.staging-${name}-${randomBytes(4).toString('hex')}`);
    mkdirSync(dir, { recursive: true });
    return dir;
  }

  commit(staging: string, manifest: CheckpointManifest): void {
    writeFileSync(join(staging, 'manifest.json'), JSON.stringify(manifest, null, 2));
    const target = this.dir(manifest.name);
    // Replace an older checkpoint of the same name: move it aside first so the name is never empty-handed for long.
    const old = existsSync(target) ? join(this.root, `.old-${manifest.name}-${randomBytes(4).toString('hex')}`) : null;
    if (old) renameSync(target, old);
    renameSync(staging, target);
    if (old) rmSync(old, { recursive: true, force: true });
  }

  discard(staging: string): void { rmSync(staging, { recursive: true, force: true }); }

  read(name: string): { manifest: CheckpointManifest; dir: string } {
    const dir = this.dir(name);
    const file = join(dir, 'manifest.json');
    if (!existsSync(file)) throw new NotAvailableError(`no checkpoint '${name}' in ${this.root} (see 'pwp checkpoints')`);
    return { manifest: JSON.parse(readFileSync(file, 'utf8')) as CheckpointManifest, dir };
  }

  list(): CheckpointSummary[] {
    if (!existsSync(this.root)) return [];
    const out: CheckpointSummary[] = [];
    for (const name of readdirSync(this.root)) {
      if (!NAME.test(name) || !existsSync(join(this.root, name, 'manifest.json'))) continue;
      try {
        const { manifest: m, dir } = this.read(name);
        out.push({ name, createdAt: m.createdAt, environmentId: m.environment.id, bytes: m.bytes, editors: m.editors.tabs.length, dir });
      } catch { /* a folder being replaced right now */ }
    }
    return out.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  delete(name: string): void {
    const dir = this.dir(name);
    if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new NotAvailableError(`no checkpoint '${name}' in ${this.root}`);
    rmSync(dir, { recursive: true, force: true });
  }
}
