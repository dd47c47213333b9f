// IDE-Bench datasets as its authors lay them out (AfterQuery/IDE-Arena, datasets/<repo>/):
//
//   Dockerfile  docker-compose.yaml  run_tests.sh    the repository's environment and grader
//   tasks/task-N/task_description.txt                the request ("task_description: |" block
//                                                    with difficulty, category, tags, parser_name)
//   tasks/task-N/task_diff.txt                       the golden patch
//   tasks/task-N/task_tests.py (.js, .java …)        the task's tests; maybe run-tests.sh
//   everything else                                  the repository (IDE-Bench mounts it at /app)
//
// IDE-Arena's harness runs `./run_tests.sh task-N` in /app; a task's own tasks/task-N/run-tests.sh
// is what the task's author wrote to test it (it builds the code first: cmake for the C++
// datasets), run from its compose file's working_dir. Its score is the share of tests that pass,
// the repository's base tests and tests the base code already passes included: doing nothing
// scores above 0.
//
// Each task becomes a pwp task: the workspace is the repository (shared by the suite's tasks
// in _repo/), run_tests.sh and the task's folder (minus its description and patch) are hidden,
// copied to the same paths in the verifier, "/app" in them read as "/workspace". The oracle
// applies task_diff.txt (kept as oracle/task.diff, so runs put it beside agent.diff).
// Every task is graded through its own run-tests.sh (else run_tests.sh), run from its compose
// file's working_dir with TASK_ID the task's folder (compose files name the task, not its folder)
// and `uv run` a shim (the images have no uv), by pwp's wrapper (graders/idebench/); without
// either script the framework is detected from the repository (detectTestFramework.ts) and run
// directly on the task's test files (pytest's through a script of pwp's, as a task's own would
// be). Only the tests the task's change makes pass count: the verifier runs the same command on
// the base first (the evaluator's countFailingOnBase: host/evaluation/baseRun.ts) and leaves out
// the tests that pass there and still pass, whichever runner reports them (pytest's JUnit XML,
// jest's or mocha's JSON, go test -json, a build's JUnit XML), so the null agent scores 0; the
// score is the pass rate of the rest, as IDE-Bench's is. Tests behind a script that pytest does not run count as
// one case, the script's exit status (none when it already passes on the base).
//
// The repository's Dockerfile (FROM python:3.11-slim and the like, not pwp's IDE image) is not
// built: the tasks run in the IDE image, or the cpp/java/rust toolchain image when the test
// script builds with cmake/make, maven/gradle or cargo (or --image), and a copy is kept in the
// suite's _idebench/ folder with a note naming its base image, for a task image FROM the IDE image.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { detectTestFramework, testCommand } from '../evaluation/detectTestFramework';
import { EvaluatorSchema } from '../evaluation/evaluatorSchema';
import { unguardedGrading } from '../evaluation/unguardedGrading';
import type { Task } from '../taskEnv/loadTask';
import { invalidTag } from '../taskEnv/taskFlags';
import { graderScript } from './graderScripts';
import { patchedFiles } from './repoCheckout';
import { LOG_GRADER_COMMAND, LOG_GRADER_DIR, logGraderFiles, logGraderSpec } from './sweBenchLogGrader';
import { LANGUAGE_SPECS } from './sweBenchMultilingual';
import { applyPatchOracle, DatasetError, taskId, writeFiles, writeTaskFolder, type FileMap, type TaskFolder } from './taskWriter';

/** Gradle's tests as the log grader runs them (no daemon: nothing outlives the run). */
const GRADLE_COMMAND = ['gradle', 'test', '--offline', '--no-daemon'];

export interface IdeBenchOptions { outRoot: string; suite?: string; limit?: number; image?: string }

/** What the importer did that a user should know (shown by `pwp dataset`). */
export interface IdeBenchConversion { tasks: Task[]; notes: string[] }

/** Files of the task folder that are not test infrastructure. */
const TASK_META = new Set(['task_description.txt', 'task_diff.txt', 'docker-compose.yaml', 'docker-compose.yml']);
/** The dataset's own grader and the tasks: never in the agent's workspace (IDE-Bench's tools refuse them too). */
const NOT_WORKSPACE = new Set(['tasks', 'run_tests.sh', '.git']);
/** pwp's wrapper around the task's test script (graders/idebench/), written into the verifier with the hidden files. */
export const WRAPPER_DIR = '.pwp-idebench';
export const WRAPPER = `${WRAPPER_DIR}/run-tests.sh`;

