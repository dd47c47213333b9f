// What of an environment the IDE user (the agent) can leave behind outside the IDE's own
// state: the user's processes, every path the user can write (the workspace, the home folder and
// the IDE's user data and extensions in it, /tmp, …), the keys and buttons held on the display
// and its selections (clipboard), and the screen. Read and put back from inside the container by
// one program (userState.py), one exec per call. The recycler (host/checkpoint/recycle.ts) puts
// these back between episodes; the pristine check (pristine.ts) compares them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Runtime } from '../deployment/runtime';

/** The IDE's user inside the image (images/Dockerfile). */
export const IDE_USER = 'pwp';
const IDE_UID = '1000';
/** Root-only: the display's cookie (bridge/config.ts runDir) and the baseline of the writable paths. */
const XAUTHORITY = '/tmp/pwp/xauthority';
export const BASELINE_DIR = '/var/lib/pwp-recycle';
const FRAMEBUFFER = '/tmp/pwp/fb/Xvfb_screen0';
const PROGRAM = readFileSync(join(__dirname, 'userState.py'), 'utf8');

/**
 * Paths that change by themselves while the IDE runs, never compared nor put back: the IDE's
 * logs, the caches it rebuilds, its live sockets, and the storage databases the running server
 * holds open (put back by a reload, host/checkpoint/recycle.ts). Patterns for fnmatch.
 */
export const FILE_MASK = [
  '/home/pwp/ide/user-data/logs', '/home/pwp/ide/user-data/CachedProfilesData', '/home/pwp/ide/user-data/User/caches',
  '/home/pwp/ide/user-data/User/globalStorage', '/home/pwp/ide/user-data/User/workspaceStorage', '/home/pwp/ide/user-data/coder.json',
  '/home/pwp/.local/share/code-server/coder-logs',
] as const;

/**
 * Put back like any file, but not compared by the pristine check: what the IDE writes by itself
 * some seconds after it started or when its extensions change (its caches of the extension lists,
 * the snippets folder it makes), so a baseline may or may not have them yet. Their content the
 * agent can still not leave behind: a recycle puts back what the baseline had.
 */
export const UNCOMPARED = [
  '/home/pwp/ide/user-data/User/snippets', '/home/pwp/ide/user-data/User/*Cache.json', '/home/pwp/ide/user-data/User/chatLanguageModels.json',
] as const;

/**
 * The user files the workbench reads live and does not notice changing on disk: a recycle leaves
 * them as they are and returns their text now and in the baseline, for the recycler to write them
 * back through the IDE (ide.userData.write), which then takes them up.
 */
export const WORKBENCH_FILES = [
  '/home/pwp/ide/user-data/User/settings.json', '/home/pwp/ide/user-data/User/keybindings.json',
  '/home/pwp/ide/user-data/User/tasks.json', '/home/pwp/ide/user-data/User/snippets/*',
] as const;
/** Put back by a recycle like any file, with its text before and after returned: the IDE reloads it by itself, which the recycler waits for. */
const WORKSPACE_SETTINGS = '/workspace/.vscode/settings.json';

export interface UserState {
  /** Command lines of the user's processes (the IDE's on-demand helpers left out), sorted. */
  processes: string[];
  /** Those of them that are not the IDE's. */
  stray: string[];
  input: { keys?: number[]; buttons?: number[]; selections?: string[]; display?: string };
  /**
   * 'as at the start' when the screen (the mask's bands blanked) is the baseline's, no pixel's
   * channel off by more than the compositor's anti-aliasing noise (userState.py,
   * SCREEN_TOLERANCE); otherwise where it differs. Null where there is no framebuffer.
   */
  screen: string | null;
  /** Path -> "type mode uid:gid hash-or-target" of every entry under the writable roots. */
  files: Record<string, string>;
}

/** What a recycle of the user state did. */
export interface UserStateRecycled {
  killed: string[];
  removed: string[];
  restored: string[];
  /** Folders the baseline lacks that hold workbench files: for the recycler to remove once it deleted those. */
  keptFolders: string[];
  /** The workbench files and the workspace's settings that differ from the baseline: text now, and in the baseline (null: none). */
  texts: Record<string, { before: string | null; after: string | null }>;
}

/** A rectangle of the screen left out of its hash (what changes by itself). */
export interface ScreenBox { x: number; y: number; width: number; height: number }

