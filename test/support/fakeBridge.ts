// A bridge without a container, for unit tests of the Env core: the real RpcServer and the
// real Dispatcher (so every call is checked against bridge/protocol both ways, and the token and
// the typed errors are the real ones) on an ephemeral port of 127.0.0.1, serving handlers shaped
// like the bridge's over a small pretend IDE:
// - a screen: a real PNG (sharp) whose colour is its frame number, with the pointer drawn on
//   it; input moves it on a few frames (an animation), so a settle wait sees it change, then
//   go quiet;
// - input.*: recorded in `calls`, moving the pointer, typing into the active editor, ctrl+s saving it
//   to the environment's folder;
// - dom.marks/marksImage/focused/tree over a fixed set of marks;
// - ide.status, ide.editors(.open/.unsaved), ide.diagnostics, ide.settings.get/update (the
//   user settings.json in the environment's folder);
// - proc.health/waitReady, control.* and the input gate (the real ControlState), tools.call of
//   the tools a test gives.
// Methods it does not serve are answered MethodNotFoundError, as a bridge answers a method nobody serves.
import sharp from 'sharp';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import {
  InvalidParamsError, MethodNotFoundError, NotAvailableError, type Health, type Mark, type MethodName, type Params, type Result,
} from '../../bridge/protocol';
import { Dispatcher, type Session } from '../../bridge/rpc/dispatcher';
import { RpcServer } from '../../bridge/server/rpcServer';
import { registerControl } from '../../bridge/control/controlHandlers';
import { ControlState } from '../../bridge/control/controlState';
import { formatListing } from '../../bridge/dom/setOfMarks';
import { checkXdotoolArgv, parseXdotoolChain } from '../../bridge/input/xdotoolCommand';
import type { FolderRuntime } from './fakeRuntime';

/** Frames the screen keeps changing after an input (what a settle wait has to sit out). */
export const ANIMATION_FRAMES = 2;

export interface FakeTool { (args: Record<string, unknown>): unknown }
export interface FakeBridgeOptions {
  token: string;
  display: { width: number; height: number };
  /** The environment's files: editors open and save them, settings live in its user data. */
  runtime: FolderRuntime;
  /** Tools tools.call serves (name -> what it answers); any other name is MethodNotFoundError. */
  tools?: Record<string, FakeTool>;
}

interface Editor { path: string; text: string; dirty: boolean; cursor: { line: number; column: number } }

const SETTINGS = '/home/pwp/ide/user-data/User/settings.json';

export class FakeBridge {
  readonly dispatcher = new Dispatcher();
  /** Every call a handler ran (after validation), in order: what the Env asked of the bridge. */
  readonly calls: { method: string; params: unknown }[] = [];
  readonly control = new ControlState();
  /** The screen's frame number: input moves it on. */
  frame = 0;
  private animating = 0;
  cursor = { x: 0, y: 0 };
  readonly editors: Editor[] = [];
  private server?: RpcServer;
  private frozen: { until: Promise<void>; thaw: () => void } | null = null;
  private readonly startedAt = Date.now();
  readonly marks: Mark[];

  constructor(private readonly o: FakeBridgeOptions) {
    const { width, height } = o.display;
    const mark = (id: number, role: string, text: string, part: string, x: number, y: number): Mark =>
      ({ id, role, text, part, box: { x, y, width: 40, height: 20 }, point: { x: x + 20, y: y + 10 } });
    this.marks = [
      mark(1, 'tab', 'Explorer', 'activitybar', 0, 10), mark(2, 'button', 'Run', 'titlebar', width - 50, 0),
      mark(3, 'textbox', 'editor', 'editor', Math.floor(width / 2), Math.floor(height / 2)),
    ];
    this.register();
  }

  /** Serves on an ephemeral port of 127.0.0.1; returns the bridge URL. */
  async listen(): Promise<string> {
    this.server = new RpcServer({ host: '127.0.0.1', port: 0, token: this.o.token, dispatcher: this.dispatcher, isReady: () => true });
    await this.server.listen();
    return `ws://127.0.0.1:${this.server.port}/rpc`;
  }

  get port(): number { return this.server?.port ?? 0; }

