// CanItEdit (nuprl/CanItEdit): instructional code editing. Its rows, as the Hugging Face
// dataset has them (exported as JSON Lines or a JSON list): id, name, full_name, before, after,
// tests, instruction_descriptive, instruction_lazy and taxonomy {change_kind, libraries, topic}.
// Each row is a task: the workspace holds main.py with the `before` program, the agent is given
// one of the two instructions, and a hidden script grades the edit as CanItEdit's evaluator does:
// the edited program with the row's tests appended, run as one script, must exit cleanly, and
// reach its end, which the verifier's launcher marks with a mark drawn for the run and never in a
// file (graders/canitedit/run_canitedit.py). The oracle writes the `after` program.
//
// taxonomy.libraries names the packages a row's program imports: they become the task's image,
// the IDE image with their Debian packages; a library Debian does not have makes the task
// pending (its image needs the library's wheels supplied, named in the error), never failed.
// A row whose `before` already passes its tests measures nothing: it is tagged invalid (see
// taskEnv/taskFlags.ts), noted, and left out of a bench's scores by default.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SCRIPT_LAUNCHER } from '../evaluation/isolatedRunner';
import type { Task } from '../taskEnv/loadTask';
import { invalidTag } from '../taskEnv/taskFlags';
import { graderScript } from './graderScripts';
import { pythonLibraryImage } from './pythonLibraries';
import { parseRecords, requireStrings, taskId, writeTaskFolder } from './taskWriter';

export interface CanItEditRow {
  id: number | string;
  name: string;
  full_name?: string;
  before: string;
  after: string;
  tests: string;
  instruction_descriptive: string;
  instruction_lazy: string;
  taxonomy?: { change_kind?: string; libraries?: string[]; topic?: string };
}

/** CanItEdit's two kinds of instruction: a detailed one, and the short one a busy user would write. */
export const CANITEDIT_INSTRUCTIONS = ['descriptive', 'lazy'] as const;
export type CanItEditInstruction = (typeof CANITEDIT_INSTRUCTIONS)[number];

export interface CanItEditOptions {
  outRoot: string; suite?: string; limit?: number; image?: string; instruction?: CanItEditInstruction;
  /** Run each row's `before` with its tests (python3 on PATH, 10 s) to flag rows that already pass (default true). */
  checkBefore?: boolean;
  onNote?: (line: string) => void;
}

/**
 * Whether the row's `before` already passes its tests, run as the grader runs them with python3 on
 * this machine (undefined when it cannot tell: no python3, a library this machine lacks, a
 * timeout). A failure is tried once more: some rows' tests time the program, and a `before` that
 * passes one run in two still lets an agent that does nothing score.
 */
export function beforePasses(row: Pick<CanItEditRow, 'before' | 'tests'>, timeoutMs = 10_000): boolean | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'pwp-canitedit-'));
  try {
    const mark = `pwp-end-${process.pid}-${Date.now()}`;
    writeFileSync(join(dir, 'program.py'), `${row.before}\n\n${row.tests}\nprint(${JSON.stringify(mark)})\n`);
    for (let attempt = 0; attempt < 2; attempt++) {
      const run = spawnSync('python3', ['-I', 'program.py'], { cwd: dir, encoding: 'utf8', timeout: timeoutMs, maxBuffer: 16 << 20 });
      if (run.error || /ModuleNotFoundError|ImportError/.test(run.stderr ?? '')) return undefined;
      if (run.status === 0 && run.stdout.includes(mark)) return true;
    }
    return false;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const FIELDS = ['name', 'before', 'after', 'tests', 'instruction_descriptive', 'instruction_lazy'] as const;
/** Where the grader and the row's tests land in the verifier's /workspace (from hidden/workspace/). */
const GRADER = '.canitedit';

export function canItEditTask(row: CanItEditRow, o: CanItEditOptions, where: string): Task {
  requireStrings(row, FIELDS, where, ['full_name']);
  if (typeof row.id !== 'number' && typeof row.id !== 'string') throw new Error(`${where}: missing field "id"`);
  const kind = o.instruction ?? 'descriptive';
  const instruction = row[`instruction_${kind}`].trim();
  const tax = row.taxonomy ?? {};
  const suite = o.suite ?? 'canitedit';
  const libraries = tax.libraries ?? [];
  if (!Array.isArray(libraries) || libraries.some((l) => typeof l !== 'string')) throw new Error(`${where}: taxonomy.libraries must be a list of names`);
  const image = o.image ?? (libraries.length ? pythonLibraryImage(join(o.outRoot, suite), libraries, { where, field: 'taxonomy.libraries', rows: 'CanItEdit rows' }) : undefined);
  const invalid = o.checkBefore !== false && beforePasses(row) === true;
  const id = taskId(row.full_name ?? `${row.id}_${row.name}`);
  if (invalid) o.onNote?.(`${suite}/${id}: invalid row: its program before the edit already passes the tests (tagged ${invalidTag('before-passes')}; left out of bench scores by default)`);
  return writeTaskFolder(o.outRoot, {
    task: {
      id,
      suite,
      instruction: `Edit the program in main.py as follows:\n\n${instruction}`,
      ...(image ? { image } : {}),
      evaluator: {
        kind: 'tests', framework: 'exitCode', command: ['python3', '-I', `${GRADER}/run_canitedit.py`], completionMark: true,
        sealed: [`${GRADER}/canitedit_tests.py`], timeoutSec: 120,
      },
      oracle: { steps: [{ tool: 'write_file', args: { file_path: 'main.py', contents: row.after }, note: 'the program after the edit' }] },
      limits: { steps: 100, seconds: 900 },
      tags: ['dataset:canitedit', `source:${row.full_name ?? row.id}`, `instruction:${kind}`,
        ...(tax.change_kind ? [`change:${tax.change_kind}`] : []), ...(tax.topic ? [`topic:${tax.topic}`] : []),
        ...libraries.map((l) => `library:${l}`), ...(invalid ? [invalidTag('before-passes')] : [])],
    },
    workspace: { 'main.py': row.before },
    hidden: {
      [`workspace/${GRADER}/run_canitedit.py`]: graderScript('canItEdit'),
      [`workspace/${GRADER}/canitedit_tests.py`]: row.tests,
      [`workspace/${GRADER}/canitedit.json`]: `${JSON.stringify({ launcher: SCRIPT_LAUNCHER }, null, 2)}\n`,
    },
  });
}

export function convertCanItEdit(file: string, o: CanItEditOptions): Task[] {
  const rows = parseRecords<CanItEditRow>(readFileSync(file, 'utf8'), file, 'CanItEdit rows');
  const chosen = rows.slice(0, o.limit ?? rows.length);
  // Every row is checked before any task is written, so bad input changes nothing.
  chosen.forEach((r, i) => requireStrings(r, FIELDS, `${file}: row ${i + 1}`, ['full_name']));
  return chosen.map((r, i) => canItEditTask(r, o, `${file}: row ${i + 1}`));
}
