// A task with its own image (a Dockerfile FROM the IDE image), for real: pwp builds it with a
// line per build step, a second resolve finds it built (no step runs), the agent's environment
// runs it and has what it adds, the verifier runs it too (a check that needs the added file
// passes there, and fails on the plain IDE image), two processes that want one new image build
// it once, and the images are removed afterwards.
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import Docker from 'dockerode';
import { DockerDeployment } from '../../host/deployment/dockerDeployment';
import { engineId, withBuildLock } from '../../host/imageBuild/buildLock';
import { taskImageHash, taskImageRepository } from '../../host/imageBuild/buildTaskImage';
import { REPO_ROOT } from '../../host/common/paths';
import { bufferOf, tarOf } from '../../host/deployment/tarArchive';
import { makeEnv } from '../../host/taskEnv/taskEnv';
import { gradeState } from '../../host/taskEnv/gradeState';
import { loadTask, type Task } from '../../host/taskEnv/loadTask';
import { resolveTaskImage } from '../../host/taskEnv/resolveTaskImage';
import { testImage } from './environmentFixture';

describe('task images (real build, environment and verifier)', function () {
  this.timeout(10 * 60_000);
  // A new marker each run, so the first resolve really builds (two small layers, seconds).
  const marker = `pwp-task-image-${randomBytes(6).toString('hex')}`;
  const deployment = new DockerDeployment();
  let root: string;
  let task: Task;
  let ide: string;
  let built: string | undefined;
  let builtTwice: string | undefined;

  before(async function () {
    this.timeout(30 * 60_000);
    ide = await testImage();
    root = mkdtempSync(join(tmpdir(), 'pwp-task-image-'));
    const files: Record<string, string> = {
      'demo/marker/task.json': JSON.stringify({
        id: 'marker', suite: 'demo', instruction: 'Nothing to do: the image has the marker.',
        image: { dockerfile: 'image/Dockerfile' },
        // Passes only where the task image's file and command are: the verifier must run it.
        evaluator: { kind: 'command', command: ['sh', '-c', 'cat /opt/task-image/marker.txt && pwp-marker'], stdout: { $regex: `^${marker}\\n${marker}$` } },
        oracle: { steps: [{ exec: ['true'] }] },
      }),
      'demo/marker/image/Dockerfile': [
        'ARG PWP_IDE_IMAGE',
        'FROM ${PWP_IDE_IMAGE}',
        'USER root',
        'COPY marker.txt /opt/task-image/marker.txt',
        'RUN printf \'#!/bin/sh\\ncat /opt/task-image/marker.txt\\n\' > /usr/local/bin/pwp-marker && chmod 755 /usr/local/bin/pwp-marker',
        'USER pwp',
        '',
      ].join('\n'),
      'demo/marker/image/marker.txt': `${marker}\n`,
    };
    for (const [p, c] of Object.entries(files)) { mkdirSync(dirname(join(root, p)), { recursive: true }); writeFileSync(join(root, p), c); }
    task = loadTask(join(root, 'demo', 'marker'));
  });

  after(async () => {
    for (const image of [built, builtTwice]) if (image) await new Docker().getImage(image).remove().catch(() => undefined);
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('builds the task image on the IDE image with a line per build step, and a second resolve does not rebuild', async () => {
    const lines: string[] = [];
    built = await resolveTaskImage(task, { deployment, ideImage: ide, progress: (l) => lines.push(l) });
    assert.match(built, /^pwp-task-demo-marker:[0-9a-f]{16}$/);
    assert.ok(lines.some((l) => l.startsWith(`building task image ${built}`) && l.endsWith(`on ${ide}`)), lines.join('\n'));
    const steps = lines.filter((l) => /^\[\d+\/\d+\] /.test(l));
    // The Dockerfile's steps, then the labels pwp adds (the builder counts them as steps).
    assert.deepEqual(steps.map((l) => l.replace(/^\[\d+\/\d+\] (\S+).*$/, '$1')), ['ARG', 'FROM', 'USER', 'COPY', 'RUN', 'USER', 'LABEL', 'LABEL'], lines.join('\n'));
    assert.ok(lines.some((l) => l.startsWith(`built task image ${built}`)), lines.join('\n'));
    const inspected = await new Docker().getImage(built).inspect();
    assert.equal(inspected.Config.Labels?.['pwp.ide-image'], ide);

    const again: string[] = [];
    assert.equal(await resolveTaskImage(task, { deployment, ideImage: ide, progress: (l) => again.push(l) }), built);
    assert.deepEqual(again, [`task image ${built} is up to date`]);
  });

  it('runs the agent\'s environment on it (the agent has what it adds) and grades in a verifier of the same image', async () => {
    assert.ok(built, 'the build test ran first');
    const lines: string[] = [];
    const env = makeEnv(task, { image: ide, deployment, observe: [], labels: { 'pwp.test': '1' }, progress: (l) => lines.push(l) });
    try {
      await env.reset();
      assert.equal(env.unwrapped.info.image, built);
      assert.deepEqual(lines.filter((l) => /task image/.test(l)), [`task image ${built} is up to date`], 'the reset did not rebuild');
      const seen = await env.unwrapped.exec(['pwp-marker']);
      assert.equal(seen.stdout.trim(), marker);
      const evaluation = await env.unwrapped.grade();
      assert.equal(evaluation.score, 1, JSON.stringify(evaluation, null, 1));
    } finally {
      await env.close();
    }
    // The same check in a verifier of the plain IDE image fails: it is the task image that passes it.
    const plain = await gradeState(task, { image: ide, deployment, workspaceTar: await bufferOf(tarOf([])) });
    assert.equal(plain.score, 0, JSON.stringify(plain, null, 1));
  });

  it('is built once when two processes want it at the same time: one builds, the other waits and takes it', async () => {
    // A new image (its own marker), and both processes started while this test holds its build
    // lock, so that both are waiting when it is let go, whatever the load.
    const dockerfile = join(root, 'twice', 'Dockerfile');
    mkdirSync(dirname(dockerfile), { recursive: true });
    writeFileSync(dockerfile, 'ARG PWP_IDE_IMAGE\nFROM ${PWP_IDE_IMAGE}\nCOPY marker.txt /tmp/marker.txt\n');
    writeFileSync(join(root, 'twice', 'marker.txt'), `${marker}-twice\n`);
    const recipe = { name: 'demo-twice', dockerfile };
    const docker = new Docker();
    const tag = `${taskImageRepository(recipe.name)}:${taskImageHash(recipe, { tag: ide, id: (await docker.getImage(ide).inspect()).Id })}`;
    builtTwice = tag;
    const run = () => {
      const child = spawn(process.execPath, ['--import', join(REPO_ROOT, 'node_modules/tsx/dist/loader.mjs'), join(REPO_ROOT, 'test/support/ensureTaskImageProcess.ts'), recipe.name, dockerfile, ide], { stdio: ['ignore', 'pipe', 'pipe'] });
      const p = { out: '', exit: new Promise<number | null>((r) => child.once('exit', r)) };
      child.stdout.on('data', (d: Buffer) => { p.out += d; });
      child.stderr.on('data', (d: Buffer) => { p.out += d; });
      return p;
    };
    const waiting = `another pwp process is building ${tag}; waiting for it`;
    const [a, b] = await withBuildLock(await engineId(docker), tag, () => undefined, async () => {
      const both = [run(), run()];
      for (const p of both) {
        while (!p.out.includes(waiting)) {
          assert.equal(await Promise.race([p.exit, new Promise((r) => setTimeout(r, 100, 'running'))]), 'running', `the process ended before waiting:\n${p.out}`);
        }
      }
      return both;
    });
    assert.deepEqual(await Promise.all([a.exit, b.exit]), [0, 0], `${a.out}\n---\n${b.out}`);
    for (const p of [a, b]) assert.match(p.out, new RegExp(`^tag: ${tag}$`, 'm'), p.out);
    const builders = [a, b].filter((p) => p.out.includes(`building task image ${tag}`));
    assert.equal(builders.length, 1, `exactly one process builds:\n${a.out}\n---\n${b.out}`);
    const other = builders[0] === a ? b : a;
    assert.match(other.out, new RegExp(`^task image ${tag} was built by another pwp process$`, 'm'), other.out);
    assert.doesNotMatch(other.out, /^\[\d+\/\d+\] /m, 'the waiting process ran no build step');
  });
});
