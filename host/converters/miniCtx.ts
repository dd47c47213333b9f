// miniCTX (theorem proving with the file's context): JSON Lines files, one per source project,
// each record a theorem with the file contents before it (srcContext), its statement
// (theoremStatement, without ":="), theoremName, file, and proofMetadata.proof, the proof as
// written after ":=". Each becomes a task whose workspace is a Lean project with the file cut at
// the theorem and `sorry` as its proof; the reference file is an oracle file and the grader
// (hidden) checks that the context and statement are untouched, that the proof adds no command
// and no escape (sorry, admit, axiom, native_decide…), then runs Lean with `#print axioms`.
// Lean 4 comes from no package source pwp reaches, so the suite's image copies a toolchain the
// user supplies, and a run without it fails with MissingToolchainError saying how to supply it.
//
// A record that imports Mathlib (all of miniCTX's mathlib.jsonl) gets a project that requires
// Mathlib at the revision the records name (lakefile.lean and lake-manifest.json): the newest
// theoremCreated.commit among its file's records, the snapshot their contexts were cut from
// (minictx-eval pins its test-envs/mathlib4 there). No package source pwp reaches has Mathlib
// either, so the suite's image copies a built checkout the user supplies at
// _image/mathlib/<revision>/, and set-up links it (and the packages it was built with) into the
// workspace's .lake/packages (docs/benchmarks.md, miniCTX). A bad record is skipped with a note,
// after --limit has chosen the records, so one bad line does not refuse a file. A record without
// theoremName (miniCTX's first mathlib.jsonl has none) is named by the theorem its statement declares.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Task } from '../taskEnv/loadTask';
import { pendingTag } from '../taskEnv/taskFlags';
import { graderScript } from './graderScripts';
import { DatasetError, requireStrings, taskId, writeFiles, writeTaskFolder } from './taskWriter';

export interface MiniCtxRecord {
  theoremCreated?: { commit?: string; date?: string } | string;
  srcContext: string;
  theoremStatement: string;
  theoremName: string;
  file: string;
  proofMetadata: { proof: string };
}

export interface MiniCtxOptions { outRoot: string; suite?: string; limit?: number; image?: string; onNote?: (line: string) => void }

/** The Lean release the tasks' lean-toolchain names (the bundled theorems use only Lean's core library). */
export const LEAN_TOOLCHAIN = 'leanprover/lean4:v4.9.0';
/** Where the suite's image expects the supplied toolchain, relative to its Dockerfile's folder. */
export const LEAN_DIR = 'lean';

export const LEAN_HOW = `supply it in the task image: put a Lean 4 toolchain (the folder elan installs as ~/.elan/toolchains/<version>, with bin/lean and bin/lake; ${LEAN_TOOLCHAIN} or a release the theorems build with) at _image/${LEAN_DIR}/ in the suite's folder (the file named above), which the suite's _image/Dockerfile copies to /opt/lean; or build an image from that Dockerfile yourself and run with --image <tag>`;

const FIELDS = ['srcContext', 'theoremStatement', 'theoremName', 'file'] as const;

export const MATHLIB_URL = 'https://github.com/leanprover-community/mathlib4';
/** Where the suite's image expects a built Mathlib checkout per revision, relative to its Dockerfile's folder. */
export const MATHLIB_DIR = 'mathlib';
const REV = /^[0-9a-f]{7,40}$/;

/** A record that cannot be converted as published, with why. */
function recordProblem(r: unknown, where: string): string | undefined {
  try {
    requireStrings(r, FIELDS, where);
  } catch (err) { return (err as Error).message; }
  const rec = r as MiniCtxRecord;
  const proof = (rec.proofMetadata as { proof?: unknown } | undefined)?.proof;
  if (typeof proof !== 'string' || !proof.trim()) return `${where}: proofMetadata.proof must be the reference proof (a record without one cannot be checked)`;
  if (!/^[^/.][^:]*\.lean$/.test(rec.file) || rec.file.split('/').includes('..')) return `${where}: file must be a relative path ending in .lean, got ${JSON.stringify(rec.file)}`;
  if (/:=\s*$/.test(rec.theoremStatement)) return `${where}: theoremStatement must stop before ":="`;
  return undefined;
}

/**
 * The name a theorem statement declares (`theorem foo …`, `protected lemma Bar.baz …`, or a named
 * instance, `instance (priority := 100) Foo.bar [T] : C α`: mathlib.jsonl's records without a
 * theoremName are such instances), or undefined (an anonymous instance names none).
 */
