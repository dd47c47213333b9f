// SWE-bench (SWE-bench, Lite, Verified, SWE-Gym… as JSON or JSONL), its instances as published:
// instance_id, repo, base_commit, patch, test_patch, problem_statement, hints_text, created_at,
// version, FAIL_TO_PASS and PASS_TO_PASS (JSON-encoded lists of test ids, or lists) and
// environment_setup_commit. The user's local clones (or git bundles) are read as repoCheckout.ts
// says, never checked out.
//
// The workspace is the repository at base_commit. The files the test patch touches, as they
// read after it, are hidden and copied over the workspace in the verifier, which runs the
// repository's test command (sweBenchSpecs.ts) on the test patch's files: every FAIL_TO_PASS
// test must pass and every PASS_TO_PASS one still pass, each read from the per-test results
// (pytest's report, or the runner's log through sweBenchLogGrader.ts). A repository whose spec
// names its package (sweBenchSpecs.ts `module`) runs its tests through the log grader with its
// own code on the path as its editable install puts it, the package's file checked to lie in
// the workspace, and pytest's JUnit report read (the repository's own pytest for pytest-dev).
// The expected ids are the dataset's as this run names the same tests (sweBenchIds.ts); an id
// that can match nothing is reported and marks the row invalid. An instance whose tests need
// Debian packages beyond the IDE image, or wheels for pins Debian cannot meet, gets
// image/Dockerfile (sweBenchImage.ts); --image names one image for all instead. Tests that
// download data get the verifier's network (`verifierNetwork`), said in a note. The workspace
// is a git repository at the base commit with no later history (repoCheckout.ts). The oracle
// applies the gold patch. hints_text is not given to the agent (SWE-bench's default prompt
// leaves it out).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Task } from '../taskEnv/loadTask';
import { invalidTag } from '../taskEnv/taskFlags';
import { checkout, gitWorkspaceSetup, patchedFiles } from './repoCheckout';
import { mappingNotes, mapTestIds } from './sweBenchIds';
import { IMAGE_PYTHON, instanceDebs, instanceDockerfile, pinsOnDebian, wheelDir, type InstanceSetups } from './sweBenchImage';
import { logGraderFiles, LOG_GRADER_COMMAND, LOG_GRADER_DIR, logCaseId, logGraderSpec, RECORDER_FILE, resultRecorder, type LogGraderSpec } from './sweBenchLogGrader';
import { detectLanguage, LANGUAGE_SPECS } from './sweBenchMultilingual';
import { fetchesNote, sweTestSpec, testDirectives, type SweTestSpec } from './sweBenchSpecs';
import { applyPatchOracle, parseRecords, requireStrings, taskId, writeTaskFolder, type FileMap } from './taskWriter';

export { findClone, patchedFiles } from './repoCheckout';

export interface SweInstance {
  instance_id: string;
  repo: string;
  base_commit: string;
  patch: string;
  test_patch: string;
  problem_statement: string;
  FAIL_TO_PASS: string | string[];
  PASS_TO_PASS: string | string[];
  hints_text?: string;
  created_at?: string;
  version?: string;
  environment_setup_commit?: string;
}

export interface SweOptions {
  outRoot: string; repos: string; suite?: string; limit?: number;
  /** One image for every instance (none is written per instance). */
  image?: string;
  /** Overrides the repository's test command (the test directives are appended). */
  testCommand?: string[];
  /** Debian packages per instance_id, repo or repo@version (--instance-setup). */
  instanceSetups?: InstanceSetups;
  onNote?: (line: string) => void;
  /** SWE-bench-Multilingual: the test command and log format by the repository's language (sweBenchMultilingual.ts). */
  multilingual?: boolean;
}

/** What a variant of SWE-bench (SWE-bench Multimodal) adds to an instance's task. */
export interface SweVariant {
  /** The dataset's tag and default suite. */
  dataset: string;
  /** The issue as the agent reads it, instead of problem_statement. */
  problemStatement?: string;
  /** Files added to the workspace (the issue's screenshots). */
  workspace?: FileMap;
  /** The test spec of a repository the table does not know. */
  fallbackSpec?: SweTestSpec;
}

