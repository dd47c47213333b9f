'use strict';
/* global it -- mocha's, in the process that loads this file */
// The run's canary tests for mocha (canary.ts), given with --file so they run in the same
// process as the task's tests, whatever files or configuration select those; their names
// come from the preload (pwp_node.js), which has read and dropped them.
const { canary } = require('./pwp_node.js');

for (const n of canary.pass) it(n, () => {});
for (const n of canary.fail) it(n, () => { throw new Error('expected failure'); });
