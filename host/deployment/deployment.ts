// Where an environment runs is a deployment; what you talk to once it runs is the same
// BridgeClient whichever deployment started it, and the same Runtime (runtime.ts) for
// commands and files.
import type { Runtime } from './runtime';

export interface EnvironmentSpec {
  /** Image to run; defaults to the image built from this tree. */
  image?: string;
  display?: { width: number; height: number };
  cpus?: number;
  memoryMb?: number;
  /** A host folder whose contents become /workspace. */
  workspaceDir?: string;
  /** Extra labels to find environments by (task id, run id). */
  labels?: Record<string, string>;
  /** Serve the live view (noVNC, token-protected) on the bridge port. */
  view?: boolean;
  /**
   * Give the environment the outside network (the internet, as far as the host has it).
   * Off by default: the environment then reaches nothing but itself. Either way it cannot
   * reach other environments or the host's own services, and only the host reaches its bridge.
   */
  network?: boolean;
  /** Tar archives unpacked into the container before it starts (a checkpoint's files). */
  archives?: { path: string; tar: () => NodeJS.ReadableStream }[];
}

export interface EnvironmentInfo {
  id: string;
  image: string;
  createdAt: string;
  state: string;
  display: { width: number; height: number };
  bridgeUrl: string;
  ideUrl: string;
  token: string;
  labels: Record<string, string>;
  /** The live-view page (with the token in it) when the environment serves one. */
  viewUrl: string | null;
}

export interface Deployment {
  create(spec: EnvironmentSpec): Promise<EnvironmentInfo>;
  get(id: string): Promise<EnvironmentInfo>;
  list(): Promise<EnvironmentInfo[]>;
  remove(id: string): Promise<void>;
  /** Commands, files and archives inside environment `id`. */
  runtime(id: string): Promise<Runtime>;
}