export function statementName(statement: string): string | undefined {
  const m = /^\s*(?:@\[[^\]]*\]\s*)?(?:(?:private|protected|noncomputable|nonrec)\s+)*(?:theorem|lemma|instance(?:\s*\(priority\s*:=[^)]*\))?)\s+([^\s:({[\]]+)/.exec(statement);
  return m?.[1];
}

/**
 * miniCTX's first mathlib.jsonl has no theoremName: the record's name is the one its statement
 * declares. Fills it in where it is missing (or null) and the statement names one; says how many.
 */
function nameFromStatement(r: unknown): boolean {
  const rec = r as { theoremName?: unknown; theoremStatement?: unknown } | null;
  if (!rec || typeof rec !== 'object' || (rec.theoremName !== undefined && rec.theoremName !== null) || typeof rec.theoremStatement !== 'string') return false;
  const name = statementName(rec.theoremStatement);
  if (!name) return false;
  rec.theoremName = name;
  return true;
}

/** The Mathlib revision a file's records name: the newest theoremCreated commit (undefined when none is a commit). */
export function mathlibRevision(records: readonly unknown[]): string | undefined {
  const created = records.flatMap((r) => {
    const c = (r as { theoremCreated?: unknown } | null)?.theoremCreated as { commit?: unknown; date?: unknown } | undefined;
    return c && typeof c === 'object' && typeof c.commit === 'string' && REV.test(c.commit) ? [{ commit: c.commit, date: typeof c.date === 'string' ? c.date : '' }] : [];
  });
  return created.sort((a, b) => a.date.localeCompare(b.date)).at(-1)?.commit;
}

const importsMathlib = (context: string) => /^import\s+Mathlib\b/m.test(context);
/** The tag of a record that imports Mathlib without naming its revision. */
const NO_REVISION = pendingTag('the record imports Mathlib but names no Mathlib revision');

/** A record as converted: the record and the Mathlib revision its file names. */
export interface MiniCtxItem { record: MiniCtxRecord; mathlibRev?: string }

/**
 * The records of a miniCTX file, or of every *.jsonl in a folder (one per project): the first
 * `limit`, of which a bad one (a broken line, a missing field) is skipped with a note (so
 * --limit 3 converts at most 3, fewer when some of the first 3 are bad).
 */
export function readMiniCtx(input: string, o: { limit?: number; onNote?: (line: string) => void } = {}): MiniCtxItem[] {
  const files = statSync(input).isDirectory()
    ? readdirSync(input).filter((n) => n.endsWith('.jsonl')).sort().map((n) => join(input, n))
    : [input];
  if (files.length === 0) throw new DatasetError(`${input}: no .jsonl file (miniCTX has one per project, e.g. minictx/mathlib.jsonl)`);
  const out: MiniCtxItem[] = [];
  let taken = 0;
  for (const f of files) {
    const lines = readFileSync(f, 'utf8').split('\n').map((l, i) => [l, i + 1] as const).filter(([l]) => l.trim());
    const parsed = lines.map(([l, n]) => { try { return { n, r: JSON.parse(l) as unknown }; } catch (err) { return { n, bad: `${f}:${n}: not JSON (${(err as Error).message})` }; } });
    const rev = mathlibRevision(parsed.flatMap((p) => ('r' in p ? [p.r] : [])));
    const named = parsed.filter((p) => 'r' in p && nameFromStatement(p.r)).length;
    if (named) o.onNote?.(`${f}: ${named} records have no theoremName (as miniCTX's first mathlib.jsonl): each is named by its theoremStatement`);
    for (const [i, p] of parsed.entries()) {
      if (o.limit !== undefined && taken++ >= o.limit) return out;
      const problem = 'bad' in p ? p.bad : recordProblem(p.r, `${f}: record ${i + 1}`);
      if (problem) { o.onNote?.(`skipped: ${problem}`); continue; }
      const record = (p as { r: MiniCtxRecord }).r;
      out.push({ record, ...(rev && importsMathlib(record.srcContext) ? { mathlibRev: rev } : {}) });
    }
  }
  return out;
}

/** lakefile.lean of a task's project: Lean's core library alone, or Mathlib at a revision. */
function lakefile(mathlibRev?: string): string {
  return `import Lake\nopen Lake DSL\n\npackage «task»\n${mathlibRev ? `\nrequire mathlib from git\n  "${MATHLIB_URL}" @ "${mathlibRev}"\n` : ''}`;
}

/** lake-manifest.json naming Mathlib at the revision (the packages Mathlib needs are added at set-up, from its own manifest). */
function lakeManifest(mathlibRev: string): string {
  return `${JSON.stringify({
    version: 7, packagesDir: '.lake/packages',
    packages: [{ url: MATHLIB_URL, type: 'git', subDir: null, rev: mathlibRev, name: 'mathlib', manifestFile: 'lake-manifest.json', inputRev: mathlibRev, inherited: false, configFile: 'lakefile.lean' }],
    name: 'task', lakeDir: '.lake',
  }, null, 2)}\n`;
}

export function convertMiniCtx(input: string, o: MiniCtxOptions): Task[] {
  const suite = o.suite ?? 'minictx';
  const items = readMiniCtx(input, { limit: o.limit, onNote: o.onNote });
  const revs = [...new Set(items.flatMap((i) => i.mathlibRev ?? []))].sort();
  const ids = new Set<string>();
  // The image every task of the suite runs in, with what it needs named, before any task is loaded.
  // --image names an image that has Lean (and Mathlib) already; otherwise the suite's own, which needs them supplied.
  const requires = [
    { toolchain: `Lean 4 (${LEAN_TOOLCHAIN})`, path: `${LEAN_DIR}/bin/lean`, how: LEAN_HOW },
    ...revs.map((rev) => ({
      toolchain: `Mathlib at ${rev}`, path: `${MATHLIB_DIR}/${rev}/lake-manifest.json`,
      how: `supply it in the task image: put a checkout of ${MATHLIB_URL} at ${rev}, built with the Lean toolchain of its lean-toolchain (lake exe cache get, or lake build; its .lake/ with the packages it uses included), at _image/${MATHLIB_DIR}/${rev}/ in the suite's folder, with that toolchain at _image/${LEAN_DIR}/; or build an image with both yourself and run with --image <tag> (docs/benchmarks.md, miniCTX)`,
    })),
  ];
  const image = o.image ?? { dockerfile: '_image/Dockerfile', requires };
  writeFiles(join(o.outRoot, suite), {
    'suite.json': `${JSON.stringify({ image }, null, 2)}\n`,
    '_image/Dockerfile': [
      '# Lean 4 for the miniCTX tasks: no package source pwp reaches has it, so the toolchain is',
      `# copied from ${LEAN_DIR}/ beside this file (bin/lean, bin/lake, lib/, include/), which the user supplies.`,
      ...(revs.length ? [`# Mathlib likewise: a built checkout per revision the records name, from ${MATHLIB_DIR}/<revision>/.`] : []),
      'ARG PWP_IDE_IMAGE',
      'FROM ${PWP_IDE_IMAGE}',
      'USER root',
      `COPY ${LEAN_DIR}/ /opt/lean/`,
      ...(revs.length ? [`COPY ${MATHLIB_DIR}/ /opt/mathlib/`, 'RUN chown -R pwp:pwp /opt/mathlib'] : []),
      'RUN /opt/lean/bin/lean --version && /opt/lean/bin/lake --version',
      'ENV PATH=/opt/lean/bin:$PATH',
      'USER pwp',
      '',
    ].join('\n'),
  });
  // Records that import Mathlib but name no snapshot of it (the first mathlib.jsonl's theoremCreated
  // is a bare commit of the theorem's history): no project can be set up for them, so they are pending.
  const unpinned = items.filter((i) => !i.mathlibRev && importsMathlib(i.record.srcContext)).length;
  if (unpinned) o.onNote?.(`${unpinned} records import Mathlib but name no Mathlib revision (theoremCreated.commit): they are pending (tagged ${NO_REVISION}); no proof of theirs can be checked until a revision is given`);
  return items.map(({ record: r, mathlibRev }) => {
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
        ...(mathlibRev ? { setup: [
          { writeFile: '/tmp/pwp-setup/link_mathlib.py', from: 'setup/link_mathlib.py', note: 'links the supplied Mathlib into the project' },
          { exec: ['python3', '-I', '/tmp/pwp-setup/link_mathlib.py', `/opt/mathlib/${mathlibRev}`, '/workspace'], note: `Mathlib at ${mathlibRev} and the packages it was built with, in .lake/packages` },
        ] } : {}),
        evaluator: { kind: 'command', command: ['python3', '-I', '/pwp/hidden/check_proof.py'], stdout: 'proof accepted', timeoutSec: 600 },
        oracle: { steps: [{ writeFile: `/workspace/${r.file}`, from: `oracle/${r.file}`, note: 'the reference proof (proofMetadata.proof)' }] },
        limits: { steps: 100, seconds: 1800 },
        tags: [
          'dataset:minictx', `source:${r.file}:${r.theoremName}`.slice(0, 100), ...(mathlibRev ? [`mathlib:${mathlibRev}`] : []),
          ...(!mathlibRev && importsMathlib(r.srcContext) ? [NO_REVISION] : []),
        ],
      },
      workspace: {
        'lean-toolchain': `${LEAN_TOOLCHAIN}\n`,
        'lakefile.lean': lakefile(mathlibRev),
        ...(mathlibRev ? { 'lake-manifest.json': lakeManifest(mathlibRev) } : {}),
        [r.file]: `${context}${statement} := by\n  sorry\n`,
      },
      hidden: { 'check_proof.py': graderScript('miniCtx'), 'expected.json': `${JSON.stringify(expected, null, 2)}\n` },
      oracle: { [r.file]: `${context}${statement} := ${r.proofMetadata.proof.replace(/\s+$/, '')}\n` },
      ...(mathlibRev ? { extra: { 'setup/link_mathlib.py': graderScript('miniCtxLinkMathlib') } } : {}),
    });
  });
}
