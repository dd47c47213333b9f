// Mocha reporter for people and machines at once: the spec reporter's output on the
// console and, when `--reporter-option json=FILE` is given, mocha's own JSON report written
// to FILE (mocha runs one reporter per run, so this one drives both). Plain CommonJS so
// that mocha can load it without the TypeScript loader. `.ci/run` sums these files.
'use strict';
const { reporters } = require('mocha');

class SpecAndJsonReporter extends reporters.Spec {
  constructor(runner, options = {}) {
    super(runner, options);
    const json = options.reporterOption && options.reporterOption.json;
    if (json) {
      // The JSON reporter writes to `output` at the end of the run (never to stdout then).
      new reporters.JSON(runner, { ...options, reporterOption: { output: json }, reporterOptions: { output: json } });
    }
  }
}

module.exports = SpecAndJsonReporter;