const FIELDS = ['instance_id', 'repo', 'base_commit', 'patch', 'test_patch', 'problem_statement'] as const;
const OPTIONAL = ['hints_text', 'created_at', 'version', 'environment_setup_commit'];
/** The tests' time limit, as the harness gives a run. */
const TIMEOUT_SEC = 1800;

function testList(v: unknown, field: string, where: string): string[] {
  let list = v;
  if (typeof v === 'string') {
    try { list = JSON.parse(v); } catch { throw new Error(`${where}: ${field} is not a JSON-encoded list`); }
  }
  if (list === undefined || list === null) return [];
  if (!Array.isArray(list) || list.some((t) => typeof t !== 'string')) throw new Error(`${where}: ${field} must be a list of test ids`);
  return list as string[];
}

/** The framework whose report a --test-command writes: its runner's, else the spec's. */
export function commandFramework(argv: readonly string[], log: SweTestSpec['log']): 'pytest' | 'node' | 'jest' | 'mocha' {
  const names = argv.map((a) => a.split('/').pop());
  if (names.includes('jest')) return 'jest';
  if (names.includes('mocha')) return 'mocha';
  if (names.includes('pytest')) return 'pytest';
  if (names[0] === 'node' && argv.includes('--test')) return 'node';
  return log === 'node' ? 'node' : 'pytest';
}

