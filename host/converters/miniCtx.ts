// miniCTX (theorem proving with the file's context): JSON Lines files, one per source project,
// each record a theorem with the file contents before it (srcContext), its statement
// (theoremStatement, without ":="), theoremName, file, and proofMetadata.proof, the proof as
// written after ":=". Each becomes a task whose workspace is a Lean project with the file cut at
// the theorem and `sorry` as its proof; the reference file is an oracle file and the grader
// (hidden) checks that the context and statement are untouched, that the proof adds no command
// and no escape (sorry, admit, axiom, native_decide…), then runs Lean with `#print axioms`.
// Lean 4 comes from no package source pwp reaches, so the suite's image copies a toolchain the
// user supplies, and a run without it fails with MissingToolchainError saying how to supply it.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Task } from '../taskEnv/loadTask';
import { graderScript } from './graderScripts';
import { DatasetError, parseJsonLines, requireStrings, taskId, writeFiles, writeTaskFolder } from './taskWriter';

export interface MiniCtxRecord {
  srcContext: string;
  theoremStatement: string;
  theoremName: string;
  file: string;
  proofMetadata: { proof: string };
}

export interface MiniCtxOptions { outRoot: string; suite?: string; limit?: number; image?: string }

/** The Lean release the tasks' lean-toolchain names (the bundled theorems use only Lean's core library). */
export const LEAN_TOOLCHAIN = 'leanprover/lean4:v4.9.0';
/** Where the suite's image expects the supplied toolchain, relative to its Dockerfile's folder. */
export const LEAN_DIR = 'lean';

export const LEAN_HOW = `supply it in the task image: put a Lean 4 toolchain (the folder elan installs as ~/.elan/toolchains/<version>, with bin/lean and bin/lake; ${LEAN_TOOLCHAIN} or a release the theorems build with) at _image/${LEAN_DIR}/ in the suite's folder (the file named above), which the suite's _image/Dockerfile copies to /opt/lean; or build an image from that Dockerfile yourself and run with --image <tag>`;

const FIELDS = ['srcContext', 'theoremStatement', 'theoremName', 'file'] as const;

/** The records of a miniCTX file, or of every *.jsonl in a folder (one per project), checked. */
export function readMiniCtx(input: string): MiniCtxRecord[] {
  const files = statSync(input).isDirectory()
    ? readdirSync(input).filter((n) => n.endsWith('.jsonl')).sort().map((n) => join(input, n))
    : [input];
  if (files.length === 0) throw new DatasetError(`${input}: no .jsonl file (miniCTX has one per project, e.g. minictx/mathlib.jsonl)`);
  return files.flatMap((f) => parseJsonLines<MiniCtxRecord>(readFileSync(f, 'utf8'), f).map((r, i) => {
    const where = `${f}: record ${i + 1}`;
    requireStrings(r, FIELDS, where);
    const proof = (r.proofMetadata as { proof?: unknown } | undefined)?.proof;
    if (typeof proof !== 'string' || !proof.trim()) throw new DatasetError(`${where}: proofMetadata.proof must be the reference proof (a record without one cannot be checked)`);
    if (!/^[^/.][^:]*\.lean$/.test(r.file) || r.file.split('/').includes('..')) throw new DatasetError(`${where}: file must be a relative path ending in .lean, got ${JSON.stringify(r.file)}`);
    if (/:=\s*$/.test(r.theoremStatement)) throw new DatasetError(`${where}: theoremStatement must stop before ":="`);
    return r;
  }));
}

export function convertMiniCtx(input: string, o: MiniCtxOptions): Task[] {
  const suite = o.suite ?? 'minictx';
  const records = readMiniCtx(input).slice(0, o.limit);
  const ids = new Set<string>();
  // The image every task of the suite runs in, with what it needs named, before any task is loaded.
  // --image names an image that has Lean already; otherwise the suite's own, which needs it supplied.
  const image = o.image ?? { dockerfile: '_image/Dockerfile', requires: [{ toolchain: `Lean 4 (${LEAN_TOOLCHAIN})`, path: `${LEAN_DIR}/bin/lean`, how: LEAN_HOW }] };
  writeFiles(join(o.outRoot, suite), {
    'suite.json': `${JSON.stringify({ image }, null, 2)}\n`,
    '_image/Dockerfile': [
      '# Lean 4 for the miniCTX tasks: no package source pwp reaches has it, so the toolchain is',
      `# copied from ${LEAN_DIR}/ beside this file (bin/lean, bin/lake, lib/, include/), which the user supplies.`,
      'ARG PWP_IDE_IMAGE',
      'FROM ${PWP_IDE_IMAGE}',
      'USER root',
      `COPY ${LEAN_DIR}/ /opt/lean/`,
      'RUN /opt/lean/bin/lean --version && /opt/lean/bin/lake --version',
      'ENV PATH=/opt/lean/bin:$PATH',
      'USER pwp',
      '',
    ].join('\n'),
  });
  return records.map((r) => {
    let id = taskId(r.theoremName);
    for (let n = 2; ids.has(id); n++) id = taskId(`${r.theoremName}-${n}`);
    ids.add(id);
    const statement = r.theoremStatement.replace(/\s+$/, '');
    const context = r.srcContext;
    const expected = { file: r.file, context, statement, name: r.theoremName };
    return writeTaskFolder(o.outRoot, {
      task: {
        id, suite,
        instruction: `Prove the theorem ${r.theoremName} in ${r.file}: replace the \`sorry\` after its statement with a proof. Keep everything above the proof as it is, and do not use sorry, admit, new axioms or native_decide. \`lake env lean ${r.file}\` checks the file.`,
        evaluator: { kind: 'command', command: ['python3', '-I', '/pwp/hidden/check_proof.py'], stdout: 'proof accepted', timeoutSec: 600 },
        oracle: { steps: [{ writeFile: `/workspace/${r.file}`, from: `oracle/${r.file}`, note: 'the reference proof (proofMetadata.proof)' }] },
        limits: { steps: 100, seconds: 1800 },
        tags: ['dataset:minictx', `source:${r.file}:${r.theoremName}`],
      },
      workspace: {
        'lean-toolchain': `${LEAN_TOOLCHAIN}\n`,
        'lakefile.lean': `import Lake\nopen Lake DSL\n\npackage «task»\n`,
        [r.file]: `${context}${statement} := by\n  sorry\n`,
      },
      hidden: { 'check_proof.py': graderScript('miniCtx'), 'expected.json': `${JSON.stringify(expected, null, 2)}\n` },
      oracle: { [r.file]: `${context}${statement} := ${r.proofMetadata.proof.replace(/\s+$/, '')}\n` },
    });
  });
}
