// docs/tasks.md against the schemas it documents: every whole task.json in it validates, every
// evaluator example validates, every step kind has a row whose example is a valid step of that
// kind, and every evaluator kind, field and enum value the zod schemas define is named in its
// section. The lists come from the schemas themselves, so adding a step kind, an evaluator kind
// or a field without documenting it fails here.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EvaluatorSchema } from '../../../../host/evaluation/evaluatorSchema';
import { REPO_ROOT } from '../../../../host/common/paths';
import { formatIssues } from '../../../../host/taskEnv/loadTask';
import { INPUT_ONLY_KINDS, STEP_KINDS, StepSchema, stepKind } from '../../../../host/taskEnv/stepSchema';
import { TaskSchema } from '../../../../host/taskEnv/taskSchema';

const DOC_PATH = join(REPO_ROOT, 'docs', 'tasks.md');
const doc = readFileSync(DOC_PATH, 'utf8');

/** The text under a heading, up to the next heading of the same or a higher level. */
function section(heading: string): string {
  const lines = doc.split('\n');
  const start = lines.findIndex((l) => l === heading);
  assert.ok(start >= 0, `docs/tasks.md has no heading ${JSON.stringify(heading)}`);
  const level = /^#+/.exec(heading)![0].length;
  const end = lines.findIndex((l, i) => i > start && /^#+ /.test(l) && /^#+/.exec(l)![0].length <= level && !insideFence(lines, i));
  return lines.slice(start + 1, end === -1 ? undefined : end).join('\n');
}

function insideFence(lines: string[], i: number): boolean {
  return lines.slice(0, i).filter((l) => /^```/.test(l)).length % 2 === 1;
}

/** The ```json blocks of a text, parsed (a block that is not JSON fails the test that reads it). */
function jsonBlocks(text: string): { value: unknown; source: string }[] {
  return [...text.matchAll(/^```json\n([\s\S]*?)^```$/gm)].map((m) => {
    try { return { value: JSON.parse(m[1]) as unknown, source: m[1] }; } catch (err) {
      throw new Error(`a json block of docs/tasks.md is not JSON (${(err as Error).message}):\n${m[1]}`, { cause: err });
    }
  });
}

/** Whether a name is written as code in the text: a word of an inline code span or a code block. */
function namesInCode(text: string, name: string): boolean {
  const code = [...text.matchAll(/```[a-z]*\n([\s\S]*?)```|`([^`\n]+)`/g)].map((m) => m[1] ?? m[2]).join('\n');
  return new RegExp(`(^|[^A-Za-z0-9_$])${name.replace(/[$]/g, '\\$')}($|[^A-Za-z0-9_])`).test(code);
}

// zod's own description of a schema: its kind and parts, as `_zod.def` holds them.
type Def = {
  type: string;
  shape?: Record<string, Schema>;
  element?: Schema;
  options?: Schema[];
  innerType?: Schema;
  entries?: Record<string, unknown>;
  values?: unknown[];
  getter?: () => Schema;
};
type Schema = { _zod: { def: Def } };
const def = (s: unknown): Def => (s as Schema)._zod.def;

/** Field names and enum values a schema defines, through objects, arrays, unions and wrappers (not through lazy recursion). */
function namesOf(s: Schema, out = new Set<string>()): Set<string> {
  const d = def(s);
  switch (d.type) {
    case 'object': for (const [k, v] of Object.entries(d.shape!)) { out.add(k); namesOf(v, out); } break;
    case 'array': namesOf(d.element!, out); break;
    case 'union': for (const o of d.options!) namesOf(o, out); break;
    case 'optional': case 'default': case 'nullable': case 'prefault': namesOf(d.innerType!, out); break;
    case 'enum': for (const v of Object.values(d.entries!)) out.add(String(v)); break;
    case 'literal': for (const v of d.values!) if (typeof v === 'string') out.add(v); break;
    default: break; // matchers (unknown), strings, numbers, lazy recursion
  }
  return out;
}

/** The evaluator kinds of the schema's discriminated union, with each kind's object schema. */
function evaluatorKinds(): Map<string, Schema> {
  const union = def(EvaluatorSchema).getter!();
  const out = new Map<string, Schema>();
  for (const o of def(union).options!) {
    const kind = def(def(o).shape!.kind).values![0];
    out.set(String(kind), o);
  }
  return out;
}

describe('docs/tasks.md', () => {
  const blocks = jsonBlocks(doc);

  it('every whole task.json in it validates', () => {
    const tasks = blocks.filter((b) => typeof b.value === 'object' && b.value !== null && 'id' in b.value && 'suite' in b.value);
    assert.ok(tasks.length >= 1, 'the worked example is there');
    for (const t of tasks) {
      const r = TaskSchema.safeParse(t.value);
      assert.ok(r.success, `${r.success ? '' : formatIssues(r.error.issues).join('\n')}\n${t.source}`);
    }
  });

  it('every evaluator example validates, and every evaluator kind has a section with one of its own', () => {
    const kinds = evaluatorKinds();
    assert.ok(kinds.size >= 9, `kinds found in the schema: ${[...kinds.keys()].join(', ')}`);
    for (const b of blocks) {
      if (typeof b.value !== 'object' || b.value === null || !('kind' in b.value) || 'id' in b.value) continue;
      const r = EvaluatorSchema.safeParse(b.value);
      assert.ok(r.success, `${r.success ? '' : formatIssues(r.error.issues).join('\n')}\n${b.source}`);
    }
    for (const kind of kinds.keys()) {
      const own = jsonBlocks(section(`### \`${kind}\``)).filter((b) => (b.value as { kind?: string }).kind === kind);
      assert.ok(own.length >= 1, `the ${kind} section has a json example of a ${kind} evaluator`);
    }
  });

  it('names every field and enum value of each evaluator kind in its section', () => {
    for (const [kind, schema] of evaluatorKinds()) {
      const text = section(`### \`${kind}\``);
      const missing = [...namesOf(schema)].filter((n) => n !== 'kind' && !namesInCode(text, n));
      assert.deepEqual(missing, [], `the ${kind} section does not name ${missing.join(', ')}`);
    }
  });

  it('has a row for every step kind, whose example is a valid step of that kind, and no row for a kind that does not exist', () => {
    const rows = [...section('## Steps').matchAll(/^\| `([A-Za-z]+)` \| `(.+?)` \|/gm)];
    const documented = rows.map((r) => r[1]);
    assert.deepEqual([...documented].sort(), [...STEP_KINDS].sort(), 'step kinds in the table vs the schema');
    for (const [, kind, example] of rows) {
      const r = StepSchema.safeParse(JSON.parse(example));
      assert.ok(r.success, `${kind}: ${example}: ${r.success ? '' : formatIssues(r.error.issues).join('; ')}`);
      assert.equal(stepKind(r.data), kind, example);
    }
  });

  it('lists exactly the steps an inputOnly oracle may use', () => {
    const para = /\*\*Input-only oracles\.\*\*[\s\S]*?(?=\n- |\n\n|$)/.exec(section('## Steps'));
    assert.ok(para, 'the Steps section has an "Input-only oracles." paragraph');
    const named = [...para[0].matchAll(/`([A-Za-z]+)`/g)].map((m) => m[1]).filter((k) => (STEP_KINDS as string[]).includes(k));
    assert.deepEqual(new Set(named), new Set(INPUT_ONLY_KINDS));
  });

  it('names every task.json field in its table', () => {
    const text = section('## task.json');
    const missing = [...namesOf(TaskSchema as unknown as Schema)].filter((n) => !namesInCode(text, n));
    assert.deepEqual(missing, [], `the task.json section does not name ${missing.join(', ')}`);
  });
});
