// What the machine did while the stages ran, for CI's closing lines: how busy its CPUs were,
// how long work waited on CPU, disk and memory (the kernel's pressure stall figures), and how
// many containers of each kind the tests started. It says whether a slow run was short of CPU
// (only less work helps), of disk, or of memory, and what the work was made of.
//   node scripts/machineUse.cjs snapshot FILE   (at the start and at the end of the stages)
// scripts/runTestStages.sh also records container starts (docker events) in RESULTS/containers.log,
// one line each: `environment|verifier|image`. Plain CommonJS with no dependencies, as
// testSummary.cjs, which prints machineLines().
'use strict';
const { existsSync, readFileSync, writeFileSync } = require('node:fs');
const { cpus } = require('node:os');

const read = (f) => { try { return readFileSync(f, 'utf8'); } catch { return ''; } };

/** /proc/stat's first line (ticks busy, idle, waiting on IO) and /proc/pressure's totals (µs). */
function snapshot() {
  const ticks = read('/proc/stat').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const [user, nice, system, idle, iowait, irq, softirq, steal] = ticks;
  const psi = {};
  for (const kind of ['cpu', 'io', 'memory']) {
    const m = /some .*total=(\d+)/.exec(read(`/proc/pressure/${kind}`));
    if (m) psi[kind] = Number(m[1]);
  }
  return { at: Date.now(), busy: user + nice + system + irq + softirq + steal, idle, iowait, psi, cores: cpus().length };
}

/** Lines for the summary from RESULTS/machine.start.json, machine.end.json and containers.log. */
function machineLines(results) {
  const file = (n) => `${results}/${n}`;
  if (!existsSync(file('machine.start.json')) || !existsSync(file('machine.end.json'))) return [];
  let a; let b;
  try { a = JSON.parse(read(file('machine.start.json'))); b = JSON.parse(read(file('machine.end.json'))); } catch { return []; }
  const seconds = (b.at - a.at) / 1000;
  if (!(seconds > 0)) return [];
  const ticks = (b.busy - a.busy) + (b.idle - a.idle) + (b.iowait - a.iowait);
  const pct = (x) => `${Math.round(100 * x)}%`;
  const parts = [`CPU busy ${ticks > 0 ? pct((b.busy - a.busy) / ticks) : '?'} of ${b.cores} cores over ${Math.round(seconds)} s`];
  const stalls = Object.keys(b.psi).filter((k) => k in a.psi).map((k) => `${k} ${pct((b.psi[k] - a.psi[k]) / 1e6 / seconds)}`);
  if (stalls.length) parts.push(`some work waiting on: ${stalls.join(', ')} of the time`);
  const lines = [`machine during the stages: ${parts.join('; ')}`];
  const started = read(file('containers.log')).split('\n').filter(Boolean);
  if (started.length) {
    const kinds = { environment: 0, verifier: 0, other: 0 };
    for (const l of started) {
      const [env, verifier] = l.split('|');
      kinds[env && env !== '<no value>' ? 'environment' : verifier && verifier !== '<no value>' ? 'verifier' : 'other'] += 1;
    }
    lines.push(`containers started: ${started.length} (${kinds.environment} IDE environments, ${kinds.verifier} verifiers, ${kinds.other} others)`);
  }
  return lines;
}

if (require.main === module) {
  const [cmd, out] = process.argv.slice(2);
  if (cmd !== 'snapshot' || !out) {
    console.error('usage: machineUse.cjs snapshot FILE');
    process.exit(2);
  }
  writeFileSync(out, JSON.stringify(snapshot()));
}

module.exports = { machineLines, snapshot };
