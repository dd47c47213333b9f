// The agent's changes to the workspace as a unified diff (what IDE-Bench keeps beside the
// reference patch): the workspace after set-up against the workspace when graded, both as the
// spooled archives grading already has (tarArchive.ts), compared by their digests; only the
// changed files are read, and only so much of them (DIFF_FILE_MAX each, DIFF_TOTAL_MAX in all):
// the rest, like binary files, is named only. Caches and dependency folders left out.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { createTwoFilesPatch } from 'diff';
import { readSpooled, spoolArchive, type IndexedEntry, type SpooledArchive } from '../deployment/tarArchive';

/** The most of one changed file shown as lines, and of all of them together; a larger one is named, as a binary file is. */
export const DIFF_FILE_MAX = 1024 * 1024;
export const DIFF_TOTAL_MAX = 32 * 1024 * 1024;

const isBinary = (b: Buffer) => b.subarray(0, 8000).includes(0);
/** Folders tools make as they run (test caches, bytecode, dependencies, git's own): not the agent's changes. */
const GENERATED = new Set(['.git', '.pytest_cache', '__pycache__', '.mypy_cache', '.ruff_cache', 'node_modules', '.venv']);
const generated = (path: string) => path.split('/').some((seg) => GENERATED.has(seg));
const rel = (name: string) => name.split('/').slice(1).join('/');

/** Regular files (hard links as their targets) by path under the archive's top folder. */
function filesOf(a: SpooledArchive): Map<string, IndexedEntry> {
  const byName = new Map(a.entries.filter((e) => e.header.type === 'file').map((e) => [e.header.name, e]));
  const out = new Map<string, IndexedEntry>();
  for (const e of a.entries) {
    const f = e.header.type === 'link' ? byName.get(e.header.linkname ?? '') : e.header.type === 'file' ? e : undefined;
    if (f && rel(e.header.name)) out.set(rel(e.header.name), { ...f, header: { ...f.header, name: e.header.type === 'link' ? f.header.name : e.header.name } });
  }
  return out;
}

export async function agentDiff(initial: Buffer | SpooledArchive, final: Buffer | SpooledArchive): Promise<{ diff: string; filesChanged: number }> {
  const scratch = Buffer.isBuffer(initial) || Buffer.isBuffer(final) ? mkdtempSync(join(tmpdir(), 'pwp-diff-')) : undefined;
  try {
    const spool = (a: Buffer | SpooledArchive, n: string) => (Buffer.isBuffer(a) ? spoolArchive(Readable.from([a]), join(scratch!, n)) : a);
    const [a, b] = await Promise.all([spool(initial, 'a.tar'), spool(final, 'b.tar')]);
    return await diffOf(a, b);
  } finally {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  }
}

async function diffOf(initial: SpooledArchive, final: SpooledArchive): Promise<{ diff: string; filesChanged: number }> {
  const [before, after] = [filesOf(initial), filesOf(final)];
  const paths = [...new Set([...before.keys(), ...after.keys()])].filter((p) => !generated(p) && before.get(p)?.digest !== after.get(p)?.digest).sort();
  // Which changed files are shown as lines: within the bounds, in path order.
  let total = 0;
  const shown = new Set(paths.filter((p) => {
    const size = Math.max(before.get(p)?.header.size ?? 0, after.get(p)?.header.size ?? 0);
    if (size > DIFF_FILE_MAX || total + size > DIFF_TOTAL_MAX) return false;
    total += size;
    return true;
  }));
  const names = (m: Map<string, IndexedEntry>) => new Set([...shown].flatMap((p) => m.get(p)?.header.name ?? []));
  const [beforeNames, afterNames] = [names(before), names(after)];
  const [oldText, newText] = await Promise.all([readSpooled(initial.file, (n) => beforeNames.has(n)), readSpooled(final.file, (n) => afterNames.has(n))]);
  const parts: string[] = [];
  for (const path of paths) {
    const a = before.has(path) ? oldText.get(before.get(path)!.header.name) : undefined;
    const b = after.has(path) ? newText.get(after.get(path)!.header.name) : undefined;
    const named = `Binary files ${before.has(path) ? `a/${path}` : '/dev/null'} and ${after.has(path) ? `b/${path}` : '/dev/null'} differ\n`;
    if (!shown.has(path) || (a && isBinary(a)) || (b && isBinary(b))) {
      parts.push(named);
      continue;
    }
    const patch = createTwoFilesPatch(
      before.has(path) ? `a/${path}` : '/dev/null',
      after.has(path) ? `b/${path}` : '/dev/null',
      a?.toString('utf8') ?? '',
      b?.toString('utf8') ?? '',
      undefined,
      undefined,
      // Two large, wholly different texts would take the line diff a long time: named instead.
      { context: 3, timeout: 10_000 },
    );
    // Without the "===" banner, as git prints it.
    parts.push(patch === undefined ? named : `diff --git a/${path} b/${path}\n${patch.replace(/^=+\n/m, '').replace(/^Index: .*\n/m, '')}`);
  }
  return { diff: parts.join(''), filesChanged: parts.length };
}
