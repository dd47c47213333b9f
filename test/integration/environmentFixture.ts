// A real environment (real container, code-server, Chromium, extension) for a suite: from this
// worker process's recycled environments, given back when the suite ends. The image is built
// from this tree on first use.
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { BridgeClient } from '../../host/client/bridgeClient';
import { DockerDeployment } from '../../host/deployment/dockerDeployment';
import type { EnvironmentInfo } from '../../host/deployment/deployment';
import { startEnvironment, type RunningEnvironment } from '../../host/running/runningEnvironment';
import { EnvPool } from '../../host/env/pool';
import { prepareWarm } from '../../host/env/env';
import { spawn } from 'node:child_process';
import { OWNER, OWNER_LABEL } from '../../host/deployment/ownedContainers';
import { ensureImage } from '../../host/imageBuild/buildImage';

let imagePromise: Promise<string> | undefined;
/** The image for this tree, built once per test run. */
export function testImage(): Promise<string> {
  imagePromise ??= ensureImage({ progress: (l) => { if (process.env.PWP_TEST_VERBOSE) console.log(l); } });
  return imagePromise;
}

export interface TestEnvironment {
  client: BridgeClient;
  info: EnvironmentInfo;
  deployment: DockerDeployment;
  /** Reads a file from the container's filesystem. */
  readFile(path: string): Promise<string>;
}

/** Writes `files` (relative path -> content) into a fresh temp folder. */
export function makeWorkspace(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'pwp-test-ws-'));
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), content);
  }
  return dir;
}

/**
 * This worker process's recycled environments, one pool per memory size that keeps one idle
 * container: a suite (or a test's Env, through testPool) takes it, and gives it back when done,
 * recycled (with the pristine check) for the next user in this process instead of a new IDE
 * started for each; two at once get two. mocha --parallel runs files in a few long-lived worker
 * processes; when one exits, a detached `docker rm` removes what it made (an exit handler cannot
 * wait, and the worker may be killed a second later).
 */
const pools = new Map<number, EnvPool>();
function sharedPool(image: string, memoryMb?: number): EnvPool {
  let pool = pools.get(memoryMb ?? 0);
  if (!pool) {
    pool = new EnvPool({ size: 0, idle: 1, recycle: {}, spec: { image, ...(memoryMb ? { memoryMb } : {}), labels: { 'pwp.test': '1' } } });
    pools.set(memoryMb ?? 0, pool);
    if (pools.size === 1) process.once('exit', removeOwnedDetached);
  }
  return pool;
}
/**
 * The worker's recycled environments of the plain IDE image, for a test's own Env, makeEnv or
 * runTask (`pool: await testPool()`): its close gives the environment back. Envs on another
 * image, or with a display, memory, network or live view of their own, start their own.
 */
export async function testPool(): Promise<EnvPool> {
  return sharedPool(await testImage());
}

// Run by itself (`npx mocha test/integration/X.test.ts`, not a --parallel worker, which mocha
// ends when its files are done), the process would wait on the pool's open connections: a root
// hook closes the pools once every suite has run.
if (!process.env.MOCHA_WORKER_ID && typeof after === 'function') {
  after(async function () {
    this.timeout(120_000);
    await Promise.all([...pools.values()].map((p) => p.close()));
    pools.clear();
  });
}
function removeOwnedDetached(): void {
  const mine = `--filter label=${OWNER_LABEL}=${OWNER}`;
  const script = `c=$(docker ps -aq ${mine}); [ -z "$c" ] || docker rm -f -v $c >/dev/null 2>&1; n=$(docker network ls -q ${mine}); [ -z "$n" ] || docker network rm $n >/dev/null 2>&1`;
  spawn('sh', ['-c', script], { detached: true, stdio: 'ignore' }).unref();
}

/**
 * Waits until the Explorer lists the workspace's top-level entries, as a workbench started on
 * those files does (suites click rows by where they are): the files came in after the IDE's start.
 */
async function showInExplorer(client: BridgeClient, files: Record<string, string>): Promise<void> {
  const top = [...new Set(Object.keys(files).map((f) => f.split('/')[0]))];
  const deadline = Date.now() + 60_000;
  for (;;) {
    await client.call('ide.workbench.clear', { layout: true });
    const shown = new Set((await client.call('dom.marks', {})).marks.filter((m) => m.role === 'treeitem').map((m) => m.text));
    if (top.every((name) => shown.has(name))) return;
    if (Date.now() > deadline) throw new Error(`the Explorer did not list ${top.filter((n) => !shown.has(n)).join(', ')} within 60 s`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * Registers before/after hooks that provide one environment to the suite, with `files` in its
 * workspace, from this process's recycled environments (or, with `fresh`, one started for the
 * suite alone and removed after it):
 *   const env = useEnvironment({ 'a.txt': 'hello' });
 *   it('…', async () => { await env().client.call(…) });
 */
export function useEnvironment(files: Record<string, string> = {}, opts: { memoryMb?: number; fresh?: boolean } = {}): () => TestEnvironment {
  let current: TestEnvironment | undefined;
  let give: (() => Promise<void>) | undefined;
  before(async function () {
    this.timeout(30 * 60_000); // a first build of the image takes minutes
    const image = await testImage();
    let env: RunningEnvironment;
    let deployment: DockerDeployment;
    if (opts.fresh) {
      deployment = new DockerDeployment();
      env = await startEnvironment(deployment, { image, workspaceDir: makeWorkspace(files), memoryMb: opts.memoryMb, labels: { 'pwp.test': '1' } });
      give = async () => { env.client.close(); await deployment.remove(env.info.id).catch(() => undefined); };
    } else {
      const pool = sharedPool(image, opts.memoryMb);
      deployment = pool.deployment as DockerDeployment;
      env = (await pool.acquire()).env;
      if (Object.keys(files).length) {
        await prepareWarm(deployment, env, { files });
        await showInExplorer(env.client, files);
      }
      give = async () => { pool.release(env); };
    }
    current = {
      client: env.client,
      info: env.info,
      deployment,
      readFile: async (p) => (await deployment.readFile(env.info.id, p)).toString('utf8'),
    };
  });
  after(async () => {
    await give?.();
  });
  return () => {
    if (!current) throw new Error('environment not started (did the before hook fail?)');
    return current;
  };
}
