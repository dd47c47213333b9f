// The scripts converters put into task folders to grade in the verifier (and the DSBench oracle's
// model, run in the task container) are real files under host/converters/graders/<dataset>/, run
// by their own tests (test/unit/host/converters/graders/, pytest), not code in template strings.
// A converter copies one as it is; what differs between tasks goes in a file written beside it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const GRADERS_DIR = join(__dirname, 'graders');

/** The scripts, by their path under graders/. */
export const GRADER_SCRIPTS = {
  sweBenchLog: 'swe-bench/test_swebench.py',
  sweBenchRunnerCanary: 'swe-bench/runner_canary.py',
  sweBenchRecorder: 'swe-bench/pwp_recorder.py',
  swt: 'swt-bench/test_swt.py',
  swtPrepare: 'swt-bench/prepare_swt.py',
  resQ: 'res-q/run_resq.py',
  canItEdit: 'canitedit/run_canitedit.py',
  miniCtx: 'minictx/check_proof.py',
  miniCtxLinkMathlib: 'minictx/link_mathlib.py',
  interCodeCtf: 'intercode-ctf/check_flag.py',
  interCodeCtfOracle: 'intercode-ctf/oracle_flag.py',
  dsBenchSolve: 'dsbench/solve.py',
  ideBenchRunTests: 'idebench/run-tests.sh',
  ideBenchUv: 'idebench/uv',
} as const;

export type GraderScript = keyof typeof GRADER_SCRIPTS;

/** A script's text, as a converter copies it into a task folder. */
export function graderScript(name: GraderScript): string {
  return readFileSync(join(GRADERS_DIR, GRADER_SCRIPTS[name]), 'utf8');
}
