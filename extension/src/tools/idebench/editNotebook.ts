// edit_notebook: edit or add a cell of a Jupyter notebook (.ipynb), keeping outputs and
// metadata of the other cells. Creates the notebook when its first cell is added.
import { z } from 'zod';
import { defineTool, IDE_EDIT_TIMEOUT_MS } from '../toolRegistry';
import { ToolError } from '../toolError';
import type { ToolServices } from '../toolServices';
import { replaceUnique } from '../textEdits';
import { checkPythonSyntax } from './pythonCheck';

interface Cell { cell_type: string; source: string | string[]; metadata: Record<string, unknown>; outputs?: unknown[]; execution_count?: number | null; [k: string]: unknown }
interface Notebook { cells: Cell[]; metadata: Record<string, unknown>; nbformat: number; nbformat_minor: number }

const sourceText = (c: Cell) => (Array.isArray(c.source) ? c.source.join('') : c.source);
/** nbformat stores source as lines that keep their newline. */
const toSource = (t: string) => t.split(/(?<=\n)/).filter((l) => l !== '');

export function newNotebook(): Notebook {
  return {
    cells: [],
    metadata: { kernelspec: { display_name: 'Python 3', language: 'python', name: 'python3' }, language_info: { name: 'python' } },
    nbformat: 4,
    nbformat_minor: 5,
  };
}

export function editNotebookTool(s: ToolServices) {
  return defineTool({
    name: 'edit_notebook',
    group: 'idebench',
    effects: 'write',
    description: 'Edit a Jupyter notebook cell. Existing cell (is_new_cell false): replace old_string (unique in the cell; ' +
      'empty means the whole cell) by new_string. New cell: insert new_string as a cell at cell_idx (0-based) with ' +
      'cell_language (python, markdown or raw). delete_cell removes cell cell_idx. Python code cells must compile.',
    params: z.object({
      target_notebook: z.string().min(1),
      cell_idx: z.int().min(0),
      is_new_cell: z.boolean().default(false),
      cell_language: z.enum(['python', 'markdown', 'raw']).default('python'),
      old_string: z.string().default(''),
      new_string: z.string().default(''),
      delete_cell: z.boolean().default(false),
    }).strict(),
    timeoutMs: IDE_EDIT_TIMEOUT_MS,
    run: async (a) => {
      const abs = s.paths.resolve(a.target_notebook, 'target_notebook');
      if (!abs.endsWith('.ipynb')) throw new ToolError('target_notebook must be a .ipynb file', 'InvalidPath');
      const exists = await s.files.exists(abs);
      let nb: Notebook;
      if (exists) {
        try { nb = JSON.parse(await s.files.readText(abs)) as Notebook; } catch (err) { throw new ToolError(`${a.target_notebook} is not valid notebook JSON: ${(err as Error).message}`, 'InvalidNotebook'); }
        if (!Array.isArray(nb.cells)) throw new ToolError(`${a.target_notebook} has no cells array`, 'InvalidNotebook');
      } else if (a.is_new_cell) nb = newNotebook();
      else throw new ToolError(`notebook not found: ${a.target_notebook}`, 'NotFound');
      const n = nb.cells.length;
      let what: string;
      if (a.delete_cell) {
        if (a.cell_idx >= n) throw new ToolError(`cell_idx ${a.cell_idx} is out of range: the notebook has ${n} cells`, 'OutOfRange');
        nb.cells.splice(a.cell_idx, 1);
        what = `deleted cell ${a.cell_idx}`;
      } else if (a.is_new_cell) {
        if (a.cell_idx > n) throw new ToolError(`cell_idx ${a.cell_idx} is out of range for a new cell: use 0 to ${n}`, 'OutOfRange');
        if (a.cell_language === 'python') await checkPythonSyntax(s, `${abs}.py`, a.new_string);
        const cell: Cell = a.cell_language === 'python'
          ? { cell_type: 'code', execution_count: null, metadata: {}, outputs: [], source: toSource(a.new_string) }
          : { cell_type: a.cell_language, metadata: {}, source: toSource(a.new_string) };
        if (nb.nbformat_minor >= 5) cell.id = Math.random().toString(16).slice(2, 10);
        nb.cells.splice(a.cell_idx, 0, cell);
        what = `inserted a ${a.cell_language} cell at ${a.cell_idx}`;
      } else {
        if (a.cell_idx >= n) throw new ToolError(`cell_idx ${a.cell_idx} is out of range: the notebook has ${n} cells`, 'OutOfRange');
        const cell = nb.cells[a.cell_idx];
        const before = sourceText(cell);
        const after = a.old_string === '' ? a.new_string : replaceUnique(before, a.old_string, a.new_string, 'old_string').text;
        if (cell.cell_type === 'code') await checkPythonSyntax(s, `${abs}.py`, after);
        cell.source = toSource(after);
        if (cell.cell_type === 'code') { cell.outputs = []; cell.execution_count = null; }
        what = `edited cell ${a.cell_idx}`;
      }
      await s.files.writeText(abs, `${JSON.stringify(nb, null, 1)}\n`);
      const listing = nb.cells.map((c, i) => `[${i}] ${c.cell_type}: ${sourceText(c).split('\n')[0].slice(0, 80)}`).join('\n');
      return `${exists ? '' : 'Created the notebook; '}${what} in ${s.paths.display(abs)}. Cells now:\n${listing}`;
    },
  });
}
