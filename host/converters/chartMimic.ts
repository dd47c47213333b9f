// ChartMimic-style chart-to-code tasks: a folder of charts, each a reference image and the
// matplotlib script that drew it with the same name (bar_1.png + bar_1.py, …; ChartMimic's
// ori_500/ folder). The agent sees the image (target.png) and writes chart.py, which must save
// its figure as chart.png; the verifier runs chart.py and the original script traced (Agg
// backend, offline) and scores them with ChartMimic's published low-level metrics
// (evaluation/chartMimicGrader.ts; the task's score is the mean of the text, layout, type and
// colour F1). The oracle writes the original script, saving to chart.png.
//
// ChartMimic publishes two layouts: its Hugging Face dataset has name.png beside name.py, its
// GitHub repository's ori_500/ has name.pdf instead. For the second, the reference image is
// rendered from the script in the task's image when the episode is set up (the script is copied
// to /tmp, run, and removed before the agent starts). A chart with neither is skipped, noted.
//
// About one script in sixteen imports a library the IDE image lacks (scipy, pandas, networkx,
// matplotlib_venn, squarify): its task gets an image with the library's Debian package, or, for
// one Debian does not have, is pending with the library named until its wheels are supplied
// (pythonLibraries.ts); set up in the IDE image its reference could not even render.
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import sharp from 'sharp';
import type { Task } from '../taskEnv/loadTask';
import { pythonLibraryImage } from './pythonLibraries';
import { taskId, writeTaskFolder } from './taskWriter';

export interface ChartMimicOptions { outRoot: string; suite?: string; limit?: number; threshold?: number; image?: string; onNote?: (line: string) => void }

/**
 * The original script, made to save its figure where the evaluator looks: its own savefig
 * calls write chart.png instead (keeping their dpi and bounding box); a script without one
 * gets a savefig at the end.
 */
export function oracleScript(code: string): string {
  const body = code.replace(/\s+$/, '');
  const renamed = body.replace(/savefig\(\s*(['"])[^'"]*\1/g, 'savefig("chart.png"');
  const saves = renamed !== body || /savefig\(\s*["']chart\.png["']/.test(body);
  return `import matplotlib\nmatplotlib.use("Agg")\n${renamed}\n${saves ? '' : '\nimport matplotlib.pyplot as _pwp_plt\n_pwp_plt.savefig("chart.png")\n'}`;
}

/** Modules the IDE image has: matplotlib (with mpl_toolkits), numpy, and the standard library's that chart scripts use. */
const IN_IMAGE = new Set([
  'matplotlib', 'mpl_toolkits', 'numpy', '__future__', 'abc', 'argparse', 'array', 'base64', 'bisect', 'calendar', 'cmath', 'collections',
  'colorsys', 'contextlib', 'copy', 'csv', 'dataclasses', 'datetime', 'decimal', 'enum', 'fractions', 'functools', 'glob', 'gzip', 'hashlib',
  'heapq', 'io', 'itertools', 'json', 'locale', 'logging', 'math', 'numbers', 'operator', 'os', 'pathlib', 'pickle', 'pprint', 'random', 're',
  'statistics', 'string', 'struct', 'sys', 'textwrap', 'time', 'types', 'typing', 'unicodedata', 'warnings', 'zipfile',
]);

/** The top-level modules a script imports that the IDE image does not have, sorted. */
export function importsBeyondImage(code: string): string[] {
  const found = new Set<string>();
  for (const m of code.matchAll(/^[ \t]*(?:from[ \t]+([A-Za-z_]\w*)[\w.]*[ \t]+import\b|import[ \t]+([^#\n]+))/gm)) {
    // `import a.b as c, d`: each name's first part.
    const names = m[1] ? [m[1]] : m[2].split(';')[0].split(',').map((n) => n.trim().split(/[\s.]/)[0]);
    for (const n of names) if (/^[A-Za-z_]\w*$/.test(n) && !IN_IMAGE.has(n)) found.add(n);
  }
  return [...found].sort();
}

export async function convertChartMimic(dir: string, o: ChartMimicOptions): Promise<Task[]> {
  const files = new Set(readdirSync(dir));
  const charts = [...files].filter((f) => f.endsWith('.py')).sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));
  const tasks: Task[] = [];
  for (const script of charts.slice(0, o.limit ?? charts.length)) {
    const name = basename(script, '.py');
    const code = readFileSync(join(dir, script));
    const head = { id: taskId(`chart-${name}`), suite: o.suite ?? 'chartmimic' };
    const libraries = o.image ? [] : importsBeyondImage(code.toString('utf8'));
    if (libraries.length) o.onNote?.(`${script}: imports ${libraries.join(', ')}, which the IDE image lacks: the task's image adds ${libraries.length > 1 ? 'them' : 'it'} (a library Debian does not have leaves the task pending until its wheels are supplied)`);
    const image = o.image
      ?? (libraries.length ? pythonLibraryImage(join(o.outRoot, head.suite), libraries, { where: script, field: 'its imports', rows: 'ChartMimic charts' }) : undefined);
    const common = {
      ...(image ? { image } : {}),
      evaluator: { kind: 'chartmimic', script: 'chart.py', reference: 'reference.py', timeoutSec: 120, threshold: o.threshold ?? 0.9 },
      oracle: { steps: [{ writeFile: 'chart.py', from: 'oracle/chart.py', note: 'the original script' }] },
      limits: { steps: 150, seconds: 1800 },
      tags: ['dataset:chartmimic', `source:${script}`, ...libraries.map((l) => `library:${l}`)],
    };
    const oracle = { 'chart.py': oracleScript(code.toString('utf8')) };
    if (files.has(`${name}.png`)) {
      const target = readFileSync(join(dir, `${name}.png`));
      const { width, height } = await sharp(target).metadata();
      if (!width || !height) throw new Error(`${name}.png: not a readable image`);
      tasks.push(writeTaskFolder(o.outRoot, {
        task: { ...head, instruction: `target.png is a chart (${width}×${height} pixels). Write chart.py, a Python script using matplotlib, that draws the same chart and saves it as chart.png (same size).`, ...common },
        workspace: { 'target.png': target },
        hidden: { 'reference.py': code },
        oracle,
      }));
    } else if (files.has(`${name}.pdf`)) {
      tasks.push(writeTaskFolder(o.outRoot, {
        task: {
          ...head,
          instruction: 'target.png is a chart. Write chart.py, a Python script using matplotlib, that draws the same chart and saves it as chart.png (the same size as target.png).',
          ...common,
          setup: [
            { writeFile: '/tmp/pwp-render/chart.py', from: 'render/chart.py', note: 'the original script, saving chart.png' },
            { exec: ['bash', '-c', 'cd /tmp/pwp-render && python3 chart.py && mv chart.png /workspace/target.png; rc=$?; rm -rf /tmp/pwp-render; exit $rc'], timeoutSec: 300, note: 'the reference image, rendered in the task\'s image' },
          ],
        },
        workspace: {},
        hidden: { 'reference.py': code },
        oracle,
        extra: { 'render/chart.py': oracleScript(code.toString('utf8')) },
      }));
    } else {
      o.onNote?.(`${script}: skipped: no ${name}.png (Hugging Face's layout) or ${name}.pdf (GitHub's) beside it`);
    }
  }
  return tasks;
}