export function sweTask(inst: SweInstance, o: SweOptions, where = inst.instance_id, variant: SweVariant = { dataset: 'swe-bench' }): Task {
  requireStrings(inst, FIELDS, where, OPTIONAL);
  const failToPass = testList(inst.FAIL_TO_PASS, 'FAIL_TO_PASS', where);
  const passToPass = testList(inst.PASS_TO_PASS, 'PASS_TO_PASS', where);
  if (!failToPass.length) throw new Error(`${where}: FAIL_TO_PASS is empty: nothing would show the issue resolved`);
  // The repository at base_commit, without touching the user's clone.
  const co = checkout(o.repos, inst.repo, inst.base_commit);
  try {
    const language = o.multilingual ? LANGUAGE_SPECS[detectLanguage(co.dir, where)] : undefined;
    const { spec, note } = language ? { spec: language.spec, note: undefined } : sweTestSpec(inst.repo, inst.version, variant.fallbackSpec);
    if (note && !o.testCommand) o.onNote?.(note);
    // What the harness's editable install leaves in its checkout (pytest's version file), untracked as there.
    const generated = spec.generated && !language ? spec.generated(inst.version ?? '0.0') : {};
    const workspace = { ...co.files(), ...variant.workspace, ...generated };
    co.apply(inst.patch, 'gold patch');
    // The tests as the test patch leaves them, applied over the gold patch (as the harness does).
    co.apply(inst.test_patch, 'test patch');
    const testFiles = patchedFiles(inst.test_patch);
    const hidden: FileMap = {};
    for (const f of testFiles) hidden[`workspace/${f}`] = readFileSync(join(co.dir, f));
    const gold = new Set(patchedFiles(inst.patch));
    const both = testFiles.filter((f) => gold.has(f));
    if (both.length) throw new Error(`${where}: the gold patch and the test patch both change ${both.join(', ')}: the test patch's copy would hide the fix`);
    // pytest ids name their files: run those the lists name beside the test patch's.
    const idFiles = spec.log === 'pytest' ? [...failToPass, ...passToPass].map((t) => t.split('::')[0]).filter((f) => f.endsWith('.py')) : [];
    const directives = language ? language.directives(testFiles) : testDirectives(spec, [...new Set([...testFiles, ...idFiles])]);
    const command = [...(o.testCommand ?? spec.command), ...directives];
    // The ids as this run names the same tests; those that can match nothing are the dataset's quirk, said and flagged.
    const repoFiles = new Set([...Object.keys(workspace), ...testFiles]);
    const mapped = mapTestIds([...failToPass, ...passToPass], { files: repoFiles, repo: inst.repo, homeData: spec.homeData });
    const tests = mapped.ids;
    for (const q of mappingNotes(mapped)) o.onNote?.(`${inst.instance_id}: dataset quirk: ${q}`);
    const tags: string[] = [];
    if (mapped.unmatchable.length) {
      const why = `${mapped.unmatchable.length} expected test ids can match nothing`;
      o.onNote?.(`${inst.instance_id}: ${why}: they count as failed (as in SWE-bench's grading), so no patch can score 1; the row is marked invalid`);
      tags.push(invalidTag(why));
    }
    if (spec.python && spec.python !== IMAGE_PYTHON && !language) o.onNote?.(`${inst.instance_id}: SWE-bench runs ${inst.repo} ${inst.version ?? ''} on Python ${spec.python}; here it is Debian's ${IMAGE_PYTHON} (code that imports only on an older Python fails here, and the grade says so)`);
    if (spec.fetches) o.onNote?.(fetchesNote(inst.instance_id, spec.fetches));
    const ownEnv = !!spec.module && !o.testCommand && !language && spec.log === 'pytest';
    let evaluator: Record<string, unknown>;
    if (ownEnv) {
      // The repository's own code, on the path as its editable install puts it, checked when grading.
      Object.assign(hidden, logGraderFiles());
      hidden[`workspace/${LOG_GRADER_DIR}/spec.json`] = logGraderSpec({
        instance_id: inst.instance_id, log: 'junit', command, runner: null, tests, timeoutSec: TIMEOUT_SEC - 60, initial: '/pwp/initial/workspace',
        env: { ...spec.env, PYTHONPATH: `/workspace${spec.importRoot ? `/${spec.importRoot}` : ''}` },
        module: spec.module, parser: spec.parser ?? 'pytest', passToPassFrom: failToPass.length, ...(spec.fetches ? { fetchHost: spec.fetches.host } : {}),
      });
      // The repository's tests sealed, handed to the grader's pytest run by the verifier's launch, unless
      // the repository is pytest itself (ownRunner): that launch imports the image's pytest, not the repository's.
      evaluator = {
        kind: 'tests', framework: 'pytest', command: [...LOG_GRADER_COMMAND], expected: tests.map(logCaseId), scoring: 'all', timeoutSec: TIMEOUT_SEC,
        ...(spec.ownRunner ? {} : { innerPytest: true }),
      };
    } else if (spec.log === 'pytest' || spec.log === 'node' || (o.testCommand && !language) || (language?.framework && !o.testCommand)) {
      // The verifier's own runner grades the command. A --test-command of a multilingual instance still prints its language's log.
      const framework = o.testCommand ? commandFramework(o.testCommand, spec.log) : language?.framework ?? (spec.log === 'node' ? 'node' : 'pytest');
      evaluator = { kind: 'tests', framework, command, expected: tests, scoring: 'all', timeoutSec: TIMEOUT_SEC, ...(spec.env ? { env: spec.env } : {}) };
    } else {
      Object.assign(hidden, logGraderFiles());
      // Django's and SymPy's runners: the repository's own code on the path, its results recorded in the runner's process.
      const own: Pick<LogGraderSpec, 'env' | 'module' | 'recorder'> | undefined = !language && !o.testCommand && spec.recorder ? {
        env: { ...spec.env, ...(spec.importRoot !== undefined ? { PYTHONPATH: `/workspace${spec.importRoot ? `/${spec.importRoot}` : ''}` } : {}) },
        ...(spec.module ? { module: spec.module } : {}), recorder: spec.recorder,
      } : undefined;
      if (own) hidden[`workspace/${RECORDER_FILE}`] = resultRecorder();
      hidden[`workspace/${LOG_GRADER_DIR}/spec.json`] = logGraderSpec({
        instance_id: inst.instance_id, log: spec.log as LogGraderSpec['log'], command, env: spec.env ?? {}, runner: language ? null : spec.command[1], tests,
        timeoutSec: TIMEOUT_SEC - 60, initial: '/pwp/initial/workspace', ...own,
      });
      // With a recorder the repository's tests are sealed, handed to the recorder's process by the verifier's broker.
      evaluator = {
        kind: 'tests', framework: 'pytest', command: [...LOG_GRADER_COMMAND], expected: tests.map(logCaseId), scoring: 'all', timeoutSec: TIMEOUT_SEC,
        ...(own ? { innerRecorder: RECORDER_FILE } : {}),
        // ctest's and surefire's hidden sources sealed: the grader's compiler launcher (javac for Maven) builds them from the broker's text.
        ...((spec.log === 'ctest' || spec.log === 'surefire') && !o.testCommand ? { innerBuild: true } : {}),
      };
    }
    // The harness's pins: Debian's packages where they meet them, else wheels the user supplies (the task is pending until then).
    const pins = o.image || language ? { debs: [], missing: [] } : pinsOnDebian(spec.pins ?? []);
    const debs = o.image ? [] : instanceDebs(inst, [...(spec.debs ?? []), ...pins.debs], o.instanceSetups);
    if (pins.missing.length) {
      o.onNote?.(`${inst.instance_id}: SWE-bench pins ${pins.missing.map((m) => `${m.pin} (${m.why})`).join(', ')} for ${inst.repo} ${inst.version ?? ''}: `
        + `Debian cannot meet them, so the task is pending until their wheels are in ${pins.missing.map((m) => `image/${wheelDir(m)}/`).join(', ')}`);
    }
    const requires = pins.missing.map((m) => ({
      toolchain: `Python package ${m.pin} (SWE-bench's pin for ${inst.repo} ${inst.version ?? ''}; ${m.why})`.slice(0, 200),
      path: wheelDir(m),
      how: `put its wheel there (on a machine that reaches PyPI: python3 -m pip download --no-deps --only-binary=:all: "${m.pin}" -d ${wheelDir(m)}); pwp installs nothing from PyPI itself`,
    }));
    const dockerfile = debs.length || requires.length;
    const built = dockerfile ? { dockerfile: 'image/Dockerfile', ...(requires.length ? { requires } : {}) } : undefined;
    const image = o.image ?? built ?? (language?.toolchain ? { toolchain: language.toolchain } : undefined);
    return writeTaskFolder(o.outRoot, {
      task: {
        id: taskId(inst.instance_id),
        suite: o.suite ?? variant.dataset,
        instruction: `Resolve this issue in the repository (${inst.repo}):\n\n${(variant.problemStatement ?? inst.problem_statement).trim()}`,
        ...(image ? { image } : {}),
        setup: gitWorkspaceSetup(inst.repo, inst.base_commit, co.info, Object.keys(generated)),
        evaluator,
        oracle: applyPatchOracle('gold.patch', 'the gold patch'),
        limits: { steps: 300, seconds: 3600 },
        tags: [`dataset:${variant.dataset}`, `source:${inst.instance_id}`, `repo:${inst.repo}`, ...(inst.version ? [`version:${inst.version}`] : []), ...tags],
        ...(spec.fetches ? { verifierNetwork: true } : {}),
        ...(spec.ownRunner && ownEnv ? { grading: { agentFiles: spec.ownRunner } } : {}),
      },
      workspace,
      hidden,
      oracle: { 'gold.patch': inst.patch },
      ...(dockerfile && !o.image ? { extra: { 'image/Dockerfile': instanceDockerfile(inst.instance_id, debs, pins.missing) } } : {}),
    });
  } finally {
    co.close();
  }
}

export function convertSweBench(file: string, o: SweOptions): Task[] {
  const instances = parseRecords<SweInstance>(readFileSync(file, 'utf8'), file, 'SWE-bench instances');
  const chosen = instances.slice(0, o.limit ?? instances.length);
  // Every instance is checked before any task is written, so bad input changes nothing.
  chosen.forEach((inst, i) => requireStrings(inst, FIELDS, `${file}: instance ${i + 1}`, OPTIONAL));
  return chosen.map((inst, i) => sweTask(inst, o, `${file}: instance ${i + 1}`, { dataset: o.multilingual ? 'swe-bench-multilingual' : 'swe-bench' }));
}
