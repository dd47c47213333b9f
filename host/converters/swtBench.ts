// SWT-Bench (logic-star-ai/swt-bench): test generation for real issues. Its instances are
// SWE-bench's (instance_id, repo, base_commit, patch, test_patch, problem_statement, …; JSON or
// JSON Lines); the agent is given the issue and writes tests that reproduce it. They are graded
// on behaviour, test by test (graders/swt-bench/prepare_swt.py): a test function the agent added
// or changed counts when it fails on the original code, passes once the gold patch is applied and
// still fails after a change that keeps behaviour (a comment added to the patched files), and the
// task is solved when one counts and all pass with the gold patch; a test that reads the code it
// tests is refused. Every run happens in the verifier on a fresh copy of the workspace as the
// agent received it with only the agent's test files added, so changes to other files count for
// nothing. The runs are the task's `prepare` step, root's: the gold patch stays in the hidden
// folder, which the tests' user never reads, and the tests run as yet another user; the tests
// the verifier then runs (graders/swt-bench/test_swt.py) report what it found. The oracle applies
// the gold tests (test_patch). Repositories are read as repoCheckout.ts says. A repository whose
// tests download data as they run (SWE-bench's spec table, sweBenchSpecs.ts `fetches`) gets the
// verifier's network (`verifierNetwork`), said in a note, and its grade names the host when the
// verifier cannot reach it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Task } from '../taskEnv/loadTask';
import { graderScript } from './graderScripts';
import { changedLines, checkout, deletedFiles, patchedFiles } from './repoCheckout';
import type { SweInstance } from './sweBench';
import { fetchesNote, sweTestSpec } from './sweBenchSpecs';
import { parseRecords, requireStrings, taskId, writeTaskFolder, type FileMap } from './taskWriter';

export interface SwtOptions {
  outRoot: string; repos: string; suite?: string; limit?: number; image?: string;
  /** What a conversion did that the user should know (the verifier's network). */
  onNote?: (line: string) => void;
}

/** What counts as the agent's test files: kept from the agent's workspace, run in both states. */
export const SWT_TEST_FILES = ['**/test_*.py', '**/*_test.py'];
/**
 * Where the reporting half of the grader (graders/swt-bench/test_swt.py) lands in the verifier's
 * /workspace (from hidden/workspace/); the agent's test files are looked for outside it.
 */
const GRADER = '.swt';
/** The running half and what it reads, in the hidden folder (root's alone in the verifier). */
const PREPARE = 'swt';
/**
 * Runs of each state (original code, gold patch), in a random order drawn at grading: tests that
 * keep state between runs to fail first and pass later match that order by chance only, one time
 * in 20 with 3 (C(6,3)).
 */
export const SWT_REPEATS = 3;
/** Where the running half leaves SWT-Bench's metrics (root's): the grade reports them beside the reward. */
const SWT_COMPONENTS = '/pwp/swt/components.json';
const FIELDS = ['instance_id', 'repo', 'base_commit', 'patch', 'test_patch', 'problem_statement'] as const;

export function swtTask(inst: SweInstance, o: SwtOptions, where: string): Task {
  requireStrings(inst, FIELDS, where);
  // Only the spec's facts about data the tests download: the agent's tests run under pytest whatever the repository's runner.
  const { fetches } = sweTestSpec(inst.repo, inst.version).spec;
  const co = checkout(o.repos, inst.repo, inst.base_commit);
  try {
    const workspace = co.files();
    co.apply(inst.patch, 'gold patch');
    const goldFiles = patchedFiles(inst.patch);
    const hidden: FileMap = {
      [`workspace/${GRADER}/test_swt.py`]: graderScript('swt'),
      [`${PREPARE}/prepare_swt.py`]: graderScript('swtPrepare'),
      [`${PREPARE}/swt.json`]: `${JSON.stringify({ instance_id: inst.instance_id, testFiles: SWT_TEST_FILES, goldFiles, goldDeletes: deletedFiles(inst.patch), changed: changedLines(inst.patch), repeats: SWT_REPEATS, timeoutSec: 540, initial: '/pwp/initial/workspace', ...(fetches ? { fetchHost: fetches.host } : {}) }, null, 2)}\n`,
    };
    for (const f of goldFiles) hidden[`${PREPARE}/gold/${f}`] = readFileSync(join(co.dir, f));
    if (fetches) o.onNote?.(fetchesNote(inst.instance_id, fetches));
    return writeTaskFolder(o.outRoot, {
      task: {
        id: taskId(inst.instance_id),
        suite: o.suite ?? 'swt-bench',
        instruction: [
          `Write tests that reproduce this issue in the repository (${inst.repo}): they must fail on the code as it is and pass once the issue is fixed.`,
          'Put them in test files named test_*.py or *_test.py (new files or existing ones). Do not fix the issue itself: only your test files are graded, on the original code and on a fixed one.',
          '',
          inst.problem_statement.trim(),
        ].join('\n'),
        ...(o.image ? { image: o.image } : {}),
        evaluator: {
          kind: 'tests', framework: 'pytest', command: ['python3', '-m', 'pytest', '-q', '--noconftest', `${GRADER}/test_swt.py`], timeoutSec: 300,
          prepare: { command: ['/usr/bin/python3', '-I', `/pwp/hidden/${PREPARE}/prepare_swt.py`], timeoutSec: 7200, components: SWT_COMPONENTS },
        },
        grading: { agentFiles: SWT_TEST_FILES },
        oracle: { steps: [
          { writeFile: '/tmp/gold-tests.patch', from: 'oracle/test.patch', note: 'the gold tests (test_patch)' },
          { exec: ['git', 'apply', '--whitespace=nowarn', '/tmp/gold-tests.patch'] },
        ] },
        limits: { steps: 300, seconds: 3600 },
        tags: ['dataset:swt-bench', `source:${inst.instance_id}`, `repo:${inst.repo}`],
        ...(fetches ? { verifierNetwork: true } : {}),
      },
      workspace,
      hidden,
      oracle: { 'test.patch': inst.test_patch },
    });
  } finally {
    co.close();
  }
}

export function convertSwtBench(file: string, o: SwtOptions): Task[] {
  const instances = parseRecords<SweInstance>(readFileSync(file, 'utf8'), file, 'SWT-Bench instances');
  const chosen = instances.slice(0, o.limit ?? instances.length);
  // Every instance is checked before any task is written, so bad input changes nothing.
  chosen.forEach((inst, i) => requireStrings(inst, FIELDS, `${file}: instance ${i + 1}`));
  return chosen.map((inst, i) => swtTask(inst, o, `${file}: instance ${i + 1}`));
}
