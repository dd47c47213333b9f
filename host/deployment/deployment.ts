// Where an environment runs is a deployment; what you talk to once it runs is the same
// BridgeClient whichever deployment started it, and the same Runtime (runtime.ts) for
// commands and files.
import type { Leftover } from './ownedContainers';
import type { BuildProgress } from '../imageBuild/buildImage';
import type { TaskImageRecipe } from '../imageBuild/buildTaskImage';
import type { Runtime } from './runtime';
import type { VerifierContainer, VerifierContainerSpec } from './verifierContainer';

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

/** The backends pwp has: containers on this host's engine, or services on a Swarm cluster. */
export type Backend = 'docker' | 'swarm';

export interface PauseOptions {
  /**
   * Frozen until someone unpauses it (a person looking at it), not for a checkpoint's moment:
   * commands are refused meanwhile instead of waiting.
   */
  held?: boolean;
}

export interface Deployment {
  readonly backend: Backend;
  create(spec: EnvironmentSpec): Promise<EnvironmentInfo>;
  get(id: string): Promise<EnvironmentInfo>;
  list(): Promise<EnvironmentInfo[]>;
  remove(id: string): Promise<void>;
  /** What killed pwp processes of this user left (containers, networks), removed unless `dryRun` (`pwp gc`). */
  collectLeftovers?(o: { dryRun: boolean }): Promise<Leftover[]>;
  /** Commands, files and archives inside environment `id`. */
  runtime(id: string): Promise<Runtime>;
  /** One regular file of environment `id` (NotAvailableError when there is none). */
  readFile(id: string, path: string): Promise<Buffer>;
  /** Freezes every process of environment `id` until unpause (NotAvailableError where the backend cannot). */
  pause(id: string, o?: PauseOptions): Promise<void>;
  unpause(id: string): Promise<void>;
  /** A verifier's container of `spec.image` (no IDE, no network out), with its runtime. */
  startVerifier(spec: VerifierContainerSpec): Promise<VerifierContainer>;
  /** Whether process checkpoints (CRIU) can run here, and if not, why. */
  processCheckpointSupport(): Promise<{ supported: boolean; reason: string }>;
  checkpointProcesses(id: string, name: string): Promise<void>;
  restoreProcesses(id: string, name: string): Promise<void>;
  /** The IDE image built from this tree, where this backend's environments can run it (pushed to a cluster's registry). */
  ensureImage(o?: { force?: boolean; progress?: BuildProgress }): Promise<string>;
  /**
   * A task image (a Dockerfile FROM the IDE image) built on `o.ide` (default: ensureImage's),
   * where this backend's environments and verifiers can run it; built only when its inputs changed.
   */
  ensureTaskImage(recipe: TaskImageRecipe, o?: { ide?: string; force?: boolean; progress?: BuildProgress }): Promise<string>;
  /**
   * Calls onLost (once) when environment `id` is gone from under its bridge connection, with
   * an error saying why (its node lost); returns the function that stops watching. Backends
   * whose environments cannot be lost apart from the host have none.
   */
  watch?(info: EnvironmentInfo, onLost: (err: Error) => void): () => void;
  /** After its connection dropped: why environment `info` is gone, or undefined when it is still there. */
  confirmLost?(info: EnvironmentInfo): Promise<Error | undefined>;
  /** Removes every environment and verifier this process started (Ctrl-C); returns how many. */
  removeOwned(): Promise<number>;
  /** Closes the bridge connections of runtimes handed out (the process can then exit). */
  closeRuntimes(): void;
}
