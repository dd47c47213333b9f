// What the inspector server and its page say to each other over the page's WebSocket. Types
// only: the page (web/) and the server both import this file. Frames travel as binary
// messages (a length-prefixed JSON FrameHeader, then the JPEG bytes); everything else is JSON.
import type { ControlStatus, Mark } from '../../bridge/protocol';

export interface EnvSummary {
  id: string;
  image: string;
  state: string;
  createdAt: string;
  display: { width: number; height: number };
  labels: Record<string, string>;
  /** The environment serves the live view, so a person can take control through noVNC. */
  liveView: boolean;
}

export interface FrameHeader {
  /** A whole screen (first frame) or one changed box. */
  full: boolean;
  screen: { width: number; height: number };
  box: { x: number; y: number; width: number; height: number };
  format: 'jpeg' | 'png';
  /** ms since the epoch when the frame was read */
  t: number;
}

export interface SettingRow {
  key: string;
  languageId: string | null;
  value: unknown;
  defaultValue: unknown;
  /** Which settings scope gives the value (user, workspace, workspaceFolder, or a language form of them). */
  source: string;
  /** The value is one pwp's image sets for a clean screen (images/ide/settings.json), not a change made since. */
  imageDefault: boolean;
}

export interface Panels {
  editors: {
    groups: { viewColumn: number; active: boolean; tabs: { label: string; path: string | null; dirty: boolean; active: boolean; preview: boolean }[] }[];
    active: { path: string | null; uri: string; languageId: string; line: number; column: number; dirty: boolean; lineCount: number } | null;
  };
  diagnostics: {
    counts: { error: number; warning: number; information: number; hint: number };
    items: { path: string | null; uri: string; line: number; column: number; severity: string; message: string; source: string | null }[];
  };
  settings: { rows: SettingRow[] };
  extensions: {
    user: { id: string; version: string; displayName: string | null; enabled: boolean; active: boolean }[];
    builtinCount: number;
    colorTheme: string | null;
    iconTheme: string | null;
    productIconTheme: string | null;
  };
  timeline: { file: string | null; entries: { id: string; time: string; label: string; source: string; size: number | null }[] };
  debug: {
    breakpoints: { id: string; enabled: boolean; where: string; condition: string | null; hitCondition: string | null; logMessage: string | null }[];
    sessions: { id: string; name: string; type: string; active: boolean }[];
  };
  terminals: { terminals: { index: number; name: string; active: boolean; processId: number | null; cwd: string | null; running: string[] }[] };
}
export type PanelName = keyof Panels;

export interface TimelineEntry {
  /** Unique and stable: source and a number. */
  id: string;
  /** ms since the epoch */
  t: number;
  actor: 'agent' | 'human';
  /** Where the inspector learned of it. */
  source: 'tools' | 'trajectory' | 'live view' | 'inspector';
  text: string;
  error?: string;
}

export type ServerMessage =
  | { type: 'hello'; env: EnvSummary }
  | { type: 'panel'; name: PanelName; data: Panels[PanelName] | null; error: string | null; t: number }
  | { type: 'marks'; marks: Mark[]; screen: { width: number; height: number }; t: number }
  | { type: 'control'; status: ControlStatus }
  | { type: 'timeline'; entries: TimelineEntry[]; replace: boolean }
  | { type: 'reply'; id: number; result?: unknown; error?: string }
  | { type: 'gone'; reason: string };

export type ClientRequest =
  | { op: 'clickMark'; mark: number }
  | { op: 'click'; x: number; y: number }
  | { op: 'takeControl' }
  | { op: 'handBack'; answer?: string }
  | { op: 'refreshMarks' };
export type ClientMessage = ClientRequest & { id: number };
