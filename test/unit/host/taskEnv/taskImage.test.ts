// Task images without Docker: how task.json and suite.json name an image, the checks on a
// Dockerfile (it builds FROM the IDE image), the content hash that names a built image, and the
// one resolver that turns a task's image into the tag its environments and verifier run.
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Deployment } from '../../../../host/deployment/deployment';
import { localName } from '../../../../host/deployment/swarm/swarmDeployment';
import { checkDockerfile, dockerfileProblems, taskImageHash, taskImageRepository, TaskImageError, type TaskImageRecipe } from '../../../../host/imageBuild/buildTaskImage';
import { loadTask, TaskError } from '../../../../host/taskEnv/loadTask';
import { listToolchains, resolveTaskImage, resolveTaskImages, taskImagesAsBuilt, TOOLCHAINS_DIR, type ImageSource } from '../../../../host/taskEnv/resolveTaskImage';
import { MINIMAL_TASK_JSON } from '../../../support/minimalTaskJson';

const VALID = MINIMAL_TASK_JSON;

const GOOD = 'ARG PWP_IDE_IMAGE\nFROM ${PWP_IDE_IMAGE}\nUSER root\nRUN touch /opt/marker\nUSER pwp\n';

describe('task images', () => {
  let root: string;
  beforeEach(() => { root = mkdtempSync(join(tmpdir(), 'pwp-task-images-')); });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  /** Writes files under root (paths relative to it) and returns the task folder demo-suite/<id>. */
  function write(files: Record<string, string | object>, id = 'x'): string {
    for (const [p, c] of Object.entries(files)) {
      mkdirSync(join(root, p, '..'), { recursive: true });
      writeFileSync(join(root, p), typeof c === 'string' ? c : JSON.stringify(c, null, 2));
    }
    return join(root, 'demo-suite', id);
  }

  function loadError(dir: string): string {
    try { loadTask(dir); } catch (err) {
      assert.ok(err instanceof TaskError, String(err));
      return err.message;
    }
    assert.fail('the task loaded');
  }

  describe('task.json and suite.json', () => {
    it('reads the four forms: default, a tag, a toolchain and a Dockerfile of the task', () => {
      assert.deepEqual(loadTask(write({ 'demo-suite/x/task.json': VALID })).imageSource, { kind: 'ide' });
      assert.deepEqual(loadTask(write({ 'demo-suite/x/task.json': { ...VALID, image: 'family:1' } })).imageSource, { kind: 'tag', tag: 'family:1' });
      const java = loadTask(write({ 'demo-suite/x/task.json': { ...VALID, image: { toolchain: 'java' } } }));
      assert.deepEqual(java.image, { toolchain: 'java' });
      assert.deepEqual(java.imageSource, { kind: 'build', name: 'java', dockerfile: join(TOOLCHAINS_DIR, 'java', 'Dockerfile') });
      const own = loadTask(write({ 'demo-suite/x/task.json': { ...VALID, image: { dockerfile: 'image/Dockerfile' } }, 'demo-suite/x/image/Dockerfile': GOOD }));
      assert.deepEqual(own.imageSource, { kind: 'build', name: 'demo-suite-x', dockerfile: join(root, 'demo-suite/x/image/Dockerfile') });
    });

    it('gives a suite\'s tasks the image of its suite.json, unless a task names its own', () => {
      write({ 'demo-suite/suite.json': { image: { dockerfile: '_image/Dockerfile' } }, 'demo-suite/_image/Dockerfile': GOOD });
      const shared = loadTask(write({ 'demo-suite/x/task.json': VALID }));
      assert.deepEqual(shared.image, { dockerfile: '_image/Dockerfile' });
      assert.deepEqual(shared.imageSource, { kind: 'build', name: 'demo-suite', dockerfile: join(root, 'demo-suite/_image/Dockerfile') });
      const own = loadTask(write({ 'demo-suite/y/task.json': { ...VALID, id: 'y', image: 'default' } }, 'y'));
      assert.deepEqual(own.imageSource, { kind: 'ide' });
    });

    it('refuses an unknown toolchain, naming the ones there are', () => {
      const msg = loadError(write({ 'demo-suite/x/task.json': { ...VALID, image: { toolchain: 'cobol' } } }));
      assert.match(msg, /task\.json: image\.toolchain: no toolchain "cobol" \(toolchains: .*java.*rust/);
    });

    it('refuses a missing Dockerfile, an unknown image field, and a Dockerfile whose folder holds the hidden files', () => {
      assert.match(loadError(write({ 'demo-suite/x/task.json': { ...VALID, image: { dockerfile: 'nope/Dockerfile' } } })), /task\.json: image\.dockerfile: "nope\/Dockerfile" not found/);
      assert.match(loadError(write({ 'demo-suite/x/task.json': { ...VALID, image: { toolchian: 'java' } } })), /task\.json: image.*: unknown field "toolchian"/);
      const leak = loadError(
        write({
          'demo-suite/x/task.json': { ...VALID, image: { dockerfile: 'Dockerfile' } },
          'demo-suite/x/Dockerfile': GOOD,
          'demo-suite/x/hidden/answer.txt': '42',
        }),
      );
      assert.match(leak, /task\.json: image\.dockerfile: its folder \(the build context\) holds the hidden folder "hidden": put the Dockerfile in a folder of its own/);
    });

    it('refuses a Dockerfile that does not build on the IDE image, with the line and what to write', () => {
      const msg = loadError(
        write({
          'demo-suite/x/task.json': { ...VALID, image: { dockerfile: 'image/Dockerfile' } },
          'demo-suite/x/image/Dockerfile': 'FROM debian:bookworm-slim\nRUN true\n',
        }),
      );
      assert.match(msg, /task\.json: image: image\/Dockerfile: line 1: "ARG PWP_IDE_IMAGE" must come before the first FROM/);
      assert.match(msg, /task\.json: image: image\/Dockerfile: line 1: FROM debian:bookworm-slim: a task image builds on the IDE image: every stage starts FROM \$\{PWP_IDE_IMAGE\}/);
    });

    it('reports a bad suite.json against suite.json', () => {
      write({ 'demo-suite/suite.json': { image: { toolchain: 'nope' }, extra: 1 } });
      const msg = loadError(write({ 'demo-suite/x/task.json': VALID }));
      assert.match(msg, /suite\.json: \(top level\): unknown field "extra"/);
      write({ 'demo-suite/suite.json': { image: { toolchain: 'nope' } } });
      assert.match(loadError(join(root, 'demo-suite/x')), /suite\.json: image\.toolchain: no toolchain "nope"/);
    });
  });

  describe('Dockerfile checks', () => {
    it('accepts FROM ${PWP_IDE_IMAGE} or $PWP_IDE_IMAGE, stages built on it, comments and continuations', () => {
      assert.deepEqual(dockerfileProblems(GOOD), []);
      assert.deepEqual(dockerfileProblems('# syntax comment\nARG PWP_IDE_IMAGE=pwp-ide:latest\nFROM $PWP_IDE_IMAGE AS build\nRUN make \\\n  all\nFROM build\nUSER pwp\n'), []);
    });

    it('refuses another base, a missing ARG, no FROM, a new entrypoint and ending as another user', () => {
      assert.match(dockerfileProblems('ARG PWP_IDE_IMAGE\nFROM ubuntu:22.04\n').join('\n'), /line 2: FROM ubuntu:22\.04: a task image builds on the IDE image/);
      assert.match(dockerfileProblems('FROM ${PWP_IDE_IMAGE}\n').join('\n'), /line 1: "ARG PWP_IDE_IMAGE" must come before the first FROM/);
      assert.match(dockerfileProblems('RUN true\n').join('\n'), /no FROM/);
      assert.match(dockerfileProblems(`${GOOD}ENTRYPOINT ["bash"]\n`).join('\n'), /line 6: ENTRYPOINT: a task image keeps the IDE image's entrypoint/);
      assert.match(dockerfileProblems('ARG PWP_IDE_IMAGE\nFROM ${PWP_IDE_IMAGE}\nUSER root\nRUN true\n').join('\n'), /line 3: USER root: a task image ends as the IDE user/);
      assert.throws(() => checkDockerfile({ name: 'x', dockerfile: join(root, 'missing') }), TaskImageError);
    });

    it('ships toolchains java, cpp, rust, jupyter and ctf, each a valid task image', () => {
      assert.deepEqual(listToolchains(), ['cpp', 'ctf', 'java', 'jupyter', 'rust']);
      for (const t of listToolchains()) assert.deepEqual(dockerfileProblems(readFileSync(join(TOOLCHAINS_DIR, t, 'Dockerfile'), 'utf8')), [], t);
    });
  });

  describe('content hash', () => {
    const recipe = (): TaskImageRecipe => ({ name: 'demo', dockerfile: join(root, 'image', 'Dockerfile') });
    const ide = { tag: 'pwp-ide:abc', id: 'sha256:1' };
    beforeEach(() => write({ 'image/Dockerfile': GOOD, 'image/files/data.txt': 'one' }));

    it('is the same for unchanged inputs', () => {
      assert.equal(taskImageHash(recipe(), ide), taskImageHash(recipe(), { ...ide }));
      assert.match(taskImageHash(recipe(), ide), /^[0-9a-f]{16}$/);
    });

    it('changes with the Dockerfile, a context file (changed or added) and the IDE image (tag or id)', () => {
      const seen = new Set([taskImageHash(recipe(), ide)]);
      const differs = (what: string) => {
        const h = taskImageHash(recipe(), ide);
        assert.ok(!seen.has(h), `${what} gives a new hash`);
        seen.add(h);
      };
      writeFileSync(join(root, 'image/Dockerfile'), `${GOOD}RUN true\n`); differs('a changed Dockerfile');
      writeFileSync(join(root, 'image/files/data.txt'), 'two'); differs('a changed context file');
      writeFileSync(join(root, 'image/files/more.txt'), ''); differs('an added context file');
      assert.ok(!seen.has(taskImageHash(recipe(), { ...ide, tag: 'pwp-ide:def' })), 'another IDE tag');
      assert.ok(!seen.has(taskImageHash(recipe(), { ...ide, id: 'sha256:2' })), 'another IDE image under the same tag');
    });

    it('names the image pwp-task-<name> in a form Docker accepts', () => {
      assert.equal(taskImageRepository('java'), 'pwp-task-java');
      assert.equal(taskImageRepository('Demo_Suite..x'), 'pwp-task-demo-suite-x');
    });
  });

  describe('resolveTaskImage', () => {
    /** A deployment that records what it was asked to build. */
    function fakeDeployment(fail?: string) {
      const calls: string[] = [];
      const d = {
        ensureImage: async () => { calls.push('ide'); return 'pwp-ide:built'; },
        ensureTaskImage: async (r: TaskImageRecipe, o: { ide?: string } = {}) => {
          calls.push(`task ${r.name} on ${o.ide ?? '(its own)'}`);
          if (r.name === fail) throw new Error(`build of ${r.name} failed`);
          return `pwp-task-${r.name}:h`;
        },
      } as unknown as Deployment;
      return { d, calls };
    }
    const build = (name: string): ImageSource => ({ kind: 'build', name, dockerfile: `/x/${name}/Dockerfile` });

    it('gives the IDE image for default, the tag as it is, and a Dockerfile built on the IDE image given', async () => {
      const { d, calls } = fakeDeployment();
      assert.equal(await resolveTaskImage({ imageSource: { kind: 'ide' } }, { deployment: d, ideImage: 'pwp-ide:given' }), 'pwp-ide:given');
      assert.equal(await resolveTaskImage({ imageSource: { kind: 'ide' } }, { deployment: d }), 'pwp-ide:built');
      assert.equal(await resolveTaskImage({ imageSource: { kind: 'tag', tag: 'family:1' } }, { deployment: d }), 'family:1');
      assert.equal(await resolveTaskImage({ imageSource: build('java') }, { deployment: d, ideImage: 'pwp-ide:given' }), 'pwp-task-java:h');
      assert.deepEqual(calls, ['ide', 'task java on pwp-ide:given']);
    });

    it('resolves a bench\'s tasks with each image built once, and a failed build only fails its own tasks', async () => {
      const { d, calls } = fakeDeployment('broken');
      const tasks = [
        { imageSource: build('java') },
        { imageSource: build('java') },
        { imageSource: { kind: 'ide' } },
        { imageSource: build('broken') },
        { imageSource: { kind: 'tag', tag: 't:1' } },
      ] as { imageSource: ImageSource }[];
      const images = await resolveTaskImages(tasks, { deployment: d });
      assert.deepEqual(tasks.slice(0, 3).map((t) => images.get(t)), ['pwp-task-java:h', 'pwp-task-java:h', 'pwp-ide:built']);
      assert.match(String(images.get(tasks[3])), /build of broken failed/);
      assert.equal(images.get(tasks[4]), 't:1');
      assert.deepEqual(calls, ['ide', 'task java on pwp-ide:built', 'task broken on pwp-ide:built']);
    });

    it('hands out the IDE image and tags while a build is still running, and builds one at a time', async () => {
      let release!: () => void;
      const gate = new Promise<void>((r) => { release = r; });
      const building: string[] = [];
      let atOnce = 0;
      const d = {
        ensureImage: async () => 'pwp-ide:built',
        ensureTaskImage: async (r: TaskImageRecipe) => {
          building.push(r.name);
          atOnce = Math.max(atOnce, building.length);
          if (r.name === 'java') await gate;
          building.splice(building.indexOf(r.name), 1);
          return `pwp-task-${r.name}:h`;
        },
      } as unknown as Deployment;
      const tasks = [
        { imageSource: build('java') },
        { imageSource: build('rust') },
        { imageSource: { kind: 'ide' } },
        { imageSource: { kind: 'tag', tag: 't:1' } },
      ] as { imageSource: ImageSource }[];
      const images = taskImagesAsBuilt(tasks, { deployment: d });
      assert.equal(await images.get(tasks[2]), 'pwp-ide:built');
      assert.equal(await images.get(tasks[3]), 't:1');
      assert.deepEqual(building, ['java'], 'the rust build waits for the java one');
      release();
      assert.deepEqual([await images.get(tasks[0]), await images.get(tasks[1])], ['pwp-task-java:h', 'pwp-task-rust:h']);
      assert.equal(atOnce, 1);
    });

    it('on a swarm, builds on the local IDE image that the registry name stands for', () => {
      assert.equal(localName('reg:5000/pwp-ide:abc', 'reg:5000'), 'pwp-ide:abc');
      assert.equal(localName('pwp-ide:abc', 'reg:5000'), 'pwp-ide:abc');
    });
  });
});
