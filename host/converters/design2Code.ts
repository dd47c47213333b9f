// Design2Code-style UI tasks: a folder of pages, each an HTML file and its reference
// screenshot with the same name (1.html + 1.png, …). The agent sees only the screenshot
// (reference.png in its workspace) and writes index.html to reproduce it; the verifier renders
// index.html and the original page with the image's Chromium at the screenshot's size and
// scores them with Design2Code's published metrics (evaluation/design2CodeGrader.ts; the
// task's score is the mean of block-match, text, position and colour). The oracle writes the
// original HTML.
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import sharp from 'sharp';
import type { Task } from '../taskEnv/loadTask';
import { taskId, writeTaskFolder } from './taskWriter';

export interface Design2CodeOptions { outRoot: string; suite?: string; limit?: number; threshold?: number; image?: string }

export async function convertDesign2Code(dir: string, o: Design2CodeOptions): Promise<Task[]> {
  const pages = readdirSync(dir).filter((f) => f.endsWith('.html')).sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));
  const tasks: Task[] = [];
  for (const page of pages.slice(0, o.limit ?? pages.length)) {
    const name = basename(page, '.html');
    const png = readdirSync(dir).find((f) => f === `${name}.png`);
    if (!png) continue; // a page without its screenshot cannot be graded
    const shot = readFileSync(join(dir, png));
    const { width, height } = await sharp(shot).metadata();
    if (!width || !height) throw new Error(`${png}: not a readable image`);
    tasks.push(writeTaskFolder(o.outRoot, {
      task: {
        id: taskId(`page-${name}`),
        suite: o.suite ?? 'design2code',
        instruction: `reference.png is a screenshot of a web page (${width}×${height} pixels). Write index.html, a single self-contained HTML file (inline CSS, no network), that renders as close to it as you can at that size.`,
        ...(o.image ? { image: o.image } : {}),
        evaluator: { kind: 'design2code', html: 'index.html', reference: 'reference.html', width, height, threshold: o.threshold ?? 0.9 },
        oracle: { steps: [{ writeFile: 'index.html', from: 'oracle/index.html', note: 'the original page' }] },
        limits: { steps: 150, seconds: 1800 },
        tags: ['dataset:design2code', `source:${page}`],
      },
      workspace: { 'reference.png': shot },
      hidden: { 'reference.html': readFileSync(join(dir, page)) },
      oracle: { 'index.html': readFileSync(join(dir, page)) },
    }));
  }
  return tasks;
}
