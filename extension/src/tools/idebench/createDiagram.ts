// create_diagram: renders Mermaid source to an image with Mermaid's browser bundle (installed
// in the image) in the headless Chromium, returns it, and saves it in the workspace if asked.
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { defineTool, image, text } from '../toolRegistry';
import { ToolError } from '../toolError';
import type { ToolServices } from '../toolServices';

export const MERMAID_BUNDLE = '/opt/pwp-tools/mermaid.min.js';

export async function renderMermaid(s: ToolServices, source: string, theme: string): Promise<{ png: Buffer; svg: string }> {
  const bundle = await readFile(MERMAID_BUNDLE, 'utf8').catch(() => { throw new ToolError(`Mermaid is not installed in this image (${MERMAID_BUNDLE})`, 'NotAvailable'); });
  return s.browser.withPage({ width: 1600, height: 1200, scale: 1 }, async (page) => {
    await page.evaluate(`${bundle};0`);
    const r = await page.evaluate<{ svg?: string; error?: string; box?: { x: number; y: number; width: number; height: number } }>(`(async () => {
      try {
        mermaid.initialize({ startOnLoad: false, theme: ${JSON.stringify(theme)}, securityLevel: 'strict' });
        await mermaid.parse(${JSON.stringify(source)});
        const { svg } = await mermaid.render('pwpDiagram', ${JSON.stringify(source)});
        document.body.style.margin = '0';
        document.body.style.background = 'white';
        document.body.innerHTML = '<div id="wrap" style="display:inline-block;padding:16px;background:white">' + svg + '</div>';
        const b = document.getElementById('wrap').getBoundingClientRect();
        return { svg, box: { x: b.left, y: b.top, width: Math.ceil(b.width), height: Math.ceil(b.height) } };
      } catch (e) { return { error: String(e && e.message || e) }; }
    })()`);
    if (r.error || !r.svg || !r.box) throw new ToolError(`the Mermaid source does not render: ${r.error ?? 'no output'}`, 'InvalidDiagram');
    const png = await page.screenshot({ clip: { ...r.box, width: Math.max(1, r.box.width), height: Math.max(1, r.box.height) } });
    return { png, svg: r.svg };
  }, { retryIfBrowserDies: true });
}

export function createDiagramTool(s: ToolServices) {
  return defineTool({
    name: 'create_diagram',
    group: 'idebench',
    effects: 'write',
    description: 'Render a Mermaid diagram (flowchart, sequence, class, state, ER, gantt…) to an image and return it. ' +
      'output_path (in the workspace, .png or .svg) also saves it there. Mermaid syntax errors are reported.',
    params: z.object({
      content: z.string().min(1).describe('Mermaid source, e.g. "flowchart TD\\n  A --> B"'),
      output_path: z.string().optional(),
      theme: z.enum(['default', 'neutral', 'dark', 'forest']).default('default'),
    }).strict(),
    timeoutMs: 60_000,
    run: async (a) => {
      const out = a.output_path ? s.paths.resolve(a.output_path, 'output_path') : undefined;
      if (out && !/\.(png|svg)$/i.test(out)) throw new ToolError('output_path must end in .png or .svg', 'InvalidPath');
      const { png, svg } = await renderMermaid(s, a.content, a.theme);
      if (out) {
        await s.files.writeBytes(out, /\.svg$/i.test(out) ? Buffer.from(svg) : png);
      }
      s.preview.last = { image: png, source: 'create_diagram', zoom: 1, cx: 0.5, cy: 0.5 };
      return { content: [text(`Rendered the diagram (${png.length} bytes PNG)${out ? `; saved to ${s.paths.display(out)}` : ''}.`), image(png)] };
    },
  });
}
