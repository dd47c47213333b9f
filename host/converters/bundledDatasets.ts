// The bundled tasks of the benchmark families that pwp converts from a dataset: each family's
// source, written in that dataset's own published format, lives under datasets/<family>/, and
// the task folders under tasks/<family>/ are exactly what its converter makes of it (a unit test
// converts each again and compares; `npm run tasks:convert` rewrites them).
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { REPO_ROOT } from '../common/paths';
import { TASKS_ROOT } from '../taskEnv/loadTask';
import { convertDataset, type DatasetKind, type DatasetOptions } from './datasets';

export const DATASETS_ROOT = join(REPO_ROOT, 'datasets');

export interface BundledFamily {
  /** The family's suite name (host/runs/families.ts) and its folder under datasets/. */
  suite: string;
  kind: DatasetKind;
  /** The dataset file or folder, relative to datasets/<suite>/. */
  input: string;
  /** Folders the converter takes besides the input (clones, databases), relative to datasets/<suite>/. */
  repos?: string;
  databases?: string;
}

export const BUNDLED_FAMILIES: readonly BundledFamily[] = [
  { suite: 'humaneval', kind: 'humaneval', input: 'HumanEval.jsonl' },
  { suite: 'canitedit', kind: 'canitedit', input: 'test.jsonl' },
  { suite: 'swe-bench', kind: 'swe-bench', input: 'instances.jsonl', repos: 'repos' },
  { suite: 'swe-bench-mm', kind: 'swe-bench-mm', input: 'instances.jsonl', repos: 'repos' },
  { suite: 'swe-bench-multilingual', kind: 'swe-bench-multilingual', input: 'instances.jsonl', repos: 'repos' },
  { suite: 'swt-bench', kind: 'swt-bench', input: 'instances.jsonl', repos: 'repos' },
  { suite: 'res-q', kind: 'res-q', input: 'RES-Q.json', repos: 'repos' },
  { suite: 'bird', kind: 'bird', input: 'dev.json', databases: 'dev_databases' },
  { suite: 'dsbench', kind: 'dsbench', input: '.' },
  { suite: 'intercode-ctf', kind: 'intercode-ctf', input: 'ic_ctf.json' },
  { suite: 'design2code', kind: 'design2code', input: 'testset_final' },
  { suite: 'chartmimic', kind: 'chartmimic', input: 'ori_500' },
  { suite: 'minictx', kind: 'minictx', input: 'minictx' },
];

/** Converts one family's bundled dataset into <outRoot>/<suite>/, replacing what was there. */
export async function convertBundled(f: BundledFamily, outRoot: string): Promise<string> {
  const src = join(DATASETS_ROOT, f.suite);
  rmSync(join(outRoot, f.suite), { recursive: true, force: true });
  const o: DatasetOptions = {
    outRoot, suite: f.suite,
    ...(f.repos ? { repos: join(src, f.repos) } : {}),
    ...(f.databases ? { databases: join(src, f.databases) } : {}),
  };
  await convertDataset(f.kind, join(src, f.input), o);
  return join(outRoot, f.suite);
}

/** Every file under a folder with its content, by relative path. */
export function readTreeFiles(dir: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const walk = (d: string) => {
    for (const e of readdirSync(d).sort()) {
      const p = join(d, e);
      if (statSync(p).isDirectory()) walk(p);
      else out.set(relative(dir, p), readFileSync(p));
    }
  };
  walk(dir);
  return out;
}

/** Where the committed tasks/<suite>/ differs from a fresh conversion: missing, extra and changed files. */
export async function bundledDrift(f: BundledFamily): Promise<string[]> {
  const tmp = mkdtempSync(join(tmpdir(), 'pwp-bundled-'));
  try {
    const fresh = readTreeFiles(await convertBundled(f, tmp));
    const committed = readTreeFiles(join(TASKS_ROOT, f.suite));
    const drift: string[] = [];
    for (const [p, c] of fresh) {
      const have = committed.get(p);
      if (!have) drift.push(`${f.suite}/${p}: missing from tasks/`);
      else if (!have.equals(c)) drift.push(`${f.suite}/${p}: differs from the conversion`);
    }
    for (const p of committed.keys()) if (!fresh.has(p)) drift.push(`${f.suite}/${p}: not made by the conversion`);
    return drift;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
