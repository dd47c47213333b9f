// The hidden grader of SWE-bench instances whose repository runs its tests with its own runner
// (Django's tests/runtests.py, SymPy's bin/test) rather than pytest: a pytest file run by the
// verifier that runs the repository's command once, reads each test's status from the runner's
// log as SWE-bench's log parsers do, and has one case per FAIL_TO_PASS and PASS_TO_PASS test, so
// the tests evaluator grades them one by one like pytest's own cases. The runner script must be
// the one the agent was given: an edited runner could print any status. ctest, cargo test,
// surefire and go test run with a canary in the tests' own binaries, JVM or packages
// (runner_canary.py, docs/grading-canary.md) and are read from their structured reports where
// they have one. Django's and SymPy's runners are read from a result recorder in their process
// instead (pwp_recorder.py: unittest's TestResult, SymPy's reporter), which the console must
// agree with and a canary beside the repository's tests must show, so a line printed into the
// console adds no pass. SWE-bench-Multilingual's languages are read the same way from their
// tools' output (sweBenchMultilingual.ts).
// A Python repository run in its own environment (`junit`: its package on the path as its
// editable install puts it, the repository's own pytest for pytest-dev) is read from pytest's
// structured report, its JUnit XML, not the console: the console's -rA lines (SWE-bench's
// parser) must agree with it, a canary of the grader's own (one test that must pass, one that
// must fail, under names drawn for the run) must show in both as it must, and the package must
// be imported from the workspace; otherwise every case fails with the reason.
import { graderScript } from './graderScripts';
import type { SweLogFormat } from './sweBenchSpecs';

/** Where the grader (graders/swe-bench/test_swebench.py) and its spec land in the verifier's /workspace (from hidden/workspace/). */
export const LOG_GRADER_DIR = '.swebench';
export const LOG_GRADER_FILE = `${LOG_GRADER_DIR}/test_swebench.py`;
/** How the verifier runs the grader. */
export const LOG_GRADER_COMMAND: readonly string[] = ['python3', '-m', 'pytest', '-q', LOG_GRADER_FILE];
/** Beside it, the canary of the runners it starts (ctest, cargo test, surefire, go test), which it loads by its path. */
export const LOG_GRADER_CANARY_FILE = `${LOG_GRADER_DIR}/runner_canary.py`;
/** The result recorder the grader runs Django's and SymPy's runners under (graders/swe-bench/pwp_recorder.py). */
export const RECORDER_FILE = `${LOG_GRADER_DIR}/pwp_recorder.py`;

export interface LogGraderSpec {
  instance_id: string;
  /**
   * The runner's log format; `junit`: pytest run by the grader with its JUnit report read (a
   * repository's own environment); `gradle`: Gradle's test task (IDE-Bench's detected Gradle).
   */
  log: Exclude<SweLogFormat, 'pytest' | 'node'> | 'junit' | 'gradle';
  /** The full argv, run from the repository's root. */
  command: string[];
  env: Record<string, string>;
  /** The runner script (relative), compared with the initial workspace's; null when the runner is a tool (go, cargo, node…). */
  runner: string | null;
  /** The tests, or null: the cases are those the run reports (IDE-Bench's rows graded by a detected runner, past their base run). */
  tests: string[] | null;
  timeoutSec: number;
  /** The workspace as the agent got it (the verifier's copy). */
  initial: string;
  /** A package of the repository that must be imported from the workspace (`junit`), else every case fails saying where it came from. */
  module?: string;
  /** SWE-bench's log parser whose ids the report's are made like (`junit`). */
  parser?: 'pytest' | 'pytest_options';
  /** Where PASS_TO_PASS starts in `tests` (`junit`): a skipped one is kept, not failed, as SWE-bench's grading has it. */
  passToPassFrom?: number;
  /** The host the tests download data from: the grade says when the verifier cannot reach it. */
  fetchHost?: string;
  /** Django's and SymPy's runners: their results read from the recorder in their process (RECORDER_FILE), the console the cross-check. */
  recorder?: 'unittest' | 'sympy';
}

/** The pytest id a test gets in the grader's report (its parameter id: the name with characters pytest would escape replaced). */
export function logCaseId(test: string): string {
  return `${LOG_GRADER_FILE}::test_result[${caseParam(test)}]`;
}

const caseParam = (test: string): string => test.replace(/[^A-Za-z0-9_.,:()<>=' -]/g, '_');

/** The grader's spec file. */
export function logGraderSpec(s: LogGraderSpec): string {
  return `${JSON.stringify({ ...s, ids: s.tests?.map(caseParam) ?? null }, null, 2)}\n`;
}

/** The grader's files by path (under `under`: a task's hidden/workspace/), copied as they are into each task that needs them. */
export const logGraderFiles = (under = 'workspace/'): Record<string, string> => ({
  [`${under}${LOG_GRADER_FILE}`]: graderScript('sweBenchLog'),
  [`${under}${LOG_GRADER_CANARY_FILE}`]: graderScript('sweBenchRunnerCanary'),
});
/** The recorder's text, copied beside the grader for a runner that has one. */
export const resultRecorder = (): string => graderScript('sweBenchRecorder');