async function run<T>(runtime: Runtime, mode: 'baseline' | 'recycle' | 'state', env: Record<string, string> = {}): Promise<T> {
  const r = await runtime.exec(['python3', '-c', PROGRAM, mode], {
    user: 'root', cwd: '/', timeoutSec: 300,
    env: {
      PWP_UID: IDE_UID, PWP_BASELINE: BASELINE_DIR, PWP_MASK: JSON.stringify(FILE_MASK), PWP_UNCOMPARED: JSON.stringify(UNCOMPARED),
      PWP_WATCH: JSON.stringify([...WORKBENCH_FILES, WORKSPACE_SETTINGS]), PWP_LEAVE: JSON.stringify(WORKBENCH_FILES),
      DISPLAY: ':1', XAUTHORITY, PWP_FB: FRAMEBUFFER, ...env,
    },
  });
  if (r.exitCode !== 0) throw new Error(`${mode} of the user's state failed: ${r.stderr.trim().slice(-500)}`);
  return JSON.parse(r.stdout) as T;
}

/**
 * The roots of what the user can write: the folders and files outside /proc, /sys and /dev that
 * the user owns or may write (its group's or anyone's) whose parent is not such a one, found by
 * `find` as the user (what it cannot enter, it cannot write in either), plus /workspace and the
 * shared-memory folders. They are the image's: found once per image in this process.
 */
export function writableRoots(runtime: Runtime, image: string): Promise<string[]> {
  let roots = rootsOf.get(image);
  if (!roots) {
    roots = findRoots(runtime);
    rootsOf.set(image, roots);
    roots.catch(() => rootsOf.delete(image));
  }
  return roots;
}
const rootsOf = new Map<string, Promise<string[]>>();

async function findRoots(runtime: Runtime): Promise<string[]> {
  const skip = '\\( -path /proc -o -path /sys -o -path /dev -o -path /workspace \\) -prune';
  const writable = `\\( -user ${IDE_UID} -o \\( -group ${IDE_UID} -perm -0020 \\) -o \\( -perm -0002 ! -type l \\) \\) ! -type s`;
  const script = `find / -xdev ${skip} -o ${writable} -print -prune 2>/dev/null
for d in /dev/shm /dev/mqueue; do [ -w "$d" ] && echo "$d"; done; true`;
  const r = await runtime.exec(['sh', '-c', script], { user: IDE_USER, cwd: '/', timeoutSec: 300 });
  if (r.exitCode !== 0) throw new Error(`finding what the user can write failed: ${r.stderr.trim().slice(-300)}`);
  return ['/workspace', ...r.stdout.split('\n').filter(Boolean)];
}

/** Saves the user state under `roots` as this container's baseline; returns its file listing. */
export async function saveBaseline(runtime: Runtime, roots: readonly string[]): Promise<Record<string, string>> {
  return (await run<{ files: Record<string, string> }>(runtime, 'baseline', { PWP_ROOTS: JSON.stringify(roots) })).files;
}

/** The parts of the user state a recycle puts back. */
export type UserStatePart = 'processes' | 'input' | 'files';

/**
 * Ends the user's stray processes, releases held keys and buttons, drops the selections, and puts
 * every path under the baseline's roots back as the baseline has it, but for the workbench's files
 * while it is open (`skip`: test-only, parts left as they are).
 */
export const recycleUserState = (runtime: Runtime, o: { skip?: readonly UserStatePart[]; workbenchClosed?: boolean } = {}) =>
  run<UserStateRecycled>(runtime, 'recycle', {
    PWP_SKIP: JSON.stringify(o.skip ?? []),
    // With the workbench closed, its files are put back like any other: it reads them when it opens.
    ...(o.workbenchClosed ? { PWP_LEAVE: '[]' } : {}),
  });

/**
 * The user state now (once the baseline is saved). The screen is compared with the baseline's
 * (`saveScreen`: this one becomes the baseline's), blanking `mask`.
 */
export const readUserState = (runtime: Runtime, o: { mask?: readonly ScreenBox[]; saveScreen?: boolean } = {}) =>
  run<UserState>(runtime, 'state', { PWP_SCREEN_MASK: JSON.stringify(o.mask ?? []), ...(o.saveScreen ? { PWP_SAVE_SCREEN: '1' } : {}) });

/** The user state but the screen: what does not wait for the screen to settle. */
export const readUserStateOffScreen = (runtime: Runtime) => run<Omit<UserState, 'screen'>>(runtime, 'state', { PWP_PARTS: 'rest' });

/** The screen alone, compared with the baseline's as readUserState compares it. */
export const readScreen = async (runtime: Runtime, o: { mask?: readonly ScreenBox[] } = {}) =>
  (await run<Pick<UserState, 'screen'>>(runtime, 'state', { PWP_PARTS: 'screen', PWP_SCREEN_MASK: JSON.stringify(o.mask ?? []) })).screen;
