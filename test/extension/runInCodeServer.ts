// Runs the extension suites inside code-server's real extension host, in a container of
// the pwp image (no desktop VS Code needed):
//   1. builds the extension as it ships (scripts/build.mjs), bundles the suites (stage.ts)
//      and the in-container driver (codeServerDriver.ts);
//   2. starts an environment with DockerDeployment (same hardening and labels as any
//      other; `pwp ls`/`pwp down` see it) and copies the staged folder in;
//   3. `docker exec`s the driver as user pwp: a second code-server with the smoke-test
//      driver on 127.0.0.1:8091 and a headless Chromium that opens the workbench with the
//      extension-development payload and waits for codeAutomationExit(code);
//   4. reads the mocha results back from the container, prints them, removes the container.
// A second code-server rather than a restart of the bridge's: the bridge supervises its own
// (a restart would be undone or flagged as a crash), and tests get a clean profile.
// `node --import tsx test/extension/runInCodeServer.ts` exits non-zero on any failure
// (PWP_KEEP_CONTAINER=1 keeps the container); test/integration/extensionHost.test.ts runs
// the same function under mocha.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { createInterface } from 'node:readline';
import { build } from 'esbuild';
import { DockerDeployment } from '../../host/deployment/dockerDeployment';
import { tarOfFolder } from '../../host/deployment/tarArchive';
import { ensureImage } from '../../host/imageBuild/buildImage';
import type { DriverConfig, DriverExit } from './codeServerDriver';
import { failureReason, formatReport, type ExtensionTestReport, type ExtensionTestRun } from './report';
import { stageExtensionTests } from './stage';

/** Where the staged folder lands in the container; /tmp is writable by user pwp. */
const CONTAINER_ROOT = '/tmp/pwp-extension-test';

export interface CodeServerRunOptions {
  /** Image to run; defaults to the image built from this tree (built when missing). */
  image?: string;
  /** Leave the container running for a look inside (`docker exec -u pwp …`). */
  keepContainer?: boolean;
  /** How long the tests may take once the workbench opens. */
  timeoutMs?: number;
  /** Progress and the extension host's output, line by line. */
  log?: (line: string) => void;
}

async function bundleDriver(outfile: string): Promise<void> {
  await build({
    entryPoints: [join(__dirname, 'codeServerDriver.ts')], outfile,
    bundle: true, platform: 'node', format: 'cjs', target: 'node24', logLevel: 'error',
  });
}

/** Runs a command in the container as pwp, passing its output to `log` line by line. */
async function execInContainer(deployment: DockerDeployment, id: string, cmd: string[], log: (line: string) => void, timeoutMs: number): Promise<number | null> {
  const out = new PassThrough();
  createInterface({ input: out }).on('line', log);
  try {
    const r = await (await deployment.runtime(id)).exec(cmd, { cwd: '/', timeoutSec: Math.ceil(timeoutMs / 1000), onOutput: (c) => out.write(c) });
    if (r.timedOut) throw new Error(`${cmd.join(' ')} still running after ${timeoutMs} ms`);
    return r.exitCode;
  } finally {
    out.end();
  }
}

async function readJson<T>(deployment: DockerDeployment, id: string, path: string): Promise<T | undefined> {
  try { return JSON.parse((await deployment.readFile(id, path)).toString('utf8')) as T; } catch { return undefined; }
}

export async function runExtensionTestsInCodeServer(opts: CodeServerRunOptions = {}): Promise<ExtensionTestRun> {
  const log = opts.log ?? ((line: string) => console.log(line));
  const timeoutMs = opts.timeoutMs ?? 15 * 60_000; // a hang detector: the suites take about a minute quiet
  const staging = mkdtempSync(join(tmpdir(), 'pwp-ext-tests-'));
  const deployment = new DockerDeployment();
  let envId: string | undefined;
  try {
    const staged = await stageExtensionTests(staging);
    await bundleDriver(join(staging, 'driver.js'));
    log(`bundled the extension and ${staged.suites.length} suite(s): ${staged.suites.join(', ')}`);
    const image = opts.image ?? (await ensureImage({ progress: log }));
    const info = await deployment.create({ image, memoryMb: 3072, labels: { 'pwp.test': 'extension-host' } });
    envId = info.id;
    log(`environment ${info.id} (${image}) started`);
    const runtime = await deployment.runtime(info.id);
    await runtime.exec(['mkdir', '-p', CONTAINER_ROOT], { cwd: '/' });
    await runtime.archiveIn(CONTAINER_ROOT, tarOfFolder(staging));

    const cfg: DriverConfig = { root: CONTAINER_ROOT, idePort: 8091, devtoolsPort: 9223, timeoutMs };
    const driverCode = await execInContainer(deployment, info.id,
      ['/opt/node/bin/node', `${CONTAINER_ROOT}/driver.js`, JSON.stringify(cfg)], (l) => log(`  ${l}`), timeoutMs + 120_000);
    const exit = await readJson<DriverExit>(deployment, info.id, `${CONTAINER_ROOT}/exit.json`);
    const report = await readJson<ExtensionTestReport>(deployment, info.id, `${CONTAINER_ROOT}/results.json`);
    const exitCode = exit ? exit.code : null;
    let failure = failureReason(report, exitCode);
    if (failure && !exit) failure = `the driver failed (exit code ${driverCode}); ${failure}`;
    else if (failure && exit?.timedOut) failure = `timed out after ${timeoutMs} ms; ${failure}`;
    if (report) log(formatReport(report));
    return { report, exitCode, failure, suites: staged.suites };
  } finally {
    rmSync(staging, { recursive: true, force: true });
    if (envId && opts.keepContainer) log(`kept environment ${envId}: docker exec -it -u pwp pwp-${envId} bash; ./bin/pwp down ${envId}`);
    else if (envId) await deployment.remove(envId).catch(() => undefined);
  }
}

if (require.main === module) {
  runExtensionTestsInCodeServer({ keepContainer: process.env.PWP_KEEP_CONTAINER === '1' }).then((run) => {
    if (run.failure) {
      console.log(`FAILED: ${run.failure}`);
      process.exit(1);
    }
    console.log('extension tests passed');
  }, (err: Error) => {
    console.error(`extension test run failed: ${err.stack ?? err.message}`);
    process.exit(2);
  });
}
