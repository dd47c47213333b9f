// Gradings the code under test can pass without solving the task, by what the grader trusts:
// pwp's defences (the per-run canary, the completion mark, sealed hidden tests: canary.ts,
// isolatedRunner.ts) do not reach every way a task can be graded. A `tests` evaluator
// - graded by a command's exit status alone (framework exitCode without a completion mark: an
//   IDE-Bench task's own shell script, say) passes when whatever the script runs exits 0, and
//   the code under test runs inside it (a constructor that calls exit(0), a test binary replaced);
// - graded by a JUnit report its own build writes (framework junit) passes on a report the code
//   under test wrote;
// - of go or cargo whose hidden tests cannot be sealed (go with cgo or -race, or options pwp's
//   sealed builds do not know; go with its own -overlay takes no canary either) hands the code
//   under test the tests' expected values to read;
// - of jest through a command that is not jest itself (`npm test`) takes no canary.
// A run of a runner that takes a canary but went without one (jest whose configuration could not
// be read) is marked so by the grader itself (testsGrader.ts), which only the run can tell.
// Such a grading still runs and its result is reported, marked unguarded with the reason; a
// bench leaves the task out of its scores unless asked (runs/benchmark.ts), as it does a row
// flagged invalid: a reward a policy can learn to write is not one to publish or train on.
import { cargoRunOf } from './cargoRun';
import type { Evaluator } from './evaluatorSchema';
import { goRunOf, imageRunner } from './isolatedRunner';

type TestsEvaluator = Extract<Evaluator, { kind: 'tests' }>;

const shown = (argv: readonly string[]) => argv.join(' ').slice(0, 120);

/** Why this `tests` evaluator's grading is unguarded, or undefined. `hiddenFiles` (relative to /workspace): unknown means any. */
function unguardedTests(e: TestsEvaluator, hiddenFiles?: readonly string[]): string | undefined {
  const hides = (re: RegExp) => hiddenFiles === undefined || hiddenFiles.some((p) => re.test(p));
  switch (e.framework) {
    case 'exitCode':
      if (e.completionMark) return undefined;
      return `graded by the exit status of \`${shown(e.command)}\` alone (no canary, no completion mark): code the tests run can end them with success`;
    case 'junit':
      return `graded by a JUnit report its own run writes (${e.report ?? 'the report'}), which code under test can write too (no canary)`;
    case 'go': {
      if (e.command.some((a) => a === '-overlay' || a.startsWith('-overlay='))) return 'go test with its own -overlay takes no canary: a test binary that prints a passing account is believed';
      if (!hides(/_test\.go$/)) return undefined;
      const run = goRunOf(e.command);
      if (!run) return `its hidden tests run unsealed (\`${shown(e.command)}\` has options pwp's sealed go build does not know): code under test can read them`;
      if (e.env.CGO_ENABLED === '1' || run.buildFlags.includes('-race')) return 'its hidden tests run unsealed (cgo is on, or -race, which needs it): code under test can read them';
      return undefined;
    }
    case 'jest':
      // The canary comes in as jest's last setup file, which only a command that is jest itself can be given.
      if (imageRunner(e.command)[0] === 'jest') return undefined;
      return `jest ran by \`${shown(e.command)}\` takes no canary (only jest itself can be given its setup file): code under test can print a passing account`;
    case 'cargo':
      if (!hides(/\.rs$/) || cargoRunOf(e.command)) return undefined;
      return `its hidden tests run unsealed (\`${shown(e.command)}\` has options pwp's sealed cargo build does not know): code under test can read them`;
    default:
      return undefined;
  }
}

/**
 * Why the code under test could pass this grading without solving the task, or undefined. A
 * composite is unguarded when any part is: a forged part is a forged share of an `all`, and
 * passes an `any` by itself.
 */
export function unguardedGrading(e: Evaluator, hiddenFiles?: readonly string[]): string | undefined {
  if (e.kind === 'all' || e.kind === 'any') {
    for (const p of e.evaluators) {
      const why = unguardedGrading(p, hiddenFiles);
      if (why) return why;
    }
    return undefined;
  }
  return e.kind === 'tests' ? unguardedTests(e, hiddenFiles) : undefined;
}