  /** As a frozen container: calls wait (unanswered) until thawed. */
  freeze(): void {
    if (this.frozen) return;
    let thaw!: () => void;
    const until = new Promise<void>((r) => { thaw = r; });
    this.frozen = { until, thaw };
  }
  thaw(): void { this.frozen?.thaw(); this.frozen = null; }
  get isFrozen(): boolean { return this.frozen !== null; }
  /** Calls waiting for the thaw now. */
  held = 0;

  async close(): Promise<void> {
    this.thaw();
    this.control.dispose();
    await this.server?.close();
  }

  /** Calls of one method (params as the handler got them). */
  callsOf<M extends MethodName>(method: M): Params<M>[] {
    return this.calls.filter((c) => c.method === method).map((c) => c.params as Params<M>);
  }

  // ---- the screen ----------------------------------------------------------------------------

  /** Input changes the screen now and for a few frames after. */
  private input(): void { this.frame++; this.animating = ANIMATION_FRAMES; }

  /** Looking at the screen lets a running animation move on one frame. */
  private look(): number {
    if (this.animating > 0) { this.animating--; this.frame++; }
    return this.frame;
  }

  private async image(frame: number, format: 'png' | 'jpeg', quality: number, region?: { x: number; y: number; width: number; height: number }) {
    const { width, height } = this.o.display;
    const px = Buffer.alloc(width * height * 3);
    const colour = [(frame * 67) % 256, (frame * 131 + 40) % 256, (frame * 29 + 90) % 256];
    for (let i = 0; i < px.length; i += 3) { px[i] = colour[0]; px[i + 1] = colour[1]; px[i + 2] = colour[2]; }
    for (let y = this.cursor.y; y < Math.min(height, this.cursor.y + 6); y++) {
      for (let x = this.cursor.x; x < Math.min(width, this.cursor.x + 6); x++) px.fill(255, (y * width + x) * 3, (y * width + x) * 3 + 3);
    }
    let img = sharp(px, { raw: { width, height, channels: 3 } });
    let size = { width, height };
    if (region) {
      const left = Math.max(0, Math.floor(region.x));
      const top = Math.max(0, Math.floor(region.y));
      size = { width: Math.max(1, Math.min(width - left, Math.floor(region.width))), height: Math.max(1, Math.min(height - top, Math.floor(region.height))) };
      img = img.extract({ left, top, ...size });
    }
    const data = await (format === 'png' ? img.png() : img.jpeg({ quality })).toBuffer();
    return { format, ...size, data: data.toString('base64') };
  }

  // ---- the IDE ---------------------------------------------------------------------------------

  private active(): Editor | undefined { return this.editors[this.editors.length - 1]; }

  private resolve(file: string): string {
    const path = file.startsWith('file://') ? decodeURIComponent(file.slice(7)) : file.startsWith('/') ? file : `/workspace/${file}`;
    return path;
  }

  private readSettings(): Record<string, unknown> {
    const p = this.o.runtime.hostPath(SETTINGS);
    return existsSync(p) ? JSON.parse(readFileSync(p, 'utf8')) as Record<string, unknown> : {};
  }

  private setting(key: string): Result<'ide.settings.get'> {
    const userValue = this.readSettings()[key];
    return {
      key, value: userValue, source: userValue === undefined ? 'none' : 'user', defaultValue: undefined, userValue,
      workspaceValue: undefined, workspaceFolderValue: undefined, language: null, languageIds: [],
    };
  }

  private editorsResult(): Result<'ide.editors'> {
    const a = this.active();
    const tabs = this.editors.map((e) => ({
      label: e.path.slice(e.path.lastIndexOf('/') + 1), kind: 'text' as const, uri: `file://${e.path}`, path: e.path, originalUri: null,
      languageId: 'plaintext', dirty: e.dirty, active: e === a, pinned: false, preview: false,
    }));
    const lines = a ? a.text.split('\n') : [];
    const pos = a?.cursor ?? { line: 1, column: 1 };
    return {
      groups: tabs.length ? [{ viewColumn: 1, active: true, tabs }] : [],
      activeEditor: a ? {
        uri: `file://${a.path}`, path: a.path, languageId: 'plaintext', viewColumn: 1, lineCount: lines.length, dirty: a.dirty, untitled: false,
        eol: 'LF', tabSize: 4, insertSpaces: true, cursor: pos,
        selections: [{ anchor: pos, active: pos, start: pos, end: pos, empty: true, text: '' }],
        visibleRanges: [{ start: { line: 1, column: 1 }, end: { line: Math.max(1, lines.length), column: 1 } }],
        visibleText: a.text, visibleTextTruncated: false,
      } : null,
      visibleEditors: a ? [{ uri: `file://${a.path}`, path: a.path, languageId: 'plaintext', viewColumn: 1, visibleRanges: [], cursor: pos }] : [],
    };
  }

