// HumanEval-style JSONL (HumanEval, MBPP in HumanEval form, HumanEval-X/Python…): one problem a
// line with task_id, prompt (signature and docstring), canonical_solution, test (defining
// check(candidate)) and entry_point. Each becomes a code-editing task: the workspace holds
// solution.py with the prompt and a body to write; a hidden pytest file runs the problem's
// own check() on it; the oracle writes the canonical solution.
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import type { Task } from '../taskEnv/loadTask';
import { parseJsonLines, requireStrings, taskId, writeTaskFolder } from './taskWriter';

export interface HumanEvalProblem { task_id: string; prompt: string; canonical_solution: string; test: string; entry_point: string }

export interface ConvertOptions { outRoot: string; suite?: string; limit?: number; image?: string }

const FIELDS = ['task_id', 'prompt', 'canonical_solution', 'test', 'entry_point'] as const;

export function humanEvalTask(p: HumanEvalProblem, o: ConvertOptions, where = String(p.task_id ?? 'a problem')): Task {
  requireStrings(p, FIELDS, where);
  const suite = o.suite ?? 'humaneval';
  const stub = `${p.prompt.replace(/\s+$/, '')}\n    raise NotImplementedError\n`;
  const test = [
    '# The problem\'s own tests, run on the function in solution.py.',
    'from solution import *  # noqa: F401,F403 (the tests may use helpers the prompt defines)',
    `from solution import ${p.entry_point}`,
    '',
    p.test.trim(),
    '',
    '',
    `def test_${taskId(p.task_id).replace(/[^a-z0-9]/g, '_')}():`,
    `    check(${p.entry_point})`,
    '',
  ].join('\n');
  return writeTaskFolder(o.outRoot, {
    task: {
      id: taskId(p.task_id),
      suite,
      instruction: `Complete the function ${p.entry_point} in solution.py so that it does what its docstring says. Keep its name and signature.`,
      ...(o.image ? { image: o.image } : {}),
      evaluator: { kind: 'tests', framework: 'pytest', command: ['python3', '-m', 'pytest', '-q', 'tests/test_hidden.py'], timeoutSec: 120 },
      oracle: { steps: [{ tool: 'write_file', args: { file_path: 'solution.py', contents: `${p.prompt}${p.canonical_solution}` }, note: 'the canonical solution' }] },
      limits: { steps: 100, seconds: 900 },
      tags: ['dataset:humaneval', `source:${p.task_id}`],
    },
    workspace: { 'solution.py': stub, 'conftest.py': 'import os\nimport sys\n\nsys.path.insert(0, os.path.dirname(__file__))\n' },
    hidden: { 'workspace/tests/test_hidden.py': test },
  });
}

export function convertHumanEval(file: string, o: ConvertOptions): Task[] {
  // As published: HumanEval.jsonl.gz, or unpacked.
  const raw = readFileSync(file);
  const problems = parseJsonLines<HumanEvalProblem>((file.endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf8'), file);
  const chosen = problems.slice(0, o.limit ?? problems.length);
  // Every problem is checked before any task is written, so bad input changes nothing.
  chosen.forEach((p, i) => requireStrings(p, FIELDS, `${file}: problem ${i + 1}`));
  return chosen.map((p, i) => humanEvalTask(p, o, `${file}: problem ${i + 1}`));
}
