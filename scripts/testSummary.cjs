// Sums the mocha JSON reports that scripts/runTestStages.sh collected into the one closing
// line CI reads: `tests: N passed, N failed` (skipped tests are counted per stage above it,
// in mocha's words, so that no other line looks like it). The counts come from mocha's own
// report (`stats`), never from parsing console output. A script that left no report, or
// exited non-zero although its report shows no failure, fails the run and is named above
// the closing line. Plain CommonJS with no dependencies: it must run even when the node
// modules never got installed.
'use strict';
const { existsSync, readFileSync } = require('node:fs');
const { join } = require('node:path');
const { machineLines } = require('./machineUse.cjs');

/** @param {string} results @param {string} script */
function readStage(results, script) {
  const base = join(results, script.replace(/[^A-Za-z0-9_.-]/g, '_'));
  const exitText = existsSync(`${base}.exit`) ? readFileSync(`${base}.exit`, 'utf8').trim() : '';
  const exit = exitText === '' ? null : Number(exitText);
  let stats = null;
  let failed = [];
  let problem = null;
  if (existsSync(`${base}.json`)) {
    try {
      const report = JSON.parse(readFileSync(`${base}.json`, 'utf8'));
      stats = report.stats;
      failed = Array.isArray(report.failures) ? report.failures : [];
      if (!stats || ![stats.passes, stats.failures, stats.pending].every(Number.isInteger)) throw new Error('no stats in it');
    } catch (e) {
      stats = null;
      problem = `its test report ${base}.json is unreadable (${e.message})`;
    }
  }
  if (!stats && !problem) problem = `ended (exit ${exit ?? 'unknown'}) before mocha reported: no test ran or none was counted (see its output above)`;
  else if (stats && exit !== 0 && stats.failures === 0) problem = `exited with ${exit ?? 'unknown'} although mocha reported no failure (see its output above)`;
  return { script, exit, stats, failed, problem, slowest: slowestFiles(`${base}.times`), lastLines: stats ? [] : lastLines(`${base}.log`) };
}

/** The last lines a stage printed (runTestStages.sh copied them to its log), for a stage that left
 * no report: what killed it is there, and CI may keep only the end of the whole output. */
function lastLines(file, n = 25) {
  if (!existsSync(file)) return [];
  const lines = readFileSync(file, 'utf8').split('\n').map((l) => l.trimEnd()).filter(Boolean);
  // Nothing quoted may take the closing line's form, which CI counts.
  return lines.slice(-n).map((l) => `    | ${l.slice(0, 400).replace(/(\d+) passed, (\d+) failed/g, '$1 passed; $2 failed')}`);
}

/** The slowest test files of a stage, hooks included (test/support/fileTimes.cjs wrote their times), as lines. */
function slowestFiles(file, n = 8) {
  if (!existsSync(file)) return [];
  const times = readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => { try { return JSON.parse(l); } catch { return null; } })
    .filter((t) => t && typeof t.file === 'string' && Number.isFinite(t.ms));
  return times.sort((a, b) => b.ms - a.ms).slice(0, n).map((t) => `${String(Math.round(t.ms / 1000)).padStart(6)} s  ${t.file}`);
}

function summarise(results, scripts) {
  const stages = scripts.map((s) => readStage(results, s));
  const total = { passes: 0, failures: 0, pending: 0 };
  const lines = [];
  // CI may keep only the tail of a long output: each failure is named again here, with the
  // first lines of its error, so that the tail alone says what failed and why.
  for (const st of stages) {
    for (const f of st.failed) {
      const why = String(f.err?.message ?? '').split('\n').filter((l) => l.trim()).slice(0, 4).map((l) => `      ${l.slice(0, 400)}`);
      lines.push(`failed in npm run ${st.script}: ${f.fullTitle ?? f.title ?? '(untitled)'}`, ...why);
    }
  }
  for (const st of stages) {
    if (st.lastLines.length > 0) lines.push(`the last lines npm run ${st.script} printed (it left no report):`, ...st.lastLines);
  }
  for (const st of stages) {
    if (st.slowest.length > 1) lines.push(`slowest files of npm run ${st.script} (wall clock, hooks included):`, ...st.slowest);
  }
  lines.push(...machineLines(results));
  for (const st of stages) {
    if (st.stats) for (const k of Object.keys(total)) total[k] += st.stats[k];
    // Worded unlike the closing line (mocha's own words), so that only one line of the whole
    // output has CI's plain form.
    const counts = st.stats ? `${st.stats.passes} passing, ${st.stats.failures} failing, ${st.stats.pending} pending` : 'no report';
    lines.push(`stage npm run ${st.script} -> ${counts}${st.problem ? `; FAILED: ${st.problem}` : ''}`);
  }
  const ok = total.failures === 0 && stages.every((s) => !s.problem);
  // The closing line keeps CI's plain form exactly: nothing after the failed count.
  lines.push(`tests: ${total.passes} passed, ${total.failures} failed`);
  return { lines, ok };
}

if (require.main === module) {
  const [results, ...scripts] = process.argv.slice(2);
  if (!results || scripts.length === 0) {
    console.error('usage: testSummary.cjs RESULTS_DIR SCRIPT...');
    process.exit(2);
  }
  const { lines, ok } = summarise(results, scripts);
  console.log(`\n${lines.join('\n')}`);
  process.exit(ok ? 0 : 1);
}

module.exports = { summarise };
