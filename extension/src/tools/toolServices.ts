// What tools share, handed to each tool module by the composition root. Interfaces only
// (no vscode import), so pure tool logic can be exercised with other implementations.
import type { Dirent } from 'node:fs';
import type { BackgroundProcesses } from './backgroundProcesses';
import type { BashSession } from './bashSession';
import type { HeadlessBrowser } from './headlessBrowser';
import type { PythonProblem } from '../state/pythonSyntax';
import type { WorkspacePaths } from './workspacePaths';

/** Reads and writes files so that the IDE stays coherent (open buffers, local history). */
export interface FileAccess {
  /** The text as the IDE has it (an open document's buffer) or as on disk. */
  readText(abs: string): Promise<string>;
  readBytes(abs: string): Promise<Buffer>;
  /** Writes through the IDE (edit + save) when the file exists, else creates it; returns whether it was created. */
  writeText(abs: string, text: string): Promise<{ created: boolean }>;
  /** Writes bytes on disk (images, generated files), creating folders; not through an editor. */
  writeBytes(abs: string, data: Buffer): Promise<{ created: boolean }>;
  remove(abs: string, opts?: { recursive?: boolean }): Promise<void>;
  exists(abs: string): Promise<boolean>;
  /** A folder's entries (not following links: a link is listed as one). */
  list(abs: string): Promise<Dirent[]>;
  isDirectory(abs: string): Promise<boolean>;
}

/** The most recent image a preview tool showed, for zoom_in / zoom_out. */
export interface PreviewState {
  image: Buffer;
  /** What produced it, e.g. "view_html_preview index.html". */
  source: string;
  /** Re-renders at another pixel density (HTML previews); without it zooms scale the image. */
  rerender?: (scale: number) => Promise<Buffer>;
  /** 1 is the original; above 1 shows a magnified part centred at (cx, cy), fractions of the size. */
  zoom: number;
  cx: number;
  cy: number;
}

export interface ToolServices {
  paths: WorkspacePaths;
  files: FileAccess;
  /** The filebash group's shell, and run_terminal_cmd's (separate sessions). */
  shells: { bash: () => BashSession; terminal: () => BashSession };
  background: BackgroundProcesses;
  browser: HeadlessBrowser;
  preview: { last?: PreviewState };
  /** python3's compiler (syntax errors before a write). */
  python: { check(name: string, source: string): Promise<PythonProblem[]> };
  /** Folder outside the workspace for the tools' own state (baseline, logs). */
  stateDir: string;
  /** Environment for processes the tools start: the container user's, without the bridge's secrets. */
  env: NodeJS.ProcessEnv;
  log: (line: string) => void;
}
