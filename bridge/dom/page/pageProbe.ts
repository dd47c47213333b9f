// The one function the bridge runs inside the workbench page (Runtime.evaluate), so that a
// whole Set-of-Marks, tree or focus query costs one CDP round trip. It is serialized with
// Function.prototype.toString: it must not use anything outside its own body, and it
// returns plain data in page CSS pixels; everything that can be decided outside the page
// (filtering, merging, ids, screen coordinates, limits) is done by the bridge in testable code.
//
// Same-origin iframes (VS Code webviews are served from the IDE's own origin) are walked
// through contentDocument; a frame the page cannot read stays one opaque `webview` mark.

export interface PageRect { x: number; y: number; width: number; height: number }
export interface PageView { innerWidth: number; innerHeight: number; dpr: number; screenX: number; screenY: number; outerWidth: number; outerHeight: number }
export interface PageStates { focused?: true; selected?: boolean; checked?: boolean | 'mixed'; expanded?: boolean; disabled?: true }

export interface RawCandidate extends PageStates {
  /** Document order (frames and shadow roots in place). */
  index: number;
  /** The nearest enclosing candidate, -1 for none. */
  parent: number;
  role: string;
  /** False when the only reason to list it is a pointer cursor. */
  strong: boolean;
  name: string;
  part: string;
  /** The element's part inside the viewport and every clipping ancestor; null when none is. */
  visible: PageRect | null;
  /** Set by visibility:hidden on the element. */
  hidden: boolean;
  /** A visible point that hit-tests to the element; null when it is covered everywhere tested. */
  point: { x: number; y: number } | null;
  /** The current content of an input. */
  value?: string;
}

export interface RawNode extends PageStates {
  tag: string;
  role?: string;
  name?: string;
  text?: string;
  id?: string;
  class?: string;
  box?: PageRect;
  hidden?: true;
  value?: string;
  attrs?: Record<string, string>;
  children?: RawNode[];
}

export interface RawFocused { tag: string; role: string; text: string; box: PageRect | null; part: string; path: string; value?: string }

export interface ProbeRequest {
  mode: 'marks' | 'tree' | 'focused';
  selector?: string;
  includeHidden?: boolean;
  /** Elements visited before the walk stops (a guard against enormous documents). */
  maxElements: number;
}
export interface ProbeResult {
  view: PageView;
  capped: boolean;
  candidates?: RawCandidate[];
  tree?: RawNode | null;
  focused?: RawFocused | null;
}

