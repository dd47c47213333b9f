// The preview tools of PwP: view_html_preview, view_python_preview, view_original_image, and
// zoom_in / zoom_out of the last preview. Previews render in the container's headless
// Chromium (the same browser build as the IDE's window), never on the agent's screen.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { defineTool, image, text } from '../toolRegistry';
import { ToolError } from '../toolError';
import type { PreviewState, ToolServices } from '../toolServices';
import { imageSize, renderRegion, viewRegion } from '../imageView';
import { runProcess } from '../processRunner';

/** Shows the current view of the last preview: its zoom level and centre. */
async function showView(s: ToolServices, p: PreviewState): Promise<Buffer> {
  const size = imageSize(p.image);
  if (!size) throw new ToolError('the last preview is not an image this tool can zoom (PNG, JPEG, GIF, WebP)', 'UnsupportedImage');
  const { width: w, height: h } = size;
  if (p.zoom === 1) return p.image;
  if (p.zoom < 1) return renderRegion(s.browser, p.image, size.mimeType, { x: 0, y: 0, width: w, height: h }, w * p.zoom, h * p.zoom, w, h);
  const region = viewRegion(w, h, p.zoom, p.cx, p.cy);
  if (p.rerender) {
    // Re-render the page at a higher pixel density: real detail instead of scaled pixels.
    const hi = await p.rerender(Math.min(4, p.zoom));
    const hs = imageSize(hi)!;
    const k = hs.width / w;
    return renderRegion(s.browser, hi, hs.mimeType, { x: region.x * k, y: region.y * k, width: region.width * k, height: region.height * k }, w, h, hs.width, hs.height);
  }
  return renderRegion(s.browser, p.image, size.mimeType, region, w, h, w, h);
}

function describePreview(p: PreviewState): string {
  return `${p.source}; zoom ${p.zoom}x centred at (${p.cx.toFixed(2)}, ${p.cy.toFixed(2)})`;
}

export function htmlPreviewTool(s: ToolServices) {
  return defineTool({
    name: 'view_html_preview',
    group: 'assisted',
    effects: 'read',
    description: 'Render an HTML file of the workspace (with its CSS, scripts and images) in a browser and return a ' +
      'screenshot. full_page captures the whole page instead of the viewport. zoom_in / zoom_out then work on it.',
    params: z.object({
      file: z.string().min(1),
      width: z.int().min(200).max(3840).default(1280),
      height: z.int().min(200).max(2160).default(800),
      full_page: z.boolean().default(false),
      wait_ms: z.int().min(0).max(10_000).default(300).describe('Extra time after load for scripts to draw'),
    }).strict(),
    timeoutMs: 60_000,
    run: async (a) => {
      const abs = s.paths.resolve(a.file, 'file');
      if (!(await s.files.exists(abs))) throw new ToolError(`file not found: ${a.file}`, 'NotFound');
      const url = pathToFileURL(abs).href;
      const render = (scale: number) => s.browser.withPage({ width: a.width, height: a.height, scale }, async (page) => {
        await page.navigate(url);
        if (a.wait_ms) await new Promise((r) => setTimeout(r, a.wait_ms));
        return { png: await page.screenshot({ fullPage: a.full_page }), errors: [...page.errors], title: await page.evaluate<string>('document.title') };
      }, { retryIfBrowserDies: true });
      const r = await render(1);
      // Re-rendered at most 4096 pixels wide: detail enough for a zoom, bounded in size.
      const rerender = async (scale: number) => (await render(Math.max(1, Math.min(scale, 4096 / a.width)))).png;
      s.preview.last = { image: r.png, source: `view_html_preview ${s.paths.display(abs)}`, rerender, zoom: 1, cx: 0.5, cy: 0.5 };
      const size = imageSize(r.png);
      return { content: [text(`Rendered ${s.paths.display(abs)} (title ${JSON.stringify(r.title)}, ${size?.width}x${size?.height}).${r.errors.length ? `\nPage errors:\n${r.errors.join('\n')}` : ''}`), image(r.png)] };
    },
  });
}

const FIGURE_RUNNER = String.raw`
import json, os, runpy, sys
os.environ["MPLBACKEND"] = "Agg"
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
out, script = sys.argv[1], sys.argv[2]
saved = []
def save_all(*args, **kwargs):
    for n in plt.get_fignums():
        path = os.path.join(out, "figure-%d.png" % len(saved))
        plt.figure(n).savefig(path, dpi=100, bbox_inches="tight")
        saved.append(path)
    plt.close("all")
plt.show = save_all
sys.argv = [script] + sys.argv[3:]
sys.path.insert(0, os.path.dirname(script))
try:
    runpy.run_path(script, run_name="__main__")
finally:
    save_all()
    sys.stdout.flush()
    sys.stderr.write("\n__PWP_FIGURES__" + json.dumps(saved) + "\n")
`;

