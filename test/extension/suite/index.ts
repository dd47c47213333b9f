// The extension-tests entry point VS Code loads in the extension host (extensionTestsPath):
// runs every *.test.js bundled beside it with mocha, prints a spec report, writes the
// per-test results to $PWP_EXTENSION_TEST_RESULTS, and rejects when anything failed, which
// makes the host exit non-zero.
import { readdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import Mocha from 'mocha';
import * as vscode from 'vscode';
import { RESULTS_ENV, type ExtensionTestReport, type ExtensionTestResult } from '../report';

const { EVENT_TEST_PASS, EVENT_TEST_FAIL, EVENT_TEST_PENDING, EVENT_RUN_END } = Mocha.Runner.constants;

/** Spec output for people, plus the JSON file for the runners. */
class ResultsReporter extends Mocha.reporters.Spec {
  constructor(runner: Mocha.Runner, options: Mocha.MochaOptions) {
    super(runner, options);
    const started = Date.now();
    const results: ExtensionTestResult[] = [];
    const record = (r: Mocha.Runnable, state: ExtensionTestResult['state'], err?: Error) => results.push({
      file: basename(r.file ?? ''),
      fullTitle: r.fullTitle(),
      state,
      durationMs: r.duration ?? 0,
      ...(err ? { error: { message: err.message, stack: err.stack } } : {}),
    });
    runner.on(EVENT_TEST_PASS, (t) => record(t, 'passed'));
    runner.on(EVENT_TEST_FAIL, (t, err) => record(t, 'failed', err));
    runner.on(EVENT_TEST_PENDING, (t) => record(t, 'pending'));
    runner.once(EVENT_RUN_END, () => {
      const count = (s: ExtensionTestResult['state']) => results.filter((r) => r.state === s).length;
      const report: ExtensionTestReport = {
        host: {
          appName: vscode.env.appName,
          vscodeVersion: vscode.version,
          uiKind: vscode.env.uiKind === vscode.UIKind.Web ? 'web' : 'desktop',
          remoteName: vscode.env.remoteName ?? null,
        },
        // Failed hooks count as failures: they stop the tests under them from running.
        stats: { tests: runner.total, passes: count('passed'), failures: count('failed'), pending: count('pending'), durationMs: Date.now() - started },
        results,
      };
      const out = process.env[RESULTS_ENV];
      if (out) writeFileSync(out, JSON.stringify(report, null, 2));
    });
  }
}

export function run(): Promise<void> {
  // The timeout is a hang detector: a test on a loaded machine may need a whole wait on state (60 s by default).
  const mocha = new Mocha({ ui: 'bdd', color: false, timeout: 120_000, reporter: ResultsReporter });
  const { EVENT_FILE_PRE_REQUIRE, EVENT_FILE_REQUIRE, EVENT_FILE_POST_REQUIRE } = Mocha.Suite.constants;
  for (const f of readdirSync(__dirname).filter((name) => name.endsWith('.test.js')).sort()) {
    // Loaded here rather than by mocha so that a suite that throws while loading shows up
    // as a failed test of its own instead of ending the whole run without results.
    const file = join(__dirname, f);
    mocha.suite.emit(EVENT_FILE_PRE_REQUIRE, globalThis, file, mocha);
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- a compiled suite found at run time, loaded as mocha loads one
      mocha.suite.emit(EVENT_FILE_REQUIRE, require(file), file, mocha);
      mocha.suite.emit(EVENT_FILE_POST_REQUIRE, globalThis, file, mocha);
    } catch (err) {
      const test = new Mocha.Test(`${f} loads`, () => { throw err; });
      test.file = file;
      mocha.suite.addTest(test);
    }
  }
  return new Promise((resolve, reject) => {
    mocha.run((failures) => (failures > 0 ? reject(new Error(`${failures} extension test(s) failed`)) : resolve()));
  });
}
