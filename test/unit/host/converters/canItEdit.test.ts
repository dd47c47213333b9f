// CanItEdit rows as its Hugging Face dataset publishes them: taxonomy.libraries becomes the task's
// image (Debian's packages, or pending with the library named when Debian has none), and a row
// whose `before` already passes its tests is tagged invalid, noted, and left out of bench scores.
// The rows here are synthetic twins of the published rows' quirks (numpy/pandas/torch rows,
// autograd and vllm rows, 60_unique_number whose `before` passes).
import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { convertDataset } from '../../../../host/converters/datasets';
import { checkToolchains, MissingToolchainError } from '../../../../host/taskEnv/resolveTaskImage';
import { leftOutReason } from '../../../../host/taskEnv/taskFlags';

const row = (id: number, name: string, extra: Record<string, unknown> = {}) => ({
  id, name, full_name: `${id}_${name}`,
  before: 'def add(a, b):\n    return a - b\n', after: 'def add(a, b):\n    return a + b\n',
  tests: '### START TESTS ###\nassert add(2, 3) == 5\n',
  instruction_descriptive: 'Make add add.', instruction_lazy: 'fix add',
  taxonomy: { change_kind: 'corrective', libraries: [], topic: 'Math' }, ...extra,
});

describe('canitedit converter', () => {
  let root: string;
  beforeEach(() => { root = mkdtempSync(join(tmpdir(), 'pwp-canitedit-')); });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const convert = async (rows: unknown[], notes: string[] = []) => {
    writeFileSync(join(root, 'rows.jsonl'), rows.map((r) => JSON.stringify(r)).join('\n'));
    return convertDataset('canitedit', join(root, 'rows.jsonl'), { outRoot: join(root, 'out'), onNote: (l) => notes.push(l) });
  };

  it('gives rows that use libraries an image with their Debian packages, shared by rows with the same libraries', async () => {
    const [plain, a, b] = await convert([
      row(1, 'plain'),
      row(2, 'scaler', { taxonomy: { libraries: ['numpy', 'pandas'] } }),
      row(3, 'frames', { taxonomy: { libraries: ['pandas', 'numpy'] } }),
      row(4, 'net', { taxonomy: { libraries: ['torch', 'scikit-learn', 'z3', 'scipy'] } }),
    ]).then((t) => [t[0], t[1], t[2], t[3]] as const);
    assert.equal(plain.imageSource.kind, 'ide');
    assert.equal(a.imageSource.kind, 'build');
    assert.equal((a.imageSource as { dockerfile: string }).dockerfile, (b.imageSource as { dockerfile: string }).dockerfile);
    const dockerfile = (a.imageSource as { dockerfile: string }).dockerfile;
    assert.equal(dockerfile, join(root, 'out', 'canitedit', '_images', 'numpy-pandas', 'Dockerfile'));
    assert.match(readFileSync(dockerfile, 'utf8'), /apt-get install -y --no-install-recommends python3-numpy python3-pandas \\/);
    assert.match(readFileSync(join(root, 'out', 'canitedit', '_images', 'scikit-learn-scipy-torch-z3', 'Dockerfile'), 'utf8'), /python3-scipy python3-sklearn python3-torch python3-z3 /);
    assert.ok(a.tags.includes('library:numpy'));
    checkToolchains(a.imageSource);
  });

  it('makes a row that needs a library Debian lacks pending, naming the library, until its wheels are supplied', async () => {
    const [t] = await convert([row(5, 'grad', { taxonomy: { libraries: ['autograd', 'numpy'] } })]);
    assert.throws(() => checkToolchains(t.imageSource), (e: Error) => e instanceof MissingToolchainError && /Python library autograd \(no Debian package\)/.test(e.message) && /wheels\/autograd/.test(e.message));
    assert.match(readFileSync((t.imageSource as { dockerfile: string }).dockerfile, 'utf8'), /python3-numpy python3-pip[\s\S]*COPY wheels\//);
  });

  it('flags a row whose program already passes before the edit as invalid, notes it, and a bench leaves it out', async function () {
    this.timeout(60_000);
    const notes: string[] = [];
    const tasks = await convert([row(6, 'fine'), row(60, 'unique_number', { before: 'def add(a, b):\n    return a + b\n' })], notes);
    assert.deepEqual(tasks.map((t) => leftOutReason(t)), [undefined, "the dataset's row is invalid (before-passes)"]);
    assert.ok(tasks[1].tags.includes('invalid:before-passes'));
    assert.deepEqual(notes, ['canitedit/60_unique_number: invalid row: its program before the edit already passes the tests (tagged invalid:before-passes; left out of bench scores by default)']);
  });

  it('refuses libraries that are not package names', async () => {
    await assert.rejects(convert([row(7, 'bad', { taxonomy: { libraries: ['numpy; rm -rf /'] } })]), /taxonomy\.libraries has "numpy; rm -rf \/", not a package name/);
  });
});