export function pythonPreviewTool(s: ToolServices) {
  return defineTool({
    name: 'view_python_preview',
    group: 'assisted',
    effects: 'write',
    description: 'Run a Python plotting script of the workspace (matplotlib, headless) and return the figures it draws ' +
      '(every open figure, and each plt.show()), with its printed output.',
    params: z.object({
      file: z.string().min(1),
      args: z.array(z.string()).default([]),
      timeout_s: z.number().min(1).max(600).default(60),
      max_figures: z.int().min(1).max(20).default(4),
    }).strict(),
    timeoutMs: 620_000,
    run: async (a, ctx) => {
      const abs = s.paths.resolve(a.file, 'file');
      if (!(await s.files.exists(abs))) throw new ToolError(`file not found: ${a.file}`, 'NotFound');
      const out = await mkdtemp(join(tmpdir(), 'pwp-figures-'));
      try {
        const r = await runProcess('python3', ['-c', FIGURE_RUNNER, out, abs, ...a.args], { cwd: dirname(abs), env: { ...s.env, MPLBACKEND: 'Agg', PYTHONUNBUFFERED: '1' }, signal: ctx.signal, timeoutMs: a.timeout_s * 1000, maxBytes: 2 * 1024 * 1024 });
        const m = /\n__PWP_FIGURES__(\[.*\])\n?/.exec(r.stderr);
        const figures: string[] = m ? JSON.parse(m[1]) : [];
        const stderr = r.stderr.replace(/\n__PWP_FIGURES__.*\n?/, '').trim();
        const printed = [r.stdout.trim() && `stdout:\n${r.stdout.trim()}`, stderr && `stderr:\n${stderr}`].filter(Boolean).join('\n');
        const images = await Promise.all(figures.slice(0, a.max_figures).map((f) => readFile(f)));
        const status = r.timedOut ? `the script ran longer than ${a.timeout_s} s and was stopped` : r.code === 0 ? 'the script finished' : `the script failed (exit code ${r.code})`;
        if (images.length) s.preview.last = { image: images[0], source: `view_python_preview ${s.paths.display(abs)}`, zoom: 1, cx: 0.5, cy: 0.5 };
        const summary = `${status}; ${figures.length} figure(s)${figures.length > images.length ? `, showing ${images.length}` : ''}.${printed ? `\n${printed}` : ''}`;
        return { isError: r.code !== 0 && !images.length, content: [text(summary), ...images.map((b) => image(b))] };
      } finally {
        await rm(out, { recursive: true, force: true });
      }
    },
  });
}

export function originalImageTool(s: ToolServices) {
  return defineTool({
    name: 'view_original_image',
    group: 'assisted',
    effects: 'read',
    description: 'Show an image file of the workspace (PNG, JPEG, GIF, WebP, or SVG rendered to PNG) as it is. With no ' +
      'file, shows the last preview again at its original size (undoing zooms).',
    params: z.object({ file: z.string().min(1).optional() }).strict(),
    timeoutMs: 30_000,
    run: async ({ file }) => {
      if (!file) {
        const p = s.preview.last;
        if (!p) throw new ToolError('there is no preview yet; give a file', 'NoPreview');
        p.zoom = 1; p.cx = 0.5; p.cy = 0.5;
        return { content: [text(`Original of ${p.source}.`), image(p.image)] };
      }
      const abs = s.paths.resolve(file, 'file');
      let buf = await s.files.readBytes(abs);
      let size = imageSize(buf);
      if (!size && /\.svg$/i.test(abs)) {
        buf = await s.browser.withPage({ width: 1200, height: 900 }, async (page) => {
          await page.navigate(pathToFileURL(abs).href);
          return page.screenshot({ fullPage: true });
        }, { retryIfBrowserDies: true });
        size = imageSize(buf);
      }
      if (!size) throw new ToolError(`${file} is not an image this tool can show (PNG, JPEG, GIF, WebP, SVG)`, 'UnsupportedImage');
      s.preview.last = { image: buf, source: `view_original_image ${s.paths.display(abs)}`, zoom: 1, cx: 0.5, cy: 0.5 };
      return { content: [text(`${s.paths.display(abs)}: ${size.width}x${size.height} ${size.mimeType}, ${buf.length} bytes.`), image(buf, size.mimeType)] };
    },
  });
}

export function zoomInTool(s: ToolServices) {
  return defineTool({
    name: 'zoom_in',
    group: 'assisted',
    effects: 'read',
    description: 'Zoom into the last preview (HTML, Python figure, image, diagram): magnify by factor around the point (x, y) ' +
      'given as fractions of its width and height (0.5, 0.5 is the centre; default: the current centre). HTML previews ' +
      're-render at higher resolution.',
    params: z.object({
      factor: z.number().min(1.1).max(8).default(2),
      x: z.number().min(0).max(1).optional(),
      y: z.number().min(0).max(1).optional(),
    }).strict(),
    timeoutMs: 60_000,
    run: async (a) => {
      const p = s.preview.last;
      if (!p) throw new ToolError('there is no preview to zoom: use view_html_preview, view_python_preview, view_original_image or create_diagram first', 'NoPreview');
      const zoom = Math.min(16, p.zoom * a.factor);
      const next = { ...p, zoom, cx: a.x ?? p.cx, cy: a.y ?? p.cy };
      const png = await showView(s, next);
      s.preview.last = next;
      return { content: [text(`Zoomed in: ${describePreview(next)}.`), image(png)] };
    },
  });
}

export function zoomOutTool(s: ToolServices) {
  return defineTool({
    name: 'zoom_out',
    group: 'assisted',
    effects: 'read',
    description: 'Zoom out of the last preview by factor (down to a quarter of its original size).',
    params: z.object({ factor: z.number().min(1.1).max(8).default(2) }).strict(),
    timeoutMs: 60_000,
    run: async (a) => {
      const p = s.preview.last;
      if (!p) throw new ToolError('there is no preview to zoom out of', 'NoPreview');
      const next = { ...p, zoom: Math.max(0.25, p.zoom / a.factor) };
      const png = await showView(s, next);
      s.preview.last = next;
      return { content: [text(`Zoomed out: ${describePreview(next)}.`), image(png)] };
    },
  });
}
