// dom.* methods, served by the bridge itself over the Chromium DevTools Protocol: one
// Runtime.evaluate of the in-page probe per call, the rest in the bridge.
import type { WorkbenchPage } from '../browser/workbenchPage';
import type { Framebuffer } from '../capture/framebuffer';
import { ActionFailedError, InvalidParamsError, NotAvailableError, PwpError } from '../protocol';
import type { Mark } from '../protocol/dom';
import type { Dispatcher, Session } from '../rpc/dispatcher';
import { limitTree, treeToScreen } from './domTree';
import { MarkIds, describeIds } from './markIds';
import { drawMarks } from './marksImage';
import type { ProbeRequest, ProbeResult } from './page/pageProbe';
import { probeExpression } from './pageScript';
import { rectToScreen, screenTransform } from './screenGeometry';
import { formatListing, selectMarks, toMarks } from './setOfMarks';

export interface DomDeps {
  page: WorkbenchPage;
  framebuffer: Framebuffer;
  screen: () => { width: number; height: number };
  /** Presses keys on the display (xdotool key syntax), for the browser's own zoom keys. */
  key: (keys: string) => Promise<void>;
}

/** Zoom steps a reset takes at most (the browser has about 15 levels each way). */
const MAX_ZOOM_STEPS = 30;
const ZOOM_STEP_WAIT_MS = 5000;

/** Per connection: the marks it was last shown, which `input.click {mark}` refers to. */
const LAST_MARKS = 'dom.lastMarks';
/** The page walk stops after this many elements; the workbench has a few thousand. */
const MAX_ELEMENTS = 60_000;
const PROBE_TIMEOUT_MS = 5000;

export class DomService {
  private readonly ids = new MarkIds();

  constructor(private readonly deps: DomDeps) {}

  private async probe(req: Omit<ProbeRequest, 'maxElements'>): Promise<ProbeResult> {
    let r: ProbeResult | undefined;
    try {
      r = await this.deps.page.evaluate<ProbeResult | undefined>(probeExpression({ ...req, maxElements: MAX_ELEMENTS }), PROBE_TIMEOUT_MS);
    } catch (err) {
      // A page that is reloading or gone (IDE restart, browser crash) answers with CDP
      // errors; for the caller that is "not there now, try again", with the detail kept.
      if (err instanceof PwpError) throw err;
      throw new NotAvailableError(`the workbench page could not be read: ${(err as Error).message}`);
    }
    if (!r?.view) throw new NotAvailableError('the workbench page gave no answer (is it loading?)');
    return r;
  }

  async marks(includeCovered: boolean, session?: Session): Promise<{ marks: Mark[]; text: string; screen: { width: number; height: number } }> {
    const r = await this.probe({ mode: 'marks' });
    const screen = this.deps.screen();
    const marks = toMarks(selectMarks(r.candidates ?? [], { includeCovered }), this.ids, screenTransform(r.view), screen);
    session?.state.set(LAST_MARKS, marks);
    return { marks, text: formatListing(marks), screen };
  }

  /**
   * The page's zoom: its device pixel ratio, the browser's zoom times the screen's scale, which
   * is 1 on this display. A reset presses ctrl+minus or ctrl+equal, the browser's own zoom keys
   * (the workbench does not take them in a browser), until it is 1, waiting after each press
   * for the page to have changed.
   */
  async zoom(reset: boolean): Promise<{ zoom: number; steps: number }> {
    const read = () => this.deps.page.evaluate<number>('window.devicePixelRatio', PROBE_TIMEOUT_MS);
    let zoom = await read();
    let steps = 0;
    while (reset && Math.abs(zoom - 1) > 1e-3) {
      if (steps++ >= MAX_ZOOM_STEPS) throw new ActionFailedError(`the page's zoom is still ${zoom} after ${MAX_ZOOM_STEPS} steps`);
      const was = zoom;
      await this.deps.key(zoom > 1 ? 'ctrl+minus' : 'ctrl+equal');
      const deadline = Date.now() + ZOOM_STEP_WAIT_MS;
      while ((zoom = await read()) === was && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      if (zoom === was) throw new ActionFailedError(`the page's zoom stayed ${zoom} after the browser's zoom key (does something in the page take ctrl+${was > 1 ? 'minus' : 'equal'}?)`);
    }
    return { zoom, steps };
  }

  /** The click point of mark `id` as this connection last saw it (a fresh dom.marks if it saw none). */
  async resolveMark(id: number, session: Session): Promise<{ x: number; y: number }> {
    const marks = (session.state.get(LAST_MARKS) as Mark[] | undefined) ?? (await this.marks(false, session)).marks;
    const m = marks.find((k) => k.id === id);
    if (!m) {
      throw new InvalidParamsError(`params.mark: no mark ${id} among the current marks (valid ids: ${describeIds(marks.map((k) => k.id))}); call dom.marks again`, {
        validIds: marks.map((k) => k.id),
      });
    }
    return m.point;
  }

  register(d: Dispatcher): void {
    d.register('dom.marks', async (p, session) => {
      const t0 = performance.now();
      return { ...(await this.marks(p.includeCovered, session)), durationMs: performance.now() - t0 };
    });

    d.register('dom.marksImage', async (p, session) => {
      const t0 = performance.now();
      // The frame is read right after the DOM so that the boxes match what was on screen.
      const result = await this.marks(p.includeCovered, session);
      const frame = this.deps.framebuffer.read();
      const data = await drawMarks(frame, result.marks, p.format, p.quality);
      return {
        ...result,
        image: { format: p.format, width: frame.width, height: frame.height, data: data.toString('base64') },
        durationMs: performance.now() - t0,
      };
    });

    d.register('dom.tree', async (p) => {
      const t0 = performance.now();
      const r = await this.probe({ mode: 'tree', selector: p.selector, includeHidden: p.includeHidden });
      if (p.selector && !r.tree) throw new InvalidParamsError(`params.selector: no element matches ${JSON.stringify(p.selector)}`);
      if (!r.tree) return { root: null, nodeCount: 0, truncated: false, durationMs: performance.now() - t0 };
      const limited = limitTree(r.tree, p);
      const truncated = limited.depthCut || limited.nodesCut || r.capped;
      return {
        root: treeToScreen(limited.root, screenTransform(r.view), this.deps.screen()),
        nodeCount: limited.nodeCount,
        truncated,
        ...(truncated ? { truncation: { depth: limited.depthCut, nodes: limited.nodesCut || r.capped, omittedNodes: limited.omittedNodes } } : {}),
        durationMs: performance.now() - t0,
      };
    });

    d.register('dom.zoom', async (p) => this.zoom(p.reset));

    d.register('dom.focused', async () => {
      const t0 = performance.now();
      const r = await this.probe({ mode: 'focused' });
      const f = r.focused;
      const focused = f ? { ...f, box: f.box && rectToScreen(f.box, screenTransform(r.view), this.deps.screen()) } : null;
      return { focused, durationMs: performance.now() - t0 };
    });
  }
}

export function registerDom(d: Dispatcher, deps: DomDeps): DomService {
  const service = new DomService(deps);
  service.register(d);
  return service;
}