/** The folder a task's compose file runs in (working_dir, /app being the workspace), relative to the workspace; `.` when it names none there. */
export function composeFolder(compose: string): string {
  const dir = /^\s*working_dir\s*:\s*["']?([^"'\s#]+)/m.exec(compose)?.[1];
  const rel = dir === undefined ? '' : fromApp(dir).replace(/^\/workspace(?:\/|$)/, '');
  return dir === undefined || rel.startsWith('/') || rel.split('/').includes('..') ? '.' : rel.replace(/\/+$/, '') || '.';
}

const TOOLCHAINS: { name: string; re: RegExp; why: string }[] = [
  { name: 'cpp', re: /\b(cmake|make|g\+\+|gcc|clang\+\+)\b/, why: 'cmake/make' },
  { name: 'java', re: /\b(mvn|gradle|gradlew|javac)\b/, why: 'maven/gradle' },
  { name: 'rust', re: /\bcargo\b/, why: 'cargo' },
];

/** The toolchain image a test script needs (it compiles before testing), or undefined for the IDE image. */
export function buildToolchain(script: string): { name: string; why: string } | undefined {
  const code = script.split('\n').filter((l) => !/^\s*#/.test(l)).join('\n');
  const t = TOOLCHAINS.find((c) => c.re.test(code));
  return t && { name: t.name, why: t.why };
}
export interface TaskDescription { instruction: string; meta: Record<string, string> }

/**
 * task_description.txt: a "task_description: |" block (the request, indented) followed by
 * "key: value" lines (difficulty, category, tags, parser_name), or, in older tasks, plain text.
 */
export function parseTaskDescription(text: string): TaskDescription {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  const start = lines.findIndex((l) => l.trim());
  if (start === -1 || !/^task_description\s*:/.test(lines[start])) return { instruction: text.trim(), meta: {} };
  const inline = lines[start].replace(/^task_description\s*:\s*/, '').trim();
  const body: string[] = inline && !/^[|>][-+]?$/.test(inline) ? [inline] : [];
  let i = start + 1;
  for (; i < lines.length && (lines[i].trim() === '' || /^\s/.test(lines[i])); i++) body.push(lines[i]);
  const indent = Math.min(...body.filter((l) => l.trim()).map((l) => /^\s*/.exec(l)![0].length));
  const instruction = body.map((l) => l.slice(Number.isFinite(indent) ? indent : 0)).join('\n').trim();
  const meta: Record<string, string> = {};
  for (const l of lines.slice(i)) {
    const m = /^([A-Za-z_][\w-]*)\s*:\s*(.*)$/.exec(l.trim());
    if (m) meta[m[1].toLowerCase()] = m[2].trim().replace(/^<(.*)>$/, '$1');
  }
  return { instruction, meta };
}

/** IDE-Bench runs everything under /app; the verifier's copy of the repository is /workspace. */
export function fromApp(text: string): string {
  return text.replace(/(?<![\w/.-])\/app(?![\w.-])/g, '/workspace');
}

function readTree(dir: string, skip: (rel: string) => boolean, base = dir, out: FileMap = {}): FileMap {
  for (const e of readdirSync(dir).sort()) {
    const p = join(dir, e);
    const rel = relative(base, p);
    if (skip(rel)) continue;
    if (statSync(p).isDirectory()) readTree(p, skip, base, out);
    else out[rel] = readFileSync(p);
  }
  return out;
}

const isText = (b: Buffer) => !b.subarray(0, 8000).includes(0);

const C_SOURCE = /\.(c|cc|cpp|cxx|h|hh|hpp|hxx)$/;

/** A quoted #include of the repository's C/C++ files that no file provides (neither the repository's nor one `added` names), or undefined. */
export function missingInclude(repo: FileMap, added: readonly string[] = []): { file: string; include: string } | undefined {
  const files = [...Object.keys(repo), ...added];
  for (const [file, content] of Object.entries(repo)) {
    if (!C_SOURCE.test(file)) continue;
    for (const m of content.toString('utf8').matchAll(/^\s*#\s*include\s*"([^"]+)"/gm)) {
      const inc = m[1];
      const here = join(file, '..', inc);
      if (!files.some((f) => f === here || f === inc || f.endsWith(`/${inc}`))) return { file, include: inc };
    }
  }
  return undefined;
}

/** The first FROM of a Dockerfile (its base image), or undefined. */
export function dockerBase(dockerfile: string): string | undefined {
  return /^\s*FROM\s+(?:--\S+\s+)*(\S+)/im.exec(dockerfile)?.[1];
}

/** True when a folder is one IDE-Bench dataset (a repository with tasks/task-*). */
export const isIdeBenchDataset = (dir: string) => existsSync(join(dir, 'tasks')) && statSync(join(dir, 'tasks')).isDirectory();

/** One dataset folder (datasets/<repo>) into the suite's tasks. */
export function convertIdeBenchRepo(dir: string, o: IdeBenchOptions): IdeBenchConversion {
  if (!isIdeBenchDataset(dir)) throw new DatasetError(`${dir}: not an IDE-Bench dataset (no tasks/ folder)`);
  const suite = o.suite ?? taskId(basename(dir));
  const notes: string[] = [];
  const taskDirs = readdirSync(join(dir, 'tasks')).filter((t) => existsSync(join(dir, 'tasks', t, 'task_description.txt')))
    .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  if (!taskDirs.length) throw new DatasetError(`${dir}/tasks: no task folder with a task_description.txt`);
  const selected = taskDirs.slice(0, o.limit ?? taskDirs.length);

  const dockerfile = existsSync(join(dir, 'Dockerfile')) ? readFileSync(join(dir, 'Dockerfile'), 'utf8') : undefined;
  const runTests = existsSync(join(dir, 'run_tests.sh')) ? fromApp(readFileSync(join(dir, 'run_tests.sh'), 'utf8')) : undefined;

  const repo = readTree(dir, (rel) => NOT_WORKSPACE.has(rel) || rel.split('/').includes('.git'));
  const folders = selected.map((name): TaskFolder => {
    const src = join(dir, 'tasks', name);
    const desc = parseTaskDescription(readFileSync(join(src, 'task_description.txt'), 'utf8'));
    if (!desc.instruction) throw new DatasetError(`${src}/task_description.txt: no task description`);
    const diff = existsSync(join(src, 'task_diff.txt')) ? readFileSync(join(src, 'task_diff.txt'), 'utf8') : undefined;
    if (!diff?.trim()) throw new DatasetError(`${src}/task_diff.txt: missing or empty (the oracle applies it)`);
    const hidden: FileMap = {};
    for (const [p, c] of Object.entries(readTree(src, (rel) => TASK_META.has(rel)))) {
      hidden[`workspace/tasks/${name}/${p}`] = typeof c === 'string' ? fromApp(c) : isText(c) ? fromApp(c.toString('utf8')) : c;
    }
    const testFiles = Object.keys(hidden).map((p) => p.slice('workspace/'.length)).filter((p) => /\/task_tests\.[^/]+$/.test(p));
    const python = testFiles.length > 0 && testFiles.every((f) => f.endsWith('.py'));
    // The task's own script first: it is how the task's author tests it (it may build the code).
    const taskScript = existsSync(join(src, 'run-tests.sh')) ? `tasks/${name}/run-tests.sh` : undefined;
    const script = taskScript ?? (runTests !== undefined ? 'run_tests.sh' : undefined);
    if (runTests !== undefined) hidden['workspace/run_tests.sh'] = runTests;
    const compose = existsSync(join(src, 'docker-compose.yaml')) ? readFileSync(join(src, 'docker-compose.yaml'), 'utf8') : undefined;
    const folder = taskScript && compose ? composeFolder(compose) : '.';
    const scriptText = script ? (hidden[`workspace/${script}`] as string | Buffer).toString() : '';
    let toolchain = o.image ? undefined : buildToolchain(scriptText);
    if (taskScript) {
      const composeTask = compose ? /TASK_ID=\$\{TASK_ID:-([^}]*)\}|TASK_ID=([^\s"']+)/.exec(compose) : null;
      const named = composeTask?.[1] ?? composeTask?.[2];
      notes.push(`${name}: graded by its own ${taskScript}${folder === '.' ? '' : `, run from ${folder}/ (its compose file's working_dir)`}, with TASK_ID=${name}`
        + `${named && named !== name ? ` (its compose file says ${named}, which names no task folder)` : ''}${/\buv\s+run\b/.test(scriptText) ? '; `uv run` runs the command itself (no uv in the image)' : ''}`
        + `${toolchain ? `; it builds with ${toolchain.why}: the ${toolchain.name} toolchain image` : ''}`);
    }

    // Every task is graded through pwp's wrapper (graders/idebench/), past the verifier's base run.
    const wrap = (framework: 'pytest' | 'exitCode', run: string) => {
      for (const [rel, key] of [['run-tests.sh', 'ideBenchRunTests'], ['uv', 'ideBenchUv']] as const) hidden[`workspace/${WRAPPER_DIR}/${rel}`] = graderScript(key);
      return { kind: 'tests', framework, command: ['sh', WRAPPER, run, name, folder], scoring: 'passRate', countFailingOnBase: true, timeoutSec: 1800 };
    };
    let evaluator: Record<string, unknown>;
    if (script) {
      evaluator = wrap(python ? 'pytest' : 'exitCode', script);
    } else {
      const found = detectTestFramework(dir, { testFiles });
      if (!found) throw new DatasetError(`${src}: no run_tests.sh and no test framework found in the repository (pytest, jest, mocha, go, cargo, ctest, maven, gradle)`);
      const run = testFiles.length ? found.evaluator : testCommand(found.detected);
      let shown = run.command;
      // A detected runner that builds (ctest, cargo, maven, gradle) needs its toolchain image, as a script that builds does.
      toolchain = o.image ? undefined : buildToolchain(run.command.join(' '));
      if (found.detected === 'pytest') {
        // pytest's tests, run by a script of pwp's in the task's folder, as a task's own script would be.
        const generated = `tasks/${name}/pwp-tests.sh`;
        hidden[`workspace/${generated}`] = `#!/usr/bin/env bash\n# pwp: the detected test command (the task has no test script)\ncd /workspace\nexec ${run.command.map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(' ')}\n`;
        evaluator = wrap('pytest', generated);
      } else if (found.detected === 'ctest' || found.detected === 'maven' || found.detected === 'gradle') {
        // Through the SWE-bench log grader: its canary (ctest's in every executable, a test passing
        // only if its main returned 0; a JUnit class beside the task's tests for Maven and Gradle,
        // the report checked against the console) and the hidden sources sealed (innerBuild); the
        // cases are the tests the run reports, past the same base run.
        const [log, command] = found.detected === 'ctest' ? ['ctest', LANGUAGE_SPECS.c.spec.command] as const
          : found.detected === 'maven' ? ['surefire', LANGUAGE_SPECS.java.spec.command] as const : ['gradle', GRADLE_COMMAND] as const;
        shown = command;
        Object.assign(hidden, logGraderFiles());
        hidden[`workspace/${LOG_GRADER_DIR}/spec.json`] = logGraderSpec({
          instance_id: name, log, command: [...command], env: {}, runner: null, tests: null, timeoutSec: 840, initial: '/pwp/initial/workspace',
        });
        evaluator = { kind: 'tests', framework: 'pytest', command: [...LOG_GRADER_COMMAND], innerBuild: true, scoring: 'passRate', countFailingOnBase: true, timeoutSec: 900 };
      } else {
        // The runner's own per-test report (with the verifier's canary where it takes one), past the same base run.
        evaluator = { kind: 'tests', ...run, scoring: 'passRate', countFailingOnBase: true, timeoutSec: 900 };
      }
      notes.push(`${name}: no run_tests.sh; ${found.detected} found (${found.evidence}): ${shown.join(' ')}, counting the tests that fail on the base`
        + `${toolchain ? `; it builds with ${toolchain.why}: the ${toolchain.name} toolchain image` : ''}`);
    }
    // A grading pwp cannot guard (a shell script's exit status): said here, and benches leave it out of their figures.
    // Through the schema, as the task file will be read, so its defaults (env) are there.
    const unguarded = unguardedGrading(EvaluatorSchema.parse(evaluator));
    if (unguarded) notes.push(`${name}: unguarded grading: ${unguarded}; benches leave it out of their figures unless --include-flagged`);
    const tags = ['idebench', `source:${basename(dir)}/${name}`];
    // A C or C++ project that cannot build as published (a header it includes is in neither the
    // repository nor the task's diff) fails every run, the golden patch's included: the dataset's
    // quirk, said and flagged, never pwp's failure.
    const missing = toolchain?.name === 'cpp' ? missingInclude(repo, patchedFiles(diff)) : undefined;
    if (missing) {
      tags.push(invalidTag(`does not build: ${missing.include} is missing`));
      notes.push(`${name}: invalid row: the repository does not build as published: ${missing.file} includes "${missing.include}", which neither the repository nor the task's diff provides `
        + '(its test script stops at the build on the base and with the golden patch alike; tagged invalid, left out of bench scores by default)');
    }
    for (const k of ['difficulty', 'category', 'parser_name']) if (desc.meta[k]) tags.push(`${k}:${desc.meta[k]}`);
    for (const t of (desc.meta.tags ?? '').replace(/^\[|\]$/g, '').split(/[,\s]+/)) if (t.replace(/^<|>$/g, '')) tags.push(t.replace(/^<|>$/g, ''));
    if (dockerfile) tags.push(`dockerfile:../_idebench/Dockerfile`);
    return {
      task: {
        id: taskId(name),
        suite,
        instruction: desc.instruction,
        ...(o.image ? { image: o.image } : toolchain ? { image: { toolchain: toolchain.name } } : {}),
        workspace: '../_repo',
        evaluator,
        oracle: applyPatchOracle('task.diff', 'the golden patch (task_diff.txt)'),
        limits: { steps: 300, seconds: 3600 },
        tags,
      },
      hidden,
      oracle: { 'task.diff': diff },
    };
  });

  // The repository once, for every task of the suite (tasks name it as ../_repo).
  const suiteDir = join(o.outRoot, suite);
  rmSync(join(suiteDir, '_repo'), { recursive: true, force: true });
  mkdirSync(join(suiteDir, '_repo'), { recursive: true });
  writeFiles(join(suiteDir, '_repo'), repo);

  if (dockerfile) {
    const base = dockerBase(dockerfile) ?? 'an unknown image';
    mkdirSync(join(suiteDir, '_idebench'), { recursive: true });
    writeFileSync(join(suiteDir, '_idebench', 'Dockerfile'), dockerfile);
    const fromIde = /pwp-ide/.test(base);
    const note = fromIde
      ? `the repository's Dockerfile starts FROM ${base}, pwp's IDE image: kept as ${suite}/_idebench/Dockerfile for a task image`
      : `the repository's Dockerfile starts FROM ${base}, not pwp's IDE image: it is not built; the tasks run in ${o.image ?? 'the IDE image (Python with pytest, Node with jest and mocha, Go), or the toolchain image their test script builds with'}. `
        + `Kept as ${suite}/_idebench/Dockerfile: what it installs beyond that belongs in a task image FROM the IDE image (or --image)`;
    writeFileSync(join(suiteDir, '_idebench', 'NOTES.md'), `# ${suite}: the repository's environment\n\n${note}.\n`);
    notes.push(note);
  }
  return { tasks: folders.map((f) => writeTaskFolder(o.outRoot, f)), notes };
}

/** A dataset folder, or a folder of them (IDE-Bench's datasets/): one suite per repository. */
export function convertIdeBench(input: string, o: IdeBenchOptions): IdeBenchConversion {
  if (isIdeBenchDataset(input)) return convertIdeBenchRepo(input, o);
  const repos = existsSync(input) && statSync(input).isDirectory()
    ? readdirSync(input).sort().map((e) => join(input, e)).filter((p) => statSync(p).isDirectory() && isIdeBenchDataset(p))
    : [];
  if (!repos.length) throw new DatasetError(`${input}: not an IDE-Bench dataset (a repository folder with tasks/task-N/) nor a folder of them`);
  if (o.suite && repos.length > 1) throw new DatasetError(`--suite names one suite, but ${input} holds ${repos.length} datasets`);
  const out: IdeBenchConversion = { tasks: [], notes: [] };
  let left = o.limit ?? Infinity;
  for (const r of repos) {
    if (left <= 0) break;
    const c = convertIdeBenchRepo(r, { ...o, limit: Number.isFinite(left) ? left : undefined });
    out.tasks.push(...c.tasks);
    out.notes.push(...c.notes.map((n) => `${basename(r)}: ${n}`));
    left -= c.tasks.length;
  }
  return out;
}
