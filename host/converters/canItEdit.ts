// CanItEdit (nuprl/CanItEdit): instructional code editing. Its rows, as the Hugging Face
// dataset has them (exported as JSON Lines or a JSON list): id, name, full_name, before, after,
// tests, instruction_descriptive, instruction_lazy and taxonomy {change_kind, libraries, topic}.
// Each row is a task: the workspace holds main.py with the `before` program, the agent is given
// one of the two instructions, and a hidden pytest file grades the edit as CanItEdit's
// evaluator does: the edited program with the row's tests appended, run as one script, must exit
// cleanly. The oracle writes the `after` program.
import { readFileSync } from 'node:fs';
import type { Task } from '../taskEnv/loadTask';
import { graderScript } from './graderScripts';
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

export interface CanItEditOptions { outRoot: string; suite?: string; limit?: number; image?: string; instruction?: CanItEditInstruction }

const FIELDS = ['name', 'before', 'after', 'tests', 'instruction_descriptive', 'instruction_lazy'] as const;

export function canItEditTask(row: CanItEditRow, o: CanItEditOptions, where: string): Task {
  requireStrings(row, FIELDS, where, ['full_name']);
  if (typeof row.id !== 'number' && typeof row.id !== 'string') throw new Error(`${where}: missing field "id"`);
  const kind = o.instruction ?? 'descriptive';
  const instruction = row[`instruction_${kind}`].trim();
  const tax = row.taxonomy ?? {};
  return writeTaskFolder(o.outRoot, {
    task: {
      id: taskId(row.full_name ?? `${row.id}_${row.name}`),
      suite: o.suite ?? 'canitedit',
      instruction: `Edit the program in main.py as follows:\n\n${instruction}`,
      ...(o.image ? { image: o.image } : {}),
      evaluator: { kind: 'tests', framework: 'pytest', command: ['python3', '-m', 'pytest', '-q', 'tests/test_canitedit.py'], timeoutSec: 120 },
      oracle: { steps: [{ tool: 'write_file', args: { file_path: 'main.py', contents: row.after }, note: 'the program after the edit' }] },
      limits: { steps: 100, seconds: 900 },
      tags: ['dataset:canitedit', `source:${row.full_name ?? row.id}`, `instruction:${kind}`,
        ...(tax.change_kind ? [`change:${tax.change_kind}`] : []), ...(tax.topic ? [`topic:${tax.topic}`] : [])],
    },
    workspace: { 'main.py': row.before },
    hidden: { 'workspace/tests/test_canitedit.py': graderScript('canItEdit'), 'workspace/tests/canitedit_tests.py': row.tests },
  });
}

export function convertCanItEdit(file: string, o: CanItEditOptions): Task[] {
  const rows = parseRecords<CanItEditRow>(readFileSync(file, 'utf8'), file, 'CanItEdit rows');
  const chosen = rows.slice(0, o.limit ?? rows.length);
  // Every row is checked before any task is written, so bad input changes nothing.
  chosen.forEach((r, i) => requireStrings(r, FIELDS, `${file}: row ${i + 1}`, ['full_name']));
  return chosen.map((r, i) => canItEditTask(r, o, `${file}: row ${i + 1}`));
}
