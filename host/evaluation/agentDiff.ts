// The agent's changes to the workspace as a unified diff (what IDE-Bench keeps beside the
// reference patch): the workspace after set-up against the workspace when graded, both as the
// tar archives grading already holds. Text files as line diffs, binary ones named only;
// caches and dependency folders left out.
import { Readable } from 'node:stream';
import { createTwoFilesPatch } from 'diff';
import { readTar } from '../deployment/tarArchive';

const isBinary = (b: Buffer) => b.subarray(0, 8000).includes(0);
/** Folders tools make as they run (test caches, bytecode, dependencies, git's own): not the agent's changes. */
const GENERATED = new Set(['.git', '.pytest_cache', '__pycache__', '.mypy_cache', '.ruff_cache', 'node_modules', '.venv']);
const generated = (path: string) => path.split('/').some((seg) => GENERATED.has(seg));

export async function agentDiff(initialTar: Buffer, finalTar: Buffer): Promise<{ diff: string; filesChanged: number }> {
  const [before, after] = await Promise.all([initialTar, finalTar].map((t) => readTar(Readable.from([t]), 1)));
  const paths = [...new Set([...before.keys(), ...after.keys()])].filter((p) => !generated(p)).sort();
  const parts: string[] = [];
  for (const path of paths) {
    const a = before.get(path);
    const b = after.get(path);
    if (a && b && a.equals(b)) continue;
    if ((a && isBinary(a)) || (b && isBinary(b))) {
      parts.push(`Binary files ${a ? `a/${path}` : '/dev/null'} and ${b ? `b/${path}` : '/dev/null'} differ\n`);
      continue;
    }
    const patch = createTwoFilesPatch(
      a ? `a/${path}` : '/dev/null',
      b ? `b/${path}` : '/dev/null',
      a?.toString('utf8') ?? '',
      b?.toString('utf8') ?? '',
      undefined,
      undefined,
      { context: 3 },
    );
    // Without the "===" banner, as git prints it.
    parts.push(`diff --git a/${path} b/${path}\n${patch.replace(/^=+\n/m, '').replace(/^Index: .*\n/m, '')}`);
  }
  return { diff: parts.join(''), filesChanged: parts.length };
}
