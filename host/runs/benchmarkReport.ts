// The bench's reports: a summary table for the terminal, and report.md / report.html with
// the summary per suite and agent and every task's runs (score, tests, links to the run's
// trajectory, screenshots and video), and the tasks left out of the scores with why.
import { relative } from 'node:path';
import type { AgentMetrics } from '../models/runStatistics';
import type { ComponentMean, GroupSummary, LeftOutKind, ResultLine, Summary } from './benchmarkResults';

const pct = (x: number | null | undefined) => (x === null || x === undefined || Number.isNaN(x) ? '–' : `${(x * 100).toFixed(1)}%`);

/** pass@k, saying how many tasks it covers when some tasks have fewer than k attempts. */
function passAtCell(g: GroupSummary, k: number): string {
  const covered = g.passAtKTasks[k] ?? 0;
  if (covered === 0) return '–';
  return covered < g.tasks ? `${pct(g.passAtK[k])} (${covered}/${g.tasks} tasks)` : pct(g.passAtK[k]);
}

/** A rate with its 95% interval: 50.0% [23.7–76.3]. */
const pctIn = (x: number, [lo, hi]: [number, number]) => `${pct(x)} [${(lo * 100).toFixed(1)}–${(hi * 100).toFixed(1)}]`;
const scoreIn = (x: number, [lo, hi]: [number, number]) => `${x.toFixed(3)} [${lo.toFixed(3)}–${hi.toFixed(3)}]`;

function summaryRows(s: Summary): { head: string[]; rows: string[][] } {
  const ks = [...new Set(s.groups.flatMap((g) => Object.keys(g.passAtK).map(Number)))].sort((a, b) => a - b);
  const head = ['suite', 'agent', 'tasks', 'runs', 'success [95%]', 'mean score [95%]', ...ks.map((k) => `pass@${k}`), 'test pass rate', 'null', 'oracle', 'errors'];
  const rows = s.groups.map((g: GroupSummary) => [
    g.suite, g.model ? `${g.agent} (${g.model})` : g.agent, String(g.tasks), String(g.runs), pctIn(g.successRate, g.successInterval), scoreIn(g.meanScore, g.meanScoreInterval),
    ...ks.map((k) => passAtCell(g, k)), pct(g.testPassRate),
    pct(s.baselines[g.suite]?.null), pct(s.baselines[g.suite]?.oracle), String(g.errors),
  ]);
  return { head, rows };
}

const MACRO_NAME: Record<string, string> = { all: 'all (macro)', categories: 'all categories (macro)' };

/** Macro averages: each family (suite) weighs the same, per PwP-Bench category and over all; then each category weighing the same. */
function macroRows(s: Summary): { head: string[]; rows: string[][] } | null {
  if (!s.macro.length) return null;
  return {
    head: ['category', 'agent', 'families', 'success [95%]', 'mean score [95%]'],
    rows: s.macro.map((m) => [MACRO_NAME[m.category] ?? m.category, m.model ? `${m.agent} (${m.model})` : m.agent, m.families.join(', '),
      pctIn(m.successRate, m.successInterval), scoreIn(m.meanScore, m.meanScoreInterval)]),
  };
}

const LEFT_OUT_NAME: Record<LeftOutKind, string> = { invalid: 'invalid row', 'needs-live-server': 'needs a live server', pending: 'pending', unguarded: 'unguarded grading' };

/** The tasks not counted, with why (invalid rows, live-server problems and unguarded gradings run with --include-flagged; pending ones once their toolchain is supplied). */
function leftOutRows(s: Summary): { head: string[]; rows: string[][] } | null {
  if (!s.leftOut.length) return null;
  return { head: ['task', 'left out as', 'why'], rows: s.leftOut.map((l) => [l.task, LEFT_OUT_NAME[l.kind], l.reason.replace(/\s+/g, ' ')]) };
}

const LEFT_OUT_NOTE = 'Not run, or not counted in any figure above: invalid rows, problems that need a live server and tasks whose grading the code under test could pass without solving them (unguarded) run with --include-flagged; a pending task runs once its toolchain is supplied.';