export function pageProbe(req: ProbeRequest): ProbeResult {
  const INTERACTIVE = new Set(['button', 'link', 'tab', 'treeitem', 'option', 'menuitem', 'menuitemcheckbox', 'menuitemradio',
    'checkbox', 'radio', 'switch', 'textbox', 'searchbox', 'combobox', 'slider', 'spinbutton']);
  // Rows and cells count when they can be focused or clicked (VS Code list rows, breadcrumbs).
  const ROWLIKE = new Set(['listitem', 'row', 'gridcell', 'cell']);
  const NOT_A_TARGET = new Set(['presentation', 'none', 'tree', 'list', 'listbox', 'grid', 'table', 'tablist', 'toolbar', 'menu',
    'menubar', 'application', 'document', 'dialog', 'alertdialog', 'group', 'region', 'main', 'status', 'navigation',
    'complementary', 'banner', 'contentinfo', 'form', 'tabpanel', 'alert', 'log', 'tooltip', 'progressbar', 'scrollbar', 'separator']);
  const SKIP_TAGS = new Set(['script', 'style', 'link', 'meta', 'head', 'template', 'noscript', 'title', 'br', 'wbr']);
  // Inputs that exist only to receive keystrokes for a larger widget (the editor, the terminal).
  const HELPER_INPUTS = ['inputarea', 'native-edit-context', 'xterm-helper-textarea'];
  // Subtrees with nothing to click, skipped by marks for speed (code lines, terminal rows).
  const PRUNE = ['view-lines', 'view-overlays', 'margin-view-overlays', 'xterm-rows', 'minimap'];
  const PARTS = ['titlebar', 'activitybar', 'sidebar', 'auxiliarybar', 'editor', 'panel', 'statusbar', 'banner'];
  const OVERLAYS: [string, string][] = [['quick-input-widget', 'quickinput'], ['monaco-menu', 'menu'], ['context-view', 'contextview'],
    ['notifications-toasts', 'notifications'], ['notifications-center', 'notifications'], ['monaco-dialog-box', 'dialog'],
    ['suggest-widget', 'suggest'], ['find-widget', 'find'], ['monaco-hover', 'hover'], ['workbench-hover', 'hover']];
  // Classes that name a VS Code part or widget: they keep an otherwise bare wrapper in the tree.
  const PART_HINT = /(^|\s)(part|monaco-workbench|monaco-editor|monaco-list|monaco-list-row|tab|tabs-container|quick-input-widget|context-view|monaco-menu|notification-toast|notifications-center|terminal|xterm|pane|pane-header|editor-group-container|webview|composite|monaco-dialog-box|suggest-widget|find-widget)(\s|$)/;

  const view: PageView = { innerWidth, innerHeight, dpr: devicePixelRatio, screenX, screenY, outerWidth, outerHeight };
  const viewport: PageRect = { x: 0, y: 0, width: innerWidth, height: innerHeight };
  let visited = 0;
  let capped = false;

  const clean = (s: string | null | undefined, max = 100): string => (s ?? '').replace(/\s+/g, ' ').trim().slice(0, max);
  const styleOf = (el: Element): CSSStyleDeclaration => (el.ownerDocument.defaultView ?? window).getComputedStyle(el);
  const classOf = (el: Element): string => (typeof (el as HTMLElement).className === 'string' ? (el as HTMLElement).className : '');
  const hasClass = (el: Element, names: string[]): boolean => names.some((n) => el.classList.contains(n));
  const intersect = (a: PageRect, b: PageRect): PageRect | null => {
    const x = Math.max(a.x, b.x);
    const y = Math.max(a.y, b.y);
    const r = Math.min(a.x + a.width, b.x + b.width);
    const bt = Math.min(a.y + a.height, b.y + b.height);
    return r > x && bt > y ? { x, y, width: r - x, height: bt - y } : null;
  };
  const EMPTY: PageRect = { x: 0, y: 0, width: 0, height: 0 };

  const partOf = (el: Element): string | null => {
    if (el.classList.contains('part')) return PARTS.find((p) => el.classList.contains(p)) ?? null;
    for (const [cls, part] of OVERLAYS) if (el.classList.contains(cls)) return part;
    return el.localName === 'iframe' ? 'webview' : null;
  };

  const explicitRole = (el: Element): string => (el.getAttribute('role') ?? '').trim().split(/\s+/)[0].toLowerCase();
  const implicitRole = (el: Element): string => {
    const tag = el.localName;
    if (tag === 'button' || tag === 'summary') return 'button';
    if (tag === 'a' && el.hasAttribute('href')) return 'link';
    if (tag === 'textarea') return 'textbox';
    if (tag === 'select') return 'combobox';
    if (tag === 'input') {
      const type = ((el as HTMLInputElement).type || 'text').toLowerCase();
      if (type === 'hidden') return '';
      if (type === 'checkbox' || type === 'radio') return type;
      if (type === 'range') return 'slider';
      if (['button', 'submit', 'reset', 'image', 'file', 'color'].includes(type)) return 'button';
      return type === 'search' ? 'searchbox' : 'textbox';
    }
    if ((el as HTMLElement).isContentEditable && el.getAttribute('contenteditable') !== null) return 'textbox';
    return '';
  };

  /** Text of the element's text nodes, space-joined (menu labels and keybindings are separate spans). */
  const textOf = (el: Element, max: number): string => {
    const walker = el.ownerDocument.createTreeWalker(el, NodeFilter.SHOW_TEXT, {
      acceptNode: (n) => (SKIP_TAGS.has(n.parentElement?.localName ?? '') ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT),
    });
    const parts: string[] = [];
    let len = 0;
    for (let n = walker.nextNode(); n && len < max; n = walker.nextNode()) {
      const t = clean(n.nodeValue, max);
      if (t) { parts.push(t); len += t.length + 1; }
    }
    return clean(parts.join(' '), max);
  };
  const labelledBy = (el: Element): string => {
    const ids = el.getAttribute('aria-labelledby');
    if (!ids) return '';
    return clean(ids.split(/\s+/).map((id) => el.ownerDocument.getElementById(id)?.textContent ?? '').join(' '));
  };
  /**
   * An editor is named by the file it shows (its data-uri), a terminal by the label of the
   * input that receives its keys ("Terminal 1, bash", first line).
   */
  const widgetName = (el: Element): string => {
    const uri = el.getAttribute('data-uri');
    if (uri) {
      try { return clean(decodeURIComponent(new URL(uri).pathname), 200) || uri; } catch { return clean(uri, 200); }
    }
    const helper = el.querySelector(HELPER_INPUTS.map((c) => `.${c}`).join(', '));
    return clean((helper?.getAttribute('aria-label') ?? '').split('\n')[0]);
  };
  /** A webview is named by the extension that owns it (VS Code gives its frames no title). */
  const frameName = (el: Element): string => {
    const title = clean(el.getAttribute('aria-label') ?? el.getAttribute('title'));
    if (title && title !== 'undefined') return title;
    try { return clean(new URL((el as HTMLIFrameElement).src).searchParams.get('extensionId')); } catch { return ''; }
  };
  /** What a person would call the element: its label, else its visible text, else a label inside it. */
  const nameOf = (el: Element, role: string): string => {
    if (role === 'editor' || role === 'terminal') return clean(el.getAttribute('aria-label')) || widgetName(el);
    if (role === 'webview') return frameName(el);
    const own = clean(el.getAttribute('aria-label')) || labelledBy(el);
    if (own) return own;
    const tag = el.localName;
    if (tag === 'input' || tag === 'textarea') return clean(el.getAttribute('placeholder') ?? el.getAttribute('aria-placeholder') ?? el.getAttribute('title'));
    const text = textOf(el, 100);
    if (text) return text;
    const inner = el.querySelector('[aria-label], [title], img[alt]');
    return clean(el.getAttribute('title')) || clean(inner?.getAttribute('aria-label') ?? inner?.getAttribute('title') ?? inner?.getAttribute('alt'));
  };

  const statesOf = (el: Element): PageStates => {
    const s: PageStates = {};
    const aria = (n: string) => el.getAttribute(`aria-${n}`);
    const sel = aria('selected');
    if (sel !== null) s.selected = sel === 'true';
    const chk = aria('checked') ?? aria('pressed');
    if (chk !== null) s.checked = chk === 'mixed' ? 'mixed' : chk === 'true';
    else if (el.localName === 'input' && ['checkbox', 'radio'].includes((el as HTMLInputElement).type)) s.checked = (el as HTMLInputElement).checked;
    const exp = aria('expanded');
    if (exp !== null) s.expanded = exp === 'true';
    if (aria('disabled') === 'true' || (el as HTMLButtonElement).disabled === true) s.disabled = true;
    return s;
  };

  /** Child elements in rendering order: a shadow root's, then the light DOM's (which slots may show). */
  const childrenOf = (el: Element): Element[] => {
    // Array.from, not spread: HTMLCollection is not iterable in the type library used here.
    const kids = Array.from(el.children);
    return el.shadowRoot ? [...Array.from(el.shadowRoot.children), ...kids] : kids;
  };
  const frameDoc = (el: Element): Document | null => {
    if (el.localName !== 'iframe') return null;
    try { return (el as HTMLIFrameElement).contentDocument; } catch { return null; }
  };
  /** Top-level position of an iframe's content box. */
  const frameOrigin = (el: Element, rect: PageRect, st: CSSStyleDeclaration) => ({
    x: rect.x + el.clientLeft + parseFloat(st.paddingLeft || '0'),
    y: rect.y + el.clientTop + parseFloat(st.paddingTop || '0'),
  });
  /** The parent across shadow roots and frames. */
  const composedParent = (n: Node): Node | null => {
    if (n.parentNode && n.parentNode.nodeType !== Node.DOCUMENT_FRAGMENT_NODE && n.parentNode.nodeType !== Node.DOCUMENT_NODE) return n.parentNode;
    if (n.parentNode && n.parentNode.nodeType === Node.DOCUMENT_FRAGMENT_NODE) return (n.parentNode as ShadowRoot).host ?? null;
    const doc = n.nodeType === Node.DOCUMENT_NODE ? (n as Document) : n.ownerDocument;
    try { return doc?.defaultView?.frameElement ?? null; } catch { return null; }
  };
  const composedContains = (outer: Element, inner: Node | null): boolean => {
    for (let n: Node | null = inner; n; n = composedParent(n)) if (n === outer) return true;
    return false;
  };
  /** The element at a top-level point, drilling into shadow roots and readable frames. */
  const deepHit = (x: number, y: number): Element | null => {
    let ox = 0;
    let oy = 0;
    let el = document.elementFromPoint(x - ox, y - oy);
    for (let guard = 0; el && guard < 20; guard++) {
      if (el.shadowRoot) {
        const inner = el.shadowRoot.elementFromPoint(x - ox, y - oy);
        if (inner && inner !== el) { el = inner; continue; }
      }
      const doc = frameDoc(el);
      if (doc) {
        const r = el.getBoundingClientRect();
        const o = frameOrigin(el, { x: r.x + ox, y: r.y + oy, width: r.width, height: r.height }, styleOf(el));
        const inner = doc.elementFromPoint(x - o.x, y - o.y);
        if (inner) { ox = o.x; oy = o.y; el = inner; continue; }
      }
      break;
    }
    return el;
  };
  const deepActive = (): Element | null => {
    let el: Element | null = document.activeElement;
    for (let guard = 0; el && guard < 20; guard++) {
      const inShadow: Element | null = el.shadowRoot?.activeElement ?? null;
      if (inShadow) { el = inShadow; continue; }
      const doc = frameDoc(el);
      if (doc?.activeElement && doc.activeElement !== doc.body) { el = doc.activeElement; continue; }
      break;
    }
    return el && el.localName !== 'body' && el.localName !== 'html' ? el : null;
  };

  interface Ctx { ox: number; oy: number; clip: PageRect; frame: PageRect; part: string; parent: number; shadowed: boolean }
  /** Geometry of one element and the context its children inherit. */
  const enter = (el: Element, st: CSSStyleDeclaration, ctx: Ctx) => {
    const r = el.getBoundingClientRect();
    const rect: PageRect = { x: r.x + ctx.ox, y: r.y + ctx.oy, width: r.width, height: r.height };
    const clip = st.position === 'fixed' ? ctx.frame : ctx.clip;
    const visible = intersect(rect, clip);
    const part = partOf(el) ?? ctx.part;
    let childClip = clip;
    if (st.overflowX !== 'visible' || st.overflowY !== 'visible') childClip = intersect(clip, rect) ?? EMPTY;
    return { rect, visible, part, childClip };
  };
  const frameCtx = (el: Element, st: CSSStyleDeclaration, rect: PageRect, clip: PageRect, part: string, parent: number): Ctx => {
    const o = frameOrigin(el, rect, st);
    const frame = intersect({ x: o.x, y: o.y, width: el.clientWidth, height: el.clientHeight }, clip) ?? EMPTY;
    return { ox: o.x, oy: o.y, clip: frame, frame, part, parent, shadowed: false };
  };

  // ---- marks: interactable candidates ----------------------------------------------------
  const collectCandidates = (start: Element): RawCandidate[] => {
    const out: RawCandidate[] = [];
    const elements: Element[] = [];
    const byElement = new Map<Element, number>();
    const classify = (el: Element, st: CSSStyleDeclaration, suppressWeak: boolean): { role: string; strong: boolean } | null => {
      if (el.localName === 'iframe') return { role: 'webview', strong: true };
      if (el.classList.contains('monaco-editor')) return { role: 'editor', strong: true };
      if (el.classList.contains('xterm')) return { role: 'terminal', strong: true };
      if (hasClass(el, HELPER_INPUTS)) return null;
      const role = explicitRole(el);
      if (NOT_A_TARGET.has(role)) return null;
      if (INTERACTIVE.has(role)) return { role, strong: true };
      const focusable = el.hasAttribute('tabindex') && (el as HTMLElement).tabIndex >= -1;
      if (el.classList.contains('monaco-list-row')) return { role: role || 'listitem', strong: true };
      if (ROWLIKE.has(role) && (focusable || st.cursor === 'pointer')) return { role, strong: true };
      const implicit = implicitRole(el);
      if (implicit) return { role: implicit, strong: true };
      if (el.hasAttribute('tabindex') && (el as HTMLElement).tabIndex >= 0) return { role: role || 'clickable', strong: true };
      if (st.cursor === 'pointer' && !suppressWeak) return { role: role || 'clickable', strong: false };
      return null;
    };
    // `parentVisible`: a sized candidate encloses this element, so an inherited pointer cursor is not a new target.
    const visit = (el: Element, ctx: Ctx, parentSized: boolean) => {
      if (SKIP_TAGS.has(el.localName)) return;
      if (++visited > req.maxElements) { capped = true; return; }
      const st = styleOf(el);
      if (st.display === 'none' || st.opacity === '0') return;
      const g = enter(el, st, ctx);
      const kind = classify(el, st, parentSized);
      let parent = ctx.parent;
      let sized = parentSized;
      if (kind) {
        parent = out.length;
        byElement.set(el, parent);
        elements.push(el);
        const c: RawCandidate = { index: parent, parent: ctx.parent, role: kind.role, strong: kind.strong, name: nameOf(el, kind.role), part: g.part,
          visible: g.visible, hidden: st.visibility !== 'visible', point: null, ...statesOf(el) };
        if (el.localName === 'input' || el.localName === 'textarea') c.value = String((el as HTMLInputElement).value ?? '').slice(0, 200);
        out.push(c);
        sized = g.rect.width >= 2 && g.rect.height >= 2 && st.visibility === 'visible';
      }
      if (hasClass(el, PRUNE) || el.localName === 'svg') return;
      const doc = frameDoc(el);
      if (doc?.documentElement) {
        visit(doc.documentElement, frameCtx(el, st, g.rect, g.childClip, 'webview', parent), false);
        return;
      }
      const sub: Ctx = { ...ctx, clip: g.childClip, part: g.part, parent };
      for (const c of childrenOf(el)) visit(c, sub, sized);
    };
    visit(start, { ox: 0, oy: 0, clip: viewport, frame: viewport, part: 'workbench', parent: -1, shadowed: false }, false);

    // The focused element belongs to the nearest candidate that encloses it.
    for (let n: Node | null = deepActive(); n; n = composedParent(n)) {
      const i = byElement.get(n as Element);
      if (i !== undefined) { out[i].focused = true; break; }
    }
    // Hit-test the centre of the visible part, then four inner points: an element covered by a
    // menu's click shield or a dialog is not clickable even though it is laid out.
    out.forEach((c, i) => {
      const v = c.visible;
      if (!v || c.hidden || v.width < 2 || v.height < 2) return;
      const el = elements[i];
      const pts = [[0.5, 0.5], [0.25, 0.25], [0.75, 0.25], [0.25, 0.75], [0.75, 0.75]];
      for (const [fx, fy] of pts) {
        const x = Math.floor(v.x + v.width * fx);
        const y = Math.floor(v.y + v.height * fy);
        if (composedContains(el, deepHit(x + 0.5, y + 0.5))) { c.point = { x, y }; return; }
      }
    });
    return out;
  };

  // ---- tree: the compact DOM ---------------------------------------------------------------
  const buildTree = (start: Element): RawNode | null => {
    const focusEl = deepActive();
    const round = (r: PageRect): PageRect => ({ x: Math.round(r.x), y: Math.round(r.y), width: Math.round(r.width), height: Math.round(r.height) });
    const ownText = (el: Element): string => {
      let t = '';
      for (const n of Array.from(el.childNodes)) if (n.nodeType === Node.TEXT_NODE) t += ` ${n.nodeValue ?? ''}`;
      return clean(t, 200);
    };
    const attrsOf = (el: Element): Record<string, string> | undefined => {
      const a: Record<string, string> = {};
      let any = false;
      for (const at of Array.from(el.attributes)) {
        const n = at.name;
        const keep = (n.startsWith('aria-') && !['aria-label', 'aria-labelledby', 'aria-selected', 'aria-checked', 'aria-pressed', 'aria-expanded', 'aria-disabled'].includes(n))
          || n === 'href' || n === 'data-uri' || (n === 'type' && el.localName === 'input');
        if (keep) { a[n] = at.value.slice(0, 200); any = true; }
      }
      return any ? a : undefined;
    };
    const isTextOnly = (n: RawNode) => Object.keys(n).every((k) => k === 'tag' || k === 'text' || k === 'box');
    const build = (el: Element, ctx: Ctx): RawNode[] => {
      if (SKIP_TAGS.has(el.localName)) return [];
      if (++visited > req.maxElements) { capped = true; return []; }
      const st = styleOf(el);
      const notDisplayed = st.display === 'none' || st.opacity === '0';
      if (notDisplayed && !req.includeHidden) return [];
      const g = enter(el, st, ctx);
      const shown = !notDisplayed && st.visibility === 'visible' && !!g.visible && g.rect.width > 0 && g.rect.height > 0;
      const doc = frameDoc(el);
      const kids: RawNode[] = [];
      if (doc?.documentElement) kids.push(...build(doc.documentElement, frameCtx(el, st, g.rect, g.childClip, 'webview', -1)));
      else if (el.localName !== 'svg') for (const c of childrenOf(el)) kids.push(...build(c, { ...ctx, clip: g.childClip, part: g.part }));

      const role = explicitRole(el) || implicitRole(el);
      const name = clean(el.getAttribute('aria-label')) || labelledBy(el) || clean(el.getAttribute('title') ?? el.getAttribute('alt') ?? el.getAttribute('placeholder'));
      const node: RawNode = { tag: el.localName };
      if (role && role !== 'presentation' && role !== 'none') node.role = role;
      if (name) node.name = name;
      let text = ownText(el);
      if (kids.length && kids.every(isTextOnly)) {
        // innerText follows layout: code tokens (inline spans) join without spaces, lines and
        // blocks with a break, where joining the children's texts would do neither.
        text = clean((el as HTMLElement).innerText ?? kids.map((k) => k.text ?? '').join(' '), 200);
        kids.length = 0;
      }
      if (text) node.text = text;
      if (el.id) node.id = el.id.slice(0, 100);
      const cls = classOf(el);
      if (cls) node.class = cls.split(/\s+/).filter(Boolean).slice(0, 4).join(' ');
      if (g.rect.width > 0 || g.rect.height > 0) node.box = round(g.rect);
      if (!shown) node.hidden = true;
      if (focusEl === el) node.focused = true;
      if (el.localName === 'input' || el.localName === 'textarea' || el.localName === 'select') {
        node.value = String((el as HTMLInputElement).value ?? '').slice(0, 200);
      }
      Object.assign(node, statesOf(el));
      const attrs = attrsOf(el);
      if (attrs) node.attrs = attrs;
      if (!shown && !req.includeHidden && kids.length === 0) return [];
      const keep = !!(node.role || node.name || node.text || node.id || node.focused || node.value !== undefined || node.attrs
        || PART_HINT.test(cls) || implicitRole(el) || el.localName === 'iframe' || node.selected !== undefined
        || node.checked !== undefined || node.expanded !== undefined);
      if (!keep) return kids;
      if (!node.class || !PART_HINT.test(cls)) delete node.class;
      if (kids.length) node.children = kids;
      return [node];
    };
    const nodes = build(start, { ox: 0, oy: 0, clip: viewport, frame: viewport, part: 'workbench', parent: -1, shadowed: false });
    if (nodes.length === 1) return nodes[0];
    return nodes.length ? { tag: start.localName, children: nodes } : null;
  };

  // ---- focus -------------------------------------------------------------------------------
  const describeFocus = (): RawFocused | null => {
    const el = deepActive();
    if (!el) return null;
    const segs: string[] = [];
    let part = '';
    let x = 0;
    let y = 0;
    for (let n: Node | null = el; n; ) {
      const e = n as Element;
      if (e.nodeType === Node.ELEMENT_NODE) {
        part ||= partOf(e) ?? '';
        // Only ancestors that say where we are: an id, a role, a part class. The path is a
        // descendant selector (space-separated), valid CSS within each document.
        const cls = classOf(e);
        if (e === el || e.id || (explicitRole(e) && explicitRole(e) !== 'presentation') || PART_HINT.test(cls)) {
          const classes = cls.split(/\s+/).filter(Boolean).slice(0, 2).map((c) => `.${CSS.escape(c)}`).join('');
          segs.push(`${e.localName}${e.id ? `#${CSS.escape(e.id)}` : ''}${classes}`);
        }
      }
      const p = composedParent(n);
      const crossing = !!p && (n.parentNode?.nodeType === Node.DOCUMENT_FRAGMENT_NODE || (p as Element).localName === 'iframe');
      if (crossing) segs.push('>>');
      if ((p as Element | null)?.localName === 'iframe') {
        const fr = (p as Element).getBoundingClientRect();
        x += fr.x + (p as Element).clientLeft;
        y += fr.y + (p as Element).clientTop;
      }
      n = p;
    }
    const r = el.getBoundingClientRect();
    const path = segs.reverse().join(' ').replace(/^(>> )+|( >>)+$/g, '').replace(/( >>)+/g, ' >>');
    const out: RawFocused = {
      tag: el.localName,
      role: explicitRole(el) || implicitRole(el) || 'generic',
      text: nameOf(el, ''),
      box: r.width || r.height ? { x: r.x + x, y: r.y + y, width: r.width, height: r.height } : null,
      part: part || 'workbench',
      path,
    };
    if (el.localName === 'input' || el.localName === 'textarea') out.value = String((el as HTMLInputElement).value).slice(0, 500);
    // Single-line inputs built on the code editor (the Settings and keybindings searches): focus
    // is on the editor's hidden input area, which holds neither the text nor a label of its own
    // (only a screen-reader notice). The text is the editor's one line; the label its placeholder,
    // the element beside it, else the editor's model name.
    const editor = el.closest('.monaco-editor');
    if (editor && editor.getBoundingClientRect().height <= 40) {
      const line = editor.querySelector('.view-lines');
      out.value = (line?.textContent ?? '').replace(/\u00a0/g, ' ').slice(0, 500);
      const beside = Array.from(editor.parentElement?.children ?? []).find((c) => c !== editor && !c.contains(editor) && (c.textContent ?? '').trim());
      out.text = (beside?.textContent ?? '').trim().slice(0, 200) || editor.getAttribute('data-uri') || out.text;
    }
    return out;
  };

  const root = (req.selector ? document.querySelector(req.selector) : document.querySelector('.monaco-workbench')) ?? document.documentElement;
  if (req.mode === 'focused') return { view, capped, focused: describeFocus() };
  if (req.mode === 'tree') {
    if (req.selector && !document.querySelector(req.selector)) return { view, capped, tree: null };
    return { view, capped, tree: buildTree(root) };
  }
  return { view, capped, candidates: collectCandidates(document.documentElement) };
}
