// ChartMimic's two published layouts: Hugging Face's name.png beside name.py, and GitHub's
// ori_500/ with name.pdf (the reference image rendered from the script when the episode is set
// up); a chart with neither is skipped, noted; a script that imports a library the IDE image
// lacks gets an image with it, or is pending with it named (a reference that cannot render is
// never a failed gold); and any converter that writes no task fails with the reason instead of
// reporting "0 tasks written".
import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { importsBeyondImage, oracleScript } from '../../../../host/converters/chartMimic';
import { convertDataset } from '../../../../host/converters/datasets';
import { DatasetError } from '../../../../host/converters/taskWriter';
import { checkToolchains, MissingToolchainError } from '../../../../host/taskEnv/resolveTaskImage';

const SCRIPT = 'import matplotlib.pyplot as plt\nplt.figure(figsize=(4, 3))\nplt.bar([1, 2], [3, 4])\nplt.tight_layout()\nplt.savefig("bar_1.pdf", bbox_inches="tight")\n';

describe('chartmimic converter', () => {
  let root: string;
  beforeEach(() => { root = mkdtempSync(join(tmpdir(), 'pwp-chartmimic-')); mkdirSync(join(root, 'in')); });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('reads GitHub\'s layout (.py with .pdf): the reference image is rendered from the script at set-up, which leaves nothing behind', async () => {
    writeFileSync(join(root, 'in', 'bar_1.py'), SCRIPT);
    writeFileSync(join(root, 'in', 'bar_1.pdf'), '%PDF-1.4\n');
    const [t] = await convertDataset('chartmimic', join(root, 'in'), { outRoot: join(root, 'out') });
    assert.equal(t.id, 'chart-bar_1');
    assert.ok(!existsSync(join(t.workspaceDir!, 'target.png')) && !existsSync(join(t.workspaceDir!, 'bar_1.py')));
    assert.equal(readFileSync(join(t.dir, 'render', 'chart.py'), 'utf8'), oracleScript(SCRIPT));
    assert.equal(readFileSync(join(t.hiddenDir!, 'reference.py'), 'utf8'), SCRIPT);
    assert.deepEqual(t.setup.map((s) => Object.keys(s)[0]), ['writeFile', 'exec']);
    assert.match(JSON.stringify(t.setup[1]), /mv chart\.png \/workspace\/target\.png; rc=\$\?; rm -rf \/tmp\/pwp-render; exit \$rc/);
    assert.match(t.instruction, /^target\.png is a chart\. Write chart\.py/);
  });

  it('reads Hugging Face\'s layout (.py with .png) with the image in the workspace, and skips a chart with neither, noted', async () => {
    writeFileSync(join(root, 'in', 'bar_2.py'), SCRIPT);
    writeFileSync(join(root, 'in', 'bar_2.png'), await sharp({ create: { width: 40, height: 30, channels: 3, background: '#fff' } }).png().toBuffer());
    writeFileSync(join(root, 'in', 'bar_3.py'), SCRIPT);
    const notes: string[] = [];
    const tasks = await convertDataset('chartmimic', join(root, 'in'), { outRoot: join(root, 'out'), onNote: (l) => notes.push(l) });
    assert.deepEqual(tasks.map((t) => t.id), ['chart-bar_2']);
    assert.ok(existsSync(join(tasks[0].workspaceDir!, 'target.png')));
    assert.deepEqual(tasks[0].setup, []);
    assert.match(tasks[0].instruction, /\(40×30 pixels\)/);
    assert.deepEqual(notes, ["bar_3.py: skipped: no bar_3.png (Hugging Face's layout) or bar_3.pdf (GitHub's) beside it"]);
  });

  it('fails with the reason when no task is written, for this converter or any other', async () => {
    writeFileSync(join(root, 'in', 'bar_3.py'), SCRIPT);
    await assert.rejects(convertDataset('chartmimic', join(root, 'in'), { outRoot: join(root, 'out') }),
      (e: Error) => e instanceof DatasetError && /^0 tasks written from .*: every record was skipped \(bar_3\.py: skipped: no bar_3\.png/.test(e.message));
    writeFileSync(join(root, 'empty.jsonl'), '\n');
    await assert.rejects(convertDataset('humaneval', join(root, 'empty.jsonl'), { outRoot: join(root, 'out') }),
      (e: Error) => e instanceof DatasetError && /0 tasks written from .*empty\.jsonl: it holds no humaneval record; humaneval takes a JSONL file/.test(e.message));
  });

  it('gives a script that imports a library the IDE image lacks an image with its Debian package, noted', async () => {
    // As ChartMimic's density and graph charts: scipy and networkx beside the standard library's colorsys.
    writeFileSync(join(root, 'in', 'density_1.py'), `import colorsys\nimport numpy as np; np.random.seed(0)\nfrom scipy.stats import gaussian_kde\nimport networkx as nx, math\n${SCRIPT}`);
    writeFileSync(join(root, 'in', 'density_1.pdf'), '%PDF-1.4\n');
    const notes: string[] = [];
    const [t] = await convertDataset('chartmimic', join(root, 'in'), { outRoot: join(root, 'out'), onNote: (l) => notes.push(l) });
    assert.deepEqual(importsBeyondImage(readFileSync(join(root, 'in', 'density_1.py'), 'utf8')), ['networkx', 'scipy']);
    assert.deepEqual(t.image, { dockerfile: '../_images/networkx-scipy/Dockerfile' });
    const dockerfile = readFileSync(join(root, 'out', 'chartmimic', '_images', 'networkx-scipy', 'Dockerfile'), 'utf8');
    assert.match(dockerfile, /apt-get install -y --no-install-recommends python3-networkx python3-scipy \\/);
    assert.ok(t.tags.includes('library:scipy') && t.tags.includes('library:networkx'));
    assert.deepEqual(notes, ["density_1.py: imports networkx, scipy, which the IDE image lacks: the task's image adds them (a library Debian does not have leaves the task pending until its wheels are supplied)"]);
  });

  it('leaves a script that imports a library Debian does not have pending with the library named, never failed', async () => {
    // As ChartMimic's treemaps (squarify): no Debian package, so no image until its wheels are supplied.
    writeFileSync(join(root, 'in', 'tree_1.py'), `import squarify\n${SCRIPT}`);
    writeFileSync(join(root, 'in', 'tree_1.pdf'), '%PDF-1.4\n');
    const [t] = await convertDataset('chartmimic', join(root, 'in'), { outRoot: join(root, 'out') });
    assert.throws(() => checkToolchains(t.imageSource),
      (e: Error) => e instanceof MissingToolchainError && /Python library squarify \(no Debian package\)/.test(e.message));
  });
});