  private save(): void {
    const a = this.active();
    if (!a?.dirty) return;
    const p = this.o.runtime.hostPath(a.path);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, a.text);
    a.dirty = false;
  }

  // ---- the methods -----------------------------------------------------------------------------

  private on<M extends MethodName>(method: M, fn: (p: Params<M>, session: Session) => Result<M> | Promise<Result<M>>): void {
    this.dispatcher.register(method, async (p, session) => {
      this.calls.push({ method, params: p });
      return fn(p, session);
    });
  }

  private register(): void {
    const done = { durationMs: 0 };
    const { width, height } = this.o.display;
    // A frozen container answers nothing until it is thawed.
    this.dispatcher.addGuard('', async () => {
      while (this.frozen) {
        this.held++;
        await this.frozen.until.finally(() => { this.held--; });
      }
    });

    const health = (): Health => {
      const c = { state: 'ready' as const, restarts: 0, pid: 1, lastError: null };
      return {
        ready: true, uptimeMs: Date.now() - this.startedAt, readyAfterMs: 0, startup: {}, display: { width, height },
        components: { display: c, ide: c, browser: c, extension: c },
      };
    };
    this.on('proc.health', () => health());
    this.on('proc.waitReady', () => health());

    this.on('capture.screenshot', async (p, s) => {
      const frame = this.look();
      if (!p.region) s.state.set('baseline:default', frame);
      return { ...(await this.image(frame, p.format, p.quality, p.region)), durationMs: 0 };
    });
    this.on('capture.delta', async (p, s) => {
      const frame = this.look();
      const before = s.state.get(`baseline:${p.baseline}`);
      s.state.set(`baseline:${p.baseline}`, frame);
      const changed = before !== frame;
      return {
        changed, changedPixels: changed ? width * height : 0, box: changed ? { x: 0, y: 0, width, height } : null,
        image: changed && p.includeImage ? await this.image(frame, p.format, p.quality) : null,
      };
    });
    this.on('capture.cursor', () => ({ ...this.cursor }));

    const moveTo = (x: number, y: number) => { this.cursor = { x: Math.min(x, width - 1), y: Math.min(y, height - 1) }; };
    this.on('input.key', (p) => {
      this.input();
      if (/^ctrl\+s$/i.test(p.keys.trim())) this.save();
      return done;
    });
    this.on('input.type', (p) => {
      this.input();
      const a = this.active();
      if (a) { a.text += p.text; a.dirty = true; }
      return { ...done, chars: [...p.text].length };
    });
    this.on('input.click', (p, s) => {
      let at = { x: p.x ?? 0, y: p.y ?? 0 };
      if (p.mark !== undefined) {
        const marks = (s.state.get('marks') as Mark[] | undefined) ?? this.marks;
        const m = marks.find((k) => k.id === p.mark);
        if (!m) throw new InvalidParamsError(`params.mark: no mark ${p.mark} among the current marks; call dom.marks again`, { validIds: marks.map((k) => k.id) });
        at = m.point;
      }
      moveTo(at.x, at.y);
      this.input();
      return { ...done, ...at };
    });
    this.on('input.move', (p) => { moveTo(p.x, p.y); this.input(); return done; });
    this.on('input.drag', (p) => { moveTo(p.to.x, p.to.y); this.input(); return done; });
    this.on('input.scroll', (p) => { if (p.x !== undefined && p.y !== undefined) moveTo(p.x, p.y); this.input(); return done; });
    this.on('input.sync', () => ({ ...done, handled: true }));
    this.on('input.xdotool', (p) => {
      const argvs = 'command' in p ? parseXdotoolChain(p.command) : [checkXdotoolArgv(p.argv[0] === 'xdotool' ? p.argv.slice(1) : p.argv)];
      this.input();
      return argvs.length === 1 ? { ...done, argv: argvs[0] } : { ...done, argv: argvs[0], chain: argvs };
    });

    const marksResult = (s: Session) => {
      s.state.set('marks', this.marks);
      return { marks: this.marks, text: formatListing(this.marks), screen: { width, height }, durationMs: 0 };
    };
    this.on('dom.marks', (_p, s) => marksResult(s));
    this.on('dom.marksImage', async (p, s) => ({ ...marksResult(s), image: await this.image(this.look(), p.format, p.quality) }));
    this.on('dom.focused', () => {
      const a = this.active();
      return { focused: a ? { tag: 'textarea', role: 'textbox', text: a.path, box: this.marks[2].box, part: 'editor', path: '.monaco-editor' } : null, durationMs: 0 };
    });
    this.on('dom.tree', () => ({
      root: { tag: 'div', class: 'monaco-workbench', box: { x: 0, y: 0, width, height }, children: this.marks.map((m) => ({ tag: 'div', role: m.role, name: m.text, box: m.box })) },
      nodeCount: 1 + this.marks.length, truncated: false, durationMs: 0,
    }));

    this.on('ide.status', () => ({
      vscodeVersion: '0.0.0-fake', appName: 'fake IDE', extensionVersion: '0.0.0', workspaceFolders: ['/workspace'], uptimeMs: Date.now() - this.startedAt,
    }));
    this.on('ide.editors', () => this.editorsResult());
    this.on('ide.editors.open', (p) => {
      const opened = p.editors.map((e, i) => {
        const path = this.resolve(e.file);
        const content = this.o.runtime.hostPath(path);
        if (!existsSync(content)) throw new InvalidParamsError(`params.editors.${i}.file: ${e.file} does not exist`);
        const existing = this.editors.findIndex((x) => x.path === path);
        const ed = existing >= 0 ? this.editors.splice(existing, 1)[0] : { path, text: readFileSync(content, 'utf8'), dirty: false, cursor: { line: 1, column: 1 } };
        if (e.cursor) ed.cursor = e.cursor;
        this.editors.push(ed);
        return { uri: `file://${path}`, path, viewColumn: 1, cursor: ed.cursor };
      });
      if (p.active !== undefined && opened[p.active]) this.editors.push(...this.editors.splice(this.editors.findIndex((x) => x.path === opened[p.active!].path), 1));
      this.input();
      return { opened };
    });
    this.on('ide.editors.unsaved', () => ({ documents: this.editors.filter((e) => e.dirty).map((e) => ({ uri: `file://${e.path}`, path: e.path, text: e.text, truncated: false })) }));
    this.on('ide.diagnostics', () => ({ diagnostics: [], counts: { error: 0, warning: 0, information: 0, hint: 0 }, truncated: false, settled: true, waitedMs: 0 }));
    this.on('ide.settings.get', (p) => this.setting(p.key));
    this.on('ide.settings.update', (p) => {
      if (p.target !== 'user' || p.languageId) throw new NotAvailableError('the fake IDE keeps user settings only');
      const settings = this.readSettings();
      if (p.value === undefined) delete settings[p.key]; else settings[p.key] = p.value;
      const file = this.o.runtime.hostPath(SETTINGS);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, JSON.stringify(settings, null, 2));
      return this.setting(p.key);
    });

    registerControl(this.dispatcher, this.control);
    // tools.* go to the extension in the real bridge, unchecked; so here.
    this.dispatcher.registerFallback('tools.', async (method, params) => {
      const { name, args } = (params ?? {}) as { name?: string; args?: Record<string, unknown> };
      // The fake IDE keeps no snapshot for get_diff_patch: retaking it has nothing to do.
      if (method === 'tools.baseline') return { files: 0, tookMs: 0 };
      const tool = method === 'tools.call' && name ? this.o.tools?.[name] : undefined;
      if (!tool) throw new MethodNotFoundError(`${method}${name ? ` ${name}` : ''}: no such tool in the fake IDE`);
      this.calls.push({ method, params });
      return tool(args ?? {});
    });
  }
}