/** Model agents per suite, agent and model: what IDE-Bench reports beyond success. */
function agentMetricsRows(s: Summary): { head: string[]; rows: string[][] } | null {
  const groups = s.groups.filter((g) => g.agentMetrics);
  if (!groups.length) return null;
  const cells = groups.map((g) => agentMetricsCells(g.agentMetrics!));
  const head = ['suite', 'agent', 'model', ...Object.keys(cells[0])];
  return { head, rows: groups.map((g, i) => [g.suite, g.agent, g.model ?? '', ...Object.values(cells[i])]) };
}

/** Per suite and agent: files visited and edited, the first edit, syntax errors, failure categories (IDE-Bench's agent metrics). */
function workRows(s: Summary): { head: string[]; rows: string[][] } | null {
  const groups = s.groups.filter((g) => g.work);
  if (!groups.length) return null;
  const head = ['suite', 'agent', 'files visited', 'files edited', 'edited unseen', 'first edit', 'syntax errors', 'failures'];
  return {
    head,
    rows: groups.map((g) => {
      const w = g.work!;
      const failures = Object.entries(w.failures).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${v}`).join(', ');
      return [g.suite, g.model ? `${g.agent} (${g.model})` : g.agent, w.meanFilesVisited.toFixed(1), w.meanFilesEdited.toFixed(1), w.meanEditedUnseen.toFixed(1),
        w.meanTimeToFirstEditMs === null ? '–' : `${(w.meanTimeToFirstEditMs / 1000).toFixed(1)} s`, String(w.syntaxErrors), failures];
    }),
  };
}

/** Per suite and agent: a published metric's components, each a mean over the runs that have it (SWT-Bench's change coverage and the rest). */
function componentRows(s: Summary): { head: string[]; rows: string[][] } | null {
  const groups = s.groups.filter((g) => g.components);
  if (!groups.length) return null;
  const cell = (c: ComponentMean) => `${c.name} ${pct(c.mean)}${c.absent ? ` (${c.runs} runs; ${c.absent} absent)` : ` (${c.runs} runs)`}`;
  return {
    head: ['suite', 'agent', 'components (mean per run)'],
    rows: groups.map((g) => [g.suite, g.model ? `${g.agent} (${g.model})` : g.agent, g.components!.map(cell).join(', ')]),
  };
}

const COMPONENTS_NOTE = 'The components of the benchmark\'s published metric, each averaged over the runs where it was computed (a component absent from a run, such as change coverage for a gold patch with no executable line, is left out); reported beside the score, which they do not change.';

function fixedWidth(head: string[], rows: string[][], leftColumns: number): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i < leftColumns || i >= head.length - 3 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ').trimEnd();
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/** A fixed-width table for the terminal (and one for model agents, when there are any). */
export function summaryTable(s: Summary): string {
  const { head, rows } = summaryRows(s);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  const main = [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
  const macro = macroRows(s);
  const agents = agentMetricsRows(s);
  const work = workRows(s);
  const left = leftOutRows(s);
  const comps = componentRows(s);
  return [main, ...(comps ? [`published metrics' components:\n${fixedWidth(comps.head, comps.rows, 3)}`] : []),
    ...(macro ? [`per category and over families (macro):\n${fixedWidth(macro.head, macro.rows, 3)}`] : []),
    ...(left ? [`left out of the scores (${s.leftOut.length}):\n${fixedWidth(left.head, left.rows, 3)}`] : []),
    ...(agents ? [`model agents:\n${fixedWidth(agents.head, agents.rows, 3)}`] : []),
    ...(work ? [`how the agents worked on the code (means per run):\n${fixedWidth(work.head, work.rows, 2)}`] : [])].join('\n\n');
}

function byTask(results: readonly ResultLine[]): [string, ResultLine[]][] {
  const m = new Map<string, ResultLine[]>();
  for (const r of results) m.set(r.task, [...(m.get(r.task) ?? []), r]);
  return [...m].sort(([a], [b]) => a.localeCompare(b));
}

export function markdownReport(s: Summary, results: readonly ResultLine[], outDir: string, title: string): string {
  const { head, rows } = summaryRows(s);
  const md: string[] = [`# ${title}`, '', `${results.length} runs, written ${new Date().toISOString()}.`, '', '## Summary', ''];
  md.push(`| ${head.join(' | ')} |`, `|${head.map((_, i) => (i < 2 ? ' --- ' : ' ---: ')).join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`));
  md.push('', 'Intervals are 95%: Wilson for success rates, a bootstrap over runs for mean scores.');
  const comps = componentRows(s);
  if (comps) {
    md.push('', '## Published metrics\' components', '', COMPONENTS_NOTE, '');
    md.push(`| ${comps.head.join(' | ')} |`, `|${comps.head.map(() => ' --- ').join('|')}|`, ...comps.rows.map((r) => `| ${r.join(' | ')} |`));
  }
  const macro = macroRows(s);
  if (macro) {
    md.push('', '## Per category and over families (macro)', '', 'Each family (suite) weighs the same; the null and oracle baselines are left out.', '');
    md.push(`| ${macro.head.join(' | ')} |`, `|${macro.head.map((_, i) => (i < 3 ? ' --- ' : ' ---: ')).join('|')}|`, ...macro.rows.map((r) => `| ${r.join(' | ')} |`));
  }
  const left = leftOutRows(s);
  if (left) {
    md.push('', '## Left out of the scores', '', LEFT_OUT_NOTE, '');
    md.push(`| ${left.head.join(' | ')} |`, `|${left.head.map(() => ' --- ').join('|')}|`, ...left.rows.map((r) => `| ${r.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`));
  }
  const agents = agentMetricsRows(s);
  if (agents) {
    md.push('', '## Model agents', '', 'Means per run, except tokens and retries (totals); tokens/success is every token spent over the runs that solved their task.', '');
    md.push(`| ${agents.head.join(' | ')} |`, `|${agents.head.map(() => ' --- ').join('|')}|`, ...agents.rows.map((r) => `| ${r.join(' | ')} |`));
  }
  const work = workRows(s);
  if (work) {
    md.push('', '## How the agents worked on the code', '', 'Means per run from the trajectories (IDE-Bench\'s agent metrics): files read or opened through a tool, files changed through a tool, files changed without being read first, time from the reset to the first edit, edits refused for a syntax error (total), and runs per failure category (the first of IDE-Bench\'s conditions that failed: agent finished, code changed, no syntax error, tests passed).', '');
    md.push(`| ${work.head.join(' | ')} |`, `|${work.head.map((_, i) => (i < 2 || i === work.head.length - 1 ? ' --- ' : ' ---: ')).join('|')}|`, ...work.rows.map((r) => `| ${r.join(' | ')} |`));
  }
  md.push('', '## Tasks', '', '| task | agent | attempt | score | solved | tests | steps | time | run |', '| --- | --- | ---: | ---: | :---: | ---: | ---: | ---: | --- |');
  for (const [, rs] of byTask(results)) {
    for (const r of [...rs].sort((a, b) => a.agent.localeCompare(b.agent) || a.attempt - b.attempt)) {
      const rel = relative(outDir, r.runDir);
      const tests = r.tests ? `${r.tests.passed}/${r.tests.total}` : '';
      const status = r.status === 'finished' ? '' : ` (${r.status})`;
      md.push(`| ${r.task} | ${r.model ? `${r.agent} (${r.model})` : r.agent} | ${r.attempt} | ${r.score.toFixed(2)} | ${r.passed ? '✓' : '✗'}${status} | ${tests} | ${r.steps} | ${((r.timings.totalMs ?? 0) / 1000).toFixed(0)} s | [folder](${rel})${r.video ? ` · [video](${relative(outDir, r.video)})` : ''} |`);
    }
  }
  const errors = results.filter((r) => r.status === 'error');
  if (errors.length) md.push('', '## Errors', '', ...errors.map((r) => `- ${r.task} (${r.agent} #${r.attempt}): ${(r.error ?? '').replace(/\n/g, ' ').slice(0, 500)}`));
  return `${md.join('\n')}\n`;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function htmlReport(s: Summary, results: readonly ResultLine[], outDir: string, title: string): string {
  const { head, rows } = summaryRows(s);
  const agents = agentMetricsRows(s);
  const table = (h: string[], rs: string[][]) => `<table><thead><tr>${h.map((c) => `<th>${esc(c)}</th>`).join('')}</tr></thead><tbody>${rs.map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join('')}</tr>`).join('')}</tbody></table>`;
  const taskRows = byTask(results).flatMap(([, rs]) => [...rs].sort((a, b) => a.agent.localeCompare(b.agent) || a.attempt - b.attempt).map((r) => {
    const rel = relative(outDir, r.runDir);
    const shot = `${rel}/screenshots`;
    return [
      esc(r.task), esc(r.model ? `${r.agent} (${r.model})` : r.agent), String(r.attempt), r.score.toFixed(2),
      `<span class="${r.passed ? 'ok' : 'no'}">${r.passed ? '✓' : '✗'}</span>${r.status === 'finished' ? '' : ` ${esc(r.status)}`}`,
      r.tests ? `${r.tests.passed}/${r.tests.total}` : '', String(r.steps), `${((r.timings.totalMs ?? 0) / 1000).toFixed(0)} s`,
      esc((r.error ?? r.summary ?? '').slice(0, 300)),
      `<a href="${esc(rel)}/trajectory.jsonl">trajectory</a> · <a href="${esc(shot)}/">screenshots</a>${r.video ? ` · <a href="${esc(relative(outDir, r.video))}">video</a>` : ''} · <a href="${esc(rel)}/result.json">result</a>`,
    ];
  }));
  const agentTable = agents ? `<h2>Model agents</h2>\n${table(agents.head, agents.rows.map((r) => r.map(esc)))}` : '';
  const work = workRows(s);
  const workTable = work ? `<h2>How the agents worked on the code</h2>\n${table(work.head, work.rows.map((r) => r.map(esc)))}` : '';
  const macro = macroRows(s);
  const macroTable = macro ? `<h2>Per category and over families (macro)</h2>\n<p>Each family (suite) weighs the same; the null and oracle baselines are left out.</p>\n${table(macro.head, macro.rows.map((r) => r.map(esc)))}` : '';
  const comps = componentRows(s);
  const compsTable = comps ? `<h2>Published metrics' components</h2>\n<p>${esc(COMPONENTS_NOTE)}</p>\n${table(comps.head, comps.rows.map((r) => r.map(esc)))}` : '';
  const left = leftOutRows(s);
  const leftTable = left ? `<h2>Left out of the scores</h2>\n<p>${esc(LEFT_OUT_NOTE)}</p>\n${table(left.head, left.rows.map((r) => r.map(esc)))}` : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title>
<style>
body { font: 14px/1.4 system-ui, sans-serif; margin: 2rem; color: #1b1f24; }
table { border-collapse: collapse; margin: 1rem 0; }
th, td { border: 1px solid #d0d7de; padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: #f6f8fa; }
td:nth-child(n+3) { font-variant-numeric: tabular-nums; }
.ok { color: #1a7f37; font-weight: bold; } .no { color: #cf222e; font-weight: bold; }
</style></head><body>
<h1>${esc(title)}</h1>
<p>${results.length} runs, written ${esc(new Date().toISOString())}.</p>
<h2>Summary</h2>
${table(head, rows.map((r) => r.map(esc)))}
<p>Intervals are 95%: Wilson for success rates, a bootstrap over runs for mean scores.</p>
${compsTable}
${macroTable}
${leftTable}
${agentTable}
${workTable}
<h2>Tasks</h2>
${table(['task', 'agent', 'attempt', 'score', 'solved', 'tests', 'steps', 'time', 'details', 'run'], taskRows)}
</body></html>
`;
}

/** The columns a report shows for model agents, as strings. */
export function agentMetricsCells(m: AgentMetrics): Record<string, string> {
  const top = (r: Record<string, number>, n: number) => Object.entries(r).slice(0, n).map(([k, v]) => `${k} ${v}`).join(', ');
  return {
    iterations: m.meanIterations.toFixed(1),
    'tool calls': m.meanToolCalls.toFixed(1),
    'tool errors': `${(m.toolErrorRate * 100).toFixed(1)}%`,
    'tokens in': String(m.tokens.input),
    'tokens out': String(m.tokens.output),
    'tokens/success': m.tokensPerSuccess === null ? '–' : String(Math.round(m.tokensPerSuccess)),
    'wall time': `${(m.meanWallMs / 1000).toFixed(1)} s`,
    'API retries': String(m.apiRetries),
    'stopped by': top(m.stoppedBy, 4),
    'top tools': top(m.toolUsage, 5),
    'top transitions': top(m.toolTransitions, 3),
  };
}
