// Starts a real environment (real container, code-server, Chromium, extension) for a
// suite and removes it afterwards. The image is built from this tree on first use.
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { BridgeClient } from '../../host/client/bridgeClient';
import { DockerDeployment } from '../../host/deployment/dockerDeployment';
import type { EnvironmentInfo } from '../../host/deployment/deployment';
import { startEnvironment } from '../../host/running/runningEnvironment';
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
 * Registers before/after hooks that provide one environment to the suite:
 *   const env = useEnvironment({ 'a.txt': 'hello' });
 *   it('…', async () => { await env().client.call(…) });
 */
export function useEnvironment(files: Record<string, string> = {}, opts: { memoryMb?: number } = {}): () => TestEnvironment {
  let current: TestEnvironment | undefined;
  before(async function () {
    this.timeout(30 * 60_000); // a first build of the image takes minutes
    const image = await testImage();
    const deployment = new DockerDeployment();
    const env = await startEnvironment(deployment, { image, workspaceDir: makeWorkspace(files), memoryMb: opts.memoryMb, labels: { 'pwp.test': '1' } });
    current = {
      client: env.client,
      info: env.info,
      deployment,
      readFile: async (p) => (await deployment.readFile(env.info.id, p)).toString('utf8'),
    };
  });
  after(async () => {
    if (!current) return;
    current.client.close();
    await current.deployment.remove(current.info.id).catch(() => undefined);
  });
  return () => {
    if (!current) throw new Error('environment not started (did the before hook fail?)');
    return current;
  };
}
