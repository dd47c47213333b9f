// The Python half of reading the deliverable as parsed code: what verifierScripts/pyCodeCheck.py
// is given (the changed files with their earlier versions, and where the task's other files
// are for its own use of the same capabilities) and how its answer becomes findings. The
// script runs under the verifier image's own /usr/bin/python3 (the interpreter that parses
// what the tests will import); unit tests run it with the host's.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TamperFinding } from './tamperCheck';

export const PY_CODE_CHECK = readFileSync(join(__dirname, 'verifierScripts', 'pyCodeCheck.py'), 'utf8');

export interface PythonCheckInput {
  files: { path: string; new: string; old: string | null }[];
  /** The task's files, inline (unit tests, small workspaces). */
  baseline?: { path: string; content: string }[];
  /** Or where they lie: files of the task under scanRoot, read only when a finding needs them. */
  scanRoot?: string;
  scan?: string[];
  localModules: string[];
  /** Names the task's hidden Python files import as (hiddenModules): the deliverable must not import them. */
  hiddenModules?: string[];
}

const isPython = (p: string) => p.endsWith('.py');

/** Top-level names of the workspace's own modules (the task's and the agent's), `src/` and `lib/` layouts too. */
function localModules(paths: Iterable<string>): string[] {
  const out = new Set<string>();
  for (const p of paths) {
    if (!isPython(p)) continue;
    const parts = p.replace(/\.py$/, '').split('/');
    out.add(parts[0]);
    if ((parts[0] === 'src' || parts[0] === 'lib') && parts.length > 1) out.add(parts[1]);
  }
  return [...out].sort();
}

/**
 * Every dotted name a hidden Python file can be imported as, whichever folder of its path is on
 * sys.path (pytest's rootdir, `prepend` or `importlib` import modes): tests/test_x.py is
 * `test_x` and `tests.test_x`. A deliverable that imports the hidden tests reads their expected
 * values from their functions, constants or parametrize marks.
 */
export function hiddenModules(paths: Iterable<string>): string[] {
  const out = new Set<string>();
  for (const p of paths) {
    if (!isPython(p)) continue;
    const parts = p.replace(/\.py$/, '').split('/');
    if (parts[parts.length - 1] === '__init__') parts.pop();
    for (let i = parts.length - 1; i >= 0 && /^[A-Za-z_]\w*$/.test(parts[i]); i--) out.add(parts.slice(i).join('.'));
  }
  return [...out].sort();
}

/**
 * The script's input, or undefined when no Python file changed. `scanRoot`: where the task's
 * unchanged files can be read (the verifier's /workspace); without it they go inline.
 */
export function pythonCheckInput(
  changed: ReadonlyMap<string, Buffer>, baseline: ReadonlyMap<string, Buffer>,
  o: { scanRoot?: string; exclude?: ReadonlySet<string>; hidden?: Iterable<string> } = {},
): PythonCheckInput | undefined {
  const files = [...changed].filter(([p]) => isPython(p))
    .map(([path, content]) => ({ path, new: content.toString('base64'), old: baseline.get(path)?.toString('base64') ?? null }));
  if (!files.length) return undefined;
  const rest = [...baseline.keys()].filter((p) => isPython(p) && !changed.has(p) && !o.exclude?.has(p)).sort();
  const modules = { localModules: localModules([...baseline.keys(), ...changed.keys()]), ...(o.hidden ? { hiddenModules: hiddenModules(o.hidden) } : {}) };
  return o.scanRoot
    ? { files, scanRoot: o.scanRoot, scan: rest, ...modules }
    : { files, baseline: rest.map((path) => ({ path, content: baseline.get(path)!.toString('base64') })), ...modules };
}

/** Findings from the script's stdout; a run that gave no answer is itself a finding (the check fails closed). */
export function pythonFindings(r: { exitCode: number; stdout: string; stderr: string }): TamperFinding[] {
  try {
    if (r.exitCode === 0) return (JSON.parse(r.stdout) as { findings: TamperFinding[] }).findings;
  } catch { /* reported below */ }
  return [{ path: '', line: 0, reason: `the Python code check failed (exit code ${r.exitCode}): ${(r.stderr || r.stdout).trim().slice(-300)}`, text: '' }];
}
