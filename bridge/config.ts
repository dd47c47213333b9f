// The bridge's settings, all from the environment the container was started with.
import { randomBytes } from 'node:crypto';
import { readFileSync, unlinkSync } from 'node:fs';
import { readPasswd } from './runtime/users';

/** The user the IDE, its terminals and the agent's shells run as, apart from the bridge's. */
export interface IdeUser { name: string; uid: number; gid: number; home: string }

export interface BridgeConfig {
  token: string;
  host: string;
  port: number;
  display: string;
  width: number;
  height: number;
  workspace: string;
  userDataDir: string;
  extensionsDir: string;
  idePort: number;
  ideHost: string;
  /**
   * Set when the bridge runs as root: code-server is then started as this user, and the
   * bridge, the display and the browser stay out of its reach. Null: everything runs as the
   * bridge's own user (a bridge started by hand, unit tests).
   */
  ideUser: IdeUser | null;
  /** The X display's cookie file; only the bridge's user can read it. */
  xauthority: string;
  /** Loopback port the extension connects to, with its own token (never the host's). */
  extensionPort: number;
  extensionToken: string;
  runDir: string;
  recordingsDir: string;
  /**
   * How long each process of the IDE stack (display, IDE server, browser) may take to come up.
   * Generous: two CIs on 2 cores took the IDE server past a minute, and a start that misses it
   * is not tried again (only a crash is).
   */
  startTimeoutMs: number;
  /** Serve the live view (noVNC at /view/) on the bridge port; off unless the environment asked for it. */
  view: boolean;
  /** Loopback port of the VNC server behind the live view. */
  vncPort: number;
  /**
   * 'runtime': serve only runtime.* (commands, files, archives) and start no display, IDE or
   * browser: a verifier's container on a cluster, which the controller fills and reads this way.
   */
  mode: 'ide' | 'runtime';
  /**
   * Wait for proc.start before starting the display, IDE and browser (PWP_START=held): where
   * the host cannot put files in before the container starts (a Swarm service), it puts them in
   * through runtime.* first, so the IDE starts on them as it would on the Docker backend.
   */
  held: boolean;
}

function int(name: string, fallback: number): number {
  const v = process.env[name];
  if (v === undefined || v === '') return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive integer, got '${v}'`);
  return n;
}

/**
 * The host's token: from PWP_TOKEN_FILE, which is deleted once read (an environment variable
 * stays readable to the container's other processes in /proc/<pid>/environ), or PWP_TOKEN.
 */
function readToken(env: NodeJS.ProcessEnv): string {
  const file = env.PWP_TOKEN_FILE;
  if (!file) return env.PWP_TOKEN ?? '';
  let token: string;
  try { token = readFileSync(file, 'utf8').trim(); } catch (err) { throw new Error(`PWP_TOKEN_FILE ${file} cannot be read: ${(err as Error).message}`, { cause: err }); }
  try {
    unlinkSync(file);
  } catch (err) {
    // A file mounted in (a Swarm secret, a Kubernetes volume) cannot be deleted; it stays
    // root's and unreadable to the IDE user, which its mode decides (the deployment sets 0400).
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EBUSY' && code !== 'EROFS' && code !== 'ENOENT') throw err;
  }
  return token;
}

/** The IDE user's entry in /etc/passwd, when this process may switch to it (it runs as root). */
export function ideUserFromPasswd(name: string, passwd = '/etc/passwd', uid = process.getuid?.()): IdeUser | null {
  if (uid !== 0) return null;
  const entry = readPasswd(passwd).find((u) => u.name === name);
  if (!entry) throw new Error(`PWP_IDE_USER ${name} is not in ${passwd}`);
  return entry;
}

function bridgeMode(value: string | undefined): BridgeConfig['mode'] {
  if (value === undefined || value === '' || value === 'ide') return 'ide';
  if (value === 'runtime') return 'runtime';
  throw new Error(`PWP_BRIDGE_MODE must be 'ide' or 'runtime', not '${value}'`);
}

function startWhen(value: string | undefined): boolean {
  if (value === undefined || value === '' || value === 'now') return false;
  if (value === 'held') return true;
  throw new Error(`PWP_START must be 'now' or 'held', not '${value}'`);
}

export function configFromEnv(env = process.env): BridgeConfig {
  const token = readToken(env);
  if (token.length < 16) throw new Error('PWP_TOKEN (or PWP_TOKEN_FILE) must give a secret of at least 16 characters');
  const size = /^(\d+)x(\d+)$/.exec(env.PWP_DISPLAY_SIZE ?? '1280x800');
  if (!size) throw new Error(`PWP_DISPLAY_SIZE must look like 1280x800, got '${env.PWP_DISPLAY_SIZE}'`);
  const runDir = env.PWP_RUN_DIR ?? '/tmp/pwp';
  const ideUser = env.PWP_IDE_USER ? ideUserFromPasswd(env.PWP_IDE_USER) : null;
  const home = ideUser?.home ?? env.HOME ?? '/home/pwp';
  return {
    token,
    host: env.PWP_BRIDGE_HOST ?? '0.0.0.0',
    port: int('PWP_BRIDGE_PORT', 7000),
    display: env.DISPLAY ?? ':1',
    width: Number(size[1]),
    height: Number(size[2]),
    workspace: env.PWP_WORKSPACE ?? '/workspace',
    userDataDir: env.PWP_USER_DATA_DIR ?? `${home}/ide/user-data`,
    extensionsDir: env.PWP_EXTENSIONS_DIR ?? `${home}/ide/extensions`,
    idePort: int('PWP_IDE_PORT', 8080),
    // Only the kiosk (and the bridge's /ide/ proxy) reach it; people come through the bridge's token.
    ideHost: env.PWP_IDE_HOST ?? '127.0.0.1',
    ideUser,
    xauthority: `${runDir}/xauthority`,
    extensionPort: int('PWP_EXTENSION_PORT', 7001),
    extensionToken: randomBytes(24).toString('hex'),
    runDir,
    recordingsDir: env.PWP_RECORDINGS_DIR ?? `${runDir}/recordings`,
    startTimeoutMs: int('PWP_START_TIMEOUT_MS', 240_000),
    view: env.PWP_VIEW === '1',
    vncPort: int('PWP_VNC_PORT', 5900),
    mode: bridgeMode(env.PWP_BRIDGE_MODE),
    held: startWhen(env.PWP_START),
  };
}
